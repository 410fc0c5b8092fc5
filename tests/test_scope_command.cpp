// `vhist scope` run as a process (validation on) on clips made by ffmpeg: bad arguments end with
// status 2 and a message that says what, why and what to do, and leave an existing -o file as it
// was; good ones write a PNG of the requested size, to a file or to standard output, and say on
// stderr which frame was drawn.
#include "analyze_process.h"
#include "test_clips.h"

#include "vhist/media/png.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_layout.h"

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
using test::run_vhist;

using test::quote;

// 1 s at 25 fps, 320x180 Y'CbCr 4:2:0 (BT.709 limited, tagged), lossless: frame n starts at n / 25 s.
// Ramps (R' up to the right, G' down, B' up to the left): every scope has a broad trace.
std::string yuv_clip() {
  return make_clip("scope_yuv.mkv",
                   "-f lavfi -i \"nullsrc=s=320x180:r=25,format=gbrp,geq=r='255*X/W':g='255*Y/H':b='255-255*X/W'," +
                       ycbcr_vf("bt709") + "\" -frames:v 25 -c:v ffv1 -pix_fmt yuv420p " + ycbcr_tags("bt709"));
}

// The same format, every frame black (Y' 16, Cb Cr 128): its scopes have no trace but a dot or a
// line at black.
std::string black_clip() {
  return make_clip("scope_black.mkv",
                   "-f lavfi -i color=c=black:s=320x180:r=25," + ycbcr_vf("bt709") + " -frames:v 25 -c:v ffv1 -pix_fmt yuv420p " +
                       ycbcr_tags("bt709"));
}

// The share of pixels that differ between two images of the same size.
double differing_share(const media::RgbaImage& a, const media::RgbaImage& b) {
  std::size_t differ = 0;
  for (std::size_t i = 0; i + 3 < a.pixels.size() && i + 3 < b.pixels.size(); i += 4) {
    differ += a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2];
  }
  return static_cast<double>(differ) / static_cast<double>(std::max<std::size_t>(a.pixels.size() / 4, 1));
}

// 1 s at 25 fps, 320x180 R'G'B' (gbrp): no Y'CbCr planes.
std::string rgb_clip() {
  return make_clip("scope_rgb.mkv", "-f lavfi -i testsrc2=s=320x180:r=25 -frames:v 25 -c:v ffv1 -pix_fmt gbrp");
}

// A folder of the test's own, for outputs.
fs::path out_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir = clip_dir() / (std::string("scope-") + info->test_suite_name() + "-" + info->name());
  fs::create_directories(dir);
  return dir;
}

// The names in `dir` (to see that no temporary file was left behind).
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

struct BadCase {
  const char* name;
  std::string args;                   // after `vhist scope`; CLIP, RGB and OUT are replaced
  std::vector<std::string> expected;  // in the message
};

std::string expand(std::string args, const std::string& out) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"CLIP", quote(yuv_clip())},
                                   {"RGB", quote(rgb_clip())}, {"OUT", quote(out)}}) {
    for (std::size_t at; (at = args.find(key)) != std::string::npos;) args.replace(at, key.size(), value);
  }
  return args;
}

std::vector<BadCase> bad_cases() {
  return {
      {"unknown kind", "CLIP --at 0.5 --kind histogram -o OUT",
       {"--kind needs waveform, parade or vectorscope, not 'histogram'"}},
      {"no time", "CLIP -o OUT", {"no time given", "--at"}},
      {"no output", "CLIP --at 0.5", {"no output given", "-o"}},
      {"no input", "--at 0.5 -o OUT", {"no input file given"}},
      {"bad time", "CLIP --at soon -o OUT", {"--at needs a time"}},
      {"past the end", "CLIP --at 5 -o OUT", {"past the end", "the clip is 1.000 s long"}},
      {"roi outside", "CLIP --at 0.5 --roi 300,100,100,50 -o OUT", {"--roi", "give a rectangle inside it"}},
      {"ycbcr parade of rgb", "RGB --at 0.5 --kind parade --mode ycbcr -o OUT",
       {"stored as R'G'B'", "no Y'CbCr planes", "use --mode rgb"}},
      {"mode of another kind", "CLIP --at 0.5 --kind waveform --mode ycbcr -o OUT", {"is a parade's", "--kind parade"}},
      {"mode of the vectorscope", "CLIP --at 0.5 --kind vectorscope --mode luma -o OUT", {"leave --mode out"}},
      {"size too small", "CLIP --at 0.5 --size 100x50 -o OUT", {"--size needs WxH, from 160x120"}},
      {"size too large", "CLIP --at 0.5 --size 9000x512 -o OUT", {"to 8192x8192"}},
      {"missing input", "/no/such/clip.mp4 --at 0.5 -o OUT", {"/no/such/clip.mp4"}},
      {"camera", "/dev/video0 --at 0.5 -o OUT", {"is a camera", "in the viewer"}},
  };
}

// Each bad argument: status 2, its message, and an existing output left as it was (no
// temporary file beside it).
TEST(ScopeCommand, BadArgumentsExitTwoAndLeaveTheOutputAlone) {
  const fs::path dir = out_dir();
  const fs::path out = dir / "good.png";
  for (const BadCase& c : bad_cases()) {
    SCOPED_TRACE(c.name);
    {
      std::ofstream f(out, std::ios::binary | std::ios::trunc);
      f << "a good file";
    }
    const test::ProcessResult r = run_vhist("scope " + expand(c.args, out.string()));
    EXPECT_EQ(r.status, 2) << r.err;
    for (const std::string& e : c.expected) EXPECT_NE(r.err.find(e), std::string::npos) << "wanted: " << e << "\n" << r.err;
    EXPECT_NE(r.err.find("vhist scope: "), std::string::npos) << r.err;
    EXPECT_EQ(read_file(out), "a good file");
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"good.png"});
  }
}

// An unreadable input: not a video, and a folder.
TEST(ScopeCommand, UnreadableInputExitsTwo) {
  const fs::path dir = out_dir();
  const fs::path text = dir / "notes.mp4";
  {
    std::ofstream f(text, std::ios::binary);
    f << "these are not video frames\n";
  }
  for (const fs::path& input : {text, dir}) {
    const test::ProcessResult r = run_vhist("scope " + quote(input.string()) + " --at 0 -o " + quote((dir / "x.png").string()));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(input.filename().string()), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.png"));
  }
}

// -o naming the input (directly or through a link) is refused before anything is written.
TEST(ScopeCommand, RefusesToWriteOverTheInput) {
  const fs::path dir = out_dir();
  const fs::path copy = dir / "clip.mkv", link = dir / "link.png";
  fs::copy_file(yuv_clip(), copy, fs::copy_options::overwrite_existing);
  fs::create_symlink(copy, link);
  const std::string before = read_file(copy);
  for (const fs::path& out : {copy, link}) {
    const test::ProcessResult r = run_vhist("scope " + quote(copy.string()) + " --at 0.5 -o " + quote(out.string()));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(copy), before);
  }
}

struct GoodCase {
  const char* args;
  std::uint32_t width, height;
  const char* said;  // on stderr
};

// Each kind writes a PNG of the size asked for (or the kind's default), replacing an existing
// file, and says which frame it drew: the first at or after --at (0.5 s at 25 fps: frame 13 at
// 0.520 s). The PNG is not blank: it differs from the same scope of a black clip in at least 5 %
// of its pixels (the trace of the test pattern's colours and levels).
TEST(ScopeCommand, WritesAPngOfTheRequestedSize) {
  const fs::path dir = out_dir();
  const fs::path out = dir / "scope.png";
  const GoodCase cases[] = {
      {"--at 0.5 --kind waveform", 1024, 512, "Waveform  luma  1 plot column = 1 picture column; of the whole frame"},
      {"--at 0.5 --kind waveform --mode rgb --size 640x240", 640, 240, "Waveform  R'G'B' overlay"},
      {"--at 0.5 --kind parade --size 960x300", 960, 300, "Parade  R'G'B'  1 plot column = 2 picture columns"},
      {"--at 0.5 --kind parade --mode ycbcr --size 480x200 --roi 40,20,200,100", 480, 200,
       "Parade  Y'CbCr planes  1 plot column = 2 picture columns; of --roi 40,20,200,100 (200x100 stored pixels)"},
      {"--at 0.5 --kind vectorscope", 512, 512, "Vectorscope  BT.709  x1"},
      {"--at 0.5 --kind vectorscope --size 300x300 --engine gpu --scope-zoom 2", 300, 300, "Vectorscope  BT.709  x2"},
  };
  for (const GoodCase& c : cases) {
    SCOPED_TRACE(c.args);
    {
      std::ofstream f(out, std::ios::binary | std::ios::trunc);
      f << "an old file";
    }
    const test::ProcessResult r = run_vhist("scope " + quote(yuv_clip()) + " " + c.args + " -o " + quote(out.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const media::RgbaImage png = media::read_png(out.string());
    EXPECT_EQ(png.width, c.width);
    EXPECT_EQ(png.height, c.height);
    EXPECT_NE(r.err.find(c.said), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("13"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at 0.520 s"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("BT.709 limited"), std::string::npos) << r.err;
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"scope.png"});
    const fs::path black = dir / "black.png";
    const test::ProcessResult b = run_vhist("scope " + quote(black_clip()) + " " + c.args + " -o " + quote(black.string()));
    ASSERT_EQ(b.status, 0) << b.err;
    const double share = differing_share(png, media::read_png(black.string()));
    std::printf("[test] %s: %.4f of the pixels differ from the black clip's scope\n", c.args, share);
    EXPECT_GT(share, 0.05) << "the scope looks like a black frame's";
    fs::remove(black);
  }
}

// -o - writes the PNG to standard output, byte for byte the file -o FILE writes.
TEST(ScopeCommand, WritesToStandardOutput) {
  const fs::path dir = out_dir();
  const std::string args = "scope " + quote(yuv_clip()) + " --at 0.2 --kind vectorscope --size 200x200";
  const test::ProcessResult piped = run_vhist(args + " -q -o -");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(piped.err, "");  // -q: nothing said when all went well
  const test::ProcessResult file = run_vhist(args + " -o " + quote((dir / "vs.png").string()));
  ASSERT_EQ(file.status, 0) << file.err;
  EXPECT_EQ(piped.out, read_file(dir / "vs.png"));
  EXPECT_EQ(piped.out.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

// ---- the PNG equals the window's scope ------------------------------------------------------

struct WindowShot {
  int status = -1;
  std::string err;
  media::RgbaImage shot;
};

// `vhist CLIP --start T --frames N --screenshot` under its own Xvfb (validation on), with
// `settings` as its settings.ini: the window as a person sees it.
WindowShot window_shot(const fs::path& dir, const std::string& settings, const std::string& args) {
  fs::create_directories(dir / "config" / "vhist");
  {
    std::ofstream out(dir / "config" / "vhist" / "settings.ini", std::ios::binary);
    out << "timeline = false\n" << settings;  // the timeline strip (issue 28) would take the picture's bottom
  }
  const fs::path shot = dir / "window.png", err = dir / "window.err";
  const std::string cmd = "cd " + quote(dir.string()) + " && XDG_CONFIG_HOME=" + quote((dir / "config").string()) +
                          " VHIST_VALIDATION=1 timeout -k 10 200 " + test::with_display("1920x1200") + "timeout -k 10 "
                          "180 " + quote(VHIST_BINARY) + " " + args + " --screenshot " + quote(shot.string()) +
                          " > /dev/null 2> " + quote(err.string());
  WindowShot w;
  const int raw = std::system(cmd.c_str());
  w.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  w.err = read_file(err);
  if (w.status == 0) w.shot = media::read_png(shot.string());
  return w;
}

constexpr std::uint32_t kScopeMinHeightForTest = 120;  // vhist scope --size's least height

struct WindowCase {
  const char* setting;  // the scope shown beside the video, as settings.ini says it
  const char* args;     // the same scope, as vhist scope asks for it
};

// The viewer at 640x480, paused at 0.5 s, one scope under the video (the panel hidden; under, so
// that the panel's tab at the picture's top right lies over no scope): the scope's row of the
// window, laid out by scope_layout (the picture's part ends where the row starts), equals pixel
// for pixel `vhist scope --at 0.5` at that row's size: the same frame, the same counts, the same
// drawing.
TEST(ScopeCommand, PngEqualsTheWindowsScope) {
  const WindowCase cases[] = {
      {"waveform = true\n", "--kind waveform"},
      {"parade = true\nparade_view = ycbcr\n", "--kind parade --mode ycbcr"},
      {"vectorscope = true\nscope_zoom = 2\n", "--kind vectorscope --scope-zoom 2"},
  };
  const fs::path dir = out_dir();
  for (const WindowCase& c : cases) {
    SCOPED_TRACE(c.args);
    const std::string settings = std::string("show_panel = false\nosd = false\nscope_place = under\n") + c.setting;
    const WindowShot w = window_shot(dir, settings, quote(yuv_clip()) + " --start 0.5 --frames 6 --size 640x480");
    ASSERT_EQ(w.status, 0) << w.err;
    ASSERT_EQ(w.shot.width, 640u);
    ASSERT_EQ(w.shot.height, 480u);
    // The row the scope gets: as the viewer lays it out (one scope, under, text scale 1).
    viewer::DrawStyle style;
    style.waveform = std::string(c.setting).find("waveform") == 0;
    style.parade = std::string(c.setting).find("parade") == 0;
    style.vectorscope = std::string(c.setting).find("vectorscope") == 0;
    style.scope_place = viewer::ScopePlace::under;
    style.ui_scale = viewer::picture_ui_scale(1.0f, 480.0f);
    const auto y0 = static_cast<std::uint32_t>(viewer::scope_layout(style, {0, 0, 640, 480}).picture[3]);
    ASSERT_GT(y0, 240u);
    ASSERT_LE(y0, 480u - kScopeMinHeightForTest);
    const std::uint32_t rh = 480 - y0;
    const fs::path png = dir / "scope.png";
    const test::ProcessResult r = run_vhist("scope " + quote(yuv_clip()) + " --at 0.5 " + c.args + " --size 640x" +
                                            std::to_string(rh) + " -o " + quote(png.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const media::RgbaImage scope = media::read_png(png.string());
    ASSERT_EQ(scope.height, rh);
    std::size_t differ = 0;
    std::string first;
    for (std::uint32_t y = 0; y < rh; ++y) {
      for (std::uint32_t x = 0; x < 640; ++x) {
        const auto a = w.shot.at(x, y0 + y), b = scope.at(x, y);
        if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2]) continue;
        if (differ++ == 0) {
          first = "(" + std::to_string(x) + ", " + std::to_string(y) + "): window " + std::to_string(a[0]) + "," +
                  std::to_string(a[1]) + "," + std::to_string(a[2]) + ", PNG " + std::to_string(b[0]) + "," +
                  std::to_string(b[1]) + "," + std::to_string(b[2]);
        }
      }
    }
    EXPECT_EQ(differ, 0u) << "pixels of the PNG differ from the window's scope row, the first at " << first;
  }
}

}  // namespace
}  // namespace vhist
