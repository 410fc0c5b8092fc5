// The window's picture stored by the present pass (a compute shader, PresentPass) and copied in
// (vkCmdCopyBufferToImage), in a real window under Xvfb (lavapipe, validation on): the viewer run
// twice on the same paused frame, panel shown (the UI drawn over the picture loaded from the
// image), with VHIST_PRESENT=store and =copy, gives the same screenshot, byte for byte, with either
// engine; each run's summary line says which way the picture went, so the store was really taken.
#include "test_clips.h"

#include "vhist/media/png.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace vhist {
namespace {

namespace fs = std::filesystem;

struct PresentRun {
  std::string output;  // stdout and stderr
  bool has_shot = false;
  media::RgbaImage shot;
};

// `clip` opened paused at 0.2 s in a 960x540 window, with VHIST_PRESENT=`present` and the given
// engine; the screenshot after 6 frames.
PresentRun run_with(const std::string& clip, const std::string& present, const std::string& engine) {
  const fs::path dir = test::clip_dir() / ("present_" + present + "_" + engine);
  fs::create_directories(dir / "config" / "vhist");
  std::ofstream(dir / "config" / "vhist" / "settings.ini") << "show_panel = true\nosd = false\nbins = 64\ntimeline = false\n";
  const fs::path shot = dir / "shot.png";
  fs::remove(shot);
  const std::string cmd = "cd '" + dir.string() + "' && VHIST_PRESENT=" + present + " VHIST_ENGINE=" + engine +
                          " XDG_CONFIG_HOME='" + (dir / "config").string() +
                          "' VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "'" +
                          std::string(VHIST_BINARY) + "' '" + clip + "' --size 960x540 --start 0.2 --frames 6 --screenshot '" +
                          shot.string() + "' > '" + (dir / "out.txt").string() + "' 2>&1";
  PresentRun r;
  const int status = std::system(cmd.c_str());
  r.output = test::read_file(dir / "out.txt");
  EXPECT_EQ(status, 0) << cmd << "\n" << r.output;
  if (fs::exists(shot)) {
    r.shot = media::read_png(shot.string());
    r.has_shot = true;
  }
  return r;
}

TEST(PresentPass, StoredPictureIsTheCopiedOneInTheWindow) {
  // Noise over moving colour: every code in every channel, and the video under the panel's UI.
  const std::string clip = test::make_clip("present_noise.mkv",
                                           "-f lavfi -i testsrc2=s=320x180:r=10 -vf 'noise=alls=60:allf=t' "
                                           "-frames:v 5 -c:v ffv1 -pix_fmt yuv444p");
  for (const char* engine : {"cpu", "gpu"}) {
    const PresentRun copied = run_with(clip, "copy", engine);
    const PresentRun stored = run_with(clip, "store", engine);
    ASSERT_TRUE(copied.has_shot && stored.has_shot) << engine << "\n" << copied.output << stored.output;
    ASSERT_NE(copied.output.find("picture copied"), std::string::npos) << copied.output;
    if (stored.output.find("picture stored by the present pass") == std::string::npos) {
      GTEST_SKIP() << "this Vulkan device's window surface does not allow storage writes to its images (or its "
                      "format cannot be written unformatted), so the viewer copies there:\n"
                   << stored.output;
    }
    ASSERT_EQ(stored.shot.width, copied.shot.width);
    ASSERT_EQ(stored.shot.height, copied.shot.height);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < copied.shot.pixels.size(); ++i) differ += copied.shot.pixels[i] != stored.shot.pixels[i];
    EXPECT_EQ(differ, 0u) << engine << ": the stored window differs from the copied one in " << differ << " bytes";
  }
}

}  // namespace
}  // namespace vhist
