// Issue 39's "one measure, one rule" on real clips, vhist run as a process (validation on):
// two outputs that report the same figure must report the same number.
//   vhist qc --row's exposure columns (a whole file's, qc::FileTotals) against vhist analyze's
//   records of the same file (each frame's statistics).
//   vhist analyze's light warning against vhist qc's light check, on PQ clips tagged MaxCLL 0
//   (CTA-861.3's unknown) and with a real MaxCLL: the same verdict, the same limits, one note.
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

// A 10-bit PQ test pattern (its white is 10,000 cd/m2, its frame averages over 2,000) with the
// content light level `max_cll` (x265's "MaxCLL,MaxFALL"; hdr10 writes it even when 0,0).
std::string pq_clip(const std::string& name, const std::string& max_cll) {
  return make_clip(name, "-f lavfi -i testsrc2=s=64x48:r=10," + ycbcr_vf("bt2020nc", "yuv420p10le") + " -frames:v 3 -c:v libx265 -pix_fmt yuv420p10le "
                         "-x265-params 'colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:hdr10=1:max-cll=" +
                             max_cll + ":log-level=error'");
}

struct LightSaid {
  json analyze;                  // the summary's light object
  std::string analyze_err;       // analyze's stderr
  int qc_status = -1;
  std::vector<json> qc_events;   // light events
  std::vector<std::string> qc_notes;
  std::string qc_err;
};

LightSaid light_said(const std::string& clip) {
  LightSaid out;
  const ProcessResult a = run_vhist("analyze " + quote(clip) + " -q --bins 16");
  EXPECT_EQ(a.status, 0) << a.err;
  out.analyze_err = a.err;
  for (const std::string& line : all_lines(a.out)) {
    const json o = json::parse(line);
    if (o["type"] == "summary") out.analyze = o["light"];
  }
  // Only the light check fails the run (the pattern's colours are outside R 103's gamut).
  const ProcessResult q = run_vhist("qc " + quote(clip) + " -q --fail light");
  out.qc_status = q.status;
  out.qc_err = q.err;
  for (const std::string& line : all_lines(q.out)) {
    const json o = json::parse(line);
    if (o["type"] == "event" && o["check"] == "light") out.qc_events.push_back(o);
    if (o["type"] == "qc_summary") out.qc_notes = o["notes"].get<std::vector<std::string>>();
  }
  return out;
}

// qc's note on the light ("PQ light: ..."), empty when none.
std::string light_note(const std::vector<std::string>& notes) {
  for (const std::string& n : notes) {
    if (n.rfind("PQ light: ", 0) == 0) return n.substr(10);
  }
  return {};
}

TEST(OneRuleLight, StreamTaggedMaxCllZeroIsUncheckedByBoth) {
  const LightSaid s = light_said(pq_clip("one_rule_cll_0_0.mkv", "0,0"));
  ASSERT_TRUE(s.analyze.is_object());
  EXPECT_EQ(s.analyze["stream_max_cll"], 0);  // the stream's figures as it states them
  EXPECT_GT(s.analyze["max_cll"].get<double>(), 5000);
  // No limit declared: analyze does not warn (nor on stderr), qc finds no light event and passes.
  EXPECT_FALSE(s.analyze.contains("warning")) << s.analyze;
  EXPECT_EQ(s.analyze_err.find("warning"), std::string::npos) << s.analyze_err;
  EXPECT_TRUE(s.qc_events.empty());
  EXPECT_EQ(s.qc_status, 0) << s.qc_err;
  EXPECT_EQ(s.qc_err.find("warning"), std::string::npos) << s.qc_err;
  // Both say why, in the same words.
  const std::string note = "the stream's MaxCLL and MaxFALL are 0, which CTA-861.3 defines as unknown, not a limit: "
                           "nothing declared to check against";
  EXPECT_EQ(s.analyze["note"], note) << s.analyze;
  EXPECT_EQ(light_note(s.qc_notes), note);
}

TEST(OneRuleLight, StreamTaggedMaxCllZeroChecksItsMaxFall) {
  // MaxCLL 0 (unknown), MaxFALL 400: the frame averages above 2,000 cd/m2 exceed MaxFALL only.
  const LightSaid s = light_said(pq_clip("one_rule_cll_0_400.mkv", "0,400"));
  ASSERT_TRUE(s.analyze.is_object());
  const std::string warning = s.analyze.value("warning", "");
  EXPECT_NE(warning.find("MaxFALL"), std::string::npos) << s.analyze;
  EXPECT_EQ(warning.find("MaxCLL"), std::string::npos) << warning;
  ASSERT_EQ(s.qc_events.size(), 1u);
  EXPECT_NE(s.qc_events[0]["detail"].get<std::string>().find("against the stream's MaxFALL 400 cd/m2"),
            std::string::npos) << s.qc_events[0];
  EXPECT_EQ(s.qc_status, 3);
  const std::string note = "the stream's MaxCLL is 0, which CTA-861.3 defines as unknown, not a limit: checked "
                           "against its MaxFALL 400 cd/m2 only";
  EXPECT_EQ(s.analyze["note"], note) << s.analyze;
  EXPECT_EQ(light_note(s.qc_notes), note);
}

TEST(OneRuleLight, StreamWithARealMaxCllIsExceededForBoth) {
  // MaxCLL 1000, MaxFALL 400: the pattern exceeds both; analyze warns of both and qc fails with
  // a light event against the same two figures. Nothing goes unchecked: no note.
  const LightSaid s = light_said(pq_clip("one_rule_cll_1000_400.mkv", "1000,400"));
  ASSERT_TRUE(s.analyze.is_object());
  EXPECT_EQ(s.analyze["stream_max_cll"], 1000);
  const std::string warning = s.analyze.value("warning", "");
  EXPECT_NE(warning.find("against the stream's 1000"), std::string::npos) << s.analyze;
  EXPECT_NE(warning.find("against the stream's 400"), std::string::npos) << s.analyze;
  EXPECT_NE(s.analyze_err.find("warning: "), std::string::npos) << s.analyze_err;
  ASSERT_EQ(s.qc_events.size(), 1u);
  EXPECT_NE(s.qc_events[0]["detail"].get<std::string>().find("against the stream's MaxCLL 1000, MaxFALL 400 cd/m2"),
            std::string::npos) << s.qc_events[0];
  EXPECT_EQ(s.qc_status, 3);
  EXPECT_FALSE(s.analyze.contains("note")) << s.analyze;
  EXPECT_EQ(light_note(s.qc_notes), "");
}

}  // namespace
}  // namespace vhist::test
