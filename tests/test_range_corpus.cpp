// The range tag's verdict (range_verdict.h, docs/colour.md) on a corpus made here with the ffmpeg
// tool: honest limited-range clips of varied content (bars with PLUGE, a mandelbrot, heavy noise,
// grain over black, dark, bright and graded pictures, cellular patterns whose edges ring, a 10-bit
// clip, real photographs from mate-backgrounds where installed) must raise no warning, and
// genuinely mis-tagged clips (full-range codes tagged limited, limited codes tagged full; tagged
// at encoding or rewritten in the bitstream by h264_metadata) must all be flagged. `vhist
// analyze` runs as a process (validation on) and its summary is read. The test prints the
// corpus's false alarms and detections.
#include "analyze_process.h"
#include "test_clips.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace vhist {
namespace {

using test::make_clip;
using test::ycbcr_tags;
using test::ycbcr_vf;
using test::run_vhist;
using test::summary_of;

enum class Expect { none, full_as_limited, limited_as_full };

struct CorpusClip {
  std::string name;
  std::string ffmpeg_args;  // everything before the output path
  Expect expect;
  std::string bsf_range;  // "0" or "1": rewrite video_full_range_flag with h264_metadata after encoding
};

constexpr const char* kSize = "320x180";
// The project's recipe (scripts/ycbcr.sh): R'G'B' to BT.709 Y'CbCr, limited or full range.
const std::string kTv = ycbcr_vf("bt709", "yuv420p", "tv");
const std::string kPc = ycbcr_vf("bt709", "yuv420p", "pc");
const std::string kX264 = " -c:v libx264 -preset veryfast -crf 20";

// 10 frames of `source` with `filters` in its own graph (so that a generator draws the format the
// filters ask for), tagged with `matrix` and `range`.
std::string lavfi(const std::string& source, const std::string& filters, const std::string& range,
                  const std::string& codec = kX264, const std::string& matrix = "bt709") {
  return "-f lavfi -i \"" + source + "," + filters + "\" -frames:v 10" + codec + " " + ycbcr_tags(matrix, range);
}
// The bars generators draw Y'CbCr themselves, sub-black PLUGE included (R'G'B' cannot carry it),
// in a matrix of their own: smptehdbars BT.709's, smptebars and pal75bars BT.601's.
std::string bars(const std::string& source, const std::string& matrix, const std::string& range,
                 const std::string& codec = kX264) {
  return lavfi(source, "format=yuv420p", range, codec, matrix);
}

// A lavfi generator at the corpus's size and rate; `filter` may carry options of its own.
std::string gen(const std::string& filter) {
  return filter + (filter.find('=') == std::string::npos ? "=" : ":") + "s=" + kSize + ":r=10";
}

// A still photograph, panned across as a camera would: 10 frames of 320x180 from a 480x270 scale.
std::string photo(const std::string& path, const std::string& range_filter, const std::string& range) {
  return "-loop 1 -framerate 10 -i '" + path + "' -frames:v 10 -vf \"scale=480:270,crop=320:180:'t*16':'t*9'," +
         range_filter + "\"" + kX264 + " " + ycbcr_tags("bt709", range);
}

std::vector<CorpusClip> corpus() {
  const std::string ffv1 = " -c:v ffv1";
  std::vector<CorpusClip> c = {
      // Honest limited range, tagged limited.
      {"testsrc2", lavfi(gen("testsrc2"), kTv, "tv"), Expect::none, ""},  // Y' within 16-235
      // The bars generators' own limited-range Y'CbCr, kept as drawn.
      {"arib_bars", bars(gen("smptehdbars"), "bt709", "tv"), Expect::none, ""},  // -2% PLUGE, ramp
      {"smpte_bars_lossless", bars(gen("smptebars"), "smpte170m", "tv", ffv1), Expect::none, ""},  // PLUGE 7
      {"pal75bars", bars(gen("pal75bars"), "bt470bg", "tv"), Expect::none, ""},
      {"mandelbrot", lavfi(gen("mandelbrot"), kTv, "tv"), Expect::none, ""},
      {"heavy_noise", lavfi(gen("testsrc2"), kTv + ",noise=alls=60:allf=t", "tv"), Expect::none, ""},
      {"grain_over_black", lavfi(gen("color=c=black"), kTv + ",noise=alls=40:allf=t", "tv"), Expect::none, ""},
      {"grain_over_black_100_lossless", lavfi(gen("color=c=black"), kTv + ",noise=alls=100:allf=t", "tv", ffv1),
       Expect::none, ""},
      {"dark", lavfi(gen("testsrc2"), "curves=preset=darker," + kTv, "tv"), Expect::none, ""},
      {"bright", lavfi(gen("testsrc2"), "curves=preset=lighter," + kTv, "tv"), Expect::none, ""},
      {"graded", lavfi(gen("mandelbrot"), "curves=preset=strong_contrast,colorbalance=rs=0.3:bh=0.2," + kTv, "tv"),
       Expect::none, ""},
      {"cellular_ringing", lavfi(gen("life") + ":mold=10:ratio=0.3:life_color=white:death_color=black", kTv, "tv"),
       Expect::none, ""},
      {"sierpinski", lavfi(gen("sierpinski"), kTv, "tv"), Expect::none, ""},
      {"noise_10bit", lavfi(gen("testsrc2"), kTv + ",noise=alls=20:allf=t,format=yuv420p10le", "tv", ffv1),
       Expect::none, ""},
      // Honest full range, tagged full.
      {"full_testsrc", lavfi(gen("testsrc"), kPc, "pc"), Expect::none, ""},
      // Full-range codes tagged limited.
      {"full_as_limited_testsrc", lavfi(gen("testsrc"), kPc, "tv"), Expect::full_as_limited, ""},
      {"full_as_limited_bars_bsf", lavfi(gen("smptebars"), kPc, "tv"), Expect::full_as_limited, "0"},
      // Limited-range codes tagged full.
      {"limited_as_full_testsrc", lavfi(gen("testsrc"), kTv, "pc"), Expect::limited_as_full, ""},
      {"limited_as_full_bars_bsf", bars(gen("pal75bars"), "bt470bg", "tv"), Expect::limited_as_full, "1"},
  };
  // Real photographs (mate-backgrounds, scripts/setup.sh --test): a dark one and one whose
  // shadows reach near black, honest in both ranges.
  for (const char* name : {"Storm", "RainDrops"}) {
    const std::string path = std::string("/usr/share/backgrounds/mate/nature/") + name + ".jpg";
    if (!std::filesystem::exists(path)) continue;
    c.push_back({std::string("photo_") + name, photo(path, kTv, "tv"), Expect::none, ""});
    c.push_back({std::string("photo_full_") + name, photo(path, kPc, "pc"), Expect::none, ""});
  }
  return c;
}

std::string make(const CorpusClip& clip) {
  const bool ffv1 = clip.ffmpeg_args.find("ffv1") != std::string::npos;
  const std::string encoded = make_clip("range_" + clip.name + (ffv1 ? ".mkv" : ".mp4"), clip.ffmpeg_args);
  if (clip.bsf_range.empty()) return encoded;
  return make_clip("range_" + clip.name + "_bsf.mp4", "-i '" + encoded + "' -c copy -bsf:v h264_metadata=video_full_range_flag=" +
                                                          clip.bsf_range);
}

const char* expect_name(Expect e) {
  return e == Expect::none ? "no warning" : e == Expect::full_as_limited ? "probably full range" : "probably limited range";
}

TEST(RangeCorpus, NoFalseAlarmsAndEveryMisTagFound) {
  if (std::filesystem::exists("/usr/share/backgrounds/mate/nature/Storm.jpg") == false) {
    std::printf("mate-backgrounds is not installed: the corpus runs without its photographs\n");
  }
  int honest = 0, false_alarms = 0, mis_tagged = 0, detected = 0;
  for (const CorpusClip& clip : corpus()) {
    const std::string path = make(clip);
    const auto r = run_vhist("analyze '" + path + "' --bins 16 -q");
    ASSERT_EQ(r.status, 0) << clip.name << ": " << r.err;
    const std::string summary = summary_of(r.out);
    ASSERT_NE(summary.find("\"frames\":10"), std::string::npos) << clip.name << ": " << summary;
    const bool full = summary.find("probably full range, mis-tagged") != std::string::npos;
    const bool limited = summary.find("probably limited range, mis-tagged") != std::string::npos;
    const bool warned = summary.find("\"warning\"") != std::string::npos;
    bool right = false;
    if (clip.expect == Expect::none) {
      ++honest;
      right = !warned;
      false_alarms += warned ? 1 : 0;
    } else {
      ++mis_tagged;
      right = clip.expect == Expect::full_as_limited ? full : limited;
      detected += right ? 1 : 0;
    }
    // The warning also goes to stderr; the legal-range note is no warning.
    EXPECT_EQ(r.err.find("warning") != std::string::npos, warned) << clip.name << ": " << r.err;
    const std::size_t at = summary.find("\"range\":");
    const std::string seen = (right ? "right: " : "WRONG: ") + summary.substr(at == std::string::npos ? 0 : at, 400);
    std::printf("  %-32s expected %-22s -> %s\n", clip.name.c_str(), expect_name(clip.expect), seen.c_str());
    EXPECT_TRUE(right) << clip.name << ": expected " << expect_name(clip.expect) << ", summary " << summary;
  }
  std::printf("range corpus: %d honest clips, %d false alarms; %d mis-tagged clips, %d detected\n", honest,
              false_alarms, mis_tagged, detected);
  EXPECT_GE(honest, 12);
  EXPECT_EQ(false_alarms, 0);
  EXPECT_EQ(mis_tagged, 4);
  EXPECT_EQ(detected, mis_tagged);
}

}  // namespace
}  // namespace vhist
