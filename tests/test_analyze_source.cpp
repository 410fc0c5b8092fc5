// `vhist analyze` on what the source truth issue asked for, end to end as a process with
// validation on: the Y'CbCr planes (--domain ycbcr) against the planes ffmpeg itself writes out
// and this test counts; the range check per frame and the mis-tagging verdict; a PQ frame's
// MaxCLL and FALL against ST 2084's EOTF computed here; an HLG frame's against BT.2100's
// reference display worked out here, and the two engines equal on a real HLG clip.
#include "analyze_process.h"
#include "test_clips.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace vhist {
namespace {

using test::json_array;
using test::lines;
using test::make_clip;
using test::ycbcr_tags;
using test::ycbcr_vf;
using test::run_vhist;
using test::summary_of;

// A clip's frames as raw planes, written by ffmpeg (not by vhist's decoder): the bytes of
// `frames` frames of `pix_fmt`.
std::vector<std::uint8_t> raw_frames(const std::string& clip, const std::string& name, const std::string& pix_fmt) {
  const std::string raw = make_clip(name, "-i '" + clip + "' -f rawvideo -pix_fmt " + pix_fmt);
  std::ifstream in(raw, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct PlaneCase {
  const char* name;
  const char* pix_fmt;
  std::uint32_t bits, chroma_sx, chroma_sy;  // chroma subsampling shifts; gray: no chroma
  bool gray;
};

// Counts one frame's planes from raw bytes: histograms of 2^bits levels, y then cb and cr.
std::vector<std::vector<std::uint64_t>> count_planes(const std::vector<std::uint8_t>& raw, std::size_t offset,
                                                     const PlaneCase& c, std::uint32_t w, std::uint32_t h) {
  const std::uint32_t cw = (w + (1u << c.chroma_sx) - 1) >> c.chroma_sx;
  const std::uint32_t ch = (h + (1u << c.chroma_sy) - 1) >> c.chroma_sy;
  const std::size_t bytes = c.bits > 8 ? 2 : 1;
  std::vector<std::vector<std::uint64_t>> out;
  std::size_t at = offset;
  for (std::uint32_t p = 0; p < (c.gray ? 1u : 3u); ++p) {
    const std::size_t samples = p == 0 ? std::size_t{w} * h : std::size_t{cw} * ch;
    std::vector<std::uint64_t> hist(std::size_t{1} << c.bits, 0);
    for (std::size_t i = 0; i < samples; ++i, at += bytes) {
      const std::uint32_t v = bytes == 1 ? raw[at] : raw[at] | (std::uint32_t{raw[at + 1]} << 8);
      ++hist[v];
    }
    out.push_back(std::move(hist));
  }
  return out;
}

class YcbcrDomain : public ::testing::TestWithParam<PlaneCase> {};

TEST_P(YcbcrDomain, EqualsThePlanesCountedDirectly) {
  const PlaneCase& c = GetParam();
  const std::uint32_t w = 38, h = 22, frames = 3;
  const std::string clip = make_clip(std::string("planes_") + c.name + ".mkv",
                                     "-f lavfi -i testsrc2=s=38x22:r=10,noise=alls=30:allf=t -frames:v 3 -pix_fmt " +
                                         std::string(c.pix_fmt) + " -c:v ffv1");
  const auto raw = raw_frames(clip, std::string("planes_") + c.name + ".raw", c.pix_fmt);
  const std::uint32_t levels = std::min(1u << c.bits, 1024u);  // vhist's most bins; 12-bit: 4 codes a bin
  for (const char* engine : {"gpu", "cpu"}) {
    const auto r = run_vhist("analyze '" + clip + "' --domain ycbcr --bins " + std::to_string(levels) +
                             " -q --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto records = lines(r.out);
    ASSERT_EQ(records.size(), frames) << engine;
    EXPECT_NE(r.out.find("\"domain\":\"ycbcr\""), std::string::npos);
    std::size_t offset = 0;
    for (std::uint32_t f = 0; f < frames; ++f) {
      auto want = count_planes(raw, offset, c, w, h);
      for (auto& plane : want) {
        std::vector<std::uint64_t> bins(levels, 0);
        for (std::size_t v = 0; v < plane.size(); ++v) bins[v * levels / plane.size()] += plane[v];
        plane = std::move(bins);
      }
      const char* names[] = {"y", "cb", "cr"};
      for (std::size_t p = 0; p < want.size(); ++p) {
        EXPECT_EQ(json_array(records[f], names[p]), want[p]) << c.name << " " << engine << " frame " << f << " " << names[p];
      }
      if (c.gray) {
        EXPECT_EQ(records[f].find("\"cb\":"), std::string::npos);
        EXPECT_EQ(records[f].find("\"r\":"), std::string::npos);
      }
      const std::size_t bytes = c.bits > 8 ? 2 : 1;
      const std::size_t chroma = c.gray ? 0 : 2 * std::size_t{(w + (1u << c.chroma_sx) - 1) >> c.chroma_sx} *
                                                  ((h + (1u << c.chroma_sy) - 1) >> c.chroma_sy);
      offset += (std::size_t{w} * h + chroma) * bytes;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, YcbcrDomain,
                         ::testing::Values(PlaneCase{"yuv420p", "yuv420p", 8, 1, 1, false},
                                           PlaneCase{"yuv422p10", "yuv422p10le", 10, 1, 0, false},
                                           PlaneCase{"yuv444p12", "yuv444p12le", 12, 0, 0, false},
                                           PlaneCase{"gray10", "gray10le", 10, 0, 0, true}),
                         [](const ::testing::TestParamInfo<PlaneCase>& p) { return std::string(p.param.name); });

TEST(AnalyzeSource, RgbSourceHasNoPlanesToCount) {
  const std::string png = make_clip("rgb_planes.png", "-f lavfi -i testsrc2=s=32x16 -frames:v 1");
  const auto r = run_vhist("analyze '" + png + "' --domain ycbcr -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("has no Y'CbCr planes to count; use --domain rgb"), std::string::npos) << r.err;
}

// A record's fraction field `key`, or NaN when absent.
double fraction(const std::string& record, const std::string& key) {
  const std::size_t at = record.find("\"" + key + "\":");
  return at == std::string::npos ? std::nan("") : std::stod(record.substr(at + key.size() + 3));
}

TEST(AnalyzeSource, RangeCheckCountsCodesOutsideTheLimitedRange) {
  // Full-range codes tagged limited: the blacks lie below 16.
  const std::string clip = make_clip("full_as_tv.mkv", "-f lavfi -i testsrc2=s=64x36:r=10 -frames:v 12 "
                                                       "-vf scale=out_range=full,format=yuv420p -color_range tv -c:v ffv1");
  const auto raw = raw_frames(clip, "full_as_tv.raw", "yuv420p");
  for (const char* engine : {"gpu", "cpu"}) {
    const auto r = run_vhist("analyze '" + clip + "' --bins 16 -q --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto records = lines(r.out);
    ASSERT_EQ(records.size(), 12u);
    const PlaneCase c{"yuv420p", "yuv420p", 8, 1, 1, false};
    const auto planes = count_planes(raw, 0, c, 64, 36);
    std::uint64_t below = 0, above = 0, c_above = 0;
    for (std::uint32_t v = 0; v < 256; ++v) {
      below += v < 16 ? planes[0][v] : 0;
      above += v > 235 ? planes[0][v] : 0;
      c_above += v > 240 ? planes[1][v] + planes[2][v] : 0;
    }
    EXPECT_NEAR(fraction(records[0], "y_below"), below / (64.0 * 36), 1e-8) << engine;
    EXPECT_NEAR(fraction(records[0], "y_above"), above / (64.0 * 36), 1e-8);
    EXPECT_NEAR(fraction(records[0], "c_above"), c_above / (2 * 32.0 * 18), 1e-8);
    EXPECT_GT(below, 0u);
    const std::string summary = summary_of(r.out);
    EXPECT_NE(summary.find("\"frames\":12"), std::string::npos) << summary;
    EXPECT_NE(summary.find("probably full range, mis-tagged"), std::string::npos) << summary;
    EXPECT_NE(r.err.find("warning: '" + clip + "': the range is limited (stream)"), std::string::npos) << r.err;
  }
}

TEST(AnalyzeSource, MisTaggingVerdict) {
  // Limited codes tagged full (testsrc's black 16 and white 235, nothing beyond): flagged.
  const std::string tv_as_full = make_clip("tv_as_full.mkv", "-f lavfi -i testsrc=s=64x36:r=10 -frames:v 12 "
                                                             "-vf scale=out_range=limited,format=yuv420p -color_range pc -c:v ffv1");
  auto r = run_vhist("analyze '" + tv_as_full + "' --bins 16 -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(summary_of(r.out).find("probably limited range, mis-tagged"), std::string::npos) << summary_of(r.out);
  // Correctly tagged colour bars with a PLUGE (sub-black at code 7, 1.4% of the samples): no word.
  const std::string bars = make_clip("bars_tv.mkv", "-f lavfi -i smptebars=s=64x36:r=10 -frames:v 12 "
                                                    "-vf scale=out_range=limited,format=yuv420p -color_range tv -c:v ffv1");
  r = run_vhist("analyze '" + bars + "' --bins 16 -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(summary_of(r.out).find("warning"), std::string::npos) << summary_of(r.out);
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_GT(fraction(lines(r.out)[0], "y_below"), 0.01);
  // Full-range codes tagged full: nothing outside, no word; the shares of a full range are 0.
  const std::string full = make_clip("full_pc.mkv", "-f lavfi -i testsrc2=s=64x36:r=10 -frames:v 12 "
                                                    "-vf scale=out_range=full,format=yuv420p -color_range pc -c:v ffv1");
  r = run_vhist("analyze '" + full + "' --bins 16 -q");
  EXPECT_EQ(summary_of(r.out).find("warning"), std::string::npos) << summary_of(r.out);
  EXPECT_EQ(fraction(lines(r.out)[0], "y_below"), 0.0);
  // Too few frames to say: two frames of the mis-tagged clip, stopped early by --frames.
  r = run_vhist("analyze '" + tv_as_full + "' --bins 16 -q --frames 2");
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

// ST 2084's EOTF, written out here from the standard's constants.
double st2084_nits(double e) {
  const double m1 = 2610.0 / 16384, m2 = 2523.0 / 32, c1 = 3424.0 / 4096, c2 = 2413.0 / 128, c3 = 2392.0 / 128;
  const double p = std::pow(e, 1 / m2);
  return 10000 * std::pow(std::max(p - c1, 0.0) / (c2 - c3 * p), 1 / m1);
}

TEST(AnalyzeSource, PqLightOfAFrameWithAKnownPeak) {
  // A 32x16 10-bit R'G'B' frame: black, a 8x4 block of R' = 769 (about 1000 cd/m2) and four
  // pixels of G' = 520 (about 100 cd/m2), tagged PQ.
  const std::uint32_t w = 32, h = 16;
  std::vector<std::uint16_t> g(w * h, 0), b(w * h, 0), r(w * h, 0);
  for (std::uint32_t y = 0; y < 4; ++y) {
    for (std::uint32_t x = 0; x < 8; ++x) r[y * w + x] = 769;
  }
  for (std::uint32_t x = 8; x < 12; ++x) g[x] = 520;
  const auto raw_path = test::clip_dir() / "pq_known.raw";
  {
    std::ofstream out(raw_path, std::ios::binary);
    for (const auto* plane : {&g, &b, &r}) out.write(reinterpret_cast<const char*>(plane->data()), w * h * 2);
  }
  const std::string clip = make_clip("pq_known.mkv", "-f rawvideo -pix_fmt gbrp10le -s 32x16 -r 10 -i '" +
                                                         raw_path.string() + "' -c:v ffv1 -color_trc smpte2084 "
                                                         "-color_primaries bt2020");
  const double peak = st2084_nits(769.0 / 1023), mid = st2084_nits(520.0 / 1023);
  for (const char* engine : {"gpu", "cpu"}) {
    const auto res = run_vhist("analyze '" + clip + "' --bins 16 -q --engine " + engine);
    ASSERT_EQ(res.status, 0) << res.err;
    const auto records = lines(res.out);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_NEAR(fraction(records[0], "max_cll"), peak, 1e-4) << engine;
    EXPECT_NEAR(fraction(records[0], "fall"), (32 * peak + 4 * mid) / (w * h), 1e-4) << engine;
    EXPECT_NEAR(peak, 1000, 25);
    const std::string summary = summary_of(res.out);
    EXPECT_NEAR(fraction(summary, "max_cll"), peak, 1e-4) << summary;
    EXPECT_NE(summary.find("\"max_cll_frame\":0"), std::string::npos) << summary;
  }
  // An SDR frame has no light fields.
  const std::string sdr = make_clip("sdr_light.mkv", "-f lavfi -i testsrc2=s=32x16 -frames:v 1 -pix_fmt yuv420p -c:v ffv1");
  const auto res = run_vhist("analyze '" + sdr + "' --bins 16 -q");
  EXPECT_EQ(res.out.find("max_cll"), std::string::npos);
}

// The 10-bit PQ code step around `nits` (the HLG light's quantization: its nearest PQ code).
double pq_step(double nits) {
  double code = 0;
  while (code < 1023 && st2084_nits((code + 1) / 1023) < nits) ++code;
  return st2084_nits((code + 1) / 1023) - st2084_nits(code / 1023);
}

TEST(AnalyzeSource, HlgLightOfAFrameWorkedByHand) {
  // A 32x16 10-bit R'G'B' frame tagged HLG: grey at R' = G' = B' = 767 (E' = 0.7498, HLG's
  // reference white) and an 8x4 block of pure red (R' = 1023). BT.2100's reference display
  // (1000 cd/m2, gamma 1.2): grey E = (exp((E' - c)/a) + b)/12, Ys = E, F_D = 1000 E^1.2; red
  // E = 1, Ys = 0.2627, F_D = 1000 * 0.2627^0.2.
  const std::uint32_t w = 32, h = 16;
  std::vector<std::uint16_t> g(w * h, 767), b(w * h, 767), r(w * h, 767);
  for (std::uint32_t y = 0; y < 4; ++y) {
    for (std::uint32_t x = 0; x < 8; ++x) r[y * w + x] = 1023, g[y * w + x] = 0, b[y * w + x] = 0;
  }
  const auto raw_path = test::clip_dir() / "hlg_known.raw";
  {
    std::ofstream out(raw_path, std::ios::binary);
    for (const auto* plane : {&g, &b, &r}) out.write(reinterpret_cast<const char*>(plane->data()), w * h * 2);
  }
  const std::string clip = make_clip("hlg_known.mkv", "-f rawvideo -pix_fmt gbrp10le -s 32x16 -r 10 -i '" +
                                                          raw_path.string() + "' -c:v ffv1 -color_trc arib-std-b67 "
                                                          "-color_primaries bt2020");
  const double a = 0.17883277, bb = 0.28466892, c = 0.55991073;
  const double grey = 1000 * std::pow((std::exp((767.0 / 1023 - c) / a) + bb) / 12, 1.2);
  const double red = 1000 * std::pow(0.2627, 0.2);
  std::vector<std::string> first;
  for (const char* engine : {"gpu", "cpu"}) {
    const auto res = run_vhist("analyze '" + clip + "' --bins 16 -q --engine " + engine);
    ASSERT_EQ(res.status, 0) << res.err;
    const auto records = lines(res.out);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_NEAR(fraction(records[0], "max_cll"), red, pq_step(red)) << engine;
    const double fall = (32 * red + (w * h - 32) * grey) / (w * h);
    EXPECT_NEAR(fraction(records[0], "fall"), fall, pq_step(red)) << engine;
    const std::string summary = summary_of(res.out);
    EXPECT_NEAR(fraction(summary, "max_cll"), red, pq_step(red)) << summary;
    EXPECT_NE(summary.find("\"signal\":\"hlg\""), std::string::npos) << summary;
    EXPECT_NE(summary.find("HLG reference display: 1000 cd/m2"), std::string::npos) << summary;
    if (first.empty()) {
      first = records;
    } else {
      EXPECT_EQ(records, first) << "the engines differ";
    }
  }
  std::printf("HLG by hand: grey %.4f, red %.4f cd/m2; measured %s\n", grey, red, first[0].substr(0, 200).c_str());
}

// A real HLG clip (HEVC Main 10, lossless): the GPU's records equal the CPU engine's exactly,
// every frame with its light; the CSV summary says whose light it is.
TEST(AnalyzeSource, HlgClipEnginesAgree) {
  const std::string clip = make_clip("hlg_testsrc.mkv",
                                     "-f lavfi -i testsrc2=s=160x90:d=0.4," + ycbcr_vf("bt2020nc", "yuv420p10le") +
                                         " -pix_fmt yuv420p10le -color_trc arib-std-b67 "
                                         "-color_primaries bt2020 -colorspace bt2020nc -color_range tv -c:v libx265 "
                                     "-x265-params log-level=error:lossless=1");
  const auto gpu = run_vhist("analyze '" + clip + "' --bins 64 -q --engine gpu");
  const auto cpu = run_vhist("analyze '" + clip + "' --bins 64 -q --engine cpu");
  ASSERT_EQ(gpu.status, 0) << gpu.err;
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  const auto records = lines(gpu.out);
  ASSERT_EQ(records.size(), 10u);
  EXPECT_EQ(records, lines(cpu.out));
  for (const std::string& record : records) EXPECT_GT(fraction(record, "max_cll"), 100) << record;
  const auto csv = run_vhist("analyze '" + clip + "' --bins 16 -q --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("# light (10 HLG frames, as shown on the BT.2100 HLG reference display"), std::string::npos)
      << csv.out;
}

TEST(AnalyzeSource, PqSummaryBesideTheStreamsContentLight) {
  const std::string pq = make_clip("pq_cll.mp4", "-f lavfi -i testsrc2=s=64x48:r=10," + ycbcr_vf("bt2020nc", "yuv420p10le") + " -frames:v 3 -c:v libx265 -pix_fmt "
                                                 "yuv420p10le -x265-params 'colorprim=bt2020:transfer=smpte2084:"
                                                 "colormatrix=bt2020nc:max-cll=1000,400:log-level=error'");
  const auto r = run_vhist("analyze '" + pq + "' --bins 16 -q --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("PQ frames): MaxCLL "), std::string::npos) << r.out.substr(r.out.size() - 400);
  EXPECT_NE(r.out.find("; the stream says MaxCLL 1000, MaxFALL 400\n"), std::string::npos);
  // testsrc2's white (Y' 235 of 255, 940 of 1023 after x265's 10-bit conversion) is R'G'B' 1.0:
  // 10000 cd/m2 through ST 2084, and its bars average far above 400: both figures exceeded.
  EXPECT_NE(r.out.find("# warning: the pixels are brighter than the stream's HDR metadata says (MaxCLL 10000.0 "
                       "cd/m2 (frame 0) against the stream's 1000; MaxFALL "),
            std::string::npos)
      << r.out.substr(r.out.size() - 600);
  EXPECT_NE(r.err.find("warning: '" + pq + "': the pixels are brighter"), std::string::npos) << r.err;
  // Metadata at the format's ceiling (10000 cd/m2) and a 1000 cd/m2 mastering display: only the
  // display's peak is exceeded.
  const std::string pq_max = make_clip("pq_cll_max.mp4", "-f lavfi -i testsrc2=s=64x48:r=10," + ycbcr_vf("bt2020nc", "yuv420p10le") + " -frames:v 3 -c:v libx265 "
                                                         "-pix_fmt yuv420p10le -x265-params 'colorprim=bt2020:"
                                                         "transfer=smpte2084:colormatrix=bt2020nc:max-cll=10000,10000:"
                                                         "master-display=G(13250,34500)B(7500,3000)R(34000,16000)"
                                                         "WP(15635,16450)L(10000000,1):log-level=error'");
  const auto m = run_vhist("analyze '" + pq_max + "' --bins 16 -q");
  ASSERT_EQ(m.status, 0) << m.err;
  const std::string summary = summary_of(m.out);
  EXPECT_NE(summary.find("\"mastering_max_luminance\":1000.0000"), std::string::npos) << summary;
  EXPECT_NE(summary.find("HDR metadata says (pixels brighter than the mastering display's peak of 1000 cd/m2)"),
            std::string::npos)
      << summary;
  EXPECT_EQ(summary.find("against the stream's"), std::string::npos) << summary;
}

// The part of a record from `key` on (its arrays and statistics), for comparing two records.
std::string from_key(const std::string& record, const std::string& key) {
  const std::size_t at = record.find("\"" + key + "\":");
  return at == std::string::npos ? "" : record.substr(at);
}

TEST(AnalyzeSource, AlphaSkipLeavesOutTransparentPixels) {
  // A 32x16 RGBA picture whose left 8 columns are fully transparent: with --alpha skip its
  // histograms and statistics are those of its opaque 24 columns, cut out by ffmpeg.
  const std::string png = make_clip("alpha_left.png", "-f lavfi -i \"testsrc2=s=32x16,format=rgba,geq=r='r(X,Y)':"
                                                      "g='g(X,Y)':b='b(X,Y)':a='if(lt(X,8),0,255)'\" -frames:v 1");
  const std::string opaque = make_clip("alpha_opaque.png", "-i '" + png + "' -vf crop=24:16:8:0 -frames:v 1");
  const auto want = run_vhist("analyze '" + opaque + "' --bins 16 -q --engine cpu");
  ASSERT_EQ(want.status, 0) << want.err;
  for (const char* engine : {"gpu", "cpu"}) {
    const auto r = run_vhist("analyze '" + png + "' --alpha skip --bins 16 -q --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string record = lines(r.out).at(0);
    EXPECT_NE(record.find("\"counted\":384,"), std::string::npos) << record;
    EXPECT_EQ(from_key(record, "r"), from_key(lines(want.out).at(0), "r")) << engine;
  }
  // Without the option every pixel counts, and no "counted" field is written.
  const auto all = run_vhist("analyze '" + png + "' --bins 16 -q");
  EXPECT_EQ(all.out.find("counted"), std::string::npos);
  EXPECT_EQ(json_array(lines(all.out).at(0), "l").size(), 16u);
  std::uint64_t sum = 0;
  for (auto v : json_array(lines(all.out).at(0), "l")) sum += v;
  EXPECT_EQ(sum, 512u);
}

TEST(AnalyzeSource, AlphaSkipReadsVp9Alpha) {
  // VP9 keeps alpha in a side stream that libvpx decodes; lossless, so exactly 8 x 16 pixels
  // per frame stay transparent.
  const std::string webm = make_clip("alpha_skip.webm", "-f lavfi -i \"testsrc2=s=32x16:r=10,format=yuva420p,geq=lum="
                                                   "'lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(X,8),0,255)'\" "
                                                   "-frames:v 3 -c:v libvpx-vp9 -lossless 1 -pix_fmt yuva420p");
  const auto r = run_vhist("analyze '" + webm + "' --alpha skip --bins 16 -q");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto records = lines(r.out);
  ASSERT_EQ(records.size(), 3u);
  for (const auto& record : records) EXPECT_NE(record.find("\"counted\":384,"), std::string::npos) << record;
  const auto refused = run_vhist("analyze '" + webm + "' --alpha skip --domain ycbcr -q");
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("--domain ycbcr"), std::string::npos) << refused.err;
}

TEST(AnalyzeSource, RoiCountsTheRectangleOnly) {
  // An RGB picture: the region's counts equal those of the same rectangle cut out by ffmpeg.
  const std::string png = make_clip("roi_full.png", "-f lavfi -i testsrc2=s=40x24 -frames:v 1");
  const std::string cut = make_clip("roi_cut.png", "-i '" + png + "' -vf crop=13:7:5:9 -frames:v 1");
  const auto want = run_vhist("analyze '" + cut + "' --bins 16 -q");
  ASSERT_EQ(want.status, 0) << want.err;
  for (const char* engine : {"gpu", "cpu"}) {
    const auto r = run_vhist("analyze '" + png + "' --roi 5,9,13,7 --bins 16 -q --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"region\":[5,9,13,7]"), std::string::npos);
    const std::string record = lines(r.out).at(0);
    EXPECT_NE(record.find("\"counted\":91,"), std::string::npos) << record;
    EXPECT_EQ(from_key(record, "r"), from_key(lines(want.out).at(0), "r")) << engine;
  }
  // Y'CbCr video: both engines give the same counts (the GPU test holds them to the reference).
  const std::string clip = make_clip("roi.mkv", "-f lavfi -i testsrc2=s=48x32:r=10,noise=alls=20:allf=t -frames:v 3 "
                                                "-pix_fmt yuv420p -c:v ffv1");
  const auto gpu = run_vhist("analyze '" + clip + "' --roi 3,5,17,9 --bins 64 -q --engine gpu");
  const auto cpu = run_vhist("analyze '" + clip + "' --roi 3,5,17,9 --bins 64 -q --engine cpu");
  ASSERT_EQ(gpu.status, 0) << gpu.err;
  EXPECT_EQ(lines(gpu.out), lines(cpu.out));
  std::uint64_t sum = 0;
  for (auto v : json_array(lines(gpu.out).at(0), "l")) sum += v;
  EXPECT_EQ(sum, 17u * 9u);
  // Outside the frame: refused with the frame's size; not with --domain ycbcr.
  const auto outside = run_vhist("analyze '" + clip + "' --roi 40,0,9,4 -q");
  EXPECT_EQ(outside.status, 2);
  EXPECT_NE(outside.err.find("does not lie inside the 48x32 frame"), std::string::npos) << outside.err;
  const auto planes = run_vhist("analyze '" + clip + "' --roi 0,0,4,4 --domain ycbcr -q");
  EXPECT_EQ(planes.status, 2);
  const auto bad = run_vhist("analyze '" + clip + "' --roi 1,2,0,4 -q");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("W and H at least 1"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace vhist
