// Issue 39's "one measure, one rule" on real clips, vhist run as a process (validation on):
// two outputs that report the same figure must report the same number.
//   vhist qc --row's exposure columns (a whole file's, qc::FileTotals) against vhist analyze's
//   records of the same file (each frame's statistics).
#include "analyze_process.h"

#include "vhist/compute/frame_stats.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace vhist::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> records_of(const std::string& out) {
  std::vector<json> frames;
  for (const std::string& line : lines(out)) frames.push_back(json::parse(line));
  return frames;
}

// vhist qc --row's row for `clip` (with `args`).
json row_of(const std::string& clip, const std::string& args) {
  const fs::path row = clip_dir() / "one_rule_row.json";
  fs::remove(row);
  const ProcessResult r = run_vhist("qc " + quote(clip) + " -q --row " + quote(row.string()) + " " + args);
  EXPECT_TRUE(r.status == 0 || r.status == 3) << r.err;
  return json::parse(read_file(row));
}

constexpr const char* kChannels[] = {"r", "g", "b", "l"};

// A moving test pattern, 8-bit and 10-bit: every frame's histogram differs, the end codes are
// filled (the clip shares are not 0).
std::string exposure_clip(std::uint32_t bits) {
  const std::string format = bits == 8 ? "yuv420p" : "yuv420p10le";
  return make_clip("one_rule_exposure_" + std::to_string(bits) + ".mkv",
                   "-f lavfi -i testsrc2=s=96x64:r=25 -frames:v 12 -pix_fmt " + format + " -c:v ffv1");
}

TEST(OneRuleExposure, QcRowOfOneFrameIsAnalyzesRecord) {
  for (const std::uint32_t bits : {8u, 10u}) {
    SCOPED_TRACE(bits);
    const std::string clip = exposure_clip(bits);
    const std::string bins = bits == 8 ? "256" : "1024";
    const ProcessResult a = run_vhist("analyze " + quote(clip) + " -q --frames 1 --bins " + bins);
    ASSERT_EQ(a.status, 0) << a.err;
    const std::vector<json> frames = records_of(a.out);
    ASSERT_EQ(frames.size(), 1u);
    const json row = row_of(clip, "--frames 1");
    for (const char* c : kChannels) {
      const json& s = frames[0]["stats"][c];
      const std::string p(c);
      // The records print the mean to 4 decimals and the shares to 8; the row prints doubles whole.
      EXPECT_NEAR(row[p + "_mean"].get<double>(), s["mean"].get<double>(), 0.5e-4) << c;
      EXPECT_EQ(row[p + "_p1"], s["p1"]) << c;
      EXPECT_EQ(row[p + "_p50"], s["median"]) << c;
      EXPECT_EQ(row[p + "_p99"], s["p99"]) << c;
      EXPECT_NEAR(row[p + "_clip_low"].get<double>(), s["clip_low"].get<double>(), 0.5e-8) << c;
      EXPECT_NEAR(row[p + "_clip_high"].get<double>(), s["clip_high"].get<double>(), 0.5e-8) << c;
    }
  }
}

TEST(OneRuleExposure, QcRowOfAClipAgreesWithAnalyzesRecords) {
  for (const std::uint32_t bits : {8u, 10u}) {
    SCOPED_TRACE(bits);
    const std::string clip = exposure_clip(bits);
    const std::uint32_t levels = stats_levels(bits);
    const ProcessResult a = run_vhist("analyze " + quote(clip) + " -q --bins " + std::to_string(levels));
    ASSERT_EQ(a.status, 0) << a.err;
    const std::vector<json> frames = records_of(a.out);
    ASSERT_EQ(frames.size(), 12u);
    const json row = row_of(clip, "");
    ASSERT_EQ(row["frames"], 12);
    // The records' histograms summed over the clip, as 64-bit running sums.
    std::vector<std::uint64_t> cumulative(std::size_t{levels} * 4, 0);
    for (std::size_t ch = 0; ch < 4; ++ch) {
      std::vector<std::uint64_t> sum(levels, 0);
      for (const json& f : frames) {
        const auto h = f[kChannels[ch]].get<std::vector<std::uint64_t>>();
        ASSERT_EQ(h.size(), levels);
        for (std::uint32_t k = 0; k < levels; ++k) sum[k] += h[k];
      }
      std::uint64_t running = 0;
      for (std::uint32_t k = 0; k < levels; ++k) cumulative[std::size_t{k} * 4 + ch] = running += sum[k];
    }
    const std::array<ChannelStats, 4> file = channel_stats(cumulative, bits);
    for (std::size_t ch = 0; ch < 4; ++ch) {
      const std::string p(kChannels[ch]);
      // Every frame has as many pixels: the file's mean and clip shares are the mean of its frames'.
      double mean = 0, low = 0, high = 0;
      for (const json& f : frames) {
        const json& s = f["stats"][kChannels[ch]];
        mean += s["mean"].get<double>(), low += s["clip_low"].get<double>(), high += s["clip_high"].get<double>();
      }
      EXPECT_NEAR(row[p + "_mean"].get<double>(), mean / 12, 0.5e-4) << p;
      EXPECT_NEAR(row[p + "_clip_low"].get<double>(), low / 12, 0.5e-8) << p;
      EXPECT_NEAR(row[p + "_clip_high"].get<double>(), high / 12, 0.5e-8) << p;
      // The percentiles by the frame statistics' rule over the summed histogram.
      EXPECT_EQ(row[p + "_p1"].get<std::uint32_t>(), file[ch].p1) << p;
      EXPECT_EQ(row[p + "_p50"].get<std::uint32_t>(), file[ch].median) << p;
      EXPECT_EQ(row[p + "_p99"].get<std::uint32_t>(), file[ch].p99) << p;
      EXPECT_DOUBLE_EQ(row[p + "_mean"].get<double>(), file[ch].mean) << p;
    }
  }
}

}  // namespace
}  // namespace vhist::test
