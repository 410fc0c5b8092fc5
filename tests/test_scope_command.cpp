// `vhist scope` run as a process (validation on) on clips made by ffmpeg: bad arguments end with
// status 2 and a message that says what, why and what to do, and leave an existing -o file as it
// was; good ones write a PNG of the requested size, to a file or to standard output, and say on
// stderr which frame was drawn.
#include "analyze_process.h"
#include "test_clips.h"

#include "vhist/media/png.h"

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
using test::read_file;
using test::run_vhist;

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// 1 s at 25 fps, 320x180 Y'CbCr 4:2:0 (BT.709 limited, tagged), lossless: frame n starts at n / 25 s.
// Ramps (R' up to the right, G' down, B' up to the left): every scope has a broad trace.
std::string yuv_clip() {
  return make_clip("scope_yuv.mkv",
                   "-f lavfi -i \"nullsrc=s=320x180:r=25,format=gbrp,geq=r='255*X/W':g='255*Y/H':b='255-255*X/W'\" "
                   "-frames:v 25 -c:v ffv1 -pix_fmt yuv420p -color_range tv -colorspace bt709 -color_primaries bt709 "
                   "-color_trc bt709");
}

// The same format, every frame black (Y' 16, Cb Cr 128): its scopes have no trace but a dot or a
// line at black.
std::string black_clip() {
  return make_clip("scope_black.mkv",
                   "-f lavfi -i color=c=black:s=320x180:r=25 -frames:v 25 -c:v ffv1 -pix_fmt yuv420p -color_range tv "
                   "-colorspace bt709 -color_primaries bt709 -color_trc bt709");
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

}  // namespace
}  // namespace vhist
