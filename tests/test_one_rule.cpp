// Issue 39's "one measure, one rule", without video: where two outputs once computed the same
// figure each their own way, they now share one function, and these tests feed both the same
// input and expect the same numbers, so that the two cannot drift apart again.
//   FileTotals (a whole file's exposure, vhist batch's row) against the frame statistics
//   (frame_stats.h's channel_stats, every analyze record's).
//   The HTML report's curves against the viewer's timeline strip: the same frames give the same
//   column values (qc::column_measures(), column_measures.h).
//   vhist analyze's light warning against vhist qc's light check: the same metadata gives the
//   same limits, the same verdict and the same note (light_limits.h; a MaxCLL of 0 is unknown).
#include "timeline_cells.h"

#include "vhist/compute/frame_stats.h"
#include "vhist/qc/column_measures.h"
#include "vhist/qc/checks.h"
#include "vhist/qc/file_totals.h"
#include "vhist/qc/light_limits.h"
#include "vhist/records/run_summary.h"
#include "vhist/report/html_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
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

// A PQ file's timeline of `frames` frames at 25 fps whose measures vary frame by frame, with a
// defect in one frame here and there: a super-white and a sub-black frame, a frame half
// clipped, one out of gamut, one flash of light.
std::unique_ptr<qc::Timeline> varied_timeline(std::int64_t frames) {
  auto t = std::make_unique<qc::Timeline>(frames);
  std::array<std::uint32_t, qc::kTimelineLevels * 4> histogram{};
  histogram[128 * 4 + 3] = 100;
  for (std::int64_t n = 0; n < frames; ++n) {
    qc::QcFrame q;
    q.frame = n;
    q.pts = static_cast<double>(n) / 25;
    q.bits = 10;
    const auto wave = static_cast<float>(n % 17);
    q.y_min = 2 + wave / 4, q.y_p10 = 10 + wave, q.y_mean = 40 + wave, q.y_p90 = 70 + wave, q.y_max = 90 + wave / 2;
    q.clip_low = wave / 2000, q.clip_high = static_cast<float>(n % 5) / 1000;
    q.r103_luma = static_cast<float>(n % 3) / 1000, q.r103_rgb = static_cast<float>(n % 7) / 2000;
    q.pq = true;
    q.max_cll = 200 + 10 * wave, q.fall = 40 + wave;
    if (n % 1001 == 500) q.y_max = 108, q.clip_high = 0.5f;
    if (n % 1409 == 700) q.y_min = -7, q.clip_low = 0.25f;
    if (n % 1703 == 900) q.r103_rgb = 0.3f, q.r103_luma = 0.2f;
    if (n % 2003 == 1000) q.max_cll = 4000, q.fall = 900;
    t->add(q, histogram);
  }
  return t;
}

void expect_same(const qc::ColumnMeasures& a, const qc::ColumnMeasures& b) {
  EXPECT_EQ(a.frames, b.frames);
  EXPECT_EQ(a.y_min, b.y_min);
  EXPECT_EQ(a.y_p10, b.y_p10);
  EXPECT_EQ(a.y_mean, b.y_mean);
  EXPECT_EQ(a.y_p90, b.y_p90);
  EXPECT_EQ(a.y_max, b.y_max);
  EXPECT_EQ(a.clip_low, b.clip_low);
  EXPECT_EQ(a.clip_high, b.clip_high);
  EXPECT_EQ(a.r103_luma, b.r103_luma);
  EXPECT_EQ(a.r103_rgb, b.r103_rgb);
  EXPECT_EQ(a.max_cll, b.max_cll);
  EXPECT_EQ(a.fall, b.fall);
  EXPECT_EQ(a.pq, b.pq);
  EXPECT_EQ(a.hlg, b.hlg);
}

TEST(OneRuleColumns, EachCurveKeepsItsFramesDefect) {
  // Four frames, one of them the defect of every curve: the column shows each defect whole.
  std::vector<qc::QcFrame> frames(4);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    qc::QcFrame& q = frames[k];
    q.y_min = 5, q.y_p10 = 10 + static_cast<float>(k), q.y_mean = 40 + 2 * static_cast<float>(k), q.y_p90 = 80, q.y_max = 95;
    q.max_cll = 300, q.fall = 50;
  }
  frames[2].y_min = -4, frames[2].y_max = 107, frames[2].clip_low = 0.1f, frames[2].clip_high = 0.4f;
  frames[2].r103_luma = 0.2f, frames[2].r103_rgb = 0.3f, frames[2].max_cll = 3000, frames[2].fall = 700;
  frames[3].hlg = true;
  const qc::ColumnMeasures m = qc::column_measures(frames);
  EXPECT_EQ(m.frames, 4u);
  EXPECT_EQ(m.y_min, -4.0f);   // the lowest minimum
  EXPECT_EQ(m.y_max, 107.0f);  // the highest maximum
  EXPECT_EQ(m.y_p10, 11.5f);   // the means of the percentiles and the means
  EXPECT_EQ(m.y_mean, 43.0f);
  EXPECT_EQ(m.y_p90, 80.0f);
  EXPECT_EQ(m.clip_low, 0.1f);  // the highest shares
  EXPECT_EQ(m.clip_high, 0.4f);
  EXPECT_EQ(m.r103_luma, 0.2f);
  EXPECT_EQ(m.r103_rgb, 0.3f);
  EXPECT_EQ(m.max_cll, 3000.0f);  // MaxCLL and MaxFALL of the frames
  EXPECT_EQ(m.fall, 700.0f);
  EXPECT_TRUE(m.hlg);
  EXPECT_FALSE(m.pq);
}

TEST(OneRuleColumns, ViewerStripAndReportGiveTheSameColumns) {
  // 5,000 frames: three to a timeline column. A strip as wide as the timeline shows each column.
  const std::unique_ptr<qc::Timeline> timeline = varied_timeline(5000);
  ASSERT_EQ(timeline->frames_per_column(), 3u);
  qc::TimelineFile file;
  file.timeline = *timeline;
  viewer::TimelineCells cells;
  ASSERT_TRUE(viewer::update_cells(cells, file, 1, viewer::TimelineChannel::luma, true, 64, 100000));
  const std::vector<qc::ColumnMeasures> report = qc::column_measures(*timeline);  // what the report draws
  ASSERT_EQ(cells.measures.size(), report.size());
  ASSERT_EQ(report.size(), timeline->columns().size());
  for (std::size_t k = 0; k < report.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(cells.measures[k].first_frame, timeline->columns()[k].first_frame);
    expect_same(cells.measures[k], report[k]);
  }
  // The one-frame defects are there at their size.
  const auto highest = [&](auto field) {
    float m = 0;
    for (const qc::ColumnMeasures& c : report) m = std::max(m, c.*field);
    return m;
  };
  EXPECT_EQ(highest(&qc::ColumnMeasures::clip_high), 0.5f);
  EXPECT_EQ(highest(&qc::ColumnMeasures::clip_low), 0.25f);
  EXPECT_EQ(highest(&qc::ColumnMeasures::r103_rgb), 0.3f);
  EXPECT_EQ(highest(&qc::ColumnMeasures::fall), 900.0f);
  EXPECT_EQ(highest(&qc::ColumnMeasures::y_max), 108.0f);
}

TEST(OneRuleColumns, NarrowStripGroupsColumnsByTheSameRule) {
  // A strip of 300 pixels: each display column is the rule over all the frames it holds.
  const std::unique_ptr<qc::Timeline> timeline = varied_timeline(5000);
  qc::TimelineFile file;
  file.timeline = *timeline;
  viewer::TimelineCells cells;
  ASSERT_TRUE(viewer::update_cells(cells, file, 1, viewer::TimelineChannel::luma, true, 64, 300));
  ASSERT_EQ(cells.measures.size(), 300u);
  const std::span<const qc::QcFrame> frames(timeline->frames());
  for (const viewer::TimelineColumnMeasures& m : cells.measures) {
    SCOPED_TRACE(m.first_frame);
    const auto first = static_cast<std::size_t>(m.first_frame), count = static_cast<std::size_t>(m.last_frame) + 1 - first;
    expect_same(m, qc::column_measures(frames.subspan(first, count)));
  }
}

// The highest point (the lowest y) of each curve in the report's plot `id`, in order. Read by
// find, not std::regex: libstdc++'s matcher recurses per character, and a curve's thousands of
// points overflowed the stack under AddressSanitizer.
std::vector<double> curve_tops(const std::string& html, const std::string& id) {
  const std::size_t at = html.find("id=\"" + id + "\""), end = html.find("</svg>", at);
  EXPECT_NE(at, std::string::npos) << id;
  const std::string svg = html.substr(at, end - at);
  std::vector<double> tops;
  for (std::size_t c = svg.find("class=\"curve\""); c != std::string::npos; c = svg.find("class=\"curve\"", c + 1)) {
    const std::size_t tag_end = svg.find('>', c), from = svg.find("points=\"", c);
    if (from == std::string::npos || from > tag_end) continue;
    const std::string points = svg.substr(from + 8, svg.find('"', from + 8) - (from + 8));
    double top = 1e9;  // each point is "x,y", separated by spaces
    for (std::size_t comma = points.find(','); comma != std::string::npos; comma = points.find(',', comma + 1)) {
      top = std::min(top, std::stod(points.substr(comma + 1)));
    }
    tops.push_back(top);
  }
  return tops;
}

// The text of the report's plot `id`.
std::string plot_of(const std::string& html, const std::string& id) {
  const std::size_t at = html.find("id=\"" + id + "\"");
  return at == std::string::npos ? std::string() : html.substr(at, html.find("</svg>", at) - at);
}

TEST(OneRuleColumns, ReportDrawsAOneFrameDefectAtItsHeight) {
  // One frame of three in a column half clipped: the Clipped panel's scale runs to 50 % and its
  // "at or above white" curve reaches the top (a mean would have drawn 16.7 % on a scale to 20 %).
  const std::unique_ptr<qc::Timeline> timeline = varied_timeline(5000);
  report::ReportInput input;
  input.title = "one_rule.mkv";
  input.timeline = timeline.get();
  input.frame_rate = 25;
  const std::string html = report::html_report(input);
  EXPECT_NE(plot_of(html, "clip-plot").find(">50 %</text>"), std::string::npos);
  const std::vector<double> clip = curve_tops(html, "clip-plot");
  ASSERT_EQ(clip.size(), 2u);
  EXPECT_EQ(clip[0], 8.0);                       // the plot area's top: 50 %
  EXPECT_EQ(clip[1], 8.0 + (50 - 25) / 50.0 * 80);  // the sub-black frame's 25 %
  // The light panel runs to 5,000 cd/m2 (the flash's MaxCLL of 4,000); its frame average of 900
  // cd/m2 is drawn at 900.
  EXPECT_NE(plot_of(html, "light-plot").find(">5000</text>"), std::string::npos);
  const std::vector<double> light = curve_tops(html, "light-plot");
  ASSERT_EQ(light.size(), 2u);
  EXPECT_EQ(light[0], 8.0 + (5000 - 4000) / 5000.0 * 100);
  EXPECT_EQ(light[1], 8.0 + (5000 - 900) / 5000.0 * 100);
}

// The stream's HDR metadata: MaxCLL and MaxFALL (none: no content light level), and a
// mastering display's peak (0: none).
SourceColour hdr_metadata(std::optional<std::array<std::uint32_t, 2>> content_light, double mastering_peak) {
  SourceColour c;
  if (content_light) c.content_light = ContentLight{(*content_light)[0], (*content_light)[1]};
  if (mastering_peak > 0) {
    c.mastering = MasteringDisplay{};
    c.mastering->max_luminance = mastering_peak;
  }
  return c;
}

// What analyze and qc say of PQ frames of light `max_cll` and `fall` (cd/m2) against `colour`.
struct LightSaid {
  std::string warning, note;   // analyze's summary
  bool event = false;          // qc: a light event
  std::string detail;          // its detail line
};
LightSaid said(const SourceColour& colour, float max_cll, float fall) {
  LightSaid out;
  app::RunSummary s;
  std::vector<qc::QcFrame> frames(3);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    frames[k].frame = static_cast<std::int64_t>(k), frames[k].pts = static_cast<double>(k) / 25;
    frames[k].pq = true, frames[k].max_cll = max_cll, frames[k].fall = fall;
    s.add_light(LightLevel{max_cll, fall}, static_cast<std::int64_t>(k));
  }
  out.warning = app::light_warning(s, colour);
  out.note = app::light_note(s, colour);
  qc::RunFacts facts;
  facts.frame_rate = 25;
  facts.colour = colour;
  facts.timecode = [](std::int64_t, double) { return std::string(); };
  for (const qc::Event& e : qc::find_events(frames, qc::Thresholds{}, facts)) {
    if (e.check != qc::Check::light) continue;
    out.event = true;
    out.detail = e.detail;
  }
  return out;
}

TEST(OneRuleLight, MaxCllZeroIsUnknownForBoth) {
  // MaxCLL 0 and MaxFALL 0 (x265's hdr10 without max-cll): CTA-861.3's unknown. Pixels of 4,000
  // cd/m2 exceed no declared limit: analyze does not warn, qc finds no event, both give one note.
  const SourceColour zero = hdr_metadata(std::array<std::uint32_t, 2>{0, 0}, 0);
  EXPECT_FALSE(qc::declared_light_limits(zero).any());
  const LightSaid s = said(zero, 4000, 900);
  EXPECT_EQ(s.warning, "");
  EXPECT_FALSE(s.event);
  EXPECT_EQ(s.note, "the stream's MaxCLL and MaxFALL are 0, which CTA-861.3 defines as unknown, not a limit: nothing "
                    "declared to check against");
  EXPECT_EQ(s.note, qc::light_limits_note(zero));
  // The viewer's line under a frame's light reads the same rule.
  EXPECT_FALSE(app::light_excess(4000, 900, zero).any());
}

TEST(OneRuleLight, AnalyzeWarnsWhereQcFindsAnEventAgainstTheSameLimits) {
  struct Case {
    std::optional<std::array<std::uint32_t, 2>> content_light;
    double mastering_peak;
    float max_cll, fall;
    std::string limits;  // what both name
    bool exceeded;
  };
  const std::vector<Case> cases = {
      {std::nullopt, 0, 4000, 900, "", false},                              // nothing declared
      {std::array<std::uint32_t, 2>{0, 0}, 0, 4000, 900, "", false},        // all unknown
      {std::array<std::uint32_t, 2>{0, 400}, 0, 4000, 300, "MaxFALL 400", false},   // the unknown MaxCLL is not a limit
      {std::array<std::uint32_t, 2>{0, 400}, 0, 300, 900, "MaxFALL 400", true},
      {std::array<std::uint32_t, 2>{1000, 0}, 0, 4000, 900, "MaxCLL 1000", true},
      {std::array<std::uint32_t, 2>{1000, 0}, 0, 1000.4f, 900, "MaxCLL 1000", false},  // within the slack
      {std::array<std::uint32_t, 2>{1000, 400}, 0, 999, 399, "MaxCLL 1000, MaxFALL 400", false},
      {std::array<std::uint32_t, 2>{1000, 400}, 0, 1200, 300, "MaxCLL 1000, MaxFALL 400", true},
      {std::nullopt, 600, 800, 100, "mastering peak 600", true},
      {std::array<std::uint32_t, 2>{0, 0}, 1000, 800, 700, "mastering peak 1000", false},
      {std::array<std::uint32_t, 2>{0, 0}, 1000, 1200, 700, "mastering peak 1000", true},
  };
  for (const Case& c : cases) {
    const SourceColour colour = hdr_metadata(c.content_light, c.mastering_peak);
    SCOPED_TRACE(c.limits + " at " + std::to_string(c.max_cll) + " / " + std::to_string(c.fall));
    EXPECT_EQ(qc::light_limits_text(qc::declared_light_limits(colour)), c.limits);
    const LightSaid s = said(colour, c.max_cll, c.fall);
    EXPECT_EQ(!s.warning.empty(), c.exceeded) << s.warning;
    EXPECT_EQ(s.event, c.exceeded) << s.detail;
    if (c.exceeded) {
      EXPECT_NE(s.detail.find("against the stream's " + c.limits + " cd/m2"), std::string::npos) << s.detail;
    }
    // A note exactly where a figure is 0 or nothing is declared, in the same words as qc's.
    const bool unknown = !c.content_light || (*c.content_light)[0] == 0 || (*c.content_light)[1] == 0;
    EXPECT_EQ(!s.note.empty(), unknown && (c.content_light || c.mastering_peak == 0)) << s.note;
    EXPECT_EQ(s.note, qc::light_limits_note(colour));
  }
}

}  // namespace
}  // namespace vhist
