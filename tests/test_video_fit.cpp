// The fit modes' geometry (video_fit.h), without a GPU: where the upright video goes in the
// picture's area, how much of it each mode hides, when auto covers, and the pointer's mapping to
// stored pixels in every mode, rotation and sample aspect ratio included. The expected numbers
// are worked out by hand in the comments from the sizes (the panel's width is the user guide's
// clamp(0.28 W, 260, 420)).
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/video_fit.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace vhist::viewer {
namespace {

// The viewer at 1280x720 with the panel shown: 1280 - 0.28 x 1280 = 921.6, rounded to 922.
DrawStyle beside_panel(FitMode fit) {
  DrawStyle style;
  style.area = {0, 0, 921.6f, 720};
  style.fit = fit;
  return style;
}

void expect_rect(const std::array<float, 4>& got, const std::array<float, 4>& want, const char* what) {
  for (std::size_t k = 0; k < 4; ++k) EXPECT_NEAR(got[k], want[k], 0.05f) << what << ", corner value " << k;
}

// A 1920x1080 clip beside the panel (area 922x720). Cover: height 720, scale 2/3, width 1280,
// so 1 - 922 / 1280 = 28% of the width is hidden (the figure). Fit: width 922, scale
// 922 / 1920, height 518.625, letterboxed at y = 360 -+ 259.3125. Auto: 28% > 5%, so fit.
TEST(VideoFit, WideClipBesideThePanel) {
  const VideoPlacement cover = place_video(beside_panel(FitMode::cover), 1280, 720, 1920, 1080);
  EXPECT_EQ(cover.mode, FitMode::cover);
  expect_rect(cover.rect, {461 - 640, 0, 461 + 640, 720}, "cover");
  EXPECT_NEAR(cover.hidden[0], 1 - 922.0 / 1280, 1e-5);
  EXPECT_NEAR(cover.hidden[1], 0, 1e-6);
  EXPECT_EQ(hidden_note(cover, false), "cover: 28% of the width hidden; the histograms count the whole frame");
  EXPECT_EQ(hidden_note(cover, true), "cover: 28% of the width hidden; the histograms count the region");

  const VideoPlacement fit = place_video(beside_panel(FitMode::fit), 1280, 720, 1920, 1080);
  EXPECT_EQ(fit.mode, FitMode::fit);
  expect_rect(fit.rect, {0, 360 - 259.3125f, 922, 360 + 259.3125f}, "fit");
  EXPECT_EQ(fit.hidden, (std::array<float, 2>{0, 0}));
  EXPECT_EQ(hidden_note(fit, false), "");

  const VideoPlacement automatic = place_video(beside_panel(FitMode::automatic), 1280, 720, 1920, 1080);
  EXPECT_EQ(automatic.mode, FitMode::fit);
  EXPECT_EQ(automatic.rect, fit.rect);
  EXPECT_EQ(fit_message(FitMode::automatic, automatic, false), "Fit: auto (fit), the whole picture shown");
  EXPECT_EQ(fit_message(FitMode::cover, cover, false),
            "Fit: cover, 28% of the width hidden; the histograms count the whole frame");
  // The whole window (panel hidden) has the clip's shape: auto covers, hiding nothing.
  DrawStyle whole;
  whole.fit = FitMode::automatic;
  const VideoPlacement full = place_video(whole, 1280, 720, 1920, 1080);
  EXPECT_EQ(full.mode, FitMode::cover);
  expect_rect(full.rect, {0, 0, 1280, 720}, "whole window");
  EXPECT_EQ(hidden_note(full, false), "");
}

// A phone clip, stored 1920x1080 and turned 90 degrees: shown 1080x1920. Cover in 922x720:
// scale 922 / 1080, height 1639.1, 1 - 720 / 1639.1 = 56% of the height hidden (the issue's
// "shows 44% of its height"). Fit: scale 720 / 1920 = 0.375, 405 wide, centred at x = 461.
TEST(VideoFit, PortraitClipIsPillarboxed) {
  const VideoPlacement cover = place_video(beside_panel(FitMode::cover), 1280, 720, 1080, 1920);
  EXPECT_NEAR(cover.hidden[1], 1 - 720.0 / (1920.0 * 922 / 1080), 1e-5);
  EXPECT_EQ(hidden_note(cover, false), "cover: 56% of the height hidden; the histograms count the whole frame");
  const VideoPlacement automatic = place_video(beside_panel(FitMode::automatic), 1280, 720, 1080, 1920);
  EXPECT_EQ(automatic.mode, FitMode::fit);
  expect_rect(automatic.rect, {461 - 202.5f, 0, 461 + 202.5f, 720}, "fit");
  // A point on a pillarbox bar is no pixel; one just inside the picture's left edge is the
  // shown top-left pixel, which is the stored frame's bottom-left (column 0, row 1079).
  const PictureShape phone{90, 1080, 1920, 1920, 1080};
  const DrawStyle style = beside_panel(FitMode::automatic);
  EXPECT_FALSE(stored_pixel_at(style, 1280, 720, phone, 100, 300).has_value());
  EXPECT_FALSE(stored_pixel_at(style, 1280, 720, phone, 258.4f, 300).has_value());
  EXPECT_EQ(stored_pixel_at(style, 1280, 720, phone, 258.6f, 0.2f), (std::array<std::uint32_t, 2>{0, 1079}));
  EXPECT_EQ(stored_pixel_at(style, 1280, 720, phone, 663.4f, 0.2f), (std::array<std::uint32_t, 2>{0, 0}));
}

// Anamorphic PAL, 720x576 at 64:45: shown 1024x576. In a 1024-wide area of height H the cover
// scale is H / 576 and hides 1 - 576 / H of the width: 4.79% at H = 605 (auto covers), 5.11% at
// H = 607 (auto fits); at 577, 0.17%: "under 1%".
TEST(VideoFit, AutoCoversOnlyUpToFivePercent) {
  EXPECT_FLOAT_EQ(kAutoCoverMaxHidden, 0.05f);
  DrawStyle style;
  style.fit = FitMode::automatic;
  VideoPlacement p = place_video(style, 1024, 605, 1024, 576);
  EXPECT_EQ(p.mode, FitMode::cover);
  EXPECT_NEAR(p.hidden[0], 1 - 576.0 / 605, 1e-5);
  EXPECT_EQ(hidden_note(p, false), "cover: 5% of the width hidden; the histograms count the whole frame");
  p = place_video(style, 1024, 607, 1024, 576);
  EXPECT_EQ(p.mode, FitMode::fit);
  expect_rect(p.rect, {0, 303.5f - 288, 1024, 303.5f + 288}, "fit");
  p = place_video(style, 1024, 577, 1024, 576);
  EXPECT_EQ(p.mode, FitMode::cover);
  EXPECT_EQ(hidden_note(p, false), "cover: under 1% of the width hidden; the histograms count the whole frame");
  // Fit keeps the display aspect, not the stored one: 1024x576 in 512x512 is 512x288.
  style.fit = FitMode::fit;
  expect_rect(place_video(style, 512, 512, 1024, 576).rect, {0, 112, 512, 400}, "anamorphic fit");
}

// 1:1: one frame pixel per target pixel, centred, moved by the pan but never past an edge it
// overflows. A 640x360 frame in a 320x240 target: at x -160..480, y -60..300; half the width
// and a third of the height hidden. A pan of (1000, -5) is held at x 160 (the overflow's half).
TEST(VideoFit, OneToOnePansWithinTheOverflow) {
  DrawStyle style;
  style.fit = FitMode::actual;
  VideoPlacement p = place_video(style, 320, 240, 640, 360);
  EXPECT_EQ(p.mode, FitMode::actual);
  EXPECT_EQ(p.rect, (std::array<float, 4>{-160, -60, 480, 300}));
  EXPECT_FLOAT_EQ(p.hidden[0], 0.5f);
  EXPECT_NEAR(p.hidden[1], 1.0 / 3, 1e-6);
  EXPECT_NEAR(hidden_share(p), 1 - 0.5 * (2.0 / 3), 1e-6);
  EXPECT_EQ(hidden_note(p, false),
            "1:1: 50% of the width and 33% of the height hidden; the histograms count the whole frame");
  style.pan = {1000, -5};
  p = place_video(style, 320, 240, 640, 360);
  EXPECT_EQ(p.pan, (std::array<float, 2>{160, -5}));
  EXPECT_EQ(p.rect, (std::array<float, 4>{0, -65, 640, 295}));
  const PictureShape shape{0, 640, 360, 640, 360};
  EXPECT_EQ(stored_pixel_at(style, 320, 240, shape, 0.5f, 0.5f), (std::array<std::uint32_t, 2>{0, 65}));
  EXPECT_EQ(stored_pixel_at(style, 320, 240, shape, 319.5f, 239.5f), (std::array<std::uint32_t, 2>{319, 304}));
  // A frame smaller than the target: centred on whole pixels, the pan ignored, nothing hidden.
  style.pan = {50, 50};
  p = place_video(style, 320, 240, 101, 50);
  EXPECT_EQ(p.rect, (std::array<float, 4>{110, 95, 211, 145}));  // round(160 - 50.5) = 110 (ties away from zero)
  EXPECT_EQ(hidden_note(p, false), "");
}

// Every mode, rotation and sample aspect: the centre of each stored pixel's target rectangle
// maps back to that stored pixel (the pin's mark and the region's outline sit on the pixels the
// pointer picks), and the corners of the whole frame's rectangle are the placement's.
TEST(VideoFit, PointerAndMarksRoundTripInEveryMode) {
  struct Case {
    PictureShape shape;
    const char* what;
  };
  const Case cases[] = {{{0, 64, 36, 64, 36}, "16:9"},
                        {{90, 36, 64, 64, 36}, "portrait (rotated 90)"},
                        {{270, 36, 64, 64, 36}, "rotated 270"},
                        {{0, 64, 36, 45, 36}, "anamorphic 64:45"}};
  for (const FitMode mode : {FitMode::fit, FitMode::cover, FitMode::actual, FitMode::automatic}) {
    for (const Case& c : cases) {
      DrawStyle style;
      style.area = {10, 5, 150, 85};  // 140x80
      style.fit = mode;
      style.pan = {7, -3};
      const auto placement = place_video(style, 200, 100, c.shape.shown_w, c.shape.shown_h);
      const std::string what = std::string(fit_name(mode)) + ", " + c.what;
      expect_rect(target_rect_of(style, 200, 100, c.shape, {0, 0, c.shape.stored_w, c.shape.stored_h}), placement.rect,
                  what.c_str());
      int checked = 0;
      for (std::uint32_t y = 0; y < c.shape.stored_h; y += 5) {
        for (std::uint32_t x = 0; x < c.shape.stored_w; x += 3) {
          const auto r = target_rect_of(style, 200, 100, c.shape, {x, y, 1, 1});
          const float cx = (r[0] + r[2]) / 2, cy = (r[1] + r[3]) / 2;
          if (cx < 10 || cx >= 150 || cy < 5 || cy >= 85) continue;  // hidden by the crop
          ++checked;
          EXPECT_EQ(stored_pixel_at(style, 200, 100, c.shape, cx, cy), (std::array<std::uint32_t, 2>{x, y}))
              << what << " at " << cx << "," << cy;
        }
      }
      EXPECT_GT(checked, 20) << what;
    }
  }
}

}  // namespace
}  // namespace vhist::viewer
