// The QC core without video: a frame's measures from known histograms, the checks' events from
// known series of frames (runs, minimum durations, adjacent frozen pictures, the light limits),
// timecodes from times, the timeline's columns, and the timeline file's refusals.
#include "vhist/compute/frame_stats.h"
#include "vhist/qc/checks.h"
#include "vhist/qc/qc_frame.h"
#include "vhist/qc/timeline.h"
#include "vhist/qc/timeline_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace vhist::qc {
namespace {

// A yuv 8-bit limited frame whose Y' plane holds `codes` (value -> samples); R'G'B' levels
// all at code 128.
struct Fixture {
  VideoFormat format;
  Histogram levels{256};
  PlaneCounts planes;
  explicit Fixture(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& codes) {
    format.width = 100;
    format.height = 100;
    format.bits = 8;
    format.model = ColourModel::yuv;
    format.range = ColourRange::limited;
    planes.histogram = Histogram(256);
    for (auto [code, n] : codes) planes.histogram.at(kPlaneY, code) += n;
    for (Channel c : kAllChannels) levels.at(c, 128) = 10000;
  }
  QcFrame measure_it(double black_level = 10.0) const {
    FrameCounts c;
    c.format = &format;
    c.levels = &levels;
    c.planes = &planes;
    return measure(c, black_level);
  }
};

TEST(QcMeasure, LumaLevelsInPercentOfTheNominalRange) {
  // 10 % of the samples at 16 (0 %), 80 % at 126 (50.2 %), 10 % at 235 (100 %).
  const QcFrame q = Fixture({{16, 1000}, {126, 8000}, {235, 1000}}).measure_it();
  EXPECT_FLOAT_EQ(q.y_min, 0.0f);
  EXPECT_FLOAT_EQ(q.y_max, 100.0f);
  EXPECT_FLOAT_EQ(q.y_p10, 0.0f);  // nearest rank: the 1000th sample is at 16
  EXPECT_NEAR(q.y_p90, (126.0 - 16.0) / 219.0 * 100.0, 1e-4);
  EXPECT_NEAR(q.y_mean, ((0.1 * 16 + 0.8 * 126 + 0.1 * 235) - 16.0) / 219.0 * 100.0, 1e-4);
  EXPECT_FLOAT_EQ(q.clip_low, 0.1f);
  EXPECT_FLOAT_EQ(q.clip_high, 0.1f);
  EXPECT_FLOAT_EQ(q.black, 0.1f);
  EXPECT_FLOAT_EQ(q.r103_luma, 0.0f);
}

TEST(QcMeasure, R103LumaCountsCodesOutside5To246) {
  // 4 and 247 are outside, 5 and 246 inside.
  const QcFrame q = Fixture({{4, 30}, {5, 1000}, {100, 8000}, {246, 900}, {247, 70}}).measure_it();
  EXPECT_NEAR(q.r103_luma, 100.0 / 10000.0, 1e-7);
  // Full range: R 103's narrow-range limits do not apply.
  Fixture full({{4, 30}, {100, 9970}});
  full.format.range = ColourRange::full;
  EXPECT_EQ(full.measure_it().r103_luma, 0.0f);
}

TEST(QcMeasure, BlackLevelIsInclusive) {
  // 10 % of 219 above 16 is 37.9: codes up to 37 are black, 38 is not.
  EXPECT_FLOAT_EQ(Fixture({{37, 10000}}).measure_it().black, 1.0f);
  EXPECT_FLOAT_EQ(Fixture({{38, 10000}}).measure_it().black, 0.0f);
}

TEST(QcMeasure, EqualHistogramsHashEqualAndDifferentOnesDiffer) {
  const QcFrame a = Fixture({{100, 10000}}).measure_it();
  const QcFrame b = Fixture({{100, 10000}}).measure_it();
  const QcFrame c = Fixture({{100, 9999}, {101, 1}}).measure_it();
  EXPECT_EQ(a.histogram_hash, b.histogram_hash);
  EXPECT_NE(a.histogram_hash, c.histogram_hash);
}

// A series of plain frames at 25 fps; `edit` changes some.
std::vector<QcFrame> series(int n) {
  std::vector<QcFrame> frames(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    frames[k].frame = k;
    frames[k].pts = k / 25.0;
    frames[k].checksum = 1000 + static_cast<std::uint64_t>(k);
    frames[k].histogram_hash = 7;
    frames[k].y_mean = 50;
  }
  return frames;
}

RunFacts facts25() {
  RunFacts f;
  f.frame_rate = 25;
  return f;
}

TEST(QcChecks, ARunOfBrokenFramesIsOneEventWithItsWorstFrame) {
  std::vector<QcFrame> f = series(100);
  for (int k = 10; k <= 19; ++k) f[k].r103_rgb = 0.02f;
  f[15].r103_rgb = 0.05f;
  const std::vector<Event> events = find_events(f, Thresholds{}, facts25());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].check, Check::r103_rgb);
  EXPECT_EQ(events[0].first_frame, 10);
  EXPECT_EQ(events[0].last_frame, 19);
  EXPECT_EQ(events[0].worst_frame, 15);
  EXPECT_NEAR(events[0].worst, 5.0, 1e-5);
  EXPECT_DOUBLE_EQ(events[0].start, 0.4);
  EXPECT_DOUBLE_EQ(events[0].end, 0.8);
  EXPECT_NEAR(events[0].frame_share, 0.1, 1e-12);
  EXPECT_EQ(events[0].start_timecode, "00:00:00:10");
  EXPECT_EQ(events[0].end_timecode, "00:00:00:19");
  EXPECT_TRUE(events[0].fails);
}

TEST(QcChecks, FrozenNeedsItsMinimumAndAdjacentHoldsAreSeparate) {
  std::vector<QcFrame> f = series(200);
  // Frames 10-59 one picture (2.0 s), 60-109 another (2.0 s), 150-198 a third (1.96 s).
  for (int k = 10; k <= 59; ++k) f[k].checksum = 1;
  for (int k = 60; k <= 109; ++k) f[k].checksum = 2;
  for (int k = 150; k <= 198; ++k) f[k].checksum = 3;
  const std::vector<Event> events = find_events(f, Thresholds{}, facts25());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].first_frame, 10);
  EXPECT_EQ(events[0].last_frame, 59);
  EXPECT_EQ(events[1].first_frame, 60);
  EXPECT_EQ(events[1].last_frame, 109);
  EXPECT_DOUBLE_EQ(events[0].worst, 2.0);
  EXPECT_FALSE(events[0].fails);  // frozen does not fail the run by default
}

TEST(QcChecks, EqualChecksumsWithDifferentHistogramsAreNotFrozen) {
  std::vector<QcFrame> f = series(100);
  for (int k = 0; k < 100; ++k) f[k].checksum = 1, f[k].histogram_hash = static_cast<std::uint64_t>(k % 2);
  EXPECT_TRUE(find_events(f, Thresholds{}, facts25()).empty());
}

TEST(QcChecks, BlackMinimumDuration) {
  std::vector<QcFrame> f = series(100);
  for (int k = 20; k <= 29; ++k) f[k].black = 1.0f;  // 0.4 s
  Thresholds t;
  EXPECT_EQ(find_events(f, t, facts25()).size(), 1u);
  t.black_min = 0.4;
  EXPECT_EQ(find_events(f, t, facts25()).size(), 1u);
  t.black_min = 0.44;
  EXPECT_TRUE(find_events(f, t, facts25()).empty());
}

TEST(QcChecks, LightAgainstTheLowestDeclaredFigure) {
  std::vector<QcFrame> f = series(10);
  for (QcFrame& q : f) q.pq = true, q.max_cll = 900, q.fall = 100;
  f[5].max_cll = 1200;
  RunFacts facts = facts25();
  EXPECT_TRUE(find_events(f, Thresholds{}, facts).empty());  // nothing declared
  facts.colour.mastering = MasteringDisplay{};
  facts.colour.mastering->max_luminance = 1000;
  std::vector<Event> events = find_events(f, Thresholds{}, facts);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].first_frame, 5);
  facts.colour.content_light = ContentLight{800, 400};  // MaxCLL 800 < the peak
  events = find_events(f, Thresholds{}, facts);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].first_frame, 0);
  EXPECT_EQ(events[0].last_frame, 9);
}

TEST(QcChecks, RangeWarningIsOneEventOverTheWholeFile) {
  RunFacts facts = facts25();
  facts.range_warning = "the codes look full range";
  const std::vector<Event> events = find_events(series(50), Thresholds{}, facts);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].check, Check::range);
  EXPECT_EQ(events[0].first_frame, 0);
  EXPECT_EQ(events[0].last_frame, 49);
  EXPECT_EQ(events[0].detail, facts.range_warning);
}

// A 25 fps input of 100 frames promised over 6 s: 3 frames lost after frame 40 (1.6 s; frame 41
// decoded is at 1.76 s), frames 60-62 damaged, then the file ends after frame 89 at 3.68 s.
TEST(QcChecks, DecodeDamageIsAnEventWhereItHappened) {
  DecodeDamage d;
  d.gaps.push_back({40, 1.6, 41, 1.76, 3});
  d.damaged = {{60, 2.52}, {61, 2.56}, {62, 2.60}, {70, 2.96}};
  d.first_error = "Invalid NAL unit size";
  d.truncated = true;
  d.truncation_reason = "the file ends after 90 of 150 frames";
  d.last = {89, 3.68};
  d.duration = 6.0;
  d.frames = 90;
  const std::vector<Event> events = decode_events(d, Thresholds{}, facts25());
  ASSERT_EQ(events.size(), 4u);
  for (const Event& e : events) {
    EXPECT_EQ(e.check, Check::decode_error);
    EXPECT_TRUE(e.fails);  // decode_error fails the run by default
  }
  // The gap: from the end of frame 40 (1.64 s) to frame 41's start.
  EXPECT_EQ(events[0].first_frame, 40);
  EXPECT_EQ(events[0].last_frame, 41);
  EXPECT_DOUBLE_EQ(events[0].start, 1.64);
  EXPECT_DOUBLE_EQ(events[0].end, 1.76);
  EXPECT_DOUBLE_EQ(events[0].worst, 3);
  EXPECT_EQ(events[0].start_timecode, "00:00:01:16");
  EXPECT_NE(events[0].detail.find("3 frames lost between frame 40 at 1.600 s and frame 41 at 1.760 s"),
            std::string::npos) << events[0].detail;
  // Damaged frames 60-62 one event, frame 70 another.
  EXPECT_EQ(events[1].first_frame, 60);
  EXPECT_EQ(events[1].last_frame, 62);
  EXPECT_DOUBLE_EQ(events[1].end, 2.64);
  EXPECT_DOUBLE_EQ(events[1].worst, 3);
  EXPECT_EQ(events[2].first_frame, 70);
  EXPECT_EQ(events[2].last_frame, 70);
  EXPECT_NE(events[2].detail.find("1 frame decoded with errors"), std::string::npos) << events[2].detail;
  // The end: from the end of frame 89 (3.72 s) to the promised 6 s, 57 frames at 25 fps.
  EXPECT_DOUBLE_EQ(events[3].start, 3.72);
  EXPECT_DOUBLE_EQ(events[3].end, 6.0);
  EXPECT_DOUBLE_EQ(events[3].worst, 57);
  EXPECT_NE(events[3].detail.find("the file ends after 90 of 150 frames"), std::string::npos) << events[3].detail;
}

TEST(QcChecks, AnIntactInputHasNoDecodeEventAndErrorsAloneAreOne) {
  DecodeDamage d;
  d.last = {99, 3.96};
  d.frames = 100;
  EXPECT_TRUE(decode_events(d, Thresholds{}, facts25()).empty());
  d.errors = 2;
  d.first_error = "error while decoding MB 17 10";
  const std::vector<Event> events = decode_events(d, Thresholds{}, facts25());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].first_frame, 0);
  EXPECT_EQ(events[0].last_frame, 99);
  EXPECT_NE(events[0].detail.find("2 decoder errors, though no frame was marked"), std::string::npos);
}

TEST(QcTimecode, FromTimeAtTheNominalRate) {
  EXPECT_EQ(timecode_from_time(0, 25), "00:00:00:00");
  EXPECT_EQ(timecode_from_time(3661.52, 25), "01:01:01:13");
  // 29.97 fps counts frames on a 30-frame base (non-drop): 100 s is frame 2997, 00:01:39:27.
  EXPECT_EQ(timecode_from_time(100.0, 30000.0 / 1001.0), "00:01:39:27");
}

TEST(QcTimeline, GroupsFramesIntoAtMostTheMaximumColumns) {
  Timeline t(5000);
  std::array<std::uint32_t, kTimelineLevels * 4> h{};
  h[10 * 4 + 3] = 1;
  for (int k = 0; k < 5000; ++k) {
    QcFrame q;
    q.frame = k;
    t.add(q, h);
  }
  EXPECT_EQ(t.frames_per_column(), 3u);  // ceil(5000 / 2048)
  EXPECT_EQ(t.columns().size(), 1667u);
  EXPECT_EQ(t.columns()[0].counts[10 * 4 + 3], 3u);
  EXPECT_EQ(t.column_of(4999), 1666);
  // Unknown length: one column per frame, then pairs merged.
  Timeline u(0);
  for (int k = 0; k < 3000; ++k) {
    QcFrame q;
    q.frame = k;
    u.add(q, h);
  }
  EXPECT_LE(u.columns().size(), kMaxColumns);
  std::uint64_t frames = 0;
  for (const TimelineColumn& c : u.columns()) frames += c.frames;
  EXPECT_EQ(frames, 3000u);
}

TEST(QcTimelineFile, RoundTripsAndRefusesDamage) {
  const std::string path = (std::filesystem::temp_directory_path() / "vhist_test_timeline.vhtl").string();
  TimelineFile f;
  f.input = {"/x/clip.mp4", 1234, 5678};
  f.frame_rate = 25;
  f.complete = true;
  std::array<std::uint32_t, kTimelineLevels * 4> h{};
  for (int k = 0; k < 10; ++k) {
    QcFrame q;
    q.frame = k;
    q.y_mean = static_cast<float>(k);
    f.timeline.add(q, h);
  }
  f.events.push_back(Event{Check::black, 2, 3, 0.08, 0.16, "a", "b", 100, 2, "%", 0.2, "detail", false});
  ASSERT_EQ(save_timeline(path, f), "");
  std::string error;
  auto back = load_timeline(path, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->input, f.input);
  EXPECT_EQ(back->timeline.frames().size(), 10u);
  EXPECT_EQ(back->timeline.frames()[7].y_mean, 7.0f);
  ASSERT_EQ(back->events.size(), 1u);
  EXPECT_EQ(back->events[0].detail, "detail");
  // Truncated, and a byte of garbage appended: both refused.
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 3);
  EXPECT_FALSE(load_timeline(path, error));
  EXPECT_EQ(error, "truncated or corrupt");
  ASSERT_EQ(save_timeline(path, f), "");
  std::ofstream(path, std::ios::app) << 'x';
  EXPECT_FALSE(load_timeline(path, error));
  std::ofstream(path, std::ios::trunc) << "not a timeline";
  EXPECT_FALSE(load_timeline(path, error));
  EXPECT_EQ(error, "not a vhist timeline file");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace vhist::qc
