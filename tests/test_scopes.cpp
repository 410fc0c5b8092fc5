// The scopes' counts on the CPU: the CPU engine equals the reference bit for bit for every mode,
// depth, range, rotation and region; and checks that need neither: a ramp gives a diagonal,
// a solid colour one vectorscope cell, R'G'B' -> Cb/Cr agrees with the matrix's real formula.
#include "scope_frames.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/scope_reference.h"
#include "vhist/scope_shared.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace vhist {
namespace {

using test::fill_component;
using test::scope_cases;

std::vector<std::byte> engine_rgb(CpuEngine& engine, const SyntheticVideoFrame& t) {
  std::vector<std::byte> rgb(converted_format(t.format).byte_size());
  engine.convert_and_histogram(t.format, t.view(), 64, rgb.data());
  return rgb;
}

TEST(ScopeCounts, CpuEngineEqualsTheReference) {
  CpuEngine engine(3);
  std::uint32_t seed = 1;
  for (const test::ScopeCase& c : scope_cases()) {
    const SyntheticVideoFrame t = test::scope_frame(c.layout, 37, 23, seed++, c.range, c.rotation);
    const std::vector<std::byte> rgb = engine_rgb(engine, t);
    for (WaveformMode mode : {WaveformMode::luma, WaveformMode::rgb, WaveformMode::ycbcr}) {
      if (mode == WaveformMode::ycbcr && t.format.model != ColourModel::yuv) continue;
      for (auto [levels, width] : {std::pair{max_bins_for_bits(t.format.bits), 16u}, {64u, 10u}, {16u, 64u}}) {
        const WaveformRequest request{mode, levels, width, c.region};
        const WaveformCounts want = reference_waveform(t.format, t.view(), request);
        ASSERT_EQ(engine.waveform(t.format, t.view(), rgb, request), want)
            << test::describe(c) << " " << waveform_mode_name(mode) << " levels " << levels << " width " << width;
      }
    }
    for (std::uint32_t size : {max_bins_for_bits(t.format.bits), 32u}) {
      const VectorscopeRequest request{size, c.region};
      ASSERT_EQ(engine.vectorscope(t.format, t.view(), rgb, request), reference_vectorscope(t.format, t.view(), request))
          << test::describe(c) << " size " << size;
    }
  }
}

TEST(ScopeCounts, ShapeBinsRunsOfColumns) {
  EXPECT_EQ(waveform_shape(37, 16), (WaveformShape{37, 3, 13}));  // 3 x 12 + 1
  EXPECT_EQ(waveform_shape(3840, 1000), (WaveformShape{3840, 4, 960}));
  EXPECT_EQ(waveform_shape(100, 100), (WaveformShape{100, 1, 100}));
  EXPECT_EQ(waveform_shape(10, 64), (WaveformShape{10, 1, 10}));
  VideoFormat f = synthetic_layout_format("yuv420p", 40, 30);
  f.rotation = 90;
  EXPECT_EQ(display_columns(f, PixelRect{0, 0, 40, 30}), 30u);
  f.sar_num = 2;  // the sample aspect ratio does not change the columns counted
  f.rotation = 180;
  EXPECT_EQ(display_columns(f, PixelRect{1, 2, 10, 5}), 10u);
}

// A gray full-range ramp: pixel (x, y) of a 64 x 6 frame has code 4x, so luma = R' = G' = B' =
// 4x. Plot width 32: plot column p sums columns 2p and 2p + 1, holding 6 samples at level 8p and
// 6 at 8p + 4 (256 levels); at 64 levels both at level 2p.
void expect_ramp_diagonal(const WaveformCounts& counts, std::uint32_t levels, bool descending) {
  for (std::uint32_t p = 0; p < 32; ++p) {
    const std::uint32_t q = descending ? 31 - p : p;
    for (std::uint32_t level = 0; level < levels; ++level) {
      std::uint32_t want = 0;
      for (std::uint32_t x : {2 * q, 2 * q + 1}) want += (4 * x) * levels / 256 == level ? 6u : 0u;
      ASSERT_EQ(counts.at(0, p, level), want) << "plot column " << p << " level " << level;
    }
  }
}

TEST(ScopeCounts, HorizontalRampIsADiagonal) {
  CpuEngine engine(2);
  for (std::uint32_t rotation : {0u, 90u}) {
    // Turned 90 degrees clockwise, stored row y shows at display column 63 - y: rows holding
    // 4 (63 - y) show the same rising ramp.
    SyntheticVideoFrame t = make_synthetic_frame("gray", rotation == 0 ? 64 : 6, rotation == 0 ? 6 : 64, 5,
                                                 ColourMatrix::bt709, ColourRange::full);
    t.format.rotation = rotation;
    fill_component(t, 0, [&](std::uint32_t x, std::uint32_t y) { return rotation == 0 ? 4 * x : 4 * (63 - y); });
    const std::vector<std::byte> rgb = engine_rgb(engine, t);
    for (WaveformMode mode : {WaveformMode::luma, WaveformMode::rgb}) {
      for (std::uint32_t levels : {256u, 64u}) {
        const WaveformRequest request{mode, levels, 32, std::nullopt};
        const WaveformCounts ref = reference_waveform(t.format, t.view(), request);
        SCOPED_TRACE(std::string(waveform_mode_name(mode)) + " rotation " + std::to_string(rotation));
        expect_ramp_diagonal(ref, levels, false);
        expect_ramp_diagonal(engine.waveform(t.format, t.view(), rgb, request), levels, false);
      }
    }
  }
}

// A Y'CbCr ramp turned 180 degrees: the stored ramp rises to the right, the shown one falls.
TEST(ScopeCounts, PlaneRampUpsideDownIsAFallingDiagonal) {
  CpuEngine engine(2);
  SyntheticVideoFrame t = make_synthetic_frame("yuv420p", 64, 6, 9, ColourMatrix::bt709, ColourRange::full);
  t.format.rotation = 180;
  fill_component(t, 0, [](std::uint32_t x, std::uint32_t) { return 4 * x; });
  fill_component(t, 1, [](std::uint32_t x, std::uint32_t) { return 8 * x; });  // 32 x 3 chroma samples
  fill_component(t, 2, [](std::uint32_t, std::uint32_t) { return 77u; });
  const WaveformRequest request{WaveformMode::ycbcr, 256, 32, std::nullopt};
  for (const WaveformCounts& counts : {reference_waveform(t.format, t.view(), request),
                                       engine.waveform(t.format, t.view(), {}, request)}) {
    expect_ramp_diagonal(counts, 256, true);
    for (std::uint32_t p = 0; p < 32; ++p) {
      // Chroma column 31 - p (luma columns 62 - 2p, 63 - 2p) shows at plot column p: 3 samples.
      EXPECT_EQ(counts.at(1, p, 8 * (31 - p)), 3u) << p;
      EXPECT_EQ(counts.at(2, p, 77), 3u) << p;
    }
  }
}

std::uint64_t nonzero_cells(const VectorscopeCounts& v) {
  std::uint64_t n = 0;
  for (std::uint32_t c : v.counts) n += c != 0 ? 1 : 0;
  return n;
}

TEST(ScopeCounts, SolidColourIsOneVectorscopeCell) {
  CpuEngine engine(2);
  SyntheticVideoFrame yuv = make_synthetic_frame("yuv420p", 21, 11, 3);
  fill_component(yuv, 1, [](std::uint32_t, std::uint32_t) { return 90u; });
  fill_component(yuv, 2, [](std::uint32_t, std::uint32_t) { return 200u; });
  const VectorscopeRequest request{256, PixelRect{3, 1, 15, 9}};  // chroma columns 1..8, rows 0..4
  for (const VectorscopeCounts& v : {reference_vectorscope(yuv.format, yuv.view(), request),
                                     engine.vectorscope(yuv.format, yuv.view(), {}, request)}) {
    EXPECT_TRUE(v.from_planes);
    EXPECT_EQ(v.at(200, 90), 8u * 5u);
    EXPECT_EQ(nonzero_cells(v), 1u);
  }
  // R'G'B' (200, 40, 60), BT.709 full range: Cb = 128 + 255 (B - Y) / (2 (1 - Kb)) / 255 ...
  SyntheticVideoFrame rgb = make_synthetic_frame("rgb24", 13, 7, 4);
  const std::uint32_t colour[3] = {200, 40, 60};
  for (std::uint32_t c = 0; c < 3; ++c) fill_component(rgb, c, [&](std::uint32_t, std::uint32_t) { return colour[c]; });
  const double y = 0.2126 * 200 + 0.7152 * 40 + 0.0722 * 60;
  const double cb = 128 + (60 - y) / (2 * (1 - 0.0722)), cr = 128 + (200 - y) / (2 * (1 - 0.2126));
  const std::vector<std::byte> converted = engine_rgb(engine, rgb);
  for (const VectorscopeCounts& v : {reference_vectorscope(rgb.format, rgb.view(), {256, std::nullopt}),
                                     engine.vectorscope(rgb.format, rgb.view(), converted, {256, std::nullopt})}) {
    EXPECT_FALSE(v.from_planes);
    EXPECT_EQ(nonzero_cells(v), 1u);
    EXPECT_EQ(v.at(static_cast<std::uint32_t>(std::lround(cr)), static_cast<std::uint32_t>(std::lround(cb))), 13u * 7u)
        << "cb " << cb << " cr " << cr;
  }
}

// chroma_from_rgb() against the real-valued formula: within half a code plus the coefficients'
// rounding, for every matrix, range and depth; grey is exactly zero chroma.
TEST(ScopeCounts, ChromaFromRgbFollowsTheMatrix) {
  std::mt19937 rng(7);
  for (ColourMatrix m : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
    const double kr = m == ColourMatrix::bt601 ? 0.299 : m == ColourMatrix::bt709 ? 0.2126 : 0.2627;
    const double kb = m == ColourMatrix::bt601 ? 0.114 : m == ColourMatrix::bt709 ? 0.0722 : 0.0593;
    for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
      for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
        const ChromaFromRgb k = chroma_from_rgb(m, range, bits);
        const double top = std::ldexp(1.0, static_cast<int>(bits)) - 1;
        const double span = range == ColourRange::full ? top : 224 * std::ldexp(1.0, static_cast<int>(bits) - 8);
        for (int i = 0; i < 2000; ++i) {
          const int r = static_cast<int>(rng() % (1u << bits)), g = static_cast<int>(rng() % (1u << bits)),
                    b = static_cast<int>(rng() % (1u << bits));
          const double y = kr * r + (1 - kr - kb) * g + kb * b;
          const double want_cb = std::ldexp(1.0, static_cast<int>(bits) - 1) + span / top * (b - y) / (2 * (1 - kb));
          const double got_cb = shader::vhist_scope_chroma(r, g, b, k.cb[0], k.cb[1], k.cb[2], k.zero, k.max_code);
          const double clamped = std::clamp(want_cb, 0.0, top);
          EXPECT_NEAR(got_cb, clamped, 0.5 + 3 * top / 32768 + 1e-9) << r << " " << g << " " << b;
        }
        EXPECT_EQ(shader::vhist_scope_chroma(77, 77, 77, k.cr[0], k.cr[1], k.cr[2], k.zero, k.max_code),
                  1u << (bits - 1));
      }
    }
  }
}

TEST(ScopeCounts, BadRequestsSayWhy) {
  const VideoFormat rgb = synthetic_layout_format("rgb24", 16, 8);
  EXPECT_NE(check_waveform(rgb, {WaveformMode::ycbcr, 256, 16, std::nullopt}).find("needs Y'CbCr planes"),
            std::string::npos);
  EXPECT_NE(check_waveform(rgb, {WaveformMode::luma, 1024, 16, std::nullopt}).find("waveform levels must be"),
            std::string::npos);
  EXPECT_NE(check_waveform(rgb, {WaveformMode::luma, 256, 0, std::nullopt}).find("plot width"), std::string::npos);
  EXPECT_NE(check_waveform(rgb, {WaveformMode::luma, 256, 16, PixelRect{10, 0, 7, 8}}).find("region"), std::string::npos);
  EXPECT_NE(check_vectorscope(rgb, {100, std::nullopt}).find("vectorscope's size"), std::string::npos);
  EXPECT_EQ(check_vectorscope(rgb, {256, std::nullopt}), "");
  VideoFormat turned = rgb;
  turned.rotation = 45;
  EXPECT_NE(check_vectorscope(turned, {256, std::nullopt}).find("rotation must be"), std::string::npos);
  CpuEngine engine(1);
  SyntheticVideoFrame t = make_synthetic_frame("rgb24", 16, 8, 1);
  EXPECT_THROW(engine.waveform(t.format, t.view(), {}, {WaveformMode::luma, 256, 16, std::nullopt}),
               std::invalid_argument);  // no converted frame given
}

}  // namespace
}  // namespace vhist
