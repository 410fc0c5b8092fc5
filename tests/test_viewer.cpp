// The viewer window end to end: `vhist CLIP --frames N --screenshot shot.png` run as a process
// under Xvfb (lavapipe, validation on), the screenshot read back and checked pixel by pixel
// against what a person should see: the histogram quads where layout_quads puts them, in the
// palette's colours for the bins the clip fills, and the video cover-fitted around them.
//
// The clips are lossless (ffv1) flat colours, so their histograms are known exactly: with
// `bins = 16` every occupied bin is a full-height column (scale auto) and every other bin is the
// black background (opacity 1). Pixels are sampled at the centres of bins and regions, a few
// pixels away from any edge, with a tolerance of 2 for rounding.
#include "test_clips.h"

#include "vhist/media/png.h"
#include "vhist/picture/picture_geometry.h"

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <array>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace vhist {
namespace {

namespace fs = std::filesystem;
using test::clip_dir;
using test::make_clip;
using test::ycbcr_tags;
using test::ycbcr_vf;
using test::read_file;

using Rgb = std::array<int, 3>;
constexpr Rgb kBlack{0, 0, 0}, kRed{255, 0, 0}, kGreen{0, 255, 0}, kBlue{0, 0, 255}, kYellow{255, 255, 0},
    kMagenta{255, 0, 255}, kCyan{0, 255, 255}, kGrey{128, 128, 128}, kWhite{255, 255, 255};

std::string describe(const Rgb& c) {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

// --- running the viewer ----------------------------------------------------------------------

// Settings for pixel checks: no panel over the picture, an opaque histogram background, 16 bins.
constexpr const char* kPixelSettings =
    "show_panel = false\n"
    "osd = false\n"
    "bins = 16\n"
    "opacity = 1.0\n"
    "palette = classic\n"
    "scale = auto\n"
    "layout = split\n";

struct ViewerRun {
  int status = -1;
  std::string err;
  std::string command;
  bool has_shot = false;
  media::RgbaImage shot;
  fs::path dir;
};

using test::quote;

// Runs `vhist ARGS --screenshot DIR/shot.png` under its own Xvfb server, with validation on and
// XDG_CONFIG_HOME pointing at a fresh folder holding `settings` as vhist/settings.ini. `env` is
// prepended to the command (e.g. "VHIST_ENGINE=gpu").
ViewerRun run_viewer(const std::string& settings, const std::string& args, const std::string& env = "") {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "run";
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)) && c != '.'; }, '_');
  ViewerRun r;
  r.dir = clip_dir() / (name + "-" + std::to_string(counter++));
  fs::create_directories(r.dir / "config" / "vhist");
  {
    std::ofstream out(r.dir / "config" / "vhist" / "settings.ini", std::ios::binary);
    // The timeline (issue 28) has tests of its own (test_viewer_timeline.cpp): off here, so that
    // the picture has the whole window and no background scan runs beside the run.
    out << "timeline = false\n" << settings;
  }
  const fs::path shot = r.dir / "shot.png", out = r.dir / "stdout.txt", err = r.dir / "stderr.txt";
  r.command = "cd " + quote(r.dir.string()) + " && " + env + " XDG_CONFIG_HOME=" + quote((r.dir / "config").string()) +
              " VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "timeout -k 10 180 " +
              quote(VHIST_BINARY) + " " + args + " --screenshot " + quote(shot.string()) + " > " + quote(out.string()) +
              " 2> " + quote(err.string());
  std::error_code ec;
  fs::remove(shot, ec);
  const int raw = std::system(r.command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = read_file(err);
  if (fs::exists(shot)) {
    try {
      r.shot = media::read_png(shot.string());
      r.has_shot = true;
    } catch (const std::exception& e) {
      r.err += "\n[test] cannot read the screenshot: " + std::string(e.what());
    }
  }
  return r;
}

// The command and what it printed on stderr, for failure messages.
std::string context(const ViewerRun& r) { return "command: " + r.command + "\nstderr:\n" + r.err; }

// --- looking at the screenshot ---------------------------------------------------------------

Rgb pixel(const media::RgbaImage& img, int x, int y) {
  const auto p = img.at(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
  return {p[0], p[1], p[2]};
}

::testing::AssertionResult colour_at(const media::RgbaImage& img, int x, int y, const Rgb& want, int tolerance,
                                     const std::string& what) {
  if (x < 0 || y < 0 || x >= static_cast<int>(img.width) || y >= static_cast<int>(img.height)) {
    return ::testing::AssertionFailure() << what << ": (" << x << "," << y << ") is outside the " << img.width << "x"
                                         << img.height << " screenshot";
  }
  const Rgb got = pixel(img, x, y);
  for (int c = 0; c < 3; ++c) {
    if (std::abs(got[static_cast<std::size_t>(c)] - want[static_cast<std::size_t>(c)]) > tolerance) {
      return ::testing::AssertionFailure() << what << ": pixel (" << x << "," << y << ") is " << describe(got)
                                           << ", expected " << describe(want) << " ±" << tolerance;
    }
  }
  return ::testing::AssertionSuccess();
}

// A histogram quad in window pixels (y down), as layout_quads places it.
struct Rect {
  float x0, y0, x1, y1;
};

// Where a panel's bars are (the user guide's rule, at text scale 1 as under Xvfb): below a 10 px
// header strip and above a 13 px axis strip; the header only in a panel at least 3 x 23 px tall,
// the axis only in one at least 3 x 13 px tall.
Rect bars_of(Rect r) {
  const float height = r.y1 - r.y0;
  if (height >= 3 * (10 + 13)) r.y0 = std::round(r.y0) + 10;
  if (height >= 3 * 13) r.y1 = std::round(r.y1) - 13;
  return r;
}
// The collapsed panel's tab: a small button at the picture's top right corner (user guide), over
// the video when the panel is hidden; pixel checks of the video skip it.
bool in_panel_tab(int w, int x, int y) { return x >= w - 40 && y < 40; }
// The note that says what a crop hides (cover, 1:1): amber text on a dark box at the picture's
// top right, wrapped at 60% of its width, below the tab (top at 32 pixels or 2% of the height
// plus a line and 10); three lines at most at the sizes tested. Pixel checks of the video skip it.
bool in_fit_note(int w, int h, int x, int y) {
  return x >= 0.4 * w - 20 && y < std::max(32.0, 0.02 * h + 23) + 50;
}

Rect split_rgb(float w, float h) { return bars_of({0.025f * w, h - 0.025f * h - 0.25f * h, 0.475f * w, h - 0.025f * h}); }
Rect split_luma(float w, float h) {
  return bars_of({w - 0.475f * w, h - 0.025f * h - 0.25f * h, w - 0.025f * w, h - 0.025f * h});
}
Rect overlay_quad(float w, float h) {
  return bars_of({0.025f * w, h - 0.025f * h - 0.25f * h, 0.975f * w, h - 0.025f * h});
}
// The k-th band of the stacked layout counted from the bottom (0 = the lowest channel drawn).
Rect stacked_band(float w, float h, int k) {
  const float band = 0.12f * h, gap = 0.01f * h;
  const float y1 = h - 0.025f * h - static_cast<float>(k) * (band + gap);
  return bars_of({0.025f * w, y1 - band, 0.475f * w, y1});
}

constexpr int kBins = 16;

// Checks each bin's column of `quad` at three heights (near the top, the middle, near the bottom;
// 3 pixels in from the quad's edges; without `bottom`, only the first two): `expected[b]` in
// column b. With bins = 16 and two flat colours every occupied bin is a full-height bar, so a
// column is one colour top to bottom.
// The clip markers (user guide, "Clipping on the histograms") cover the bars' top corners, up to
// legs of 40% of the bars' height (at least 6 + 6 pixels): a column under one is checked "near
// the top" just below the largest marker instead.
int below_clip_markers(const Rect& q, int x, int y) {
  const float h = q.y1 - q.y0, largest = std::max(0.4f * h, std::max(6.0f, 0.05f * h) + 6.0f);
  const float dx = std::min(static_cast<float>(x) + 0.5f - q.x0, q.x1 - static_cast<float>(x) - 0.5f);
  const float dy = static_cast<float>(y) + 0.5f - q.y0;
  return dx + dy < largest ? static_cast<int>(std::ceil(q.y0 + largest - dx)) + 1 : y;
}

void expect_bins(const media::RgbaImage& img, const Rect& q, const std::array<Rgb, kBins>& expected,
                 const std::string& what, bool bottom = true) {
  const float width = (q.x1 - q.x0) / kBins;
  for (int b = 0; b < kBins; ++b) {
    const int x = static_cast<int>(std::floor(q.x0 + (static_cast<float>(b) + 0.5f) * width));
    std::vector<int> rows = {below_clip_markers(q, x, static_cast<int>(std::ceil(q.y0)) + 3),
                             static_cast<int>(std::floor((q.y0 + q.y1) / 2))};
    if (bottom) rows.push_back(static_cast<int>(std::floor(q.y1)) - 4);
    for (const int y : rows) {
      EXPECT_TRUE(colour_at(img, x, y, expected[static_cast<std::size_t>(b)], 2,
                            what + " bin " + std::to_string(b) + " row " + std::to_string(y)));
    }
  }
}

// `fill` in every bin, with the exceptions given.
std::array<Rgb, kBins> bins_of(const Rgb& fill, std::initializer_list<std::pair<int, Rgb>> except) {
  std::array<Rgb, kBins> bins;
  bins.fill(fill);
  for (const auto& [b, c] : except) bins[static_cast<std::size_t>(b)] = c;
  return bins;
}

// The centre pixel of `q`'s bin `b` (for checks that the video shows through where no quad is).
std::array<int, 2> bin_centre(const Rect& q, int b) {
  const float width = (q.x1 - q.x0) / kBins;
  return {static_cast<int>(std::floor(q.x0 + (static_cast<float>(b) + 0.5f) * width)),
          static_cast<int>(std::floor((q.y0 + q.y1) / 2))};
}

// Keeps a copy of the screenshot where a person can look at it: in the temporary folder when a
// check of the test failed, or in $VHIST_TEST_KEEP, when set, always. Declared right after the
// run, so that it also acts when an ASSERT returns early.
class KeepScreenshot {
 public:
  explicit KeepScreenshot(const ViewerRun& run) : run_(run) {}
  ~KeepScreenshot() {
    const char* keep = std::getenv("VHIST_TEST_KEEP");
    if (!fs::exists(run_.dir / "shot.png") || (!keep && !::testing::Test::HasFailure())) return;
    const fs::path dest = fs::path(keep ? keep : fs::temp_directory_path().string()) / (run_.dir.filename().string() + ".png");
    std::error_code ec;
    fs::copy_file(run_.dir / "shot.png", dest, fs::copy_options::overwrite_existing, ec);
    if (!ec && ::testing::Test::HasFailure()) std::fprintf(stderr, "[test] screenshot kept as %s\n", dest.c_str());
  }
  KeepScreenshot(const KeepScreenshot&) = delete;
  KeepScreenshot& operator=(const KeepScreenshot&) = delete;

 private:
  const ViewerRun& run_;
};

// --- clips -----------------------------------------------------------------------------------

// 320x180, left half (255,0,0), right half (0,0,255), lossless RGB: the R, G, B histograms hold
// codes 0 and 255 only; luma is 54 (red) and 18 (blue): 16-bin bins 3 and 1.
std::string two_colour_clip() {
  return make_clip("red_blue.mkv",
                   "-f lavfi -i color=c=0xFF0000:s=160x180:r=25,format=gbrp "
                   "-f lavfi -i color=c=0x0000FF:s=160x180:r=25,format=gbrp "
                   "-filter_complex '[0:v][1:v]hstack=inputs=2' -frames:v 3 -c:v ffv1 -pix_fmt gbrp");
}

// 320x180 quadrants: red top left, green top right, blue bottom left, white bottom right.
std::string quadrant_clip() {
  return make_clip("quadrants.mkv",
                   "-f lavfi -i color=c=0xFF0000:s=160x90:r=25,format=gbrp "
                   "-f lavfi -i color=c=0x00FF00:s=160x90:r=25,format=gbrp "
                   "-f lavfi -i color=c=0x0000FF:s=160x90:r=25,format=gbrp "
                   "-f lavfi -i color=c=0xFFFFFF:s=160x90:r=25,format=gbrp "
                   "-filter_complex '[0:v][1:v]hstack[top];[2:v][3:v]hstack[bottom];[top][bottom]vstack' "
                   "-frames:v 3 -c:v ffv1 -pix_fmt gbrp");
}

// 320x180 ramps: R = round(255 x / 319) across, G = round(255 y / 179) down, B = 128: each pixel
// tells which video pixel it shows.
std::string ramp_clip() {
  return make_clip("ramps.mkv",
                   "-f lavfi -i nullsrc=s=320x180:r=25,format=gbrp,geq=r='round(255*X/319)':g='round(255*Y/179)':b=128 "
                   "-frames:v 3 -c:v ffv1 -pix_fmt gbrp");
}

constexpr const char* kNoChannels = "channel_r = false\nchannel_g = false\nchannel_b = false\nchannel_l = false\n";

// --- 1. known colours --------------------------------------------------------------------------

class KnownColours : public ::testing::TestWithParam<const char*> {};

// Split layout, all channels, on both engines: the RGB quad is grey at bin 0 (R, G and B all have
// pixels at 0) and magenta at bin 15 (R and B at 255); the luma quad is white at bins 1 and 3.
TEST_P(KnownColours, SplitLayoutShowsTheBinsAndTheVideo) {
  const std::string clip = two_colour_clip();
  const ViewerRun r = run_viewer(kPixelSettings, quote(clip) + " --frames 8 --paused-at 0 --size 640x360",
                                 std::string("VHIST_ENGINE=") + GetParam());
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto& img = r.shot;
  ASSERT_EQ(img.width, 640u);
  ASSERT_EQ(img.height, 360u);
  expect_bins(img, split_rgb(640, 360), bins_of(kBlack, {{0, kGrey}, {15, kMagenta}}), "RGB quad");
  expect_bins(img, split_luma(640, 360), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "luma quad");
  // The video above the quads (one window pixel per half video pixel: no blending away from x = 320).
  for (const int y : {5, 90, 180, 250}) {
    for (const int x : {5, 160, 310}) EXPECT_TRUE(colour_at(img, x, y, kRed, 2, "video, left half"));
    for (const int x : {330, 480, 634}) {
      if (!in_panel_tab(640, x, y)) {
        EXPECT_TRUE(colour_at(img, x, y, kBlue, 2, "video, right half"));
      }
    }
  }
  // Between and beside the quads the video shows too.
  EXPECT_TRUE(colour_at(img, 8, 300, kRed, 2, "left of the RGB quad"));
  EXPECT_TRUE(colour_at(img, 631, 300, kBlue, 2, "right of the luma quad"));
  EXPECT_TRUE(colour_at(img, 100, 356, kRed, 2, "below the RGB quad"));
}

INSTANTIATE_TEST_SUITE_P(Engines, KnownColours, ::testing::Values("cpu", "gpu"));

// --domain ycbcr draws the planes' codes: a red|blue clip stored as yuv420p (BT.601 limited):
// red is Y' 81, Cb 90, Cr 240 and blue Y' 41, Cb 240, Cr 110, so at 16 bins Cb (drawn blue) fills
// bins 5 and 15, Cr (red) bins 6 and 15 (magenta where both are), and Y' (white) bins 2 and 5.
TEST_P(KnownColours, YcbcrDomainDrawsThePlanes) {
  const std::string clip = make_clip("red_blue_yuv.mkv",
                                     "-f lavfi -i color=c=0xFF0000:s=160x180:r=25,format=gbrp "
                                     "-f lavfi -i color=c=0x0000FF:s=160x180:r=25,format=gbrp "
                                     "-filter_complex '[0:v][1:v]hstack=inputs=2," + ycbcr_vf("smpte170m") +
                                         "' -frames:v 3 -pix_fmt yuv420p " + ycbcr_tags("smpte170m") + " -c:v ffv1");
  const ViewerRun r = run_viewer(kPixelSettings, quote(clip) + " --frames 8 --paused-at 0 --size 640x360 --domain ycbcr",
                                 std::string("VHIST_ENGINE=") + GetParam());
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, split_rgb(640, 360), bins_of(kBlack, {{5, kBlue}, {6, kRed}, {15, kMagenta}}), "Cb Cr quad");
  expect_bins(r.shot, split_luma(640, 360), bins_of(kBlack, {{2, kWhite}, {5, kWhite}}), "Y' quad");
}

// The background of the quads is black at the opacity chosen, blended over the video; the bars
// stay opaque. Opacity 0.25 over the red half: (191, 0, 0); over the blue half: (0, 0, 191).
TEST(Opacity, BackgroundIsBlendedOverTheVideo) {
  std::string settings = kPixelSettings;
  settings.replace(settings.find("opacity = 1.0"), 13, "opacity = 0.25");
  const ViewerRun r = run_viewer(settings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const Rgb dim_red{191, 0, 0}, dim_blue{0, 0, 191};
  expect_bins(r.shot, split_rgb(640, 360), bins_of(dim_red, {{0, kGrey}, {15, kMagenta}}), "RGB quad over red");
  expect_bins(r.shot, split_luma(640, 360), bins_of(dim_blue, {{1, kWhite}, {3, kWhite}}), "luma quad over blue");
}

// --- 2. --channels -----------------------------------------------------------------------------

TEST(Channels, RedOnlyDrawsRedBarsAndNoLumaQuad) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --channels r");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, split_rgb(640, 360), bins_of(kBlack, {{0, kRed}, {15, kRed}}), "RGB quad, R only");
  // No luma quad: the blue half of the video where it would be, its bins 1 and 3 included.
  for (const int b : {0, 1, 3, 8, 15}) {
    const auto [x, y] = bin_centre(split_luma(640, 360), b);
    EXPECT_TRUE(colour_at(r.shot, x, y, kBlue, 2, "video where the luma quad was, bin " + std::to_string(b)));
  }
}

TEST(Channels, GreenAndBlueMixToCyan) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --channels gb");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, split_rgb(640, 360), bins_of(kBlack, {{0, kCyan}, {15, kBlue}}), "RGB quad, G and B");
  for (const int b : {1, 3}) {
    const auto [x, y] = bin_centre(split_luma(640, 360), b);
    EXPECT_TRUE(colour_at(r.shot, x, y, kBlue, 2, "video where the luma quad was, bin " + std::to_string(b)));
  }
}

TEST(Channels, RedAndGreenMixToYellow) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --channels rg");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, split_rgb(640, 360), bins_of(kBlack, {{0, kYellow}, {15, kRed}}), "RGB quad, R and G");
}

TEST(Channels, LumaOnlyLeavesTheVideoWhereTheRgbQuadWas) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --channels l");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  for (const int b : {0, 1, 8, 15}) {
    const auto [x, y] = bin_centre(split_rgb(640, 360), b);
    EXPECT_TRUE(colour_at(r.shot, x, y, kRed, 2, "video where the RGB quad was, bin " + std::to_string(b)));
  }
  expect_bins(r.shot, split_luma(640, 360), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "luma quad");
}

// The settings file's channel keys are honoured when --channels is not given.
TEST(Channels, SettingsFileChoosesTheChannels) {
  const ViewerRun r = run_viewer(std::string(kPixelSettings) + "channel_r = false\nchannel_b = false\n",
                                 quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, split_rgb(640, 360), bins_of(kBlack, {{0, kGreen}}), "RGB quad, G only");
  expect_bins(r.shot, split_luma(640, 360), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "luma quad");
}

// --- 3. layouts --------------------------------------------------------------------------------

// One wide quad with every channel: bin 0 grey (R, G, B at 0; luma is never 0 here), luma's bins
// white (index 8 and up), bin 15 magenta.
TEST(Layouts, OverlayDrawsOneWideQuad) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --layout overlay");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, overlay_quad(640, 360), bins_of(kBlack, {{0, kGrey}, {1, kWhite}, {3, kWhite}, {15, kMagenta}}),
              "overlay quad");
  EXPECT_TRUE(colour_at(r.shot, 160, 200, kRed, 2, "video above the quad"));
  EXPECT_TRUE(colour_at(r.shot, 480, 200, kBlue, 2, "video above the quad"));
}

// One band per channel, bottom up L, B, G, R, each in its own colour at its own bins.
TEST(Layouts, StackedDrawsOneBandPerChannel) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --layout stacked");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto& img = r.shot;
  expect_bins(img, stacked_band(640, 360, 0), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "L band");
  expect_bins(img, stacked_band(640, 360, 1), bins_of(kBlack, {{0, kBlue}, {15, kBlue}}), "B band");
  expect_bins(img, stacked_band(640, 360, 2), bins_of(kBlack, {{0, kGreen}}), "G band");
  expect_bins(img, stacked_band(640, 360, 3), bins_of(kBlack, {{0, kRed}, {15, kRed}}), "R band");
  // Above the top band, and right of the bands, the video.
  EXPECT_TRUE(colour_at(img, 100, 150, kRed, 2, "video above the R band"));
  EXPECT_TRUE(colour_at(img, 480, 300, kBlue, 2, "video right of the bands"));
}

// Channels left out leave no gap: R and B only give B at the bottom and R right above it.
TEST(Layouts, StackedSkipsChannelsNotDrawn) {
  const ViewerRun r = run_viewer(kPixelSettings,
                                 quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --layout stacked --channels rb");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  expect_bins(r.shot, stacked_band(640, 360, 0), bins_of(kBlack, {{0, kBlue}, {15, kBlue}}), "B band");
  expect_bins(r.shot, stacked_band(640, 360, 1), bins_of(kBlack, {{0, kRed}, {15, kRed}}), "R band");
  for (const int b : {0, 8, 15}) {
    const auto [x, y] = bin_centre(stacked_band(640, 360, 2), b);
    EXPECT_TRUE(colour_at(r.shot, x, y, kRed, 2, "video above the two bands, bin " + std::to_string(b)));
  }
}

// --- 4. cover fit --------------------------------------------------------------------------------

struct WindowSize {
  int w, h;
};
void PrintTo(const WindowSize& s, std::ostream* os) { *os << s.w << "x" << s.h; }

class CoverFit : public ::testing::TestWithParam<WindowSize> {};

// The cover fit (fit = auto would letterbox these windows: test_fit.cpp's tests show that).
constexpr const char* kCover = "fit = cover\n";

// The quadrant clip with no histogram drawn: the whole window is video (no black anywhere),
// the corners show the four quadrants, and the quadrants meet at the window's centre.
TEST_P(CoverFit, QuadrantsFillTheWindowAndMeetAtItsCentre) {
  const int w = GetParam().w, h = GetParam().h;  // variables, not bindings: a lambda captures them (clang 14)
  const ViewerRun r = run_viewer(std::string(kPixelSettings) + kNoChannels + kCover,
                                 quote(quadrant_clip()) + " --frames 8 --paused-at 0 --size " + std::to_string(w) + "x" +
                                     std::to_string(h));
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto& img = r.shot;
  ASSERT_EQ(static_cast<int>(img.width), w);
  ASSERT_EQ(static_cast<int>(img.height), h);
  // No black: every pixel of a grid, the window's edges included, shows one of the quadrants
  // (or a blend of two, at their boundaries).
  int black = 0;
  std::string first_black;
  for (int y = 0; y < h; y += std::max(1, h / 40)) {
    for (int x = 0; x < w; x += std::max(1, w / 40)) {
      for (const auto& [px, py] : {std::pair{x, y}, std::pair{w - 1 - x, h - 1 - y}}) {
        if (in_fit_note(w, h, px, py)) continue;
        const Rgb p = pixel(img, px, py);
        if (p[0] + p[1] + p[2] < 100) {
          if (black++ == 0) first_black = "(" + std::to_string(px) + "," + std::to_string(py) + ") " + describe(p);
        }
      }
    }
  }
  EXPECT_EQ(black, 0) << "grid pixels not covered by the video, the first " << first_black;
  EXPECT_TRUE(colour_at(img, 3, 3, kRed, 2, "top left corner"));
  EXPECT_TRUE(colour_at(img, w - 4, 3, kGreen, 2, "top right corner"));
  EXPECT_TRUE(colour_at(img, 3, h - 4, kBlue, 2, "bottom left corner"));
  EXPECT_TRUE(colour_at(img, w - 4, h - 4, kWhite, 2, "bottom right corner"));
  // The vertical boundary, along a row in the top half: red (R high) turns green (R low).
  const auto crossing = [&](int fixed, bool along_x, int channel) {
    const int n = along_x ? w : h;
    for (int i = 1; i < n; ++i) {
      if (along_x ? in_fit_note(w, h, i - 1, fixed) || in_fit_note(w, h, i, fixed)
                  : in_fit_note(w, h, fixed, i - 1) || in_fit_note(w, h, fixed, i)) {
        continue;
      }
      const Rgb a = along_x ? pixel(img, i - 1, fixed) : pixel(img, fixed, i - 1);
      const Rgb b = along_x ? pixel(img, i, fixed) : pixel(img, fixed, i);
      const int c = channel;
      if ((a[static_cast<std::size_t>(c)] >= 128) != (b[static_cast<std::size_t>(c)] >= 128)) return i;
    }
    return -1;
  };
  for (const int y : {3 * h / 8, 7 * h / 16}) {  // below the note, which hides the crossing higher up
    EXPECT_NEAR(crossing(y, true, 0), w / 2, 2) << "red/green boundary along row " << y;
  }
  for (const int y : {3 * h / 4, 7 * h / 8}) {
    EXPECT_NEAR(crossing(y, true, 0), w / 2, 2) << "blue/white boundary along row " << y;
  }
  for (const int x : {w / 4, w / 8}) {
    EXPECT_NEAR(crossing(x, false, 0), h / 2, 2) << "red/blue boundary along column " << x;
  }
  for (const int x : {3 * w / 4, 7 * w / 8}) {
    EXPECT_NEAR(crossing(x, false, 0), h / 2, 2) << "green/white boundary along column " << x;
  }
}

// The ramp clip: each window pixel's colour says which video pixel it shows. Cover fit scales the
// video by max(W / 320, H / 180), keeps its centre at the window's centre and crops the rest, so
// window pixel x shows video column u = 160 + (x + 0.5 - W/2) / s - 0.5 (bilinear, clamped).
TEST_P(CoverFit, EachPixelShowsTheVideoPixelTheCoverScalePutsThere) {
  const auto [w, h] = GetParam();
  const ViewerRun r = run_viewer(std::string(kPixelSettings) + kNoChannels + kCover,
                                 quote(ramp_clip()) + " --frames 8 --paused-at 0 --size " + std::to_string(w) + "x" +
                                     std::to_string(h));
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto& img = r.shot;
  ASSERT_EQ(static_cast<int>(img.width), w);
  ASSERT_EQ(static_cast<int>(img.height), h);
  const double s = std::max(w / 320.0, h / 180.0);
  const auto expected = [](double window_pos, double window_size, double video_size, double scale) {
    const double u = std::clamp(video_size / 2 + (window_pos + 0.5 - window_size / 2) / scale - 0.5, 0.0, video_size - 1);
    return 255.0 * u / (video_size - 1);
  };
  int bad = 0;
  for (int y = 2; y < h - 2; y += std::max(1, h / 24)) {
    for (int x = 2; x < w - 2; x += std::max(1, w / 24)) {
      if (in_panel_tab(w, x, y) || in_fit_note(w, h, x, y)) continue;
      const Rgb p = pixel(img, x, y);
      const double want_r = expected(x, w, 320, s), want_g = expected(y, h, 180, s);
      // ±2.5: the clip's codes are rounded (±0.5), bilinear weights and the output are rounded.
      if (std::abs(p[0] - want_r) > 2.5 || std::abs(p[1] - want_g) > 2.5 || std::abs(p[2] - 128) > 2) {
        if (++bad <= 5) {
          ADD_FAILURE() << "pixel (" << x << "," << y << ") is " << describe(p) << ", expected about (" << want_r << ","
                        << want_g << ",128)";
        }
      }
    }
  }
  EXPECT_EQ(bad, 0) << "pixels not showing the cover-fitted video";
}

INSTANTIATE_TEST_SUITE_P(Windows, CoverFit,
                         ::testing::Values(WindowSize{640, 360}, WindowSize{360, 640}, WindowSize{800, 300}),
                         [](const auto& p) { return std::to_string(p.param.w) + "x" + std::to_string(p.param.h); });

// --- equalization: the split view ---------------------------------------------------------

// 320x180 low-contrast ramps: R = 100 + round(40 x / 319) across, G = 100 + round(40 y / 179)
// down, B = 120 everywhere.
std::string low_contrast_ramp_clip() {
  return make_clip("low_contrast_ramps.mkv",
                   "-f lavfi -i nullsrc=s=320x180:r=25,format=gbrp,"
                   "geq=r='100+round(40*X/319)':g='100+round(40*Y/179)':b=120 -frames:v 3 -c:v ffv1 -pix_fmt gbrp");
}

// The per-channel equalization of a ramp of `n` positions, v(i) = 100 + round(40 i / (n - 1)),
// computed here from the definition (counts per level, CDF, then
// round((cdf - cdf_min) * 255 / (N - cdf_min))): the equalized code at each position.
std::vector<double> equalized_ramp(int n) {
  std::array<long, 256> count{};
  for (int i = 0; i < n; ++i) ++count[static_cast<std::size_t>(100 + std::lround(40.0 * i / (n - 1)))];
  std::array<long, 256> cdf{};
  long running = 0, first = 0;
  for (std::size_t v = 0; v < 256; ++v) {
    running += count[v];
    cdf[v] = running;
    if (first == 0) first = running;
  }
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const long c = cdf[static_cast<std::size_t>(100 + std::lround(40.0 * i / (n - 1)))];
    out[static_cast<std::size_t>(i)] = std::floor(static_cast<double>(c - first) * 255 / static_cast<double>(running - first) + 0.5);
  }
  return out;
}

TEST(Equalization, SplitViewShowsOriginalLeftEqualizedRightAndTheDivider) {
  // 640x360: the video at twice its size. Divider at 0.5 (x = 320).
  const ViewerRun r = run_viewer(std::string(kPixelSettings) + kNoChannels,
                                 quote(low_contrast_ramp_clip()) +
                                     " --frames 8 --paused-at 0 --size 640x360 --split 0.5 --equalize channels");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto& img = r.shot;
  const auto eq_r = equalized_ramp(320), eq_g = equalized_ramp(180);
  // Window pixel p shows video position (p + 0.5) / 2 - 0.5, between two texels.
  const auto video_value = [](const std::vector<double>& values, int p) {
    const double pos = std::clamp((p + 0.5) / 2 - 0.5, 0.0, static_cast<double>(values.size() - 1));
    const auto i = static_cast<std::size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < values.size() ? values[i] * (1 - f) + values[i + 1] * f : values[i];
  };
  std::vector<double> ramp_r(320), ramp_g(180);
  for (int i = 0; i < 320; ++i) ramp_r[static_cast<std::size_t>(i)] = 100 + std::lround(40.0 * i / 319);
  for (int i = 0; i < 180; ++i) ramp_g[static_cast<std::size_t>(i)] = 100 + std::lround(40.0 * i / 179);
  int bad = 0, lo_r = 255, hi_r = 0;
  // From y = 30: the labels "original" and "equalized" are written above.
  for (int y = 30; y < 358; y += 11) {
    for (int x = 2; x < 638; x += 7) {
      if (in_panel_tab(640, x, y)) continue;
      const Rgb p = pixel(img, x, y);
      Rgb want;
      if (x == 319 || x == 320) {
        want = {230, 230, 230};  // the divider
      } else if (x < 319) {
        want = {static_cast<int>(std::lround(video_value(ramp_r, x))), static_cast<int>(std::lround(video_value(ramp_g, y))), 120};
      } else {
        // Equalized per channel: B has one level, so it stays 120.
        want = {static_cast<int>(std::lround(video_value(eq_r, x))), static_cast<int>(std::lround(video_value(eq_g, y))), 120};
        lo_r = std::min(lo_r, p[0]);
        hi_r = std::max(hi_r, p[0]);
      }
      // ±3: the ramps' codes step between neighbouring texels, which the bilinear filter mixes.
      if (std::abs(p[0] - want[0]) > 3 || std::abs(p[1] - want[1]) > 3 || std::abs(p[2] - want[2]) > 3) {
        if (++bad <= 5) ADD_FAILURE() << "pixel (" << x << "," << y << ") is " << describe(p) << ", expected " << describe(want);
      }
    }
  }
  EXPECT_EQ(bad, 0);
  // The right half shows the right half of the frame, whose R was 120..140: equalized it reaches
  // the top code, where the original stayed at 140 or below.
  EXPECT_GE(hi_r, 250);
  EXPECT_LE(lo_r, 135);
}

// --- 5. resizing and minimizing ----------------------------------------------------------------

struct ExerciseCase {
  int frames, w, h;  // the window's size at the last of `frames` frames
};
void PrintTo(const ExerciseCase& c, std::ostream* os) { *os << c.frames << " frames"; }

class ExerciseWindow : public ::testing::TestWithParam<ExerciseCase> {};

// The window is grown (frame 5), shrunk to a sliver (15), minimized and restored (25), set back
// (35) while rendering: no validation messages, and the frame rendered last has the window's
// size at that moment, with the quads and the video laid out for it. Stopping after 12 and 20
// frames catches it grown and shrunk; after 70 it has the size asked for again.
TEST_P(ExerciseWindow, ResizeMinimizeRestore) {
  const auto [frames, w, h] = GetParam();
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames " + std::to_string(frames) +
                                                     " --paused-at 0 --size 640x360 --exercise-window");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_EQ(r.err.find("alidation"), std::string::npos) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  ASSERT_EQ(static_cast<int>(r.shot.width), w) << context(r);
  ASSERT_EQ(static_cast<int>(r.shot.height), h) << context(r);
  const auto fw = static_cast<float>(w), fh = static_cast<float>(h);
  expect_bins(r.shot, split_rgb(fw, fh), bins_of(kBlack, {{0, kGrey}, {15, kMagenta}}), "RGB quad");
  expect_bins(r.shot, split_luma(fw, fh), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "luma quad");
  EXPECT_TRUE(colour_at(r.shot, w / 4, h / 4, kRed, 2, "video, left half"));
  EXPECT_TRUE(colour_at(r.shot, 3 * w / 4, h / 4, kBlue, 2, "video, right half"));
}

INSTANTIATE_TEST_SUITE_P(Window, ExerciseWindow,
                         ::testing::Values(ExerciseCase{12, 900, 500}, ExerciseCase{20, 200, 130},
                                           ExerciseCase{70, 640, 360}),
                         [](const auto& p) { return std::to_string(p.param.frames) + "frames"; });

// --- 6. bad input --------------------------------------------------------------------------------

// The window still opens and renders (the panel and the on-screen message show the error);
// --frames makes the exit status 2.
void expect_bad_input(const ViewerRun& r, const std::string& path, const std::string& why) {
  EXPECT_EQ(r.status, 2) << context(r);
  EXPECT_NE(r.err.find(path), std::string::npos) << "stderr does not name " << path << "\n" << context(r);
  EXPECT_NE(r.err.find(why), std::string::npos) << "stderr does not say '" << why << "'\n" << context(r);
  ASSERT_TRUE(r.has_shot) << "no screenshot: the window did not render\n" << context(r);
  EXPECT_EQ(r.shot.width, 480u);
  EXPECT_EQ(r.shot.height, 360u);
  // The panel is drawn top left (light text on a dark window); no video anywhere else.
  int lit = 0;
  for (int y = 10; y < 120; ++y) {
    for (int x = 10; x < 200; ++x) {
      const Rgb p = pixel(r.shot, x, y);
      if (p[0] + p[1] + p[2] > 300) ++lit;
    }
  }
  EXPECT_GT(lit, 20) << "no panel or message text in the screenshot";
  // Since issue 15 the panel is on the right (x >= 240 here): the picture's corner is left of it.
  EXPECT_TRUE(colour_at(r.shot, 230, 350, kBlack, 0, "no video"));
}

TEST(BadInput, MissingFile) {
  const std::string path = (clip_dir() / "no such folder" / "missing.mkv").string();
  const ViewerRun r = run_viewer("", quote(path) + " --frames 3 --size 480x360");
  const KeepScreenshot keep(r);
  expect_bad_input(r, path, "no such file");
}

TEST(BadInput, AudioOnlyFile) {
  const std::string path = make_clip("tone.wav", "-f lavfi -i sine=frequency=440:duration=1 -c:a pcm_s16le");
  const ViewerRun r = run_viewer("", quote(path) + " --frames 3 --size 480x360");
  const KeepScreenshot keep(r);
  expect_bad_input(r, path, "no video stream");
}

// Inputs that open but cannot be played: with --frames the exit status is 2 all the same (it was
// 0 before issue 25), the window showing the message.
TEST(BadInput, FramesWiderThanTheDeviceExitTwo) {
  const std::string path = make_clip("too_wide.nut", "-f lavfi -i color=c=gray:s=16400x8:r=5 -frames:v 5 -pix_fmt gray -c:v ffv1");
  const ViewerRun r = run_viewer("", quote(path) + " --frames 3 --size 480x360");
  const KeepScreenshot keep(r);
  if (r.status == 0 && r.err.find("exceeds the device") == std::string::npos) GTEST_SKIP() << "this device takes 16400 pixels";
  expect_bad_input(r, path, "exceeds the device's limit");
}

TEST(BadInput, NoDecodableFrameExitsTwo) {
  // PNG frames whose IHDR chunk is renamed: every packet fails to decode.
  const std::string good = make_clip("png_frames.nut", "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 5 -c:v png");
  std::string bytes = read_file(good);
  for (std::size_t at = 0; (at = bytes.find("IHDR", at)) != std::string::npos;) bytes.replace(at, 4, "XXXX");
  const std::string path = (clip_dir() / "no_ihdr.nut").string();
  std::ofstream(path, std::ios::binary) << bytes;
  const ViewerRun r = run_viewer("", quote(path) + " --frames 3 --size 480x360");
  const KeepScreenshot keep(r);
  expect_bad_input(r, path, "no frame could be decoded");
}

// Without a display there is no window: exit status 1 and a message that says why.
TEST(BadInput, NoDisplay) {
  const fs::path dir = clip_dir() / "no-display";
  fs::create_directories(dir);
  const fs::path err = dir / "stderr.txt";
  const std::string command = "cd " + quote(dir.string()) + " && env -u DISPLAY -u WAYLAND_DISPLAY XDG_CONFIG_HOME=" +
                              quote(dir.string()) + " timeout -k 10 60 " + quote(VHIST_BINARY) + " " +
                              quote(two_colour_clip()) + " --frames 3 > /dev/null 2> " + quote(err.string());
  const int raw = std::system(command.c_str());
  const std::string text = read_file(err);
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 1) << command << "\n" << text;
  EXPECT_NE(text.find("cannot open a window"), std::string::npos) << text;
}

// --- 7. deep colour ------------------------------------------------------------------------------

// A 10-bit 4:2:0 clip of the two colours: rendered from 16-bit words, the video shows the colours
// at full strength (not 10-bit codes read as 16-bit ones, which would be nearly black), and the
// quads show the same bins as the 8-bit clip.
class DeepColour : public ::testing::TestWithParam<const char*> {};

TEST_P(DeepColour, TenBitYuvRenders) {
  const std::string clip = make_clip("red_blue_10bit.mkv",
                                     "-f lavfi -i color=c=0xFF0000:s=160x180:r=25,format=gbrp "
                                     "-f lavfi -i color=c=0x0000FF:s=160x180:r=25,format=gbrp "
                                     "-filter_complex '[0:v][1:v]hstack=inputs=2," +
                                         ycbcr_vf("smpte170m", "yuv420p10le") + "' -frames:v 3 -c:v ffv1 -pix_fmt yuv420p10le " +
                                         ycbcr_tags("smpte170m"));
  const ViewerRun r = run_viewer(kPixelSettings, quote(clip) + " --frames 8 --paused-at 0 --size 640x360",
                                 std::string("VHIST_ENGINE=") + GetParam());
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  // Through limited-range 10-bit BT.601 and back: within ±4 of the source colours (the codes come
  // back exactly on lavapipe; a wrong matrix or range would be far off).
  for (const int y : {20, 120, 240}) {
    EXPECT_TRUE(colour_at(r.shot, 100, y, kRed, 4, "video, left half"));
    EXPECT_TRUE(colour_at(r.shot, 540, y, kBlue, 4, "video, right half"));
  }
  // The same bins as the 8-bit clip. Chroma blends at the colours' boundary put a few pixels in
  // other bins: short bars at the bottom, so only the upper part of the quads is checked.
  expect_bins(r.shot, split_rgb(640, 360), bins_of(kBlack, {{0, kGrey}, {15, kMagenta}}), "RGB quad", false);
  expect_bins(r.shot, split_luma(640, 360), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "luma quad", false);
}

INSTANTIATE_TEST_SUITE_P(Engines, DeepColour, ::testing::Values("cpu", "gpu"));

// Opening paused past the end shows the last frame, not a black window.
TEST(PausedAt, PastTheEndShowsTheLastFrame) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 60 --size 640x360");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  EXPECT_TRUE(colour_at(r.shot, 100, 60, kRed, 2, "left half of the video"));
  EXPECT_TRUE(colour_at(r.shot, 540, 60, kBlue, 2, "right half of the video"));
}


// --- 8. the layout: the panel beside the picture (issue 15) ---------------------------------------

// --- 4b. right shape: rotation and sample aspect ratio ------------------------------------------

// The quadrant picture (red top left, green top right, blue bottom left, white bottom right) as
// a phone stores a portrait clip: landscape, with a display matrix. Debian 12's ffmpeg 5.1 writes
// `rotate=270` into the matrix when copying, which a 90 degree clockwise turn undoes (test_media
// checks that against ffmpeg's own autorotation). Lossless 4:4:4 H.264: MP4 holds no FFV1.
std::string phone_clip() {
  const std::string plain = make_clip("quadrants_x264.mp4",
                                      "-f lavfi -i color=c=0xFF0000:s=160x90:r=25,format=gbrp "
                                      "-f lavfi -i color=c=0x00FF00:s=160x90:r=25,format=gbrp "
                                      "-f lavfi -i color=c=0x0000FF:s=160x90:r=25,format=gbrp "
                                      "-f lavfi -i color=c=0xFFFFFF:s=160x90:r=25,format=gbrp "
                                      "-filter_complex '[0:v][1:v]hstack[top];[2:v][3:v]hstack[bottom];"
                                      "[top][bottom]vstack,format=yuv444p' -frames:v 3 -c:v libx264 -qp 0");
  return make_clip("quadrants_phone.mp4", "-i " + quote(plain) + " -c copy -metadata:s:v rotate=270");
}

class RightShape : public ::testing::TestWithParam<WindowSize> {};

// Turned 90 degrees clockwise the stored quadrants stand upright as blue top left, red top right,
// white bottom left, green bottom right, 180x320. Cover-fitted, the window's corners show those
// and the colours meet at the window's centre. Drawn sideways, the corners would be red, green,
// blue and white as stored.
TEST_P(RightShape, PhoneClipIsDrawnUpright) {
  const auto [w, h] = GetParam();
  const ViewerRun r = run_viewer(std::string(kPixelSettings) + kNoChannels + kCover,
                                 quote(phone_clip()) + " --frames 8 --paused-at 0 --size " + std::to_string(w) + "x" +
                                     std::to_string(h));
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto& img = r.shot;
  // ±6: the colours went through lossless Y'CbCr 4:4:4 at 8 bits (BT.601 limited range).
  EXPECT_TRUE(colour_at(img, 3, 3, kBlue, 6, "top left corner"));
  EXPECT_TRUE(colour_at(img, w / 2 - 4, 3, kBlue, 6, "top, left of the centre"));
  EXPECT_TRUE(colour_at(img, w / 2 + 4, h / 2 - 4, kRed, 6, "right of and above the centre"));
  EXPECT_TRUE(colour_at(img, 3, h - 4, kWhite, 6, "bottom left corner"));
  EXPECT_TRUE(colour_at(img, w - 4, h - 4, kGreen, 6, "bottom right corner"));
  EXPECT_TRUE(colour_at(img, w / 2 + 4, h / 2 + 4, kGreen, 6, "right of and below the centre"));
  if (!in_panel_tab(w, w - 4, h / 2 - 4)) {
    EXPECT_TRUE(colour_at(img, w - 4, h / 2 - 4, kRed, 6, "right edge, above the centre"));
  }
}

// A PAL 16:9 clip, 720x576 stored with sample aspect ratio 64:45 (shown 1024x576), of ramps:
// R = round(255 x / 719) across, G = round(255 y / 575) down. Cover-fitted at its display shape,
// window pixel (x, y) shows display point (512 + (x + 0.5 - W/2) / s, 288 + (y + 0.5 - H/2) / s),
// s = max(W / 1024, H / 576), that is stored column 45/64 of the display x. At the storage shape
// (720x576) the crop would differ: at 800x300, row 0 would show stored row 64 instead of 100.
TEST_P(RightShape, AnamorphicClipIsDrawnAtItsDisplayAspect) {
  const auto [w, h] = GetParam();
  const std::string clip = make_clip("pal_ramps.mkv",
                                     "-f lavfi -i nullsrc=s=720x576:r=25,format=gbrp,"
                                     "geq=r='round(255*X/719)':g='round(255*Y/575)':b=128,setsar=64/45 "
                                     "-frames:v 3 -c:v ffv1 -pix_fmt gbrp");
  const ViewerRun r = run_viewer(std::string(kPixelSettings) + kNoChannels + kCover,
                                 quote(clip) + " --frames 8 --paused-at 0 --size " + std::to_string(w) + "x" +
                                     std::to_string(h));
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const double s = std::max(w / 1024.0, h / 576.0);
  int bad = 0;
  for (int y = 2; y < h - 2; y += std::max(1, h / 24)) {
    for (int x = 2; x < w - 2; x += std::max(1, w / 24)) {
      if (in_panel_tab(w, x, y) || in_fit_note(w, h, x, y)) continue;
      const double dx = 512 + (x + 0.5 - w / 2.0) / s, dy = 288 + (y + 0.5 - h / 2.0) / s;
      const double u = std::clamp(dx * 720.0 / 1024.0 - 0.5, 0.0, 719.0), v = std::clamp(dy - 0.5, 0.0, 575.0);
      const double want_r = 255.0 * u / 719, want_g = 255.0 * v / 575;
      const Rgb p = pixel(r.shot, x, y);
      if (std::abs(p[0] - want_r) > 2.5 || std::abs(p[1] - want_g) > 2.5 || std::abs(p[2] - 128) > 2) {
        if (++bad <= 5) {
          ADD_FAILURE() << "pixel (" << x << "," << y << ") is " << describe(p) << ", expected about (" << want_r << ","
                        << want_g << ",128)";
        }
      }
    }
  }
  EXPECT_EQ(bad, 0) << "pixels not showing the clip at its display aspect";
}

INSTANTIATE_TEST_SUITE_P(Windows, RightShape, ::testing::Values(WindowSize{640, 360}, WindowSize{800, 300}, WindowSize{360, 640}),
                         [](const auto& p) { return std::to_string(p.param.w) + "x" + std::to_string(p.param.h); });

// The panel's width as the user guide documents it: clamp(0.28 W, 260, 420) at content scale 1
// (Xvfb), at most half the window; the picture is the rest, left of it.
float documented_panel_width(float w) { return std::min(std::clamp(0.28f * w, 260.0f, 420.0f), 0.5f * w); }

// --- 4c. fit modes: the whole picture, and what a crop hides ----------------------------------

// A 1-pixel magenta border round a flat green-grey inside, so a screenshot shows whether every
// edge of the frame is on screen. `sar` "1" or e.g. "64/45"; `rotate` adds a display matrix
// (Debian's ffmpeg 5.1 writes rotate=270 as a 90 degree clockwise turn: see phone_clip()).
std::string bordered_clip(const std::string& name, int w, int h, const std::string& sar, bool rotate) {
  const std::string edge = "if(eq(X\\,0)+eq(Y\\,0)+eq(X\\,W-1)+eq(Y\\,H-1)\\,";
  const std::string filter = "nullsrc=s=" + std::to_string(w) + "x" + std::to_string(h) + ":r=25,format=gbrp,geq=r='" +
                             edge + "255\\,100)':g='" + edge + "0\\,160)':b='" + edge + "255\\,60)',setsar=" + sar;
  if (!rotate) return make_clip(name + ".mkv", "-f lavfi -i " + filter + " -frames:v 3 -c:v ffv1 -pix_fmt gbrp");
  const std::string plain = make_clip(name + "_x264.mp4", "-f lavfi -i " + filter +
                                                              ",format=yuv444p -frames:v 3 -c:v libx264 -qp 0");
  return make_clip(name + ".mp4", "-i " + quote(plain) + " -c copy -metadata:s:v rotate=270");
}

bool is_magenta(const Rgb& p) { return p[0] > 200 && p[1] < 70 && p[2] > 200; }
bool is_blackish(const Rgb& p) { return p[0] + p[1] + p[2] < 30; }

struct FitCase {
  const char* name;
  int clip_w, clip_h;
  const char* sar;
  bool rotate;
  int w, h;
  bool panel;
  // Where the video must be (by hand from the sizes; the picture area is the window less the
  // user guide's panel width): the first and last drawn column on the middle row, and the first
  // and last drawn row on the middle column of the picture.
  int x0, x1, y0, y1;
};
void PrintTo(const FitCase& c, std::ostream* os) { *os << c.name; }

class FitModes : public ::testing::TestWithParam<FitCase> {};

// With fit = auto (the default) each of these windows would hide more than 5% under cover, so
// the picture is fitted: along the middle row and column of the picture the outermost drawn
// pixels are the frame's magenta border, with black bars beyond, and no note says anything is
// hidden (no amber text).
TEST_P(FitModes, AutoFitShowsAllFourBorders) {
  const FitCase c = GetParam();
  std::string settings = std::string(kPixelSettings) + kNoChannels;
  if (c.panel) settings.replace(settings.find("show_panel = false"), 18, "show_panel = true");
  const ViewerRun r = run_viewer(settings, quote(bordered_clip(c.name, c.clip_w, c.clip_h, c.sar, c.rotate)) +
                                               " --frames 8 --paused-at 0 --size " + std::to_string(c.w) + "x" +
                                               std::to_string(c.h));
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const int area_w = c.panel ? static_cast<int>(std::lround(c.w - documented_panel_width(static_cast<float>(c.w)))) : c.w;
  const int mid_x = (c.x0 + c.x1) / 2, mid_y = (c.y0 + c.y1) / 2;
  const auto span = [&](bool along_row) {
    std::array<int, 2> found{-1, -1};
    const int n = along_row ? area_w : c.h;
    for (int i = 0; i < n; ++i) {
      if (!along_row && !c.panel && in_panel_tab(c.w, mid_x, i)) continue;
      const Rgb p = along_row ? pixel(r.shot, i, mid_y) : pixel(r.shot, mid_x, i);
      if (is_blackish(p)) continue;
      if (found[0] < 0) found[0] = i;
      found[1] = i;
    }
    return found;
  };
  const auto row = span(true), column = span(false);
  EXPECT_NEAR(row[0], c.x0, 1);
  EXPECT_NEAR(row[1], c.x1, 1);
  EXPECT_NEAR(column[0], c.y0, 1);
  EXPECT_NEAR(column[1], c.y1, 1);
  EXPECT_TRUE(is_magenta(pixel(r.shot, row[0], mid_y))) << "left border " << describe(pixel(r.shot, row[0], mid_y));
  EXPECT_TRUE(is_magenta(pixel(r.shot, row[1], mid_y))) << "right border " << describe(pixel(r.shot, row[1], mid_y));
  EXPECT_TRUE(is_magenta(pixel(r.shot, mid_x, column[0]))) << "top border " << describe(pixel(r.shot, mid_x, column[0]));
  EXPECT_TRUE(is_magenta(pixel(r.shot, mid_x, column[1]))) << "bottom border " << describe(pixel(r.shot, mid_x, column[1]));
  // Inside the border: the frame's inside colour.
  EXPECT_TRUE(colour_at(r.shot, mid_x, mid_y, {100, 160, 60}, 6, "the inside"));
}

// By hand (a pixel is drawn where its centre is inside): 320x180 beside the panel at 1280x720
// (picture 922x720): scale 922/320, 518.6 tall at y 100.7..619.3, rows 101..618. At 1920x1080 (picture 1500x1080): scale 4.6875, 843.75 tall at y 118.1..961.9.
// The same clip turned (shown 180x320) in 640x360: scale 1.125, 202.5 wide at x 218.75..421.25.
// 360x288 at 64:45 (shown 512x288) in 640x480: scale 1.25, 360 tall at y 60..420.
INSTANTIATE_TEST_SUITE_P(Clips, FitModes,
                         ::testing::Values(FitCase{"wide_border", 320, 180, "1", false, 1280, 720, true, 0, 921, 101, 618},
                                           FitCase{"wide_border", 320, 180, "1", false, 1920, 1080, true, 0, 1499, 118, 961},
                                           FitCase{"phone_border", 320, 180, "1", true, 640, 360, false, 219, 420, 0, 359},
                                           FitCase{"pal_border", 360, 288, "64/45", false, 640, 480, false, 0, 639, 60, 419}),
                         [](const auto& p) {
                           return std::string(p.param.name) + "_" + std::to_string(p.param.w) + "x" +
                                  std::to_string(p.param.h);
                         });

// Amber text (the note's colour, 255,200,80) in a rectangle of the screenshot.
int amber_pixels(const media::RgbaImage& img, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const Rgb p = pixel(img, x, y);
      if (p[0] > 220 && p[1] > 160 && p[1] < 225 && p[2] < 130) ++n;
    }
  }
  return n;
}

// Cover beside the panel hides 28% of the clip's width: the picture says so at its top right
// (amber text over the video), and the panel says so too (amber text in the panel); with fit 1:1
// the same clip (320x180 in 922x720) is smaller than the picture and nothing is hidden.
TEST(FitModes, CoverSaysHowMuchIsHidden) {
  std::string settings = std::string(kPixelSettings) + kNoChannels;
  settings.replace(settings.find("show_panel = false"), 18, "show_panel = true");
  const std::string clip = quote(bordered_clip("wide_border", 320, 180, "1", false));
  const ViewerRun cover = run_viewer(settings, clip + " --frames 8 --paused-at 0 --size 1280x720 --fit cover");
  const KeepScreenshot keep(cover);
  ASSERT_EQ(cover.status, 0) << context(cover);
  ASSERT_TRUE(cover.has_shot) << context(cover);
  EXPECT_GT(amber_pixels(cover.shot, 400, 20, 922, 90), 40) << "no note on the picture";
  const int panel_amber = amber_pixels(cover.shot, 922, 0, 1280, 720);
  // The left and right borders are cropped away; the top and bottom ones stay.
  EXPECT_FALSE(is_magenta(pixel(cover.shot, 1, 360)));
  EXPECT_TRUE(is_magenta(pixel(cover.shot, 461, 0))) << describe(pixel(cover.shot, 461, 0));
  const ViewerRun actual = run_viewer(settings, clip + " --frames 8 --paused-at 0 --size 1280x720 --fit 1:1");
  ASSERT_EQ(actual.status, 0) << context(actual);
  ASSERT_TRUE(actual.has_shot) << context(actual);
  EXPECT_EQ(amber_pixels(actual.shot, 0, 0, 922, 720), 0) << "a note although nothing is hidden";
  // The panel's other amber lines (assumed colour tags) are in both; the note only under cover.
  EXPECT_GT(panel_amber, amber_pixels(actual.shot, 922, 0, 1280, 720) + 40) << "no note in the panel";
  // 1:1: 320x180 centred in 922x720 on whole pixels: x 301..620, y 270..449.
  EXPECT_TRUE(is_magenta(pixel(actual.shot, 301, 360))) << describe(pixel(actual.shot, 301, 360));
  EXPECT_TRUE(is_blackish(pixel(actual.shot, 300, 360))) << describe(pixel(actual.shot, 300, 360));
  EXPECT_TRUE(is_magenta(pixel(actual.shot, 620, 449))) << describe(pixel(actual.shot, 620, 449));
  EXPECT_TRUE(is_blackish(pixel(actual.shot, 621, 450))) << describe(pixel(actual.shot, 621, 450));
}

// Rows of the screenshot in [x0, x1) holding a pixel for which `is` holds.
template <typename Pred>
std::vector<int> rows_with(const media::RgbaImage& img, int x0, int x1, int y0, int y1, Pred is) {
  std::vector<int> rows;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      if (is(pixel(img, x, y))) {
        rows.push_back(y);
        break;
      }
    }
  }
  return rows;
}

// A PQ clip in a narrow picture (640x360 beside the panel: 380 wide) under cover: the HDR label
// breaks after its colon into two lines at the picture's top right, and the fit note, amber, sits
// below it; it used to start at y 32, its box over the label's second line. The label's text is grey
// 220 (the flat green picture under it is not grey anywhere).
TEST(FitModes, TheFitNoteIsBelowTheHdrLabel) {
  std::string settings = std::string(kPixelSettings) + kNoChannels;
  settings.replace(settings.find("show_panel = false"), 18, "show_panel = true");
  const std::string clip = make_clip(
      "pq_flat.mkv", "-f lavfi -i nullsrc=s=320x180:r=25,format=gbrp,geq=r=100:g=160:b=60," +
                         ycbcr_vf("bt2020nc", "yuv444p10le") +
                         " -frames:v 3 -c:v ffv1 -color_trc smpte2084 -color_primaries bt2020 -colorspace bt2020nc -color_range tv");
  const ViewerRun r = run_viewer(settings, quote(clip) + " --frames 8 --paused-at 0 --size 640x360 --fit cover");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  const auto label = rows_with(r.shot, 0, 378, 0, 120, [](const Rgb& p) {
    return std::abs(p[0] - 220) <= 3 && std::abs(p[1] - 220) <= 3 && std::abs(p[2] - 220) <= 3;
  });
  const auto note = rows_with(r.shot, 0, 378, 0, 160, [](const Rgb& p) {
    return p[0] > 220 && p[1] > 160 && p[1] < 225 && p[2] < 130;
  });
  ASSERT_FALSE(label.empty()) << "no HDR label";
  ASSERT_FALSE(note.empty()) << "no fit note";
  // Two lines of label: its rows span more than one line's height.
  EXPECT_GT(label.back() - label.front(), 12);
  // Boxes apart, not only texts: the label's box reaches 4 rows below its text, the note's 3 above
  // its own (before, the note's text began 5 rows below the label's, inside its box).
  EXPECT_GT(note.front(), label.back() + 8) << "the note's first text row " << note.front() << ", the label's last "
                                            << label.back();
}

class PanelLayout : public ::testing::TestWithParam<std::array<int, 2>> {};

// With the panel shown, both histogram quads, laid out by layout_quads() in the picture's area,
// lie left of the panel and show their bins: no UI pixel covers them.
TEST_P(PanelLayout, QuadsAreNotCoveredByThePanel) {
  const auto [w, h] = GetParam();
  const float fw = static_cast<float>(w), fh = static_cast<float>(h);
  viewer::DrawStyle style;
  style.bins = kBins;
  style.area = {0, 0, fw - documented_panel_width(fw), fh};
  style.ui_scale = viewer::picture_ui_scale(1.0f, fh);  // content scale 1 under Xvfb
  const auto quads = viewer::layout_quads(style, fw, fh);
  std::string settings = kPixelSettings;
  settings.replace(settings.find("show_panel = false"), 18, "show_panel = true");
  const ViewerRun r = run_viewer(settings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size " +
                                               std::to_string(w) + "x" + std::to_string(h));
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  ASSERT_EQ(quads.size(), 2u);
  for (const auto& q : quads) EXPECT_LE(q.rect[2], style.area[2]) << "a quad reaches under the panel";
  const auto rect = [](const viewer::HistogramQuad& q) { return Rect{q.bars[0], q.bars[1], q.bars[2], q.bars[3]}; };
  expect_bins(r.shot, rect(quads[0]), bins_of(kBlack, {{0, kGrey}, {15, kMagenta}}), "RGB quad");
  expect_bins(r.shot, rect(quads[1]), bins_of(kBlack, {{1, kWhite}, {3, kWhite}}), "luma quad");
  // Each quad's axis is drawn and uncovered: its line, one text-scale pixel tall, right under the
  // bars in the overlay's text grey (204), along the whole width of the bars.
  const int s = viewer::text_scale(style);
  for (std::size_t i = 0; i < quads.size(); ++i) {
    const auto& b = quads[i].bars;
    for (int k = 0; k <= 10; ++k) {
      const int x = static_cast<int>(b[0]) + static_cast<int>((b[2] - b[0] - 1) * static_cast<float>(k) / 10);
      for (int dy = 0; dy < s; ++dy) {
        EXPECT_TRUE(colour_at(r.shot, x, static_cast<int>(b[3]) + dy, Rgb{204, 204, 204}, 1,
                              "axis line of quad " + std::to_string(i)));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Windows, PanelLayout,
                         ::testing::Values(std::array<int, 2>{640, 360}, std::array<int, 2>{1280, 720},
                                           std::array<int, 2>{1920, 1080}));

// --- 9. keys sent to the window (xdotool) ----------------------------------------------------------

bool have_xdotool() { return std::system("command -v xdotool > /dev/null 2>&1") == 0; }

// Runs `vhist ARGS` under Xvfb and, beside it, `script` (test::beside_viewer: $W is the window,
// $pid the viewer; the script waits with tests/window_script.sh's functions for the viewer's
// state, never for a number of seconds, and ends the run with q (`quit`), --quit-after being
// only a ceiling). The script also has `shot`: S, then a wait for the screenshot S saves in the
// run's folder (the current folder; named after the clip). Returns the screenshots in the order
// taken.
struct ScriptedRun {
  ViewerRun run;
  std::vector<media::RgbaImage> shots;
  double seconds = 0;
};

// Shell functions for the scripts. `shot`: presses S and waits until one PNG more is in the
// current folder (the viewer writes it under a temporary name and renames it whole), then notes
// its name in shots.txt, so that the test reads the screenshots in the order taken; like
// window_script.sh's waits it gives up, with status 1 and a message, when the viewer has ended.
// `settled`: until the viewer has waited for input once more than when called (the state line's
// idle waits): it has drawn what it had to, e.g. the ticks after the first frame that read its
// histograms back (K keeps them, the hover readout shows them). A waiting viewer writes no state
// line until an event, so it gives it one to wake on, Shift, which nothing is bound to.
// `quit`: presses q, then until the viewer has ended gives it Shift to wake on: q ends the run
// at the loop's next tick, but a q read in the last of the ticks the viewer draws after an event
// (IdleWait's settle ticks) is followed by the idle wait for the next event; a person's key
// release is that event, xdotool's press and release come together.
constexpr const char* kScriptFunctions =
    "shot() { _before=$(ls *.png 2> /dev/null | wc -l); xdotool key s; "
    "until [ \"$(ls *.png 2> /dev/null | wc -l)\" -gt \"$_before\" ]; do "
    "if ! kill -0 \"$pid\" 2> /dev/null; then echo 'test script: the viewer ended before it saved a screenshot' >&2; "
    "return 1; fi; sleep 0.02; done; "
    "for _f in *.png; do grep -qxF \"$_f\" shots.txt 2> /dev/null || echo \"$_f\" >> shots.txt; done; }; "
    "vhist_waits() { sed -n 's/.* idle waits \\([0-9]*\\),.*/\\1/p' \"$VHIST_TEST_STATE\" 2> /dev/null; }; "
    "settled() { _w=$(vhist_waits); until [ \"$(vhist_waits)\" -gt \"${_w:-0}\" ]; do "
    "if ! kill -0 \"$pid\" 2> /dev/null; then echo 'test script: the viewer ended before it settled' >&2; return 1; fi; "
    "xdotool key Shift_L; sleep 0.02; done; }; "
    "quit() { xdotool key q; while kill -0 \"$pid\" 2> /dev/null; do xdotool key Shift_L; sleep 0.02; done; }; ";

ScriptedRun run_scripted(const std::string& settings, const std::string& args, const std::string& script) {
  static std::atomic<int> counter{0};
  const fs::path dir = clip_dir() / ("scripted-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir / "config" / "vhist");
  std::ofstream(dir / "config" / "vhist" / "settings.ini", std::ios::binary) << "timeline = false\n" << settings;
  const std::string inner = test::beside_viewer(quote(VHIST_BINARY) + " " + args, std::string(kScriptFunctions) + script);
  ScriptedRun s;
  s.run.dir = dir;
  s.run.command = "cd " + quote(dir.string()) + " && env -u XDG_PICTURES_DIR XDG_CONFIG_HOME=" +
                  quote((dir / "config").string()) +
                  " VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "sh -c " + quote(inner) +
                  " > stdout.txt 2> stderr.txt";
  const auto start = std::chrono::steady_clock::now();
  const int raw = std::system(s.run.command.c_str());
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  s.run.err = read_file(dir / "stderr.txt");
  // The order shot() noted, then any other screenshot (none, unless S was pressed outside it) by time.
  std::vector<fs::path> files;
  std::istringstream taken(read_file(dir / "shots.txt"));
  for (std::string name; std::getline(taken, name);) {
    if (!name.empty()) files.push_back(dir / name);
  }
  std::vector<fs::path> others;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".png" && std::find(files.begin(), files.end(), e.path()) == files.end()) {
      others.push_back(e.path());
    }
  }
  std::sort(others.begin(), others.end(), [](const fs::path& a, const fs::path& b) {
    return fs::last_write_time(a) < fs::last_write_time(b);
  });
  files.insert(files.end(), others.begin(), others.end());
  for (const auto& f : files) s.shots.push_back(media::read_png(f.string()));
  return s;
}

// The state line the viewer printed at its exit ("vhist: state: ..."); empty without one.
std::string exit_state(const ViewerRun& r) {
  const auto at = r.err.find("vhist: state: ");
  return at == std::string::npos ? std::string() : r.err.substr(at, r.err.find('\n', at) - at);
}

// Pixels of `img` in the rectangle that are near white (OSD text; the clip has none).
int white_pixels(const media::RgbaImage& img, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const Rgb p = pixel(img, x, y);
      if (p[0] > 200 && p[1] > 200 && p[2] > 200) ++n;
    }
  }
  return n;
}

// With the panel hidden, space pauses and says so at the top left of the picture; S saves a
// screenshot named after the clip in the current folder; q quits at once. The first screenshot
// once the OSD's line about the opening has gone, the second once space has paused.
TEST(Keys, PauseShowsTheOsdAndQQuits) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const ScriptedRun s = run_scripted(std::string(kPixelSettings) + "osd = true\n", quote(two_colour_clip()) + " --size 640x360 --quit-after 150",
                                     "wait_state 'osd log \"Opened red_blue[.]mkv.*osd hidden'; shot; xdotool key space; "
                                     "wait_state ' s, paused, .*osd shown'; shot; quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  EXPECT_LT(s.seconds, 60) << "q did not quit\n" << context(s.run);
  ASSERT_EQ(s.shots.size(), 2u) << "S saved no screenshot\n" << context(s.run);
  for (const auto& e : fs::directory_iterator(s.run.dir)) {
    if (e.path().extension() == ".png") {
      EXPECT_TRUE(e.path().filename().string().starts_with("red_blue-00m")) << e.path();
    }
  }
  EXPECT_EQ(white_pixels(s.shots[0], 0, 0, 200, 40), 0) << "an OSD before any key";
  EXPECT_GT(white_pixels(s.shots[1], 0, 0, 200, 40), 10) << "no OSD after space";
}

// Esc closes the file browser and does not quit; a second Esc (nothing open, not fullscreen)
// does not quit either: after it the viewer still draws (it follows the pointer: the state line
// at its exit, which q asks for, has the pointer where the script moved it last).
TEST(Keys, EscapeClosesTheBrowserAndNeverQuits) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  std::string settings = kPixelSettings;
  settings.replace(settings.find("show_panel = false"), 18, "show_panel = true");
  // The Browse button: the first row of the panel, at its right end (panel from x = 921.6).
  const ScriptedRun s = run_scripted(settings, quote(two_colour_clip()) + " --size 1280x720 --paused-at 0 --quit-after 150",
                                     "wait_state 'frame at 0[.]000 s'; xdotool mousemove --window $W 1240 36 mousedown 1; "
                                     "wait_state 'mouse 1240,36 down 100'; xdotool mouseup 1; wait_state 'browser open'; shot; "
                                     "xdotool key Escape; wait_state 'browser closed'; shot; xdotool key Escape; shot; "
                                     "xdotool mousemove --window $W 640 500; wait_state 'mouse 640,500 down 000'; quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  EXPECT_NE(exit_state(s.run).find("mouse 640,500 down 000"), std::string::npos) << "Esc quit\n" << context(s.run);
  ASSERT_EQ(s.shots.size(), 3u) << context(s.run);
  // The browser (a modal dialog in the middle) hides the video there; after Esc the video is back.
  const auto primary = [](const Rgb& p) { return p == kRed || p == kBlue; };
  EXPECT_FALSE(primary(pixel(s.shots[0], 500, 300))) << describe(pixel(s.shots[0], 500, 300)) << ": no browser";
  EXPECT_TRUE(primary(pixel(s.shots[1], 500, 300))) << describe(pixel(s.shots[1], 500, 300)) << ": browser still open";
  EXPECT_TRUE(primary(pixel(s.shots[2], 500, 300))) << describe(pixel(s.shots[2], 500, 300));
}

// Hovering a bin shows a tooltip (its code range and counts): light text over the black bins
// right of the mouse, where the picture has none.
TEST(Keys, HoveringABinShowsItsReadout) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const auto [x, y] = bin_centre(split_rgb(640, 360), 2);
  // S leaves tooltips out of screenshots unless told to keep them.
  // Two moves, each seen by a frame (the tooltip appears in the frame after the one it began in).
  const std::string at = std::to_string(x) + " " + std::to_string(y), next = std::to_string(x + 1) + " " + std::to_string(y);
  const ScriptedRun s = run_scripted(std::string(kPixelSettings) + "screenshot_tooltips = true\n",
                                     quote(two_colour_clip()) + " --size 640x360 --paused-at 0 --quit-after 150",
                                     "wait_state 'frame at 0[.]000 s'; settled; shot; xdotool mousemove --window $W " + at +
                                         "; wait_state 'mouse " + std::to_string(x) + "," + std::to_string(y) +
                                         " down'; xdotool mousemove --window $W " + next + "; wait_state 'mouse " +
                                         std::to_string(x + 1) + "," + std::to_string(y) + " down'; shot; quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  ASSERT_EQ(s.shots.size(), 2u) << context(s.run);
  // ImGui puts the tooltip below right of the mouse, or above it where there is no room below.
  const int y0 = std::max(y - 90, 0), y1 = std::min(y + 60, 360);
  // The panel's axis labels are white too: the tooltip is what the second shot adds.
  const int before = white_pixels(s.shots[0], x, y0, x + 200, y1);
  EXPECT_GT(white_pixels(s.shots[1], x, y0, x + 200, y1), before + 10) << "no tooltip over bin 2";
}

// A file that cannot be opened is reported on the picture (red, top left) with the panel hidden.
TEST(BadInput, FailureIsShownWithThePanelHidden) {
  const std::string path = (clip_dir() / "missing.mkv").string();
  const ViewerRun r = run_viewer(kPixelSettings, quote(path) + " --frames 3 --size 640x360");
  const KeepScreenshot keep(r);
  EXPECT_EQ(r.status, 2) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  int red = 0;
  for (int yy = 0; yy < 40; ++yy) {
    for (int xx = 0; xx < 400; ++xx) {
      const Rgb p = pixel(r.shot, xx, yy);
      if (p[0] > 180 && p[1] < 160 && p[2] < 160) ++red;
    }
  }
  EXPECT_GT(red, 20) << "no red message at the top of the picture";
}
// A left drag across the video sets a region of interest, outlined in yellow on the picture at
// the stored pixels the drag spanned (the 320x180 clip shown 2x in 640x360); R clears it.
TEST(Keys, DragSetsARegionAndRClearsIt) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  // Each step of the drag seen by a frame before the next (the state line's pointer and buttons).
  const ScriptedRun s = run_scripted(kPixelSettings, quote(two_colour_clip()) + " --size 640x360 --paused-at 0 --quit-after 150",
                                     "wait_state 'frame at 0[.]000 s'; xdotool mousemove --window $W 60 40 mousedown 1; "
                                     "wait_state 'mouse 60,40 down 100'; xdotool mousemove --window $W 160 90; "
                                     "wait_state 'mouse 160,90 down 100'; xdotool mousemove --window $W 260 140; "
                                     "wait_state 'mouse 260,140 down 100'; xdotool mouseup 1; "
                                     "wait_state 'region [0-9].*mouse 260,140 down 000'; xdotool mousemove --window $W 600 20; "
                                     "wait_state 'mouse 600,20 down 000'; shot; xdotool key r; wait_state 'region none'; shot; "
                                     "quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  ASSERT_EQ(s.shots.size(), 2u) << context(s.run);
  const auto yellow_in = [](const media::RgbaImage& img, int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const Rgb p = pixel(img, x, y);
        if (p[0] > 200 && p[1] > 170 && p[2] < 90) ++n;
      }
    }
    return n;
  };
  // The outline's left and right edges (x 60 and 262, +-3) along the rows between its corners,
  // and nothing yellow well inside it or after R.
  EXPECT_GT(yellow_in(s.shots[0], 57, 70, 64, 130), 40) << "no left edge";
  EXPECT_GT(yellow_in(s.shots[0], 258, 70, 266, 130), 40) << "no right edge";
  EXPECT_EQ(yellow_in(s.shots[0], 120, 100, 240, 130), 0) << "the region's inside is drawn over";
  EXPECT_EQ(yellow_in(s.shots[1], 0, 0, 640, 360), 0) << "R left the outline";
}

// In a letterboxed picture (320x180 fitted into 640x480: scale 2, at y 60..420) a click pins the
// pixel under it and marks it (a yellow box with ticks) right there: (200, 150) is stored pixel
// (100, 45), whose centre is at (201, 151). A click on a bar pins nothing, a drag that starts on
// one sets no region, and a drag across the video outlines exactly the stored pixels it spanned:
// from (60, 100) to (260, 180), stored columns 30..130 and rows 20..60, at x 60..262, y 100..182.
TEST(Keys, PinAndRegionLandOnTheFittedPicture) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  // Each press, move and release seen by a frame before the next step (the state line's pointer
  // and buttons); a click's pin once it has settled ("pinned"), a press's lack of one once its
  // release has been seen with none pending. Between two presses on the picture (the letterbox
  // bars are part of it) the viewer must see more than its double-click time (0.4 s) go by, or
  // they toggle fullscreen: the pin's settling is that wait after the first press; after the
  // other two, which leave nothing to settle, the script sleeps 0.5 s once the viewer has seen
  // the release (a lower bound, not a guess that something is done; the viewer reports no state
  // for it, and draws nothing while it waits). The run's end checks no double click happened.
  const std::string see = "wait_state 'mouse ";  // the rest: "X,Y down LRM'"
  const ScriptedRun s = run_scripted(
      std::string(kPixelSettings) + kNoChannels,
      quote(two_colour_clip()) + " --size 640x480 --fit fit --paused-at 0 --quit-after 150",
      "wait_state 'frame at 0[.]000 s'; xdotool mousemove --window $W 200 150 mousedown 1; " + see + "200,150 down 100'; "
      "xdotool mouseup 1; wait_state 'pinned [0-9]'; xdotool mousemove --window $W 630 470; " + see + "630,470 down 000'; "
      "shot; xdotool mousedown 3; " + see + "630,470 down 010'; xdotool mouseup 3; "
      "wait_state 'pinned none, .*mouse 630,470 down 000'; "
      "xdotool mousemove --window $W 300 30 mousedown 1; " + see + "300,30 down 100'; xdotool mouseup 1; "
      "wait_state 'mouse 300,30 down 000, browser closed, pending pin none'; sleep 0.5; "
      "xdotool mousedown 1; " + see + "300,30 down 100'; xdotool mousemove --window $W 350 200; " + see +
      "350,200 down 100'; xdotool mousemove --window $W 400 250; " + see + "400,250 down 100'; xdotool mouseup 1; "
      "wait_state 'mouse 400,250 down 000, browser closed, pending pin none'; "
      "xdotool mousemove --window $W 630 470; " + see + "630,470 down 000'; shot; sleep 0.5; "
      "xdotool mousemove --window $W 60 100 mousedown 1; " + see + "60,100 down 100'; "
      "xdotool mousemove --window $W 160 140; " + see + "160,140 down 100'; xdotool mousemove --window $W 260 180; " + see +
      "260,180 down 100'; xdotool mouseup 1; wait_state 'region [0-9].*mouse 260,180 down 000'; "
      "xdotool mousemove --window $W 630 470; " + see + "630,470 down 000'; shot; quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  EXPECT_NE(exit_state(s.run).find("fullscreen off (0 toggles)"), std::string::npos) << "two presses made a double click\n"
                                                                                    << context(s.run);
  ASSERT_EQ(s.shots.size(), 3u) << context(s.run);
  const auto yellow_in = [](const media::RgbaImage& img, int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const Rgb p = pixel(img, x, y);
        if (p[0] > 200 && p[1] > 170 && p[2] < 90) ++n;
      }
    }
    return n;
  };
  // The mark: yellow within 12 pixels of (201, 151), on all four sides of it, and nowhere else.
  EXPECT_GT(yellow_in(s.shots[0], 189, 148, 199, 155), 3) << "no mark left of the pixel";
  EXPECT_GT(yellow_in(s.shots[0], 204, 148, 214, 155), 3) << "no mark right of the pixel";
  EXPECT_GT(yellow_in(s.shots[0], 198, 139, 205, 149), 3) << "no mark above the pixel";
  EXPECT_GT(yellow_in(s.shots[0], 198, 154, 205, 164), 3) << "no mark below the pixel";
  const int near = yellow_in(s.shots[0], 189, 139, 214, 164);
  EXPECT_EQ(yellow_in(s.shots[0], 0, 0, 640, 480), near) << "yellow away from the pinned pixel";
  EXPECT_EQ(yellow_in(s.shots[1], 0, 0, 640, 480), 0) << "a pin or region from a press on a bar";
  EXPECT_GT(yellow_in(s.shots[2], 57, 120, 64, 170), 40) << "no left edge";
  EXPECT_GT(yellow_in(s.shots[2], 258, 120, 266, 170), 40) << "no right edge";
  EXPECT_GT(yellow_in(s.shots[2], 80, 97, 240, 104), 100) << "no top edge";
  EXPECT_GT(yellow_in(s.shots[2], 80, 178, 240, 186), 100) << "no bottom edge";
  EXPECT_EQ(yellow_in(s.shots[2], 57, 60, 266, 95), 0) << "the outline is above the rows dragged";
}

// A (the fit key) from fit to cover: the note appears (amber, top right) and a pinned pixel the
// cover crops away is pointed at by an arrow at the picture's edge. 320x180 in 640x480: (20, 150)
// under fit (scale 2, y from 60) is stored (10, 45); under cover (scale 8/3, x from -106.7) its
// centre is at (-78.7, 121.3), left of the picture: the arrow sits at x 10, y 121.
TEST(Keys, FitKeyCoversAndPointsAtACroppedPin) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const ScriptedRun s = run_scripted(
      std::string(kPixelSettings) + kNoChannels + "fit = fit\n",
      quote(two_colour_clip()) + " --size 640x480 --paused-at 0 --quit-after 150",
      "wait_state 'frame at 0[.]000 s'; xdotool mousemove --window $W 20 150 mousedown 1; wait_state 'mouse 20,150 down 100'; "
      "xdotool mouseup 1; wait_state 'pinned [0-9]'; xdotool mousemove --window $W 630 470; "
      "wait_state 'mouse 630,470 down 000'; shot; xdotool key a; wait_state 'osd log \"[^\"]*Fit: cover'; shot; "
      "quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  ASSERT_EQ(s.shots.size(), 2u) << context(s.run);
  const auto yellow_in = [](const media::RgbaImage& img, int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        const Rgb p = pixel(img, x, y);
        if (p[0] > 200 && p[1] > 170 && p[2] < 90) ++n;
      }
    }
    return n;
  };
  EXPECT_EQ(amber_pixels(s.shots[0], 200, 0, 640, 120), 0) << "a note under fit";
  EXPECT_GT(yellow_in(s.shots[0], 8, 140, 34, 162), 10) << "no mark at the pinned pixel";
  EXPECT_GT(amber_pixels(s.shots[1], 200, 0, 640, 120), 40) << "no note after A (cover)";
  const int arrow = yellow_in(s.shots[1], 0, 108, 24, 134);
  EXPECT_GT(arrow, 10) << "no arrow at the left edge";
  // Away from the note (its amber passes for yellow here).
  EXPECT_EQ(yellow_in(s.shots[1], 0, 0, 200, 90) + yellow_in(s.shots[1], 0, 90, 640, 480), arrow)
      << "yellow away from the arrow";
}

// 1:1: the ramp clip (320x180; R = round(255 x / 319), G = round(255 y / 179)) in a 240x160
// window sits at x -40..280, y -10..170, so window pixel (x, y) shows stored (x + 40, y + 10). A
// middle-button drag by (-30, -5) moves it to (x + 70, y + 15); a further drag far right is held
// where the left edge reaches the window's (stored x + 0).
TEST(Keys, MiddleDragPansAOneToOnePicture) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  // Each step of a drag seen by a frame before the next (the state line's pointer and buttons).
  // The first move off the window needs no wait: the frame that takes the screenshot reads the
  // pointer where it is (and a move from outside the window to outside it is no event to wait on).
  const ScriptedRun s = run_scripted(
      std::string(kPixelSettings) + kNoChannels + "fit = 1:1\n",
      quote(ramp_clip()) + " --size 240x160 --paused-at 0 --quit-after 150",
      "wait_state 'frame at 0[.]000 s'; xdotool mousemove --window $W 300 300; shot; "
      "xdotool mousemove --window $W 120 80 mousedown 2; wait_state 'mouse 120,80 down 001'; "
      "xdotool mousemove --window $W 105 78; wait_state 'mouse 105,78 down 001'; "
      "xdotool mousemove --window $W 90 75; wait_state 'mouse 90,75 down 001'; xdotool mouseup 2; "
      "wait_state 'mouse 90,75 down 000'; xdotool mousemove --window $W 300 300; wait_state 'mouse 300,300 down 000'; shot; "
      "xdotool mousemove --window $W 20 80 mousedown 2; wait_state 'mouse 20,80 down 001'; "
      "xdotool mousemove --window $W 120 80; wait_state 'mouse 120,80 down 001'; "
      "xdotool mousemove --window $W 230 80; wait_state 'mouse 230,80 down 001'; xdotool mouseup 2; "
      "wait_state 'mouse 230,80 down 000'; xdotool mousemove --window $W 300 300; wait_state 'mouse 300,300 down 000'; shot; "
      "quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  ASSERT_EQ(s.shots.size(), 3u) << context(s.run);
  const auto shows = [](const media::RgbaImage& img, int x, int y, int sx, int sy, const std::string& what) {
    const Rgb want{static_cast<int>(std::lround(255.0 * sx / 319)), static_cast<int>(std::lround(255.0 * sy / 179)), 128};
    return colour_at(img, x, y, want, 1, what);
  };
  // Points clear of the note (top right: what 1:1 hides).
  for (const auto& [x, y] : {std::pair{10, 60}, std::pair{60, 130}, std::pair{150, 140}}) {
    EXPECT_TRUE(shows(s.shots[0], x, y, x + 40, y + 10, "before the drag"));
    EXPECT_TRUE(shows(s.shots[1], x, y, x + 70, y + 15, "dragged by (-30, -5)"));
    EXPECT_TRUE(shows(s.shots[2], x, y, x, y + 15, "dragged far right, held at the left edge"));
  }
}


// --- exposure tools and the reference, end to end in a real window ----------------------------
// The red | blue clip shown 2x in 640x360; rows 60-100 are picture only (no panel, no labels).

// The colour over most of a rectangle: every sampled pixel within `tolerance` of `want`.
::testing::AssertionResult area_is(const media::RgbaImage& img, int x0, int x1, const Rgb& want, int tolerance,
                                   const std::string& what) {
  for (int y = 60; y < 100; y += 8) {
    for (int x = x0; x < x1; x += 16) {
      if (auto ok = colour_at(img, x, y, want, tolerance, what); !ok) return ok;
    }
  }
  return ::testing::AssertionSuccess();
}

// False colour: pure red's luma (54 of 255, 21%) lies in a grey band and is drawn as grey 54;
// pure blue's (18, 7%) in the 2.5-10% band, drawn in that band's blue (0x2060ff).
TEST(ExposureTools, FalseColourPaintsTheBands) {
  for (const char* engine : {"gpu", "cpu"}) {
    const ViewerRun r = run_viewer(kPixelSettings,
                                   quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 --false-colour on",
                                   std::string("VHIST_ENGINE=") + engine);
    const KeepScreenshot keep(r);
    ASSERT_EQ(r.status, 0) << context(r);
    ASSERT_TRUE(r.has_shot) << context(r);
    EXPECT_TRUE(area_is(r.shot, 8, 312, {54, 54, 54}, 2, std::string("red half, ") + engine));
    EXPECT_TRUE(area_is(r.shot, 328, 632, {32, 96, 255}, 2, std::string("blue half, ") + engine));
  }
}

// A low zebra at 10%: blue (7%) is at or below it and turns solid blue-cyan; red (21%) is not.
TEST(ExposureTools, LowZebraMarksOnlyTheDarkHalf) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 "
                                                                            "--zebra low --zebra-low 10 --zebra-style solid");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  EXPECT_TRUE(area_is(r.shot, 8, 312, {255, 0, 0}, 2, "red half"));
  EXPECT_TRUE(area_is(r.shot, 328, 632, {0, 153, 255}, 2, "blue half"));
}

// --reference and --match: matched to the histograms of a grey frame (every channel at 128),
// every code of every channel maps to 128, so right of the divider the picture is grey while
// left of it stays the original red.
TEST(ExposureTools, MatchingToAGreyReferenceTurnsThePictureGrey) {
  const std::string grey = make_clip("grey128.mkv", "-f lavfi -i color=c=0x808080:s=160x90:r=25,format=gbrp "
                                                    "-frames:v 2 -c:v ffv1 -pix_fmt gbrp");
  const fs::path reference = clip_dir() / "grey128.jsonl";
  const std::string analyze = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " analyze " + quote(grey) + " -q > " +
                              quote(reference.string());
  ASSERT_EQ(std::system(analyze.c_str()), 0) << analyze;
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 8 --paused-at 0 --size 640x360 "
                                                 "--reference " + quote(reference.string()) + " --match on --split 0.5");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  EXPECT_TRUE(area_is(r.shot, 8, 300, {255, 0, 0}, 2, "original, left of the divider"));
  EXPECT_TRUE(area_is(r.shot, 340, 632, {128, 128, 128}, 3, "matched, right of the divider"));
}

// Clipping in a real window: the red | blue clip has R and B half at 0 and half at 255, G all at
// 0, luma none at either end. The RGB panel's top left corner holds R, G and B's markers (grey,
// all three), its top right R and B's (magenta); the luma panel's corners none.
TEST(ClipMarkers, CornersShowTheClippedChannels) {
  const ViewerRun r = run_viewer(kPixelSettings, quote(two_colour_clip()) + " --frames 3 --size 640x360");
  const KeepScreenshot keep(r);
  ASSERT_EQ(r.status, 0) << context(r);
  ASSERT_TRUE(r.has_shot) << context(r);
  // The bars are 67 px tall: a marker of 50% of the pixels has legs of 25 px (6 + 20.8 x 0.925).
  // Probe 20 px in and 2 down, past the end bin's own column (18 px at 16 bins), where only the
  // marker can colour the background.
  const Rect rgb = split_rgb(640, 360), luma = split_luma(640, 360);
  const int top = static_cast<int>(std::ceil(rgb.y0)) + 2;
  EXPECT_TRUE(colour_at(r.shot, static_cast<int>(rgb.x0) + 20, top, kGrey, 2, "low-end marker: R, G and B"));
  EXPECT_TRUE(colour_at(r.shot, static_cast<int>(rgb.x1) - 21, top, kMagenta, 2, "high-end marker: R and B"));
  EXPECT_TRUE(colour_at(r.shot, static_cast<int>(rgb.x0) + 20, top + 20, kBlack, 2, "below the marker: background"));
  EXPECT_TRUE(colour_at(r.shot, static_cast<int>(luma.x0) + 20, top, kBlack, 2, "no luma at code 0: no marker"));
  EXPECT_TRUE(colour_at(r.shot, static_cast<int>(luma.x1) - 21, top, kBlack, 2, "no luma at 255: no marker"));
}

// A PQ clip (10-bit HEVC, BT.2020) decoded and drawn in a real window: tone-mapped by default,
// as code values with --tone-map off; the picture says which (amber when not mapped); the
// histogram panels (opaque) are the same pixel for pixel either way.
TEST(Hdr, PqClipIsToneMappedAndSaysSo) {
  // A grey ramp across (saturated primaries at the top code would map to themselves).
  const std::string pq = make_clip("pq_ramp.mp4", "-f lavfi -i nullsrc=s=320x180:r=25,format=gbrp,"
                                                  "geq=r='X*255/319':g='X*255/319':b='X*255/319'," +
                                                      ycbcr_vf("bt2020nc", "yuv420p10le") + " -frames:v 3 -c:v libx265 "
                                                  "-pix_fmt yuv420p10le -x265-params "
                                                     "'colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"
                                                     "log-level=error'");
  const ViewerRun on = run_viewer(kPixelSettings, quote(pq) + " --frames 3 --paused-at 0 --size 640x360");
  const ViewerRun off = run_viewer(kPixelSettings, quote(pq) + " --frames 3 --paused-at 0 --size 640x360 --tone-map off");
  const KeepScreenshot keep_on(on), keep_off(off);
  ASSERT_EQ(on.status, 0) << context(on);
  ASSERT_EQ(off.status, 0) << context(off);
  ASSERT_TRUE(on.has_shot && off.has_shot);
  const auto amber = [](const media::RgbaImage& img) {
    int n = 0;
    for (int y = 0; y < 30; ++y) {
      for (int x = 200; x < 640; ++x) {
        const Rgb p = pixel(img, x, y);
        n += p[0] > 220 && p[1] > 160 && p[1] < 230 && p[2] < 130 ? 1 : 0;
      }
    }
    return n;
  };
  EXPECT_GT(amber(off.shot), 30) << "'HDR PQ shown as code values, not tone-mapped' in amber";
  EXPECT_LT(amber(on.shot), 5);
  EXPECT_GT(white_pixels(on.shot, 200, 0, 600, 30), 30) << "'HDR PQ tone-mapped to SDR: ...'";
  // Mid-grey (code 512 of 1023, about 92 cd/m2) is shown near (92 / 203)^(1 / 2.4), about 180
  // of 255, not at its code's 128.
  const Rgb mid_on = pixel(on.shot, 320, 150), mid_off = pixel(off.shot, 320, 150);
  EXPECT_NEAR(mid_off[1], 128, 8) << "the code as it is";
  EXPECT_NEAR(mid_on[1], 180, 10) << "the light of the code, tone-mapped";
  for (const Rect& q : {split_rgb(640, 360), split_luma(640, 360)}) {
    for (int y = static_cast<int>(std::ceil(q.y0)); y < static_cast<int>(q.y1); ++y) {
      for (int x = static_cast<int>(std::ceil(q.x0)); x < static_cast<int>(q.x1); ++x) {
        ASSERT_EQ(pixel(on.shot, x, y), pixel(off.shot, x, y)) << "the histograms count codes either way, at " << x << "," << y;
      }
    }
  }
}

// The keys: K keeps frame 0's histograms (red | blue) as the reference, period steps to frame 1
// (grey 128), M matches it to the reference. Every pixel of the grey frame sits at the top of
// its CDF, so each channel maps to the reference's highest code: R 255, G 0 (the reference has
// no green), B 255: magenta.
TEST(Keys, KeepStepAndMatchRecolourTheNextFrame) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = make_clip("red_blue_then_grey.mkv",
                                     "-f lavfi -i color=c=0xFF0000:s=160x180:r=25:d=0.04,format=gbrp "
                                     "-f lavfi -i color=c=0x0000FF:s=160x180:r=25:d=0.04,format=gbrp "
                                     "-f lavfi -i color=c=0x808080:s=320x180:r=25:d=0.08,format=gbrp "
                                     "-filter_complex '[0:v][1:v]hstack=inputs=2[a];[a][2:v]concat=n=2:v=1' "
                                     "-c:v ffv1 -pix_fmt gbrp");
  const ScriptedRun s = run_scripted(kPixelSettings, quote(clip) + " --size 640x360 --paused-at 0 --quit-after 150",
                                     "wait_state 'frame at 0[.]000 s'; settled; xdotool key k; "
                                     "wait_state 'osd log \"[^\"]*(Reference: |No histogram)'; xdotool key period; "
                                     "wait_state 'frame at 0[.]040 s'; shot; xdotool key m; wait_state 'match on'; shot; "
                                     "quit");
  EXPECT_EQ(s.run.status, 0) << context(s.run);
  ASSERT_EQ(s.shots.size(), 2u) << context(s.run);
  EXPECT_TRUE(area_is(s.shots[0], 8, 632, {128, 128, 128}, 2, "frame 1 before M"));
  EXPECT_TRUE(area_is(s.shots[1], 8, 632, {255, 0, 255}, 2, "frame 1 matched to frame 0"));
}

// --- --hwdec (issue 27) ------------------------------------------------------------------------

// A 4:2:0 H.264 clip (a decoder NVDEC has), 320x180, its colours in fixed places.
std::string h264_clip() {
  return make_clip("hwdec_h264.mp4", "-f lavfi -i testsrc2=size=320x180:rate=25 -frames:v 3 -c:v libx264 -pix_fmt yuv420p");
}

// Where NVDEC cannot be used (here: lavapipe is not an NVIDIA GPU), --hwdec auto and nvdec decode
// on the CPU and say why: stderr, the OSD (its log in the test state line), the panel's decoder
// line (in the state line too), and the picture is
// the one --hwdec no draws (the video and histograms, below the OSD's lines and left of the panel,
// whose decoder line differs). `vhist analyze` on the same clip and device says the same line
// (one rule, hwdec::choose_decoding). On an NVIDIA GPU with CUDA the fallback is not what runs:
// skipped.
TEST(Hwdec, FallbackSaysWhyAndDrawsTheSamePicture) {
  const std::string clip = h264_clip();
  const std::string args = quote(clip) + " --frames 6 --paused-at 0 --size 1280x720";
  const ViewerRun plain = run_viewer(kPixelSettings, args + " --hwdec no");
  ASSERT_EQ(plain.status, 0) << context(plain);
  ASSERT_TRUE(plain.has_shot) << context(plain);
  EXPECT_EQ(plain.err.find("--hwdec"), std::string::npos) << "--hwdec no says nothing\n" << context(plain);
  EXPECT_NE(plain.err.find("panel decoder line \"\""), std::string::npos) << "nor has a decoder line\n" << context(plain);
  for (const std::string mode : {"auto", "nvdec"}) {
    const ViewerRun r = run_viewer(kPixelSettings, args + " --hwdec " + mode);
    ASSERT_EQ(r.status, 0) << context(r);
    ASSERT_TRUE(r.has_shot) << context(r);
    if (r.err.find("decoding on the CPU") == std::string::npos && r.err.find("NVIDIA") == std::string::npos) {
      GTEST_SKIP() << "NVDEC decodes here: the fallback is not what runs\n" << context(r);
    }
    const std::string said = mode == "auto" ? "vhist: --hwdec auto: decoding on the CPU: the Vulkan device "
                                            : "vhist: warning: --hwdec nvdec: NVDEC cannot be used (the Vulkan device ";
    EXPECT_NE(r.err.find(said), std::string::npos) << context(r);
    EXPECT_NE(r.err.find("is not an NVIDIA GPU"), std::string::npos) << context(r);
    // vhist analyze decides by the same rule (hwdec::choose_decoding): on the same clip and device
    // it says the same line after its own prefix.
    const fs::path analyze_err = r.dir / "analyze.err";
    const std::string analyze = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " analyze " + quote(clip) + " --hwdec " + mode +
                                " --format jsonl -o " + quote((r.dir / "analyze.jsonl").string()) + " 2> " +
                                quote(analyze_err.string());
    EXPECT_EQ(std::system(analyze.c_str()), 0) << analyze;
    std::string analyze_line;
    std::istringstream analyze_lines(read_file(analyze_err));
    for (std::string line; std::getline(analyze_lines, line);) {
      if (line.rfind("vhist analyze: ", 0) == 0 && line.find("--hwdec") != std::string::npos) analyze_line = line;
    }
    ASSERT_FALSE(analyze_line.empty()) << "analyze said no --hwdec line\n" << read_file(analyze_err);
    EXPECT_NE(r.err.find("vhist: " + analyze_line.substr(15) + "\n"), std::string::npos)
        << "analyze: " << analyze_line << "\n" << context(r);
    EXPECT_NE(r.err.find("panel decoder line \"decoder h264 (CPU; --hwdec " + mode + ": the Vulkan device "),
              std::string::npos) << context(r);
    const auto osd = r.err.find("osd log \"Opened hwdec_h264.mp4 | ");
    EXPECT_NE(osd, std::string::npos) << "the OSD says it after the open\n" << context(r);
    if (osd != std::string::npos) {
      EXPECT_NE(r.err.find(said.substr(7), osd), std::string::npos) << context(r);
    }
    std::size_t differ = 0;
    for (std::uint32_t y = 64; y < 720; ++y) {
      for (std::uint32_t x = 0; x < 900; ++x) differ += plain.shot.at(x, y) != r.shot.at(x, y) ? 1 : 0;
    }
    EXPECT_EQ(differ, 0u) << "--hwdec " << mode << " drew another picture than --hwdec no\n" << context(r);
  }
}

}  // namespace
}  // namespace vhist
