// The source measures' CPU definitions (source_measures.h, transfer.h) against values worked
// out by hand or published: plane counts of a frame whose samples are known, the range check,
// PQ and HLG light of known codes (BT.2408), MaxCLL and FALL of a frame with a known peak.
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
