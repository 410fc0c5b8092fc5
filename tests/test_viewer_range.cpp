// The viewer's panel on the range tag, in a real window under Xvfb (validation on): honest
// limited-range grain over black (half its luma below 16) shows its legal range in the text
// colour and no amber word; full-range codes tagged limited, and limited codes tagged full,
// show the frame's verdict in amber (range_verdict.h, analyze's rule). The panel's amber is
// ImVec4(1, 0.8, 0.4, 1), (255, 204, 102) on screen, counted in the panel's part of the window;
// the clips carry every colour tag, so that no "assumed" tag is amber either. Both engines.
#include "test_clips.h"

#include "vhist/media/png.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace vhist {
namespace {

namespace fs = std::filesystem;
using test::clip_dir;
using test::make_clip;
using test::ycbcr_tags;
using test::ycbcr_vf;

// The amber pixels in the panel (the window's right part: the documented panel width at
// 1280x960 is 0.28 x 1280 = 358 px; tall enough that the verdict at the panel's foot is not scrolled
// out of view as rows are added above it) of a screenshot of `clip` after 16 frames, panel shown,
// with the given engine (the GPU engine reads the plane counts back from the GPU).
int panel_amber_pixels(const std::string& clip, const std::string& name, const std::string& engine) {
  const fs::path dir = clip_dir() / ("range_panel_" + name + "_" + engine);
  fs::create_directories(dir / "config" / "vhist");
  std::ofstream(dir / "config" / "vhist" / "settings.ini") << "show_panel = true\nosd = false\ntimeline = false\n";
  const fs::path shot = dir / "shot.png";
  const std::string cmd = "cd '" + dir.string() + "' && VHIST_ENGINE=" + engine + " XDG_CONFIG_HOME='" +
                          (dir / "config").string() +
                          "' VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "'" +
                          std::string(VHIST_BINARY) + "' '" + clip + "' --size 1280x960 --frames 16 --screenshot '" +
                          shot.string() + "' > '" + (dir / "out.txt").string() + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << test::read_file(dir / "out.txt");
  if (!fs::exists(shot)) return -1;
  const media::RgbaImage img = media::read_png(shot.string());
  const auto panel_x = static_cast<std::uint32_t>(img.width - 0.28 * img.width);
  int amber = 0;
  for (std::uint32_t y = 0; y < img.height; ++y) {
    for (std::uint32_t x = panel_x; x < img.width; ++x) {
      const std::uint8_t* p = &img.pixels[(std::size_t{y} * img.width + x) * 4];
      amber += p[0] == 255 && p[1] == 204 && p[2] == 102;
    }
  }
  return amber;
}

// 10 frames of 320x180 H.264 of `source` in `code_range` Y'CbCr (the project's recipe, BT.709's
// matrix) then `filters`, tagged BT.709 and `range`; `quality` x264's rate option (lossless -qp 0
// keeps limited-range codes free of ringing past 16 and 235).
std::string clip_of(const std::string& name, const std::string& source, const std::string& code_range,
                    const std::string& filters, const std::string& range, const std::string& quality = "-crf 20") {
  return make_clip(name, "-f lavfi -i \"" + source + "," + ycbcr_vf("bt709", "yuv420p", code_range) + filters +
                             "\" -frames:v 10 -c:v libx264 -preset veryfast " + quality + " " + ycbcr_tags("bt709", range));
}

TEST(RangePanel, HonestGrainOverBlackRaisesNoAmberWord) {
  const std::string grain = clip_of("panel_grain.mp4", "color=c=black:s=320x180:r=10", "tv", ",noise=alls=40:allf=t", "tv");
  for (const char* engine : {"cpu", "gpu"}) EXPECT_EQ(panel_amber_pixels(grain, "grain", engine), 0) << engine;
}

TEST(RangePanel, MisTaggedFramesSayWhatTheyLookLikeInAmber) {
  const std::string full_as_limited = clip_of("panel_full_as_limited.mp4", "testsrc=s=320x180:r=10", "pc", "", "tv");
  for (const char* engine : {"cpu", "gpu"}) {
    EXPECT_GT(panel_amber_pixels(full_as_limited, "full_as_limited", engine), 200) << engine;
  }
  const std::string limited_as_full = clip_of("panel_limited_as_full.mp4", "testsrc=s=320x180:r=10", "tv", "", "pc", "-qp 0");
  for (const char* engine : {"cpu", "gpu"}) {
    EXPECT_GT(panel_amber_pixels(limited_as_full, "limited_as_full", engine), 200) << engine;
  }
}

}  // namespace
}  // namespace vhist
