// The source measures' CPU definitions (source_measures.h, transfer.h) against values worked
// out by hand or published: plane counts of a frame whose samples are known, the range check,
// the range verdict on hand-made luma distributions; PQ and HLG light of known codes (BT.2408), MaxCLL and FALL of a frame with a known peak.
#include "vhist/compute/source_measures.h"
#include "vhist/compute/transfer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace vhist {
namespace {

// A 4x2 yuv420p frame (2x1 chroma) with the given samples; 8-bit, tightly packed.
struct SmallYuv {
  std::vector<std::byte> y, cb, cr;
  VideoFormat format;
  VideoPlanes view() const {
    VideoPlanes p;
    p.data = {y.data(), cb.data(), cr.data()};
    p.stride = {format.width, format.chroma_width(), format.chroma_width()};
    return p;
  }
};

SmallYuv small_yuv(std::vector<int> luma, std::vector<int> cb, std::vector<int> cr) {
  SmallYuv f;
  for (int v : luma) f.y.push_back(std::byte(v));
  for (int v : cb) f.cb.push_back(std::byte(v));
  for (int v : cr) f.cr.push_back(std::byte(v));
  f.format.width = 4;
  f.format.height = 2;
  f.format.chroma_shift_x = f.format.chroma_shift_y = 1;
  f.format.plane_count = 3;
  f.format.components = {ComponentLayout{0, 0, 1, 0}, ComponentLayout{1, 0, 1, 0}, ComponentLayout{2, 0, 1, 0}};
  f.format.pixel_format = "yuv420p";
  return f;
}

TEST(PlaneCounts, CountEachPlaneOnItsOwnGrid) {
  const SmallYuv f = small_yuv({0, 16, 16, 100, 235, 236, 255, 100}, {15, 128}, {240, 241});
  const PlaneCounts c = reference_planes(f.format, f.view(), 256);
  EXPECT_EQ(c.histogram.total(kPlaneY), 8u);
  EXPECT_EQ(c.histogram.total(kPlaneCb), 2u);  // a quarter of the luma's: counted per sample
  EXPECT_EQ(c.histogram.total(kPlaneCr), 2u);
  EXPECT_EQ(c.histogram.total(Channel::g), 0u);
  EXPECT_EQ(c.histogram.at(kPlaneY, 16), 2u);
  EXPECT_EQ(c.histogram.at(kPlaneY, 100), 2u);
  EXPECT_EQ(c.histogram.at(kPlaneCb, 15), 1u);
  EXPECT_EQ(c.histogram.at(kPlaneCr, 241), 1u);
  // Y' below 16: {0}; above 235: {236, 255}. Cb below 16: {15}. Cr above 240: {241}.
  EXPECT_EQ(c.below[static_cast<int>(kPlaneY)], 1u);
  EXPECT_EQ(c.above[static_cast<int>(kPlaneY)], 2u);
  EXPECT_EQ(c.below[static_cast<int>(kPlaneCb)], 1u);
  EXPECT_EQ(c.above[static_cast<int>(kPlaneCb)], 0u);
  EXPECT_EQ(c.above[static_cast<int>(kPlaneCr)], 1u);
  // Coarser bins: 16 bins of 16 codes each.
  const PlaneCounts coarse = reference_planes(f.format, f.view(), 16);
  EXPECT_EQ(coarse.histogram.at(kPlaneY, 1), 2u);  // the two 16s
  EXPECT_EQ(coarse.histogram.at(kPlaneY, 15), 1u);  // 255
}

TEST(RangeCheck, SharesOfTheNominalRange) {
  const SmallYuv f = small_yuv({0, 16, 16, 100, 235, 236, 255, 100}, {15, 128}, {240, 241});
  const PlaneCounts c = reference_planes(f.format, f.view(), 256);
  const RangeCheck limited = range_check(c, ColourRange::limited);
  EXPECT_DOUBLE_EQ(limited.luma.below, 1.0 / 8);
  EXPECT_DOUBLE_EQ(limited.luma.above, 2.0 / 8);
  EXPECT_TRUE(limited.has_chroma);
  EXPECT_DOUBLE_EQ(limited.chroma.below, 1.0 / 4);
  EXPECT_DOUBLE_EQ(limited.chroma.above, 1.0 / 4);
  const RangeCheck full = range_check(c, ColourRange::full);  // nothing lies outside 0..255
  EXPECT_EQ(full.luma.below + full.luma.above + full.chroma.below + full.chroma.above, 0.0);
}

TEST(PlaneCounts, DeeperCodesUseScaledLimits) {
  // 10-bit gray: limited luma is 64..940.
  std::vector<std::uint16_t> samples = {63, 64, 940, 941};
  VideoFormat f;
  f.width = 4;
  f.height = 1;
  f.bits = 10;
  f.sample_bytes = 2;
  f.model = ColourModel::gray;
  f.components = {ComponentLayout{0, 0, 2, 0}, {}, {}};
  f.pixel_format = "gray10le";
  VideoPlanes p;
  p.data[0] = reinterpret_cast<const std::byte*>(samples.data());
  p.stride[0] = 8;
  const PlaneCounts c = reference_planes(f, p, 1024);
  EXPECT_EQ(c.below[static_cast<int>(kPlaneY)], 1u);
  EXPECT_EQ(c.above[static_cast<int>(kPlaneY)], 1u);
  EXPECT_EQ(c.histogram.total(kPlaneCb), 0u);
  EXPECT_FALSE(range_check(c, ColourRange::limited).has_chroma);
}

// Luma levels of 10,000 samples: each {from, to, n} spreads n samples evenly over levels from
// to to (n a multiple of their number); the rest at mid grey (level 128).
struct Spread {
  std::uint32_t from, to;
  std::uint64_t n;
};
LumaLevels luma_of(std::initializer_list<Spread> spreads) {
  LumaLevels l;
  std::uint64_t placed = 0;
  for (const Spread& s : spreads) {
    for (std::uint32_t level = s.from; level <= s.to; ++level) l.counts[level] += s.n / (s.to - s.from + 1);
    placed += s.n;
  }
  l.counts[128] += 10000 - placed;
  return l;
}

RangeLook look(std::initializer_list<Spread> spreads, ColourRange tagged = ColourRange::limited) {
  return judge_range(luma_of(spreads), tagged).look;
}

TEST(RangeVerdict, SubBlacksAroundABlackAt16AreNoVerdict) {
  // Grain straddling a black at 16: 32% at 16-31, 30% below, 15% of it clipped to 0.
  RangeVerdict v = judge_range(luma_of({{0, 0, 1500}, {4, 15, 1200}, {1, 3, 300}, {16, 31, 3200}}),
                               ColourRange::limited);
  EXPECT_EQ(v.look, RangeLook::as_tagged);
  EXPECT_DOUBLE_EQ(v.below, 0.3);
  EXPECT_DOUBLE_EQ(v.near_black, 0.32);
  EXPECT_DOUBLE_EQ(v.bottom, 0.18);
  EXPECT_EQ(v.p1, 0u);
  // A PLUGE's sub-black at 7 (2%) beside black at 16 (10%); 26 ringing samples at 0-4.
  EXPECT_EQ(look({{7, 7, 200}, {16, 16, 1000}, {0, 0, 20}, {4, 4, 6}}), RangeLook::as_tagged);
  // Below the 1% share nothing is judged, however deep: 0.99% at 0 and nothing at 16-31.
  EXPECT_EQ(look({{0, 0, 99}}), RangeLook::as_tagged);
}

TEST(RangeVerdict, FullRangeBlacksReadAsLimited) {
  // Unmirrored: 7.2% spread over 4-15, 1.12% over 16-31 (7.2 > 6 x 1.12); 6.6% is not (5.9 x).
  EXPECT_EQ(look({{4, 15, 720}, {16, 31, 112}}), RangeLook::full_as_limited);
  EXPECT_EQ(look({{4, 15, 660}, {16, 31, 112}}), RangeLook::as_tagged);
  // A pile at 0-3: 10% at 0 against 1.2% at 4-15 (10 > 8 x 1.2), with 20% at 16-31.
  const RangeVerdict pile = judge_range(luma_of({{0, 0, 1000}, {4, 15, 120}, {16, 31, 2000}}), ColourRange::limited);
  EXPECT_EQ(pile.look, RangeLook::full_as_limited);
  EXPECT_DOUBLE_EQ(pile.bottom, 0.1);
  // The same 10% as clipped noise leaves it (7% at 0, 3% at 4-15): no verdict.
  EXPECT_EQ(look({{0, 0, 700}, {4, 15, 300}, {16, 31, 2000}}), RangeLook::as_tagged);
  // A black level at 7: 6.5% at one level, 16% at 16-31 (1% a level: 6.5 > 6 x 1); 5.5% is not.
  const RangeVerdict at7 = judge_range(luma_of({{7, 7, 650}, {16, 31, 1600}}), ColourRange::limited);
  EXPECT_EQ(at7.look, RangeLook::full_as_limited);
  EXPECT_EQ(at7.peak_level, 7u);
  EXPECT_DOUBLE_EQ(at7.peak, 0.065);
  EXPECT_EQ(look({{7, 7, 550}, {16, 31, 1600}}), RangeLook::as_tagged);
  // Both ends outside: 6% below 16 (against 1.6% at 16-31: 6 > 3 x 1.6, not 6 x) and 2% above
  // 235; without the 2% above, no verdict.
  EXPECT_EQ(look({{4, 15, 600}, {16, 31, 160}, {240, 249, 200}}), RangeLook::full_as_limited);
  EXPECT_EQ(look({{4, 15, 600}, {16, 31, 160}}), RangeLook::as_tagged);
  // Read as full, the same codes are no verdict of this kind.
  EXPECT_EQ(look({{0, 0, 5000}}, ColourRange::full), RangeLook::as_tagged);
}

TEST(RangeVerdict, LimitedCodesReadAsFull) {
  // Black at 16 and white at 235 (5% each), 0.5% beyond each end: looks limited.
  const RangeVerdict v =
      judge_range(luma_of({{16, 16, 500}, {235, 235, 500}, {10, 10, 50}, {240, 240, 50}}), ColourRange::full);
  EXPECT_EQ(v.look, RangeLook::limited_as_full);
  EXPECT_EQ(v.p1, 16u);
  EXPECT_EQ(v.p99, 235u);
  // 0.6% beyond: no verdict; nor with the 1st percentile at 21 (more than 4 above 16).
  const ColourRange full = ColourRange::full;
  EXPECT_EQ(look({{16, 16, 500}, {235, 235, 500}, {10, 10, 60}}, full), RangeLook::as_tagged);
  EXPECT_EQ(look({{21, 21, 500}, {235, 235, 500}}, full), RangeLook::as_tagged);
  EXPECT_EQ(look({{20, 20, 500}, {231, 231, 500}}, full), RangeLook::limited_as_full);
  EXPECT_EQ(look({{20, 20, 500}, {230, 230, 500}}, full), RangeLook::as_tagged);
  EXPECT_EQ(look({{16, 16, 500}, {235, 235, 500}}), RangeLook::as_tagged);  // read as limited: as it should be
}

TEST(RangeVerdict, DeeperCodesOnTheEightBitScale) {
  // 10-bit luma at 1024 bins: codes 0-3 are level 0, 64-67 level 16, 940-943 level 235.
  PlaneCounts c{Histogram(1024), {}, {}};
  c.histogram.at(kPlaneY, 3) = 5;
  c.histogram.at(kPlaneY, 64) = 7;
  c.histogram.at(kPlaneY, 67) = 1;
  c.histogram.at(kPlaneY, 943) = 2;
  c.histogram.at(kPlaneCb, 0) = 100;  // chroma is not luma
  LumaLevels l;
  l.add(c);
  EXPECT_EQ(l.counts[0], 5u);
  EXPECT_EQ(l.counts[16], 8u);
  EXPECT_EQ(l.counts[235], 2u);
  EXPECT_EQ(l.total(), 15u);
  EXPECT_THROW(l.add(PlaneCounts{Histogram(64), {}, {}}), std::invalid_argument);
  // The frame's range check carries the verdict; with fewer than 256 bins it judges nothing.
  EXPECT_EQ(range_check(c, ColourRange::limited).verdict.samples, 15u);
  EXPECT_EQ(range_check(PlaneCounts{Histogram(64), {}, {}}, ColourRange::limited).verdict.samples, 0u);
}

TEST(Transfer, PqAndHlgAtPublishedLevels) {
  // BT.2408: PQ 100 cd/m2 at signal 0.508, 1000 at 0.752; HLG 203 cd/m2 (reference white) at 75%.
  EXPECT_NEAR(pq_nits(0.508), 100, 1.0);
  EXPECT_NEAR(pq_nits(0.752), 1000, 8.0);
  EXPECT_DOUBLE_EQ(pq_nits(1.0), 10000);
  EXPECT_EQ(pq_nits(0.0), 0.0);
  EXPECT_NEAR(hlg_nits(0.75), 203, 2.0);
  EXPECT_NEAR(hlg_nits(1.0), 1000, 1e-3);  // the published constants give E(1) = 1 + 3e-8
  for (double nits : {0.01, 1.0, 48.0, 203.0, 4000.0}) {
    EXPECT_NEAR(pq_nits(pq_signal(nits)), nits, nits * 1e-9);
    if (nits <= kHlgPeak) {
      EXPECT_NEAR(hlg_nits(hlg_signal(nits)), nits, nits * 1e-9);
    }
  }
}

TEST(LightLevel, MaxCllAndFallOfAKnownFrame) {
  // A 10-bit frame of 4 pixels: one (769, 0, 0), the rest black except one (0, 520, 100).
  // max(R', G', B') codes: 769, 520, 0, 0. MaxCLL is the brightest component, not the luma.
  const FrameFormat format{2, 2, PixelPacking::rgba16, 10};
  const std::uint16_t px[4][4] = {{769, 0, 0, 1023}, {0, 520, 100, 1023}, {0, 0, 0, 1023}, {0, 0, 0, 1023}};
  std::vector<std::byte> bytes(sizeof px);
  std::memcpy(bytes.data(), px, sizeof px);
  const auto levels = reference_max_rgb(bytes, format);
  ASSERT_EQ(levels.size(), 1024u);
  EXPECT_EQ(levels[769], 1u);
  EXPECT_EQ(levels[520], 1u);
  EXPECT_EQ(levels[0], 2u);
  const LightLevel light = pq_light_level(levels, 10);
  // Independently: ST 2084's EOTF of 769/1023 and 520/1023 (about 1000 and 100 cd/m2).
  const auto eotf = [](double e) {
    const double m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double p = std::pow(e, 1 / m2);
    return 10000 * std::pow(std::max(p - c1, 0.0) / (c2 - c3 * p), 1 / m1);
  };
  EXPECT_NEAR(light.max_cll, eotf(769.0 / 1023), 1e-9);
  EXPECT_NEAR(light.max_cll, 1000, 25);
  EXPECT_NEAR(light.fall, (eotf(769.0 / 1023) + eotf(520.0 / 1023)) / 4, 1e-9);
}

}  // namespace
}  // namespace vhist
