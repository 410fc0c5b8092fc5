// The bins a frame is drawn in, resolved once when the frame is known (bins_for_frame): a
// setting of 1024 bins, saved for a 10-bit clip, draws an 8-bit frame in 256, and the readouts
// that turn a pointer's bin into codes (the hover tooltip, a dragged range) use the same 256. In
// a real window under Xvfb (validation on): a drag across the R'G'B' histogram, the kept range
// read from the viewer's state line.
#include "test_clips.h"

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace vhist {
namespace {

namespace fs = std::filesystem;
using test::clip_dir;
using test::make_clip;
using test::quote;
using test::read_file;

bool have_xdotool() { return std::system("command -v xdotool > /dev/null 2>&1") == 0; }

// The kept range after a drag from x 60 to x 150 at y 300 over the bars of a 640x360 window
// (the panel hidden: the R'G'B' bars span 288 pixels from x = 16), with `bins` saved; the
// state line's "kept range MASK:LOW-HIGH".
std::string dragged_range(const std::string& clip, const std::string& name, int bins) {
  const fs::path dir = clip_dir() / ("bins-" + name);
  fs::create_directories(dir / "config" / "vhist");
  std::ofstream(dir / "config" / "vhist" / "settings.ini", std::ios::binary)
      << "show_panel = false\nosd = false\ntimeline = false\nbins = " << bins << "\n";
  const std::string viewer = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " " + quote(clip) +
                             " --size 640x360 --paused-at 1 --quit-after 150 2> stderr.txt";
  const std::string script =
      "wait_state 'frame at 1.000 s'; xdotool mousemove --window $W 60 300 mousedown 1; wait_frames 2; "
      "xdotool mousemove --window $W 100 300; wait_frames 2; xdotool mousemove --window $W 150 300; wait_frames 2; "
      "xdotool mouseup 1; wait_state 'kept range [0-9]'; xdotool key q";
  const std::string command = "cd " + quote(dir.string()) + " && env -u XDG_PICTURES_DIR XDG_CONFIG_HOME=" +
                              quote((dir / "config").string()) + " timeout -k 10 200 " + test::with_display("1280x720") +
                              "sh -c " + quote(test::beside_viewer(viewer, script)) + " > stdout.txt";
  const int raw = std::system(command.c_str());
  const std::string err = read_file(dir / "stderr.txt");
  EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << command << "\n" << err;
  const auto at = err.find("kept range ");
  return at == std::string::npos ? "(no state line)\n" + err : err.substr(at + 11, err.find(',', at) - at - 11);
}

// 8-bit: 256 codes over the 288 pixels, one code a bin whatever the setting above 256: x 60 is
// code floor(44 / 288 * 256) = 39, x 150 code floor(134 / 288 * 256) = 119 (with the setting's
// 1024 bins the range read 39-118: the last bin's codes were counted as if 4 bins shared a code).
TEST(Bins, ADeeperSettingDrawsAnEightBitFrameInItsCodes) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = make_clip("bins_8bit.mkv", "-f lavfi -i testsrc2=s=320x180:r=10:d=2 -pix_fmt yuv420p -c:v ffv1");
  EXPECT_EQ(dragged_range(clip, "8bit-1024", 1024), "7:39-119");
  EXPECT_EQ(dragged_range(clip, "8bit-256", 256), "7:39-119");
}

// 10-bit: the setting's 1024 bins are drawn, one code a bin: x 60 is code floor(44 / 288 *
// 1024) = 156, x 150 code floor(134 / 288 * 1024) = 476.
TEST(Bins, TenBitFrameKeepsTheSettingsBins) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip =
      make_clip("bins_10bit.mkv", "-f lavfi -i testsrc2=s=320x180:r=10:d=2 -pix_fmt yuv420p10le -c:v ffv1");
  EXPECT_EQ(dragged_range(clip, "10bit-1024", 1024), "7:156-476");
}

}  // namespace
}  // namespace vhist
