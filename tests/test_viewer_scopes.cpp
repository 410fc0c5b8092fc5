// The scopes in a real window under Xvfb (validation on, both engines): `vhist CLIP --waveform on`
// with the scopes beside the video draws the waveform of the frame in the window's right column
// (a red | blue clip: luma 54 in the left half of the plot, 18 in the right half), and the video
// keeps the rest; over the video, the panel is blended over it and the video keeps its width.
// The plot's place comes from scope_layout.h for the window's size; the rows from the codes.
#include "test_clips.h"

#include "vhist/media/png.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_layout.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace vhist {
namespace {

namespace fs = std::filesystem;
using test::clip_dir;
using test::make_clip;

// 320x180, left half (255,0,0), right half (0,0,255), lossless: luma 54 (red) and 18 (blue).
std::string red_blue_clip() {
  return make_clip("scopes_red_blue.mkv",
                   "-f lavfi -i color=c=0xFF0000:s=160x180:r=25,format=gbrp "
                   "-f lavfi -i color=c=0x0000FF:s=160x180:r=25,format=gbrp "
                   "-filter_complex '[0:v][1:v]hstack=inputs=2' -frames:v 3 -c:v ffv1 -pix_fmt gbrp");
}

// A 640x360 screenshot of the clip with `settings` and `args`; fails the test when there is none.
media::RgbaImage shot_of(const std::string& name, const std::string& settings, const std::string& args,
                         const std::string& engine) {
  const fs::path dir = clip_dir() / ("scopes_" + name + "_" + engine);
  fs::create_directories(dir / "config" / "vhist");
  std::ofstream(dir / "config" / "vhist" / "settings.ini") << "timeline = false\n" << settings;
  const fs::path shot = dir / "shot.png";
  const std::string cmd = "cd '" + dir.string() + "' && VHIST_ENGINE=" + engine + " XDG_CONFIG_HOME='" +
                          (dir / "config").string() +
                          "' VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "'" +
                          std::string(VHIST_BINARY) + "' '" + red_blue_clip() + "' --size 640x360 --frames 8 " +
                          "--paused-at 0 " + args + " --screenshot '" + shot.string() + "' > '" +
                          (dir / "out.txt").string() + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << test::read_file(dir / "out.txt");
  if (!fs::exists(shot)) {
    ADD_FAILURE() << "no screenshot: " << test::read_file(dir / "out.txt");
    return {};
  }
  return media::read_png(shot.string());
}

constexpr const char* kSettings = "show_panel = false\nosd = false\nscope_colour = mono\nscope_gain = 16\n";

// The waveform's plot in a 640x360 window without the panel.
viewer::ScopePanel waveform_panel(viewer::ScopePlace place) {
  viewer::DrawStyle style;
  style.waveform = true;
  style.scope_place = place;
  style.area = {0, 0, 640, 360};
  style.ui_scale = viewer::picture_ui_scale(1.0f, 360.0f);
  return viewer::scope_panels(viewer::with_scope_layout(style, 640, 360)).at(0);
}

bool white(const media::RgbaImage& img, int x, int y) {
  const auto p = img.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
  return p[0] >= 250 && p[1] >= 250 && p[2] >= 250;
}

// Lit pixels of plot columns [x0, x1) within a row of code `code`'s row.
int lit_at_code(const media::RgbaImage& img, const std::array<float, 4>& plot, int x0, int x1, int code) {
  const double h = plot[3] - plot[1];
  const int row = static_cast<int>(std::floor(plot[3] - (code + 0.5) * h / 256));
  int n = 0;
  for (int y = row - 1; y <= row + 1; ++y) {
    for (int x = x0; x < x1; ++x) n += white(img, x, y);
  }
  return n;
}

class ViewerScopes : public ::testing::TestWithParam<const char*> {};

TEST_P(ViewerScopes, WaveformBesideTheVideo) {
  const auto img = shot_of("beside", kSettings, "--waveform on --scope-place beside", GetParam());
  ASSERT_EQ(img.width, 640u);
  const auto plot = waveform_panel(viewer::ScopePlace::beside).plot;
  const int x0 = static_cast<int>(plot[0]), x1 = static_cast<int>(plot[2]), mid = (x0 + x1) / 2;
  EXPECT_GT(lit_at_code(img, plot, x0, mid - 2, 54), 20) << "red's luma, left half";
  EXPECT_EQ(lit_at_code(img, plot, mid + 2, x1, 54), 0);
  EXPECT_GT(lit_at_code(img, plot, mid + 2, x1, 18), 20) << "blue's luma, right half";
  EXPECT_EQ(lit_at_code(img, plot, x0, mid - 2, 18), 0);
  // The video fills the picture's part left of the column: red at its left, blue at its right.
  const auto left = img.at(10, 150), right = img.at(static_cast<std::uint32_t>(plot[0]) - 30, 150);
  EXPECT_GT(left[0], 200);
  EXPECT_LT(left[2], 60);
  EXPECT_GT(right[2], 200);
  EXPECT_LT(right[0], 60);
}

TEST_P(ViewerScopes, OverTheVideoBlends) {
  const auto img = shot_of("over", kSettings + std::string("opacity = 0.5\n"), "--waveform on --scope-place over",
                           GetParam());
  ASSERT_EQ(img.width, 640u);
  const auto panel = waveform_panel(viewer::ScopePlace::over);
  // Inside the panel where nothing is drawn over the background: half the video's red over
  // the panel's near-black; the video itself keeps the whole width (blue at the right edge).
  const auto p = img.at(static_cast<std::uint32_t>(panel.plot[0]) + 40, static_cast<std::uint32_t>(panel.plot[1]) + 3);
  EXPECT_GT(p[0], 100);
  EXPECT_LT(p[0], 160);
  const auto edge = img.at(636, 200);
  EXPECT_GT(edge[2], 200);
}

// The parade in its channels' colours as the window shows them (a B8G8R8A8 swapchain too): the
// R' part's trace of the red half (R' 255) is red, the B' part's of the blue half (B' 255) blue.
TEST_P(ViewerScopes, ParadeInItsColours) {
  const auto img = shot_of("parade", "show_panel = false\nosd = false\nscope_gain = 16\n", "--parade on", GetParam());
  ASSERT_EQ(img.width, 640u);
  viewer::DrawStyle style;
  style.parade = true;
  style.area = {0, 0, 640, 360};
  style.ui_scale = viewer::picture_ui_scale(1.0f, 360.0f);
  const auto panel = viewer::scope_panels(viewer::with_scope_layout(style, 640, 360)).at(0);
  const double h = panel.plot[3] - panel.plot[1];
  const int row = static_cast<int>(std::floor(panel.plot[3] - 255.5 * h / 256));
  const auto count = [&](int part, bool red) {
    const int x0 = static_cast<int>(panel.plot[0] + part * (panel.part + panel.gap));
    int n = 0;
    for (int y = row - 1; y <= row + 1; ++y) {
      for (int x = x0; x < x0 + static_cast<int>(panel.part); ++x) {
        const auto p = img.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
        n += red ? (p[0] > 200 && p[2] < 150) : (p[2] > 200 && p[0] < 150);
      }
    }
    return n;
  };
  EXPECT_GT(count(0, true), 10) << "R' part: no red trace at 255";
  EXPECT_GT(count(2, false), 10) << "B' part: no blue trace at 255";
  EXPECT_EQ(count(0, false), 0) << "R' part drawn blue";
}

// The collapsed panel's tab (the "<" button) sits at the picture's top right, clear of every
// scope panel, at the window sizes the viewer supports and in each place: placed by its left
// edge, the window ImGui sized for it covered the waveform's first columns beside the picture at
// 1280x720 and 1920x1080, and over the picture it covered the vectorscope's corner. Where it
// went is the state line's "panel tab x0,y0-x1,y1" (window pixels, as ImGui laid it out).
TEST(ViewerScopes, PanelTabLeavesTheScopesUncovered) {
  for (const auto& [w, h] : {std::array<int, 2>{640, 360}, {1280, 720}, {1920, 1080}}) {
    for (viewer::ScopePlace place : {viewer::ScopePlace::beside, viewer::ScopePlace::under, viewer::ScopePlace::over}) {
      const std::string where = std::string(place == viewer::ScopePlace::beside ? "beside"
                                            : place == viewer::ScopePlace::under ? "under"
                                                                                 : "over");
      const std::string size = std::to_string(w) + "x" + std::to_string(h);
      const fs::path dir = clip_dir() / ("scopes_tab_" + size + "_" + where);
      fs::create_directories(dir / "config" / "vhist");
      std::ofstream(dir / "config" / "vhist" / "settings.ini") << "timeline = false\n" << kSettings;
      const std::string cmd = "cd '" + dir.string() + "' && XDG_CONFIG_HOME='" + (dir / "config").string() +
                              "' VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "'" +
                              std::string(VHIST_BINARY) + "' '" + red_blue_clip() + "' --size " + size +
                              " --frames 3 --paused-at 0 --scopes all --scope-place " + where + " > '" +
                              (dir / "out.txt").string() + "' 2>&1";
      ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << test::read_file(dir / "out.txt");
      const std::string out = test::read_file(dir / "out.txt");
      float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
      const auto at = out.find("panel tab ");
      ASSERT_NE(at, std::string::npos) << out;
      ASSERT_EQ(std::sscanf(out.c_str() + at, "panel tab %f,%f-%f,%f", &x0, &y0, &x1, &y1), 4) << out;
      viewer::DrawStyle style;
      style.waveform = style.parade = style.vectorscope = true;
      style.scope_place = place;
      style.area = {0, 0, static_cast<float>(w), static_cast<float>(h)};
      style.ui_scale = viewer::picture_ui_scale(1.0f, static_cast<float>(h));
      const auto laid = viewer::with_scope_layout(style, static_cast<float>(w), static_cast<float>(h));
      const std::string what = size + " " + where + ": " + out.substr(at);
      EXPECT_GT(x1 - x0, 10.0f) << what;  // a tab was drawn
      EXPECT_LE(x1, laid.area[2]) << what;  // inside the picture's part
      EXPECT_GE(x0, 0.0f) << what;
      EXPECT_LE(y1, static_cast<float>(h)) << what;
      for (const auto& p : viewer::scope_panels(laid)) {
        const bool apart = x1 <= p.rect[0] || x0 >= p.rect[2] || y1 <= p.rect[1] || y0 >= p.rect[3];
        EXPECT_TRUE(apart) << what << " covers the panel " << p.rect[0] << "," << p.rect[1] << "-" << p.rect[2]
                           << "," << p.rect[3];
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ViewerScopes, ::testing::Values("gpu", "cpu"));

}  // namespace
}  // namespace vhist
