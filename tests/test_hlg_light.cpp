// HLG's light on BT.2100's reference display (hlg_light.h): the integer steps the engines count
// with against the formula evaluated here in double, from BT.2100's and ST 2084's published
// constants (not vhist's code): every code of achromatic pixels at 8, 10 and 12 bits and random
// coloured pixels land in the PQ code the formula gives, except within the stated bound of a
// level's edge; the light itself stays within that bound; a grey and a red frame worked out by
// hand; the CPU engine equals the reference.
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/hlg_light.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/hlg_light_shared.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace vhist {
namespace {

// BT.2100 Table 5: HLG's inverse OETF, capped at 1 (the constants give E(1) = 1 + 3e-8).
double scene(double signal) {
  const double a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * std::log(4 * a);
  return std::min(signal <= 0.5 ? signal * signal / 3 : (std::exp((signal - c) / a) + b) / 12, 1.0);
}

// The displayed light of the pixel of signals r, g, b: 1000 Ys^0.2 max(E), cd/m2.
double displayed(double r, double g, double b) {
  const double er = scene(r), eg = scene(g), eb = scene(b);
  const double ys = 0.2627 * er + 0.6780 * eg + 0.0593 * eb;
  return ys > 0 ? 1000 * std::pow(ys, 0.2) * std::max({er, eg, eb}) : 0.0;
}

// ST 2084: the EOTF (signal to cd/m2) and its inverse.
constexpr double kM1 = 2610.0 / 16384, kM2 = 2523.0 / 4096 * 128, kC1 = 3424.0 / 4096, kC2 = 2413.0 / 4096 * 32,
                 kC3 = 2392.0 / 4096 * 32;
double eotf(double e) {
  const double p = std::pow(e, 1 / kM2);
  return 10000 * std::pow(std::max(p - kC1, 0.0) / (kC2 - kC3 * p), 1 / kM1);
}
double inverse_eotf(double nits) {
  const double y = std::pow(nits / 10000, kM1);
  return std::pow((kC1 + kC2 * y) / (1 + kC3 * y), kM2);
}

// The level the formula gives light `nits` of a `bits`-bit frame: its nearest PQ code, one
// level per code up to 12 bits.
std::uint32_t expected_level(double nits, std::uint32_t bits) {
  const double top = static_cast<double>((1u << bits) - 1);
  const auto code = static_cast<std::uint32_t>(std::floor(inverse_eotf(nits) * top + 0.5));
  return bits <= 12 ? code : code >> (bits - 12);
}

double bound(double nits) { return kHlgLightRelativeError * nits + kHlgLightAbsoluteError; }

// Whether `nits` lies within the bound of the edge between `level` and a neighbour.
bool near_edge(double nits, std::uint32_t level, std::uint32_t bits) {
  const double top = static_cast<double>((1u << bits) - 1);
  const std::uint32_t codes = bits <= 12 ? 1u : 1u << (bits - 12);
  for (std::uint32_t j : {level, level + 1}) {
    if (j == 0) continue;
    if (std::abs(eotf((j * codes - 0.5) / top) - nits) <= bound(nits)) return true;
  }
  return false;
}

struct Tally {
  std::uint64_t pixels = 0, near = 0;
  double worst_relative = 0, worst_absolute = 0;  // of lights above 1 cd/m2, and at or below
};

// One pixel: the integer light within the bound of the formula's, and its level the formula's
// unless it lies that close to an edge.
void check_pixel(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t bits, Tally& t) {
  const double top = static_cast<double>((1u << bits) - 1);
  const double want = displayed(r / top, g / top, b / top);
  const std::uint32_t word = shader::vhist_hlg_light({hlg_light_tables(bits).data()}, r, g, b);
  const double got = word / 1073741824.0 * 1000;
  ASSERT_LE(std::abs(got - want), bound(want)) << r << "," << g << "," << b << " at " << bits << " bits";
  if (want > 1) {
    t.worst_relative = std::max(t.worst_relative, std::abs(got - want) / want);
  } else {
    t.worst_absolute = std::max(t.worst_absolute, std::abs(got - want));
  }
  const std::uint32_t level = hlg_light_level(r, g, b, bits), want_level = expected_level(want, bits);
  ++t.pixels;
  if (level == want_level) return;
  ASSERT_TRUE(near_edge(want, std::min(level, want_level), bits) && (level > want_level ? level - want_level : want_level - level) == 1)
      << r << "," << g << "," << b << " at " << bits << " bits: level " << level << ", the formula's " << want_level
      << " (" << want << " cd/m2)";
  ++t.near;
}

TEST(HlgLight, EveryAchromaticCodeLandsInTheFormulasPqCode) {
  for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    Tally t;
    const std::uint32_t step = bits == 16 ? 7u : 1u;  // 16 bits: every 7th code
    for (std::uint32_t c = 0; c < (1u << bits); c += step) check_pixel(c, c, c, bits, t);
    EXPECT_LE(t.near, t.pixels / 100) << bits << " bits";
    std::printf("achromatic %u bits: %llu codes, %llu near an edge; worst error %.2e relative (above 1 cd/m2), "
                "%.2e cd/m2 (below)\n",
                bits, static_cast<unsigned long long>(t.pixels), static_cast<unsigned long long>(t.near),
                t.worst_relative, t.worst_absolute);
  }
}

TEST(HlgLight, RandomColouredPixelsLandInTheFormulasPqCode) {
  std::mt19937 rng(2100);
  for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    std::uniform_int_distribution<std::uint32_t> code(0, (1u << bits) - 1);
    std::uniform_int_distribution<std::uint32_t> low(0, (1u << bits) / 64);  // dark components too
    Tally t;
    for (int i = 0; i < 200000; ++i) {
      const std::uint32_t r = code(rng), g = i % 3 == 0 ? low(rng) : code(rng), b = i % 5 == 0 ? low(rng) : code(rng);
      check_pixel(r, g, b, bits, t);
      if (HasFatalFailure()) return;
    }
    // Primaries and near-primaries: one component only.
    for (std::uint32_t c = 0; c < (1u << bits); c += bits == 16 ? 97u : 1u) {
      check_pixel(c, 0, 0, bits, t), check_pixel(0, c, 0, bits, t), check_pixel(0, 0, c, bits, t);
      if (HasFatalFailure()) return;
    }
    EXPECT_LE(t.near, t.pixels / 100) << bits << " bits";
    std::printf("coloured %u bits: %llu pixels, %llu near an edge; worst error %.2e relative (above 1 cd/m2), "
                "%.2e cd/m2 (below)\n",
                bits, static_cast<unsigned long long>(t.pixels), static_cast<unsigned long long>(t.near),
                t.worst_relative, t.worst_absolute);
  }
}

// A 10-bit converted frame (rgba16) of 8x4 pixels of R'G'B' codes `px`.
std::vector<std::byte> frame_of(const std::vector<std::array<std::uint16_t, 3>>& px) {
  std::vector<std::byte> bytes(px.size() * 8);
  for (std::size_t i = 0; i < px.size(); ++i) {
    const std::uint16_t p[4] = {px[i][0], px[i][1], px[i][2], 1023};
    std::memcpy(bytes.data() + i * 8, p, 8);
  }
  return bytes;
}

// Worked by hand: grey at E' = 767/1023 (about 75 %, HLG's reference white) is E = (exp((E' -
// c)/a) + b)/12 = 0.2627, Ys = E, F_D = 1000 E^1.2 = 201.1 cd/m2; pure red R' = 1 is E = 1,
// Ys = 0.2627, F_D = 1000 * 0.2627^0.2 = 765.4 cd/m2. MaxCLL and FALL within one PQ code step.
TEST(HlgLight, GreyAndRedFramesWorkedByHand) {
  const double a = 0.17883277, b = 0.28466892, c = 0.55991073;
  const double e = (std::exp((767.0 / 1023 - c) / a) + b) / 12;
  const double grey = 1000 * std::pow(e, 1.2), red = 1000 * std::pow(0.2627, 0.2);
  EXPECT_NEAR(grey, 203, 3);  // BT.2408's HLG reference white
  const FrameFormat format{8, 4, PixelPacking::rgba16, 10};
  const auto step = [](double nits) {  // the 10-bit PQ code step around `nits`
    const double code = std::round(inverse_eotf(nits) * 1023);
    return eotf((code + 1) / 1023) - eotf(code / 1023);
  };
  std::vector<std::array<std::uint16_t, 3>> px(32, {767, 767, 767});
  LightLevel flat = pq_light_level(reference_max_rgb(frame_of(px), format, LightSignal::hlg), 10);
  EXPECT_NEAR(flat.max_cll, grey, step(grey));
  EXPECT_NEAR(flat.fall, grey, step(grey));
  for (std::size_t i = 0; i < 8; ++i) px[i] = {1023, 0, 0};
  const LightLevel mixed = pq_light_level(reference_max_rgb(frame_of(px), format, LightSignal::hlg), 10);
  EXPECT_NEAR(mixed.max_cll, red, step(red));
  EXPECT_NEAR(mixed.fall, (8 * red + 24 * grey) / 32, step(red));
  // PQ's reading of the same codes is another light: max(R', G', B') through the EOTF.
  EXPECT_NEAR(pq_light_level(reference_max_rgb(frame_of(px), format), 10).max_cll, eotf(1.0), 1e-6);
}

// The CPU engine's one pass counts HLG's levels as the reference does, for every layout.
TEST(HlgLight, CpuEngineEqualsTheReference) {
  CpuEngine engine(2);
  for (const std::string& layout : synthetic_layouts()) {
    for (auto [w, h] : {std::pair{1u, 1u}, {67u, 35u}}) {
      const SyntheticVideoFrame t = make_synthetic_frame(layout, w, h, w + h, ColourMatrix::bt2020);
      const auto rgb = reference_convert(t.format, t.view());
      const FrameFormat ff = converted_format(t.format);
      CpuEngine::Request want;
      want.light = true;
      want.hlg = true;
      const auto expected = reference_max_rgb(rgb, ff, LightSignal::hlg);
      EXPECT_EQ(engine.count(t.format, t.view(), 64, want).light, expected) << layout;
      if (w > 1) {
        EXPECT_NE(expected, reference_max_rgb(rgb, ff)) << layout << " (PQ's levels differ)";
      }
    }
  }
}

TEST(HlgLight, LightSignalOfTheTransfer) {
  EXPECT_EQ(light_signal_of(ColourTransfer::smpte2084), LightSignal::pq);
  EXPECT_EQ(light_signal_of(ColourTransfer::arib_std_b67), LightSignal::hlg);
  EXPECT_FALSE(light_signal_of(ColourTransfer::bt709).has_value());
  EXPECT_THROW(hlg_light_tables(7), std::invalid_argument);
}

}  // namespace
}  // namespace vhist
