// The CPU reference of cumulative histograms and equalization against values worked out by hand
// from the definitions (docs and equalize_shared.h), not from the code.
#include "vhist/compute/cdf.h"
#include "vhist/compute/histogram_match.h"
#include "vhist/compute/frame_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

using vhist::Cdf;
using vhist::Channel;
using vhist::EqualizeMode;
using vhist::Histogram;

Histogram with_counts(std::uint32_t bins, std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> level_counts,
                      Channel c) {
  Histogram h(bins);
  for (auto [level, count] : level_counts) h.at(c, level) = count;
  return h;
}

TEST(Cdf, ArticleExample) {
  // The prefix-sum article's [3, 4, 1, 5]: inclusive sums 3, 7, 8, 13 (then flat).
  Histogram h(16);
  const std::uint32_t values[4] = {3, 4, 1, 5};
  for (std::uint32_t i = 0; i < 4; ++i) {
    for (Channel c : vhist::kAllChannels) h.at(c, i) = values[i] * (static_cast<std::uint32_t>(c) + 1);
  }
  const Cdf cdf = vhist::reference_cdf(h);
  const std::uint32_t expected[4] = {3, 7, 8, 13};
  for (Channel c : vhist::kAllChannels) {
    const std::uint32_t k = static_cast<std::uint32_t>(c) + 1;
    for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(cdf.at(c, i), expected[i] * k);
    for (std::uint32_t i = 4; i < 16; ++i) EXPECT_EQ(cdf.at(c, i), 13 * k);
    EXPECT_EQ(cdf.total(c), 13 * k);
  }
}

TEST(Cdf, OverflowIsAnError) {
  Histogram h(16);
  h.at(Channel::g, 0) = 0xffffffffu;
  h.at(Channel::g, 1) = 1;
  EXPECT_THROW(vhist::reference_cdf(h), std::overflow_error);
}

TEST(Cdf, CoarsenedCdfIsTheCdfOfTheCoarsenedHistogram) {
  std::mt19937 rng(7);
  Histogram h(1024);
  for (auto& v : h.counts) v = rng() % 5000;
  const Cdf fine = vhist::reference_cdf(h);
  for (std::uint32_t bins : {16u, 64u, 256u, 1024u}) {
    EXPECT_EQ(vhist::coarsen(fine, bins), vhist::reference_cdf(vhist::coarsen(h, bins))) << bins;
  }
  EXPECT_THROW(vhist::coarsen(fine, 48), std::invalid_argument);
}

TEST(EqualizeTable, SpreadsThreeLevelsOverTheFullRange) {
  // Codes 100 (1 pixel), 101 (2), 102 (1): N = 4, cdf = 1, 3, 4, cdf_min = 1.
  // 100 -> 0; 101 -> round((3 - 1) * 255 / 3) = 170; 102 -> round(3 * 255 / 3) = 255.
  const Histogram h = with_counts(256, {{100, 1}, {101, 2}, {102, 1}}, Channel::r);
  const auto t = vhist::reference_equalize_table(vhist::reference_cdf(h), 8);
  EXPECT_EQ(t.at(Channel::r, 0), 0u);
  EXPECT_EQ(t.at(Channel::r, 99), 0u);
  EXPECT_EQ(t.at(Channel::r, 100), 0u);
  EXPECT_EQ(t.at(Channel::r, 101), 170u);
  EXPECT_EQ(t.at(Channel::r, 102), 255u);
  EXPECT_EQ(t.at(Channel::r, 255), 255u);
  // G, B and L hold no pixels: identity.
  for (std::uint32_t level : {0u, 17u, 255u}) EXPECT_EQ(t.at(Channel::g, level), level);
}

TEST(EqualizeTable, HalvesRoundUp) {
  // Codes 10 (1 pixel), 20 (1), 30 (1): cdf_min 1, N - cdf_min = 2; code 20 -> 255 / 2 = 127.5 -> 128.
  const Histogram h = with_counts(256, {{10, 1}, {20, 1}, {30, 1}}, Channel::l);
  const auto t = vhist::reference_equalize_table(vhist::reference_cdf(h), 8);
  EXPECT_EQ(t.at(Channel::l, 10), 0u);
  EXPECT_EQ(t.at(Channel::l, 20), 128u);
  EXPECT_EQ(t.at(Channel::l, 30), 255u);
}

TEST(EqualizeTable, SingleLevelIsLeftAlone) {
  const Histogram h = with_counts(1024, {{300, 5000}}, Channel::b);
  const auto t = vhist::reference_equalize_table(vhist::reference_cdf(h), 12);  // 4 codes per level
  EXPECT_EQ(t.at(Channel::b, 300), 1200u);
  EXPECT_EQ(t.at(Channel::b, 1023), 4092u);
}

TEST(EqualizeTable, DeepFramesUseTheTopCode) {
  // 10 bits: codes 0 (3 pixels) and 512 (1): cdf_min 3, N 4; 512 -> 1023.
  const Histogram h = with_counts(1024, {{0, 3}, {512, 1}}, Channel::g);
  const auto t = vhist::reference_equalize_table(vhist::reference_cdf(h), 10);
  EXPECT_EQ(t.at(Channel::g, 0), 0u);
  EXPECT_EQ(t.at(Channel::g, 511), 0u);
  EXPECT_EQ(t.at(Channel::g, 512), 1023u);
  EXPECT_THROW(vhist::reference_equalize_table(vhist::reference_cdf(Histogram(1024)), 8), std::invalid_argument);
}

vhist::EqualizeTable table_with(std::uint32_t bits, std::uint32_t (*f)(Channel, std::uint32_t)) {
  vhist::EqualizeTable t{vhist::stats_levels(bits), bits, {}};
  t.codes.resize(std::size_t{t.levels} * 4);
  for (std::uint32_t level = 0; level < t.levels; ++level) {
    for (Channel c : vhist::kAllChannels) t.codes[level * 4 + static_cast<std::uint32_t>(c)] = f(c, level);
  }
  return t;
}

TEST(EqualizePixel, PerChannelLooksUpEachComponent) {
  const auto t = table_with(8, [](Channel c, std::uint32_t level) { return (level + 10 * static_cast<std::uint32_t>(c)) % 256; });
  EXPECT_EQ(vhist::equalize_pixel(t, EqualizeMode::channels, 1, 2, 3), (std::array<std::uint32_t, 3>{1, 12, 23}));
  EXPECT_EQ(vhist::equalize_pixel(t, EqualizeMode::off, 1, 2, 3), (std::array<std::uint32_t, 3>{1, 2, 3}));
}

TEST(EqualizePixel, LumaKeepsHue) {
  // L table doubles the luma (up to the top).
  const auto t = table_with(8, [](Channel, std::uint32_t level) { return std::min(2 * level, 255u); });
  // Grey 50 -> luma 50 -> 100: grey 100.
  EXPECT_EQ(vhist::equalize_pixel(t, EqualizeMode::luma, 50, 50, 50), (std::array<std::uint32_t, 3>{100, 100, 100}));
  // (40, 20, 10): luma (13933*40 + 46871*20 + 4732*10 + 32768) >> 16 = 24 -> 48; gain 48/24 = 2
  // exactly (131072 in 16.16); G = 20 * 2 = 40.
  EXPECT_EQ(vhist::equalize_pixel(t, EqualizeMode::luma, 40, 20, 10), (std::array<std::uint32_t, 3>{80, 40, 20}));
  // (200, 100, 0): luma (2786600 + 4687100 + 32768) >> 16 = 114 -> 228, gain 2 would give 400 for R:
  // the gain drops to 255 / 200, in 16.16: (255 * 65536 + 100) / 200 = 83558 (1.27499), so
  // R = (200 * 83558 + 32768) >> 16 = 255, G = (100 * 83558 + 32768) >> 16 = 127: hue kept.
  EXPECT_EQ(vhist::equalize_pixel(t, EqualizeMode::luma, 200, 100, 0), (std::array<std::uint32_t, 3>{255, 127, 0}));
  // The largest gain at 16 bits stays within 32 bits and at the top code: luma 1 -> 65535.
  vhist::EqualizeTable deep{vhist::stats_levels(16), 16, std::vector<std::uint32_t>(1024 * 4, 65535)};
  EXPECT_EQ(vhist::equalize_pixel(deep, EqualizeMode::luma, 0, 1, 0), (std::array<std::uint32_t, 3>{0, 65535, 0}));
  EXPECT_EQ(vhist::equalize_pixel(deep, EqualizeMode::luma, 65535, 65535, 65535),
            (std::array<std::uint32_t, 3>{65535, 65535, 65535}));
  // Luma 0 becomes the grey of its table entry.
  const auto lift = table_with(8, [](Channel, std::uint32_t level) { return level + 5; });
  EXPECT_EQ(vhist::equalize_pixel(lift, EqualizeMode::luma, 0, 0, 0), (std::array<std::uint32_t, 3>{5, 5, 5}));
}

TEST(ChannelStats, FromTheCdfEqualFromTheHistogram) {
  std::mt19937 rng(3);
  for (std::uint32_t bits : {8u, 10u, 12u}) {
    Histogram h(vhist::stats_levels(bits));
    for (auto& v : h.counts) v = rng() % 3 == 0 ? rng() % 1000 : 0;
    const auto a = vhist::channel_stats(h, bits);
    const auto b = vhist::channel_stats(vhist::reference_cdf(h), bits);
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(a[c].median, b[c].median);
      EXPECT_EQ(a[c].p1, b[c].p1);
      EXPECT_EQ(a[c].p99, b[c].p99);
      EXPECT_EQ(a[c].min, b[c].min);
      EXPECT_EQ(a[c].max, b[c].max);
    }
  }
}

TEST(ChannelStats, PercentilesReadOffTheCdf) {
  // 100 pixels: 1 at code 0, 49 at 10, 50 at 200. Ranks: p1 -> 1st pixel (code 0),
  // median -> 50th (code 10), p99 -> 99th (code 200).
  Histogram h(256);
  h.at(Channel::r, 0) = 1;
  h.at(Channel::r, 10) = 49;
  h.at(Channel::r, 200) = 50;
  const auto s = vhist::channel_stats(vhist::reference_cdf(h), 8)[0];
  EXPECT_EQ(s.p1, 0u);
  EXPECT_EQ(s.median, 10u);
  EXPECT_EQ(s.p99, 200u);
  EXPECT_EQ(s.min, 0u);
  EXPECT_EQ(s.max, 200u);
  EXPECT_DOUBLE_EQ(s.clip_low, 0.01);
}

}  // namespace

// Distances to a reference and histogram matching (histogram_match.h), from first principles.
namespace {

vhist::Histogram one_level_each(std::uint32_t bins, std::uint32_t level, std::uint32_t count) {
  vhist::Histogram h(bins);
  for (vhist::Channel c : vhist::kAllChannels) h.at(c, level) = count;
  return h;
}

TEST(HistogramDistances, IdenticalIsZeroShiftedIsTheShiftDisjointIsOne) {
  vhist::Histogram a(256);
  for (std::uint32_t b = 0; b < 256; ++b) {
    for (vhist::Channel c : vhist::kAllChannels) a.at(c, b) = (b * 37 + static_cast<std::uint32_t>(c)) % 101;
  }
  const auto same = vhist::histogram_distances(a, a);
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(same.emd[c], 0.0);
    EXPECT_EQ(same.total_variation[c], 0.0);
  }
  // All pixels at 100 against all at 107 (another pixel count): 7 bins apart, no overlap.
  const auto moved = vhist::histogram_distances(one_level_each(256, 100, 500), one_level_each(256, 107, 9));
  EXPECT_DOUBLE_EQ(moved.emd[0], 7.0);
  EXPECT_DOUBLE_EQ(moved.total_variation[3], 1.0);
  // Half the pixels moved by 4 bins: EMD 2, total variation 0.5; compared at the coarser bins.
  vhist::Histogram half = one_level_each(1024, 400, 10);
  for (vhist::Channel c : vhist::kAllChannels) half.at(c, 416) = 10;
  const auto d = vhist::histogram_distances(half, one_level_each(256, 100, 1));
  EXPECT_EQ(d.bins, 256u);
  EXPECT_DOUBLE_EQ(d.emd[1], 2.0);
  EXPECT_DOUBLE_EQ(d.total_variation[1], 0.5);
  EXPECT_TRUE(std::isnan(vhist::histogram_distances(vhist::Histogram(256), a).emd[0]));
}

TEST(HistogramDistances, ReferenceIsDrawnAtTheLiveBinsAndPixelCount) {
  // 100 pixels at level 10 of 64, drawn over 256 bins of a 1000-pixel frame: spread over bins
  // 40..43, 250 pixels each; drawn over 16 bins: 1000 in bin 2.
  const auto fine = vhist::reference_at(one_level_each(64, 10, 100), 256, 1000);
  for (std::uint32_t b = 0; b < 256; ++b) EXPECT_FLOAT_EQ(fine[b * 4], b >= 40 && b < 44 ? 250.0f : 0.0f) << b;
  const auto coarse = vhist::reference_at(one_level_each(64, 10, 100), 16, 1000);
  EXPECT_FLOAT_EQ(coarse[2 * 4 + 3], 1000.0f);
}

TEST(HistogramMatch, RampMatchedToAFlatReferenceBecomesFlat) {
  // A frame whose codes pile up low (code v held by 256 - v pixels) matched to a flat reference:
  // each code's pixels go to the level where the flat reference's share reaches theirs, so the
  // matched histogram, taken in 16 bands, is flat within one code's pixels (256 of 32896 per band of 2056).
  vhist::Histogram ramp(256), flat(256);
  for (std::uint32_t v = 0; v < 256; ++v) {
    for (vhist::Channel c : vhist::kAllChannels) {
      ramp.at(c, v) = 256 - v;
      flat.at(c, v) = 1;
    }
  }
  const auto table = vhist::reference_match_table(vhist::reference_cdf(ramp), vhist::reference_cdf(flat), 8);
  std::array<std::uint64_t, 16> bands{};
  for (std::uint32_t v = 0; v < 256; ++v) bands[table.at(vhist::Channel::r, v) / 16] += ramp.at(vhist::Channel::r, v);
  const double share = 32896.0 / 16;
  for (std::size_t b = 0; b < 16; ++b) EXPECT_NEAR(static_cast<double>(bands[b]), share, 256.0) << b;
  // Matched to itself: every code stays.
  const auto self = vhist::reference_match_table(vhist::reference_cdf(ramp), vhist::reference_cdf(ramp), 8);
  for (std::uint32_t v = 0; v < 256; ++v) EXPECT_EQ(self.at(vhist::Channel::g, v), v);
}

}  // namespace
