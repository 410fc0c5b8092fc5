// Issue 39's "one measure, one rule", without video: where two outputs once computed the same
// figure each their own way, they now share one function, and these tests feed both the same
// input and expect the same numbers, so that the two cannot drift apart again.
//   FileTotals (a whole file's exposure, vhist batch's row) against the frame statistics
//   (frame_stats.h's channel_stats, every analyze record's).
#include "vhist/compute/frame_stats.h"
#include "vhist/qc/file_totals.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace vhist {
namespace {

// A histogram at stats_levels(bits) levels whose counts differ by level and channel (seeded):
// some levels empty, the end levels filled, so that min, max and the clip shares all matter.
Histogram varied_levels(std::uint32_t bits, std::uint32_t seed) {
  Histogram h(stats_levels(bits));
  std::uint32_t x = seed * 2654435761u + 1;
  for (std::uint32_t level = 0; level < h.bins; ++level) {
    for (std::uint32_t ch = 0; ch < 4; ++ch) {
      x = x * 1664525u + 1013904223u;
      const bool empty = (x >> 28) < 5 && level != 0 && level + 1 != h.bins;
      h.counts[std::size_t{level} * 4 + ch] = empty ? 0 : (x >> 20) % 97;
    }
  }
  return h;
}

void expect_same(const std::array<ChannelStats, 4>& a, const std::array<ChannelStats, 4>& b) {
  for (std::size_t c = 0; c < 4; ++c) {
    EXPECT_EQ(a[c].min, b[c].min) << "channel " << c;
    EXPECT_EQ(a[c].max, b[c].max) << "channel " << c;
    EXPECT_EQ(a[c].mean, b[c].mean) << "channel " << c;
    EXPECT_EQ(a[c].median, b[c].median) << "channel " << c;
    EXPECT_EQ(a[c].p1, b[c].p1) << "channel " << c;
    EXPECT_EQ(a[c].p99, b[c].p99) << "channel " << c;
    EXPECT_EQ(a[c].clip_low, b[c].clip_low) << "channel " << c;
    EXPECT_EQ(a[c].clip_high, b[c].clip_high) << "channel " << c;
  }
}

TEST(OneRuleFileTotals, OneFrameGivesThatFramesStatistics) {
  // 8 and 10 bits: a level per code; 12 and 16: levels of 4 and 64 codes (midpoint means).
  for (const std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    SCOPED_TRACE(bits);
    const Histogram h = varied_levels(bits, bits);
    qc::FileTotals totals;
    totals.add(h, bits);
    ASSERT_TRUE(totals.stats().has_value());
    expect_same(*totals.stats(), channel_stats(h, bits));
  }
}

TEST(OneRuleFileTotals, FramesGiveTheStatisticsOfTheirSummedHistogram) {
  for (const std::uint32_t bits : {8u, 12u}) {
    SCOPED_TRACE(bits);
    qc::FileTotals totals;
    Histogram sum(stats_levels(bits));
    for (std::uint32_t f = 0; f < 5; ++f) {
      const Histogram h = varied_levels(bits, 100 + f);
      totals.add(h, bits);
      for (std::size_t k = 0; k < sum.counts.size(); ++k) sum.counts[k] += h.counts[k];
    }
    ASSERT_TRUE(totals.stats().has_value());
    expect_same(*totals.stats(), channel_stats(sum, bits));
  }
}

TEST(OneRuleFileTotals, SixtyFourBitCumulativeCountsGiveTheCdfsStatistics) {
  // The two entry points of channel_stats are one computation: the same counts as a Cdf and as
  // 64-bit running sums give the same statistics.
  const Histogram h = varied_levels(10, 7);
  const Cdf cdf = reference_cdf(h);
  const std::vector<std::uint64_t> wide(cdf.counts.begin(), cdf.counts.end());
  expect_same(channel_stats(wide, 10), channel_stats(cdf, 10));
}

TEST(OneRuleFileTotals, CountsBeyondThirtyTwoBitsStayExact) {
  // Three frames of 2^31 pixels: 3 * 2^31 does not fit a 32-bit count. A third of each
  // channel's pixels at code 0, the rest at code 255 (two frames at 255, one at 0).
  Histogram bright(256), dark(256);
  for (std::uint32_t ch = 0; ch < 4; ++ch) bright.counts[255 * 4 + ch] = 1u << 31, dark.counts[ch] = 1u << 31;
  qc::FileTotals totals;
  totals.add(bright, 8);
  totals.add(dark, 8);
  totals.add(bright, 8);
  const auto s = totals.stats();
  ASSERT_TRUE(s.has_value());
  for (const ChannelStats& c : *s) {
    EXPECT_EQ(c.min, 0u);
    EXPECT_EQ(c.max, 255u);
    EXPECT_DOUBLE_EQ(c.mean, 170.0);
    EXPECT_EQ(c.median, 255u);
    EXPECT_EQ(c.p1, 0u);
    EXPECT_DOUBLE_EQ(c.clip_low, 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(c.clip_high, 2.0 / 3.0);
  }
}

}  // namespace
}  // namespace vhist
