// A synthetic QC run for the HTML report's tests (test_html_report.cpp, test_report_chromium.cpp):
// a 10-second, 25 fps timeline of 250 frames of 1000 pixels each, one column per frame, whose
// luma histograms are known level by level, and hand-made events on it. The frame measures are
// computed here from the histograms, not by the QC module.
#pragma once

#include "vhist/media/png.h"
#include "vhist/qc/checks.h"
#include "vhist/qc/timeline.h"
#include "vhist/report/html_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vhist::test {

// Matplotlib's inferno as its published 11-step palette, linear between the stops: the
// expected colours of the heatmap (html_report.h states the rule).
inline std::array<int, 3> inferno(double t) {
  static constexpr int kStops[11][3] = {{0x00, 0x00, 0x04}, {0x16, 0x0b, 0x39}, {0x42, 0x0a, 0x68}, {0x6a, 0x17, 0x6e},
                                        {0x93, 0x26, 0x67}, {0xbc, 0x37, 0x54}, {0xdd, 0x51, 0x3a}, {0xf3, 0x78, 0x19},
                                        {0xfc, 0xa5, 0x0a}, {0xf6, 0xd7, 0x46}, {0xfc, 0xff, 0xa4}};
  const double p = t * 10;
  const int k = std::min(9, static_cast<int>(p));
  std::array<int, 3> c{};
  for (int i = 0; i < 3; ++i) {
    c[i] = static_cast<int>(std::lround(kStops[k][i] + (kStops[k + 1][i] - kStops[k][i]) * (p - k)));
  }
  return c;
}
// The colour-map position of a share of a column's pixels (html_report.h).
inline double heat_position(double share) { return 0.1 + 0.9 * std::clamp(1 + std::log10(share) / 6, 0.0, 1.0); }

inline constexpr std::uint32_t kFixturePixels = 1000;
inline constexpr std::int64_t kFixtureFrames = 250;
inline constexpr double kFixtureRate = 25;

using LevelCounts = std::array<std::uint32_t, 256>;

// The luma histogram of frame `f` by the segment it falls in.
inline LevelCounts fixture_levels(std::int64_t f) {
  LevelCounts c{};
  const auto uniform = [&c](int from, int count, std::uint32_t pixels) {  // `pixels` spread over `count` levels
    for (std::uint32_t i = 0; i < pixels; ++i) ++c[static_cast<std::size_t>(from + static_cast<int>(i * count / pixels))];
  };
  if (f < 50) {
    uniform(static_cast<int>(20 + f), 80, kFixturePixels);  // a scene drifting brighter
  } else if (f < 75) {
    c[16] = kFixturePixels;  // black
  } else if (f < 100) {
    uniform(16, 220, kFixturePixels);  // a ramp over the nominal range
  } else if (f < 125) {
    c[64] = kFixturePixels / 2, c[192] = kFixturePixels / 2;  // two levels, half each
  } else if (f < 150) {
    uniform(68, 120, kFixturePixels - 1);
    c[250] = 1;  // one pixel in a thousand
  } else if (f < 175) {
    c[200] = kFixturePixels;  // every pixel at level 200 (a held picture)
  } else {
    uniform(20, 80, 700);  // dark with a clipped highlight
    uniform(235, 20, 200);
    c[255] += 100;
  }
  return c;
}

inline float percent_of(int level) { return static_cast<float>((level - 16) * 100.0 / 219.0); }

// The frame's measures from its histogram (limited range, 8 bits).
inline qc::QcFrame fixture_frame(std::int64_t f, const LevelCounts& c) {
  qc::QcFrame q;
  q.frame = f;
  q.pts = static_cast<double>(f) / kFixtureRate;
  int first = -1, last = 0, p10 = -1, p90 = -1;
  double sum = 0, seen = 0;
  for (int level = 0; level < 256; ++level) {
    if (c[level] == 0) continue;
    if (first < 0) first = level;
    last = level;
    sum += static_cast<double>(level) * c[level];
    seen += c[level];
    if (p10 < 0 && seen >= 0.1 * kFixturePixels) p10 = level;
    if (p90 < 0 && seen >= 0.9 * kFixturePixels) p90 = level;
  }
  q.y_min = percent_of(first), q.y_max = percent_of(last), q.y_p10 = percent_of(p10), q.y_p90 = percent_of(p90);
  q.y_mean = static_cast<float>((sum / kFixturePixels - 16) * 100.0 / 219.0);
  q.clip_high = static_cast<float>(c[255]) / kFixturePixels;
  q.clip_low = static_cast<float>(c[0]) / kFixturePixels;
  std::uint32_t outside = 0, black = 0;
  for (int level = 0; level < 256; ++level) {
    if (level < 5 || level > 246) outside += c[level];
    if (level <= 37) black += c[level];
  }
  q.r103_luma = static_cast<float>(outside) / kFixturePixels;
  q.black = static_cast<float>(black) / kFixturePixels;
  return q;
}

inline std::unique_ptr<qc::Timeline> fixture_timeline() {
  auto t = std::make_unique<qc::Timeline>(kFixtureFrames);
  for (std::int64_t f = 0; f < kFixtureFrames; ++f) {
    const LevelCounts levels = fixture_levels(f);
    std::array<std::uint32_t, qc::kTimelineLevels * 4> h{};
    for (std::size_t l = 0; l < 256; ++l) {
      for (std::size_t ch = 0; ch < 4; ++ch) h[l * 4 + ch] = levels[l];
    }
    t->add(fixture_frame(f, levels), h);
  }
  return t;
}

inline qc::Event fixture_event(qc::Check check, std::int64_t first, std::int64_t last, double worst,
                               std::string unit, bool fails) {
  qc::Event e;
  e.check = check;
  e.first_frame = first, e.last_frame = last;
  e.start = first / kFixtureRate, e.end = (last + 1) / kFixtureRate;
  e.start_timecode = qc::timecode_from_time(e.start, kFixtureRate);
  e.end_timecode = qc::timecode_from_time(last / kFixtureRate, kFixtureRate);
  e.worst = worst;
  e.worst_frame = first;
  e.unit = std::move(unit);
  e.frame_share = static_cast<double>(last - first + 1) / kFixtureFrames;
  e.detail = std::string(qc::check_title(check)) + " from frame " + std::to_string(first);
  e.fails = fails;
  return e;
}

// A small PNG: grey bars over a dark ground.
inline std::string fixture_thumbnail(std::uint8_t shade) {
  media::RgbaImage image;
  image.width = 64, image.height = 36;
  image.pixels.assign(64 * 36 * 4, 255);
  for (std::uint32_t y = 0; y < 36; ++y) {
    for (std::uint32_t x = 0; x < 64; ++x) {
      std::uint8_t* p = &image.pixels[(y * 64 + x) * 4];
      const std::uint8_t v = x / 8 % 2 ? shade : static_cast<std::uint8_t>(shade / 3);
      p[0] = v, p[1] = v, p[2] = static_cast<std::uint8_t>(std::min(255, v + 20));
    }
  }
  std::string error;
  return media::encode_png(image, error);
}

// The run: the timeline above, four events (two failing), thumbnails for two of them.
inline report::ReportInput fixture_input(const qc::Timeline& timeline) {
  report::ReportInput in;
  in.title = "tape 07 <reel B>.mov";
  in.provenance = {{"file", "/media/archive/tape 07 <reel B>.mov"},
                   {"codec", "h264 (High), 8-bit 4:2:0, 1920\u00d71080"},
                   {"colour", "BT.709, limited range (tagged)"},
                   {"frames", "250 at 25 fps"},
                   {"vhist", "0.9.0, engine cpu"}};
  in.timeline = &timeline;
  in.frame_rate = kFixtureRate;
  in.thresholds.frozen_min = 1.0;
  in.events = {fixture_event(qc::Check::r103_luma, 175, 249, 18.0, "%", true),
               fixture_event(qc::Check::clipped, 175, 249, 10.0, "%", false),
               fixture_event(qc::Check::black, 50, 74, 100.0, "%", false),
               fixture_event(qc::Check::frozen, 150, 174, 1.0, "s", false)};
  in.thumbnails = {std::string(), fixture_thumbnail(230), fixture_thumbnail(12), std::string()};
  in.passed = false;
  in.notes = {"light: not checked (the stream declares no HDR metadata)"};
  return in;
}

}  // namespace vhist::test
