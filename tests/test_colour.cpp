// The fixed-point conversion against the standards' formulas evaluated independently in double,
// the CPU engine against the CPU reference, and the statistics against hand-made histograms.

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/synthetic_frames.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace vhist {
namespace {

// One 4:4:4 pixel through reference_pixel.
Rgb convert_one(ColourMatrix m, ColourRange r, std::uint32_t bits, std::uint32_t y, std::uint32_t cb, std::uint32_t cr) {
  VideoFormat f = synthetic_layout_format(bits == 8 ? "yuv444p" : "yuv444p12", 1, 1);
  f.bits = bits;
  f.matrix = m;
  f.range = r;
  std::uint16_t samples[3] = {static_cast<std::uint16_t>(y), static_cast<std::uint16_t>(cb),
                              static_cast<std::uint16_t>(cr)};
  std::byte bytes[3][2];
  for (int c = 0; c < 3; ++c) std::memcpy(bytes[c], &samples[c], 2);
  if (bits == 8) {
    for (int c = 0; c < 3; ++c) bytes[c][0] = static_cast<std::byte>(samples[c]);
  }
  VideoPlanes planes;
  for (int c = 0; c < 3; ++c) {
    planes.data[c] = bytes[c];
    planes.stride[c] = 2;
  }
  return reference_pixel(f, planes, conversion_coefficients(m, r, bits), 0, 0);
}

// The textbook conversion in double: normalise, apply the inverse matrix, scale, round, clamp.
Rgb textbook(ColourMatrix m, ColourRange r, std::uint32_t bits, double y, double cb, double cr) {
  const double kr = m == ColourMatrix::bt601 ? 0.299 : m == ColourMatrix::bt709 ? 0.2126 : 0.2627;
  const double kb = m == ColourMatrix::bt601 ? 0.114 : m == ColourMatrix::bt709 ? 0.0722 : 0.0593;
  const double kg = 1 - kr - kb;
  const double max = std::pow(2.0, bits) - 1, unit = std::pow(2.0, bits - 8.0);
  const bool limited = r == ColourRange::limited;
  const double ey = (y - (limited ? 16 * unit : 0)) / (limited ? 219 * unit : max);
  const double epb = (cb - std::pow(2.0, bits - 1.0)) / (limited ? 224 * unit : max);
  const double epr = (cr - std::pow(2.0, bits - 1.0)) / (limited ? 224 * unit : max);
  const double er = ey + 2 * (1 - kr) * epr;
  const double eb = ey + 2 * (1 - kb) * epb;
  const double eg = (ey - kr * er - kb * eb) / kg;
  const auto code = [&](double e) {
    return static_cast<std::uint32_t>(std::clamp(std::floor(e * max + 0.5), 0.0, max));
  };
  return {code(er), code(eg), code(eb)};
}

TEST(Colour, FixedPointMatchesTheStandardsWithinOneCode) {
  for (ColourMatrix m : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
    for (ColourRange r : {ColourRange::limited, ColourRange::full}) {
      for (std::uint32_t bits : {8u, 10u, 12u}) {
        const std::uint32_t max = (1u << bits) - 1, step = std::max(1u, max / 37);
        int exact = 0, total = 0;
        for (std::uint32_t y = 0; y <= max; y += step) {
          for (std::uint32_t cb = 0; cb <= max; cb += step) {
            for (std::uint32_t cr = 0; cr <= max; cr += step) {
              const Rgb got = convert_one(m, r, bits, y, cb, cr);
              const Rgb want = textbook(m, r, bits, y, cb, cr);
              ASSERT_NEAR(got.r, want.r, 1.0) << matrix_name(m) << " " << range_name(r) << " " << bits << " " << y << ","
                                              << cb << "," << cr;
              ASSERT_NEAR(got.g, want.g, 1.0);
              ASSERT_NEAR(got.b, want.b, 1.0);
              exact += got == want;
              ++total;
            }
          }
        }
        // Off by one only where the exact value lies within the coefficients' rounding error of
        // a half code; that error grows with the depth (S = 26 - bits fraction bits).
        const double rate = double(exact) / total;
        const double floor = bits == 8 ? 0.99 : bits == 10 ? 0.97 : 0.90;
        EXPECT_GE(rate, floor) << matrix_name(m) << " " << range_name(r) << " " << bits;
        std::printf("%s %s %2u-bit: %.2f%% equal to the double-precision formula\n", std::string(matrix_name(m)).c_str(),
                    std::string(range_name(r)).c_str(), bits, 100 * rate);
      }
    }
  }
}

TEST(Colour, AnchorsOfTheStandards) {
  // Limited range: black at 16, white at 235, neutral chroma at 128 (8 bits) or x4 at 10 bits.
  EXPECT_EQ(convert_one(ColourMatrix::bt709, ColourRange::limited, 8, 16, 128, 128), (Rgb{0, 0, 0}));
  EXPECT_EQ(convert_one(ColourMatrix::bt709, ColourRange::limited, 8, 235, 128, 128), (Rgb{255, 255, 255}));
  EXPECT_EQ(convert_one(ColourMatrix::bt709, ColourRange::limited, 10, 64, 512, 512), (Rgb{0, 0, 0}));
  EXPECT_EQ(convert_one(ColourMatrix::bt709, ColourRange::limited, 10, 940, 512, 512), (Rgb{1023, 1023, 1023}));
  EXPECT_EQ(convert_one(ColourMatrix::bt601, ColourRange::full, 8, 0, 128, 128), (Rgb{0, 0, 0}));
  EXPECT_EQ(convert_one(ColourMatrix::bt601, ColourRange::full, 8, 255, 128, 128), (Rgb{255, 255, 255}));
  // 100% colour bars: the standards' 8-bit Y'CbCr are rounded, so the primaries come back
  // within one code. BT.709 red is 63, 102, 240; BT.601 green 145, 54, 34 and blue 41, 240, 110.
  const auto near = [](Rgb got, Rgb want) {
    return std::abs(int(got.r) - int(want.r)) <= 1 && std::abs(int(got.g) - int(want.g)) <= 1 &&
           std::abs(int(got.b) - int(want.b)) <= 1;
  };
  EXPECT_TRUE(near(convert_one(ColourMatrix::bt709, ColourRange::limited, 8, 63, 102, 240), Rgb{255, 0, 0}));
  EXPECT_TRUE(near(convert_one(ColourMatrix::bt601, ColourRange::limited, 8, 145, 54, 34), Rgb{0, 255, 0}));
  EXPECT_TRUE(near(convert_one(ColourMatrix::bt601, ColourRange::limited, 8, 41, 240, 110), Rgb{0, 0, 255}));
  // Super-white and sub-black clamp.
  EXPECT_EQ(convert_one(ColourMatrix::bt709, ColourRange::limited, 8, 255, 128, 128), (Rgb{255, 255, 255}));
  EXPECT_EQ(convert_one(ColourMatrix::bt709, ColourRange::limited, 8, 0, 128, 128), (Rgb{0, 0, 0}));
}

TEST(Colour, ChromaUpsamplingWeights) {
  // 4x4 yuv420p frame: Y' flat at 126, Cb flat at 128, Cr a 2x2 grid of distinct values. With
  // full range BT.601, R' - G'... is linear in Cr, so compare the interpolated Cr directly:
  // reference_pixel's R' minus the R' of neutral chroma, through the Cr gain.
  SyntheticVideoFrame t = make_synthetic_frame("yuv420p", 4, 4, 1, ColourMatrix::bt601, ColourRange::full);
  auto& y = t.planes[0];
  auto& cb = t.planes[1];
  auto& cr = t.planes[2];
  for (std::uint32_t row = 0; row < 4; ++row)
    for (std::uint32_t x = 0; x < 4; ++x) y[row * t.stride[0] + x] = std::byte{100};
  for (std::uint32_t row = 0; row < 2; ++row)
    for (std::uint32_t x = 0; x < 2; ++x) cb[row * t.stride[1] + x] = std::byte{128};
  const int crv[2][2] = {{100, 180}, {140, 60}};
  for (std::uint32_t row = 0; row < 2; ++row)
    for (std::uint32_t x = 0; x < 2; ++x) cr[row * t.stride[2] + x] = static_cast<std::byte>(crv[row][x]);
  const auto k = conversion_coefficients(ColourMatrix::bt601, ColourRange::full, 8);
  for (std::uint32_t py = 0; py < 4; ++py) {
    for (std::uint32_t px = 0; px < 4; ++px) {
      // Independent statement of the siting: horizontal position px/2 (co-sited), vertical
      // (py - 0.5)/2 (centred), clamped at the edges; bilinear weights.
      const double cx = std::min(px / 2.0, 1.0), cy = std::clamp((py - 0.5) / 2.0, 0.0, 1.0);
      const auto at = [&](int r, int c) { return double(crv[r][c]); };
      const int x0 = int(cx), y0 = int(cy);
      const int x1 = std::min(x0 + 1, 1), y1 = std::min(y0 + 1, 1);
      const double fx = cx - x0, fy = cy - y0;
      const double v = (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) + fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
      const double want_r = std::clamp(std::floor(100 + 1.402 * (v - 128) + 0.5), 0.0, 255.0);
      const Rgb got = reference_pixel(t.format, t.view(), k, px, py);
      EXPECT_NEAR(got.r, want_r, 1.0) << px << "," << py << " cr " << v;
    }
  }
}

class CpuEngineLayouts : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuEngineLayouts, EqualsTheReference) {
  CpuEngine engine(3);  // more threads than bands of some frames
  for (auto [w, h] : {std::pair{1u, 1u}, {3u, 3u}, {17u, 9u}, {64u, 48u}, {101u, 7u}}) {
    for (ColourMatrix m : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
      for (ColourRange r : {ColourRange::limited, ColourRange::full}) {
        const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 31 + h, m, r);
        const auto rgb = reference_convert(t.format, t.view());
        const FrameFormat ff = converted_format(t.format);
        for (std::uint32_t bins : {16u, 256u}) {
          const Histogram want = reference_histogram(rgb, ff, bins);
          ASSERT_EQ(engine.histogram(t.format, t.view(), bins), want) << w << "x" << h << " bins " << bins;
          std::vector<std::byte> converted(ff.byte_size());
          ASSERT_EQ(engine.convert_and_histogram(t.format, t.view(), bins, converted.data()), want);
          ASSERT_EQ(converted, rgb) << "converted pixels differ from reference_convert()";
          ASSERT_EQ(want.total(Channel::l), std::uint64_t{w} * h);
        }
      }
    }
  }
}

// One pass for everything analyze measures: the histograms, the plane counts and the light
// levels of count() equal the reference's, with and without the converted pixels, and planes()
// alone equals reference_planes().
TEST_P(CpuEngineLayouts, CountsPlanesAndLightInOnePass) {
  CpuEngine engine(3);  // more threads than bands of some frames, several bands a thread of 33x200
  for (auto [w, h] : {std::pair{1u, 1u}, {3u, 3u}, {17u, 9u}, {64u, 48u}, {101u, 7u}, {33u, 200u}}) {
    for (ColourRange r : {ColourRange::limited, ColourRange::full}) {
      const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 17 + h, ColourMatrix::bt709, r);
      const auto rgb = reference_convert(t.format, t.view());
      const FrameFormat ff = converted_format(t.format);
      const bool planes = has_planes(t.format);
      for (std::uint32_t bins : {16u, 256u, max_bins_for_bits(t.format.bits)}) {
        const std::string at = std::to_string(w) + "x" + std::to_string(h) + " bins " + std::to_string(bins);
        std::vector<std::byte> converted(ff.byte_size());
        for (std::byte* out : {static_cast<std::byte*>(nullptr), converted.data()}) {
          const CpuEngine::Counts got = engine.count(t.format, t.view(), bins, {true, planes, true}, out);
          ASSERT_EQ(got.levels, reference_histogram(rgb, ff, bins)) << at;
          ASSERT_EQ(got.light, reference_max_rgb(rgb, ff)) << at;
          ASSERT_EQ(got.planes.has_value(), planes) << at;
          if (planes) {
            ASSERT_EQ(*got.planes, reference_planes(t.format, t.view(), bins)) << at;
          }
        }
        ASSERT_EQ(converted, rgb) << at;
        if (!planes) continue;
        ASSERT_EQ(engine.planes(t.format, t.view(), bins), reference_planes(t.format, t.view(), bins)) << at;
        const CpuEngine::Counts plain = engine.count(t.format, t.view(), bins, {true, false, false});
        EXPECT_FALSE(plain.planes.has_value());
        EXPECT_TRUE(plain.light.empty());
      }
    }
  }
  const SyntheticVideoFrame rgb_frame = make_synthetic_frame("rgb24", 8, 8, 1, ColourMatrix::bt709, ColourRange::full);
  EXPECT_THROW(engine.count(rgb_frame.format, rgb_frame.view(), 256, {true, true, false}), std::invalid_argument);
}

// Without the chroma histograms (Request::chroma off): the Y' histogram and every plane's
// samples outside the limited range as the reference counts them, the Cb and Cr bins left at 0,
// their samples in chroma_unbinned; the rest of the counts as with them.
TEST_P(CpuEngineLayouts, CountsPlanesWithoutChromaBins) {
  CpuEngine engine(3);
  for (auto [w, h] : {std::pair{1u, 1u}, {3u, 3u}, {17u, 9u}, {101u, 7u}, {33u, 200u}}) {
    const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 13 + h, ColourMatrix::bt709,
                                                       ColourRange::limited);
    if (!has_planes(t.format)) continue;
    for (std::uint32_t bins : {16u, 256u, max_bins_for_bits(t.format.bits)}) {
      const std::string at = std::to_string(w) + "x" + std::to_string(h) + " bins " + std::to_string(bins);
      CpuEngine::Request want{true, true, true, true};
      const CpuEngine::Counts with = engine.count(t.format, t.view(), bins, want);
      want.chroma = false;
      const CpuEngine::Counts got = engine.count(t.format, t.view(), bins, want);
      const PlaneCounts ref = reference_planes(t.format, t.view(), bins);
      ASSERT_TRUE(got.planes.has_value()) << at;
      EXPECT_EQ(got.levels, with.levels) << at;
      EXPECT_EQ(got.light, with.light) << at;
      EXPECT_EQ(got.gamut, with.gamut) << at;
      EXPECT_EQ(got.planes->below, ref.below) << at;
      EXPECT_EQ(got.planes->above, ref.above) << at;
      const bool yuv = t.format.model == ColourModel::yuv;
      const std::uint64_t chroma = yuv ? std::uint64_t{t.format.chroma_width()} * t.format.chroma_height() : 0u;
      EXPECT_EQ(got.planes->chroma_unbinned, chroma) << at;
      EXPECT_EQ(got.planes->chroma_total(), ref.chroma_total()) << at;
      EXPECT_EQ(ref.chroma_total(), 2 * chroma) << at;
      const RangeCheck range = range_check(*got.planes, ColourRange::limited);
      const RangeCheck ref_range = range_check(ref, ColourRange::limited);
      EXPECT_EQ(range.has_chroma, ref_range.has_chroma) << at;
      EXPECT_EQ(range.chroma.below, ref_range.chroma.below) << at;
      EXPECT_EQ(range.chroma.above, ref_range.chroma.above) << at;
      EXPECT_EQ(range.luma.below, ref_range.luma.below) << at;
      for (std::uint32_t b = 0; b < bins; ++b) {
        ASSERT_EQ(got.planes->histogram.at(kPlaneY, b), ref.histogram.at(kPlaneY, b)) << at << " bin " << b;
        ASSERT_EQ(got.planes->histogram.at(kPlaneCb, b), 0u) << at << " bin " << b;
        ASSERT_EQ(got.planes->histogram.at(kPlaneCr, b), 0u) << at << " bin " << b;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, CpuEngineLayouts, ::testing::ValuesIn(synthetic_layouts()));

// 8-bit frames of enough pixels a thread have their R'G'B'L histograms counted a pair of pixels
// at a time (cpu_engine_layout.h): equal to the reference all the same, for an odd width (its last
// pixel counted alone), coarse bins, pseudo-random and natural pictures, and frame after frame
// (each thread's pair tables are emptied into its counts after a frame).
TEST(CpuEnginePairs, EqualTheReferenceFrameAfterFrame) {
  for (unsigned threads : {1u, 2u}) {
    CpuEngine engine(threads);
    const std::uint32_t w = 1025, h = 520 * threads;  // at least 2^19 pixels a thread
    std::vector<std::pair<std::string, SyntheticVideoFrame>> frames;
    for (const char* layout : {"yuv420p", "nv12", "yuyv422", "rgb24", "gray"}) {
      frames.emplace_back(layout, make_synthetic_frame(layout, w, h, threads * 7 + frames.size(), ColourMatrix::bt709));
    }
    frames.emplace_back("natural yuv420p", make_natural_yuv420(w, h, 8, threads));
    frames.emplace_back("another natural yuv420p", make_natural_yuv420(w, h, 8, threads + 10));
    for (const auto& [name, t] : frames) {
      const auto rgb = reference_convert(t.format, t.view());
      const FrameFormat ff = converted_format(t.format);
      for (std::uint32_t bins : {256u, 16u}) {
        const std::string at = name + ", " + std::to_string(threads) + " threads, bins " + std::to_string(bins);
        const bool planes = has_planes(t.format);
        const CpuEngine::Counts got = engine.count(t.format, t.view(), bins, {true, planes, false, planes, true});
        ASSERT_EQ(got.levels, reference_histogram(rgb, ff, bins)) << at;
        if (!planes) continue;
        ASSERT_EQ(*got.planes, reference_planes(t.format, t.view(), bins)) << at;
        ASSERT_EQ(got.gamut, reference_gamut(t.format, t.view())) << at;
      }
    }
  }
}

TEST(FrameStats, HandMadeHistogram) {
  Histogram h(256);
  h.at(Channel::r, 10) = 1;
  h.at(Channel::r, 20) = 98;
  h.at(Channel::r, 30) = 1;
  h.at(Channel::g, 0) = 25;
  h.at(Channel::g, 255) = 75;
  h.at(Channel::b, 7) = 100;
  h.at(Channel::l, 1) = 1;
  h.at(Channel::l, 2) = 1;
  const auto s = channel_stats(h, 8);
  EXPECT_EQ(s[0].min, 10u);
  EXPECT_EQ(s[0].max, 30u);
  EXPECT_EQ(s[0].median, 20u);
  EXPECT_EQ(s[0].p1, 10u);
  EXPECT_EQ(s[0].p99, 20u);
  EXPECT_DOUBLE_EQ(s[0].mean, 20.0);
  EXPECT_DOUBLE_EQ(s[0].clip_low, 0.0);
  EXPECT_DOUBLE_EQ(s[1].clip_low, 0.25);
  EXPECT_DOUBLE_EQ(s[1].clip_high, 0.75);
  EXPECT_EQ(s[1].median, 255u);
  EXPECT_EQ(s[1].p1, 0u);
  EXPECT_EQ(s[2].min, 7u);
  EXPECT_EQ(s[2].max, 7u);
  EXPECT_EQ(s[3].median, 1u);  // lower median of two pixels
  EXPECT_DOUBLE_EQ(s[3].mean, 1.5);
}

TEST(FrameStats, DeepSourcesUseLevelsOfSeveralCodes) {
  Histogram h(1024);  // a 12-bit frame: each level spans 4 codes
  for (Channel c : kAllChannels) h.at(c, 3) = 2;
  const auto s = channel_stats(h, 12);
  EXPECT_EQ(s[0].min, 12u);
  EXPECT_EQ(s[0].max, 15u);
  EXPECT_DOUBLE_EQ(s[0].mean, 13.5);
  EXPECT_THROW(channel_stats(Histogram(256), 12), std::invalid_argument);
}

TEST(FrameStats, CoarsenSumsTheBinsVhistBinMapsTogether) {
  const FrameFormat f{33, 17, PixelPacking::rgba8, 8};
  const auto pixels = make_frame(f, Content::random);
  const Histogram fine = reference_histogram(pixels, f, 256);
  for (std::uint32_t bins : {16u, 64u, 128u, 256u}) EXPECT_EQ(coarsen(fine, bins), reference_histogram(pixels, f, bins));
}

}  // namespace
}  // namespace vhist
