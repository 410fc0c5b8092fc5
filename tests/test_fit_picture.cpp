// The fit modes drawn, headless, by the compute composite: a frame with a one-pixel blue border round a ramp (R = 4 x column, G = 100, B = 0)
// shows all four borders when fitted, upright or turned and at its sample aspect; cover shows the
// columns its scale leaves in view; 1:1 shows each stored pixel on one target pixel, panned. The
// expected places are worked out from the sizes in the comments, not from place_video().
#include "gpu_test_env.h"
#include "picture_draw.h"

#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/offscreen.h"
#include "vhist/picture/video_fit.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace vhist {
namespace {

using Rgb = std::array<int, 3>;

class FitPictureTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {};

SyntheticVideoFrame bordered_ramp(std::uint32_t w, std::uint32_t h) {
  return pattern_frame(w, h, [w, h](std::uint32_t x, std::uint32_t y) {
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) return Rgb{0, 0, 255};
    return Rgb{static_cast<int>(std::min<std::uint32_t>(4 * x, 255)), 100, 0};
  });
}

viewer::DrawStyle video_only(viewer::FitMode fit) {
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  style.fit = fit;
  return style;
}

bool is_black(const Rgb& p) { return p[0] + p[1] + p[2] <= 6; }
bool is_border(const Rgb& p) { return p[2] >= 128 && p[2] > p[0] && p[2] > p[1]; }

// Along row `y` (or column `x`), the first and the last pixel that is not black: both must be the
// border's blue, with black outside them where `bars` (a letterbox or pillarbox on that axis).
void expect_borders(const std::vector<std::uint8_t>& pixels, VkExtent2D extent, bool along_row, int fixed,
                    const std::string& what) {
  const int n = static_cast<int>(along_row ? extent.width : extent.height);
  const auto at = [&](int i) {
    return along_row ? rgb_at(pixels, extent.width, i, fixed) : rgb_at(pixels, extent.width, fixed, i);
  };
  int first = -1, last = -1;
  for (int i = 0; i < n; ++i) {
    if (is_black(at(i))) continue;
    if (first < 0) first = i;
    last = i;
  }
  ASSERT_GE(first, 0) << what << ": nothing drawn";
  const Rgb a = at(first), b = at(last);
  EXPECT_TRUE(is_border(a)) << what << ": first pixel " << first << " is (" << a[0] << "," << a[1] << "," << a[2] << ")";
  EXPECT_TRUE(is_border(b)) << what << ": last pixel " << last << " is (" << b[0] << "," << b[1] << "," << b[2] << ")";
}

// Fit: 64x36 in 160x160 is 160x90 at y 35..125 (letterboxed); turned 90 (shown 36x64) in 160x90
// it is 50.6x90 at x 54.7..105.3 (pillarboxed); 90x64 at 64:45 (shown 128x64) in 160x160 is
// 160x80 at y 40..120. Each: the four borders are the outermost drawn pixels, black beyond.
TEST_P(FitPictureTest, FitShowsAllFourBorders) {
  struct Case {
    std::uint32_t w, h, rotation, sar_num, sar_den;
    VkExtent2D extent;
    std::array<int, 2> video_y;  // the drawn rows
    const char* what;
  };
  for (const Case& c : {Case{64, 36, 0, 1, 1, {160, 160}, {35, 125}, "16:9"},
                        Case{64, 36, 90, 1, 1, {160, 90}, {0, 90}, "portrait"},
                        Case{90, 64, 0, 64, 45, {160, 160}, {40, 120}, "anamorphic"}}) {
    SyntheticVideoFrame frame = bordered_ramp(c.w, c.h);
    frame.format.rotation = c.rotation;
    frame.format.sar_num = c.sar_num;
    frame.format.sar_den = c.sar_den;
    viewer::OffscreenTarget target(context(), c.extent);
    viewer::FrameRenderer renderer(context(), GetParam() ? Engine::cpu : Engine::gpu);
    const std::string what = c.what;
    const auto pixels = draw_once(context(), renderer, target, frame, video_only(viewer::FitMode::fit));
    const int cx = static_cast<int>(c.extent.width) / 2, cy = (c.video_y[0] + c.video_y[1]) / 2;
    expect_borders(pixels, c.extent, true, cy, what + ", middle row");
    expect_borders(pixels, c.extent, false, cx, what + ", middle column");
    // The bars: black above and below the video rows (none for the pillarboxed portrait's rows).
    if (c.video_y[0] > 1) {
      EXPECT_TRUE(is_black(rgb_at(pixels, c.extent.width, cx, c.video_y[0] - 2))) << what << ": top bar";
      EXPECT_TRUE(is_black(rgb_at(pixels, c.extent.width, cx, c.video_y[1] + 1))) << what << ": bottom bar";
      EXPECT_TRUE(is_border(rgb_at(pixels, c.extent.width, cx, c.video_y[0]))) << what << ": top border row";
      EXPECT_TRUE(is_border(rgb_at(pixels, c.extent.width, cx, c.video_y[1] - 1))) << what << ": bottom border row";
    } else {
      EXPECT_TRUE(is_black(rgb_at(pixels, c.extent.width, 50, cy))) << what << ": left bar";
      EXPECT_TRUE(is_black(rgb_at(pixels, c.extent.width, 110, cy))) << what << ": right bar";
    }
  }
}

// Cover: 64x36 in 160x160 scales by 160 / 36 = 4.44 to 284.4 wide, 43.75% of its width hidden:
// target column x shows stored column u = 32 + (x + 0.5 - 80) / 4.44 - 0.5, so the left edge
// shows column 13.6 (R about 4u) and the side borders are cropped away; the top and bottom
// borders stay.
TEST_P(FitPictureTest, CoverHidesTheSidesItCrops) {
  const SyntheticVideoFrame frame = bordered_ramp(64, 36);
  const VkExtent2D extent{160, 160};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), GetParam() ? Engine::cpu : Engine::gpu);
  const std::string what = "cover";
  const auto pixels = draw_once(context(), renderer, target, frame, video_only(viewer::FitMode::cover));
  for (const int x : {0, 1, 40, 80, 120, 158, 159}) {
    const double u = 32 + (x + 0.5 - 80) / (160.0 / 36) - 0.5;
    const Rgb p = rgb_at(pixels, extent.width, x, 80);
    EXPECT_NEAR(p[0], 4 * u, 3.0) << what << ", column " << x;
    EXPECT_FALSE(is_border(p)) << what << ", column " << x;
  }
  EXPECT_TRUE(is_border(rgb_at(pixels, extent.width, 80, 0))) << what << ": top border";
  EXPECT_TRUE(is_border(rgb_at(pixels, extent.width, 80, 159))) << what << ": bottom border";
}

// 1:1: 64x36 in 48x48 sits at x -8..56, y 6..42 (whole pixels): target (x, y) shows stored
// (x + 8, y - 6) exactly, R = 4 (x + 8). Panned by (100, 0) it is held at x 0..64: the left border
// shows at column 0.
TEST_P(FitPictureTest, OneToOneShowsEachPixelOnce) {
  const SyntheticVideoFrame frame = bordered_ramp(64, 36);
  const VkExtent2D extent{48, 48};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), GetParam() ? Engine::cpu : Engine::gpu);
  const std::string what = "1:1";
  viewer::DrawStyle style = video_only(viewer::FitMode::actual);
  auto pixels = draw_once(context(), renderer, target, frame, style);
  for (int x = 0; x < 48; ++x) {
    EXPECT_EQ(rgb_at(pixels, extent.width, x, 20), (Rgb{4 * (x + 8), 100, 0})) << what << ", column " << x;
  }
  EXPECT_TRUE(is_black(rgb_at(pixels, extent.width, 20, 5))) << what << ": above the frame";
  EXPECT_TRUE(is_border(rgb_at(pixels, extent.width, 20, 6))) << what << ": top border";
  EXPECT_TRUE(is_border(rgb_at(pixels, extent.width, 20, 41))) << what << ": bottom border";
  EXPECT_TRUE(is_black(rgb_at(pixels, extent.width, 20, 42))) << what << ": below the frame";
  style.pan = {100, 0};
  pixels = draw_once(context(), renderer, target, frame, style);
  EXPECT_TRUE(is_border(rgb_at(pixels, extent.width, 0, 20))) << what << ": panned, left border";
  EXPECT_EQ(rgb_at(pixels, extent.width, 1, 20), (Rgb{4, 100, 0})) << what << ": panned, column 1";
}

INSTANTIATE_TEST_SUITE_P(Engines, FitPictureTest, ::testing::Values(false, true),
                         [](const auto& p) { return std::string(p.param ? "cpu_engine" : "gpu_engine"); });

}  // namespace
}  // namespace vhist
