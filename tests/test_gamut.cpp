// EBU R 103's gamut counts (source_measures.h: reference_gamut), the CPU engine's gamut counts
// and frame checksums, and the GPU checksum's CPU definition (frame_checksum.h). Expected counts come from R'G'B' worked out by hand or from the
// standards' equations in double (gamut_frames.h), not from the fixed-point code under test;
// the CPU engine must equal the reference exactly on every layout.
#include "gamut_frames.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/frame_checksum.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/colour_shared.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace vhist {
namespace {

using test::gamut_side;
using test::planar_frame;
using test::restrided;
using test::standard_rgb;
using test::write_sample;

// A 4:4:4 frame whose pixels are the given (Y', Cb, Cr) codes, left to right, top to bottom.
SyntheticVideoFrame frame_of(const std::vector<std::array<int, 3>>& pixels, std::uint32_t w, std::uint32_t bits,
                             ColourRange range, ColourMatrix matrix = ColourMatrix::bt709) {
  const auto h = static_cast<std::uint32_t>(pixels.size()) / w;
  SyntheticVideoFrame f = planar_frame(bits, 0, 0, w, h, range, matrix);
  for (std::uint32_t i = 0; i < pixels.size(); ++i) {
    for (std::uint32_t c = 0; c < 3; ++c) write_sample(f, c, i % w, i / w, static_cast<std::uint32_t>(pixels[i][c]));
  }
  return f;
}

GamutCounts engine_gamut(CpuEngine& engine, const SyntheticVideoFrame& f) {
  CpuEngine::Request want;
  want.gamut = true;
  return *engine.count(f.format, f.view(), 256, want).gamut;
}

// 8-bit BT.709 limited range (M = 255; low below -12.75, high above 267.75). With
// Y'n = (Y' - 16) / 219 and Pr = (Cr - 128) / 224, R' = 255 (Y'n + 1.5748 Pr) and
// B' = 255 (Y'n + 1.8556 Pb):
//   (16, 128, 128)  black: 0, 0, 0
//   (235, 128, 128) white: 255, 255, 255
//   (235, 128, 240) R' = 255 + 255 x 1.5748 x 112/224 = 455.8: high
//   (16, 128, 16)   R' = -200.8: low
//   (126, 16, 240)  R' = 128.1 + 200.8 = 328.9 high, B' = 128.1 - 236.6 = -108.5 low: both, one pixel
//   (126, 128, 128) mid grey: 128.1
TEST(Gamut, HandWorkedPixels) {
  const SyntheticVideoFrame f = frame_of(
      {{16, 128, 128}, {235, 128, 128}, {235, 128, 240}, {16, 128, 16}, {126, 16, 240}, {126, 128, 128}}, 3, 8,
      ColourRange::limited);
  const GamutCounts want{2, 2, 3};
  EXPECT_EQ(reference_gamut(f.format, f.view()), want);
  CpuEngine engine(2);
  EXPECT_EQ(engine_gamut(engine, f), want);
}

// Gray: R' = G' = B' from Y' alone. 8-bit limited, v = round((Y' - 16) x 255/219): Y' 5 gives
// -12.81 -> -13 (20 x -13 = -260 < -255: low), 6 gives -11.64 -> -12 (inside), 245 gives
// 266.64 -> 267 (inside), 246 gives 267.81 -> 268 (20 x 268 = 5360 > 5355: high). 10-bit
// limited, v = round((Y' - 64) x 1023/876): 19 -> -52.55 -> -53 (low), 20 -> -51.38 -> -51
// (-1020 >= -1023: inside), 984 -> 1074.38 -> 1074 (21480 <= 21483: inside), 985 -> 1075.55 ->
// 1076 (high). Full range: R' = Y', never outside.
TEST(Gamut, GrayLimits) {
  CpuEngine engine(2);
  for (auto [bits, codes] : {std::pair{8u, std::array<std::uint32_t, 6>{5, 6, 245, 246, 0, 255}},
                             std::pair{10u, std::array<std::uint32_t, 6>{19, 20, 984, 985, 0, 1023}}}) {
    for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
      SyntheticVideoFrame f = planar_frame(bits, 0, 0, 3, 2, range, ColourMatrix::bt709, true);
      for (std::uint32_t i = 0; i < 6; ++i) write_sample(f, 0, i % 3, i / 3, codes[i]);
      // Limited: also 0 (low) and the top code (high); full: nothing.
      const GamutCounts want = range == ColourRange::limited ? GamutCounts{2, 2, 4} : GamutCounts{};
      EXPECT_EQ(reference_gamut(f.format, f.view()), want) << bits << " bits " << range_name(range);
      EXPECT_EQ(engine_gamut(engine, f), want) << bits << " bits " << range_name(range);
    }
  }
}

// For each of R', G' and B', codes whose value rounds to each neighbour of the limits (the last
// value inside and the first outside, at both ends) while the other two components are inside:
// found by search with the standard's equations, then counted exactly.
TEST(Gamut, ComponentLimitsExactly) {
  CpuEngine engine(3);
  for (std::uint32_t bits : {8u, 10u}) {
    for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
      for (ColourMatrix matrix : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
        const int m = (1 << bits) - 1, mid = 1 << (bits - 1);
        const int lo = static_cast<int>(std::ceil(-m / 20.0)), hi = static_cast<int>(std::floor(21 * m / 20.0));
        std::vector<std::array<int, 3>> pixels;
        GamutCounts want;
        for (int k = 0; k < 3; ++k) {  // R', G', B'
          for (int target : {lo - 1, lo, hi, hi + 1}) {
            bool found = false;
            for (int y = 0; y <= m && !found; ++y) {
              for (int c = 0; c <= m && !found; ++c) {
                const int cb = k == 0 ? mid : c, cr = k == 2 ? mid : c;
                const auto rgb = standard_rgb(y, cb, cr, bits, range, matrix);
                const double d = rgb[static_cast<std::size_t>(k)];
                if (std::floor(d + 0.5) != target || std::abs(d - std::floor(d + 0.5)) > 0.45) continue;
                bool others_inside = true;
                for (int o = 0; o < 3; ++o) {
                  if (o != k && gamut_side(rgb[static_cast<std::size_t>(o)], bits) != 0) others_inside = false;
                }
                if (!others_inside) continue;
                found = true;
                pixels.push_back({y, cb, cr});
              }
            }
            ASSERT_TRUE(found) << "no codes give component " << k << " = " << target;
            want.low += target < lo ? 1u : 0u;
            want.high += target > hi ? 1u : 0u;
          }
        }
        want.out = want.low + want.high;
        ASSERT_EQ(want, (GamutCounts{3, 3, 6}));
        const SyntheticVideoFrame f = frame_of(pixels, 4, bits, range, matrix);
        const std::string at = std::to_string(bits) + " bits " + std::string(range_name(range)) + " " +
                               std::string(matrix_name(matrix));
        EXPECT_EQ(reference_gamut(f.format, f.view()), want) << at;
        EXPECT_EQ(engine_gamut(engine, f), want) << at;
      }
    }
  }
}

// Frames of every subsampling with saturated chroma held constant (so upsampling gives it back
// exactly) and Y' ramping through every code: the counts equal those of the standard's
// equations, pixel by pixel.
TEST(Gamut, SaturatedChromaOverAllLumaCodes) {
  CpuEngine engine(3);
  for (std::uint32_t bits : {8u, 10u}) {
    const int m = (1 << bits) - 1, mid = 1 << (bits - 1), unit = 1 << (bits - 8);
    const std::array<std::pair<int, int>, 7> chroma{{{16 * unit, 240 * unit}, {240 * unit, 16 * unit}, {0, 0},
                                                     {m, m}, {mid, m}, {0, mid}, {mid, mid}}};
    for (auto [sx, sy] : {std::pair{0u, 0u}, {1u, 0u}, {1u, 1u}}) {
      for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
        for (auto [cb_of_case, cr_of_case] : chroma) {
          const auto cb = cb_of_case, cr = cr_of_case;  // variables, not bindings: lambdas capture them (clang 14)
          const std::uint32_t w = 37, h = (static_cast<std::uint32_t>(m) + 1 + w - 1) / w;  // odd sizes
          SyntheticVideoFrame f = planar_frame(bits, sx, sy, w, h, range, ColourMatrix::bt2020);
          for (std::uint32_t y = 0; y < f.format.chroma_height(); ++y) {
            for (std::uint32_t x = 0; x < f.format.chroma_width(); ++x) {
              write_sample(f, 1, x, y, static_cast<std::uint32_t>(cb));
              write_sample(f, 2, x, y, static_cast<std::uint32_t>(cr));
            }
          }
          GamutCounts want;
          for (std::uint32_t i = 0; i < w * h; ++i) {
            int code = static_cast<int>(i) % (m + 1);
            // Codes whose value lies at a rounding tie at a limit could go either way: the next one.
            const auto sides = [&](int yc) {
              const auto rgb = standard_rgb(yc, cb, cr, bits, range, ColourMatrix::bt2020);
              return std::array{gamut_side(rgb[0], bits), gamut_side(rgb[1], bits), gamut_side(rgb[2], bits)};
            };
            auto s = sides(code);
            while (!s[0] || !s[1] || !s[2]) s = sides(code = (code + 1) % (m + 1));
            write_sample(f, 0, i % w, i / w, static_cast<std::uint32_t>(code));
            const bool low = *s[0] < 0 || *s[1] < 0 || *s[2] < 0, high = *s[0] > 0 || *s[1] > 0 || *s[2] > 0;
            want.low += low ? 1u : 0u;
            want.high += high ? 1u : 0u;
            want.out += low || high ? 1u : 0u;
          }
          const std::string at = std::to_string(bits) + " bits " + std::to_string(sx) + std::to_string(sy) + " " +
                                 std::string(range_name(range)) + " cb " + std::to_string(cb) + " cr " + std::to_string(cr);
          EXPECT_EQ(reference_gamut(f.format, f.view()), want) << at;
          EXPECT_EQ(engine_gamut(engine, f), want) << at;
          if (cb == mid && cr == mid && range == ColourRange::full) {
            EXPECT_EQ(want.out, 0u) << "a neutral full-range frame lies inside";
          } else {
            EXPECT_GT(want.out, 0u) << at;
          }
        }
      }
    }
  }
}

// The limits as comparisons with the last values inside (the CPU engine's loop) say the same as
// their definition, 20 v < -M and 20 v > 21 M, for every value of every depth.
TEST(Gamut, LimitsAsLastValuesInside) {
  for (int bits = 8; bits <= 16; ++bits) {
    const int m = (1 << bits) - 1;
    const int lowest = shader::vhist_gamut_lowest(m), highest = shader::vhist_gamut_highest(m);
    for (int v = -(1 << 17); v <= (1 << 17); ++v) {
      ASSERT_EQ(shader::vhist_gamut_low(v, m), v < lowest) << bits << " bits, v " << v;
      ASSERT_EQ(shader::vhist_gamut_high(v, m), v > highest) << bits << " bits, v " << v;
    }
  }
  EXPECT_EQ(shader::vhist_gamut_lowest(255), -12);  // -12.75 rounded up
  EXPECT_EQ(shader::vhist_gamut_highest(255), 267);  // 267.75 rounded down
  EXPECT_EQ(shader::vhist_gamut_lowest(1023), -51);
  EXPECT_EQ(shader::vhist_gamut_highest(1023), 1074);
}

TEST(Gamut, RgbFramesHaveNone) {
  const SyntheticVideoFrame rgb = make_synthetic_frame("rgb24", 8, 8, 1, ColourMatrix::bt709, ColourRange::full);
  EXPECT_THROW(reference_gamut(rgb.format, rgb.view()), std::invalid_argument);
  CpuEngine engine(2);
  EXPECT_THROW(engine_gamut(engine, rgb), std::invalid_argument);
  const SyntheticVideoFrame yuv = make_synthetic_frame("yuv420p", 8, 8, 1);
  CpuEngine::Request alone;
  alone.levels = false;
  alone.gamut = true;
  EXPECT_THROW(engine.count(yuv.format, yuv.view(), 256, alone), std::invalid_argument);
}

class CpuGamutLayouts : public ::testing::TestWithParam<std::string> {};

// Random samples (much of them out of gamut): the engine's counts equal the reference's, beside
// everything else count() measures, which the gamut counts leave unchanged.
TEST_P(CpuGamutLayouts, EqualsTheReference) {
  CpuEngine engine(3);  // more threads than bands of some frames, several bands a thread of 33x200
  for (auto [w, h] : {std::pair{1u, 1u}, {3u, 3u}, {17u, 9u}, {101u, 7u}, {33u, 200u}}) {
    for (ColourRange r : {ColourRange::limited, ColourRange::full}) {
      const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 7 + h, ColourMatrix::bt2020, r);
      if (!has_planes(t.format)) continue;
      const GamutCounts want = reference_gamut(t.format, t.view());
      std::vector<std::byte> converted(converted_format(t.format).byte_size());
      const CpuEngine::Counts plain = engine.count(t.format, t.view(), 64, {true, true, true}, converted.data());
      for (bool light : {false, true}) {
        for (std::byte* out : {static_cast<std::byte*>(nullptr), converted.data()}) {
          CpuEngine::Request req{true, true, light};
          req.gamut = true;
          const CpuEngine::Counts got = engine.count(t.format, t.view(), 64, req, out);
          const std::string at = std::to_string(w) + "x" + std::to_string(h) + " " + std::string(range_name(r));
          ASSERT_EQ(got.gamut, want) << at;
          ASSERT_EQ(got.levels, plain.levels) << at;
          ASSERT_EQ(got.planes, plain.planes) << at;
          if (light) {
            ASSERT_EQ(got.light, plain.light) << at;
          }
        }
      }
      EXPECT_FALSE(plain.gamut.has_value());
      EXPECT_FALSE(plain.checksum.has_value());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, CpuGamutLayouts, ::testing::ValuesIn(synthetic_layouts()));

std::uint64_t engine_checksum(CpuEngine& engine, const SyntheticVideoFrame& f, bool levels = true) {
  CpuEngine::Request want;
  want.levels = levels;
  want.checksum = true;
  return *engine.count(f.format, f.view(), 16, want).checksum;
}

class CpuChecksumLayouts : public ::testing::TestWithParam<std::string> {};

// Equal planes give equal checksums whatever the strides, padding and thread count, and with or
// without the conversion in the same pass.
TEST_P(CpuChecksumLayouts, EqualFramesEqualValues) {
  CpuEngine one(1), three(3);
  for (auto [w, h] : {std::pair{1u, 1u}, {37u, 19u}, {16u, 70u}}) {
    const SyntheticVideoFrame a = make_synthetic_frame(GetParam(), w, h, w + h);
    const std::uint64_t sum = engine_checksum(one, a);
    EXPECT_EQ(engine_checksum(three, a), sum);
    EXPECT_EQ(engine_checksum(three, a, false), sum);
    EXPECT_EQ(engine_checksum(three, restrided(a, 7, std::byte{0x5a})), sum);
    EXPECT_EQ(engine_checksum(one, restrided(a, 64, std::byte{0})), sum);
    const SyntheticVideoFrame b = make_synthetic_frame(GetParam(), w, h, w + h + 1);
    if (w * h > 1) {
      EXPECT_NE(engine_checksum(three, b), sum) << "another frame";
    }
  }
}

// Every single-sample change of a frame (each component, each position of its grid, the last
// row and column and the chroma planes included) gives a checksum unlike the original's and
// unlike every other change's. 16x70: three bands of rows.
TEST_P(CpuChecksumLayouts, EverySingleSampleChangeShows) {
  CpuEngine engine(3);
  for (auto [w, h] : {std::pair{9u, 5u}, {16u, 70u}}) {
    SyntheticVideoFrame f = make_synthetic_frame(GetParam(), w, h, 3);
    const std::uint64_t original = engine_checksum(engine, f);
    std::set<std::uint64_t> seen{original};
    std::uint32_t changes = 0;
    const std::uint32_t components = f.format.model == ColourModel::gray ? 1 : 3;
    for (std::uint32_t c = 0; c < components; ++c) {
      const bool chroma = c != 0 && f.format.model == ColourModel::yuv;
      const std::uint32_t cw = chroma ? f.format.chroma_width() : w, ch = chroma ? f.format.chroma_height() : h;
      for (std::uint32_t y = 0; y < ch; ++y) {
        for (std::uint32_t x = 0; x < cw; ++x) {
          const std::uint32_t before = read_sample(f.format, f.view(), c, x, y);
          const std::uint32_t after = (before + 1) & ((1u << f.format.bits) - 1u);
          write_sample(f, c, x, y, after);
          EXPECT_TRUE(seen.insert(engine_checksum(engine, f)).second) << "component " << c << " at " << x << "," << y;
          write_sample(f, c, x, y, before);
          ++changes;
        }
      }
    }
    EXPECT_EQ(engine_checksum(engine, f), original);
    EXPECT_EQ(seen.size(), changes + 1);
  }
}

INSTANTIATE_TEST_SUITE_P(All, CpuChecksumLayouts, ::testing::ValuesIn(synthetic_layouts()));

class SampleChecksumLayouts : public ::testing::TestWithParam<std::string> {};

// The GPU pipeline's checksum, by its CPU definition: equal samples in other strides and
// padding give the same value; every single-sample change gives another value, and no two
// changes the same one.
TEST_P(SampleChecksumLayouts, SingleSampleChangesShowPaddingDoesNot) {
  SyntheticVideoFrame f = make_synthetic_frame(GetParam(), 11, 7, 5);
  const std::uint64_t original = reference_sample_checksum(f.format, f.view());
  const SyntheticVideoFrame g = restrided(f, 9, std::byte{0x3c});
  EXPECT_EQ(reference_sample_checksum(g.format, g.view()), original);
  std::set<std::uint64_t> seen{original};
  std::uint32_t changes = 0;
  const std::uint32_t components = f.format.model == ColourModel::gray ? 1 : 3;
  for (std::uint32_t c = 0; c < components; ++c) {
    const bool chroma = c != 0 && f.format.model == ColourModel::yuv;
    const std::uint32_t cw = chroma ? f.format.chroma_width() : 11, ch = chroma ? f.format.chroma_height() : 7;
    for (std::uint32_t y = 0; y < ch; ++y) {
      for (std::uint32_t x = 0; x < cw; ++x) {
        const std::uint32_t before = read_sample(f.format, f.view(), c, x, y);
        for (std::uint32_t after : {before ^ 1u, before ^ (1u << (f.format.bits - 1))}) {
          write_sample(f, c, x, y, after);
          EXPECT_TRUE(seen.insert(reference_sample_checksum(f.format, f.view())).second) << c << " " << x << "," << y;
          ++changes;
        }
        write_sample(f, c, x, y, before);
      }
    }
  }
  EXPECT_EQ(seen.size(), changes + 1);
  EXPECT_EQ(reference_sample_checksum(f.format, f.view()), original);
}

INSTANTIATE_TEST_SUITE_P(All, SampleChecksumLayouts, ::testing::ValuesIn(synthetic_layouts()));

}  // namespace
}  // namespace vhist
