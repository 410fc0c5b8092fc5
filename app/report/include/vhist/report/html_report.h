// `vhist qc --report FILE.html`: one self-contained HTML file (no network: styles inline, the
// heatmap an inline PNG, the curves inline SVG, the thumbnails inline PNGs) that a person opens
// in a browser: the provenance header, the timeline heatmap and curves, the event table with a
// thumbnail of each event's worst frame, and the summary.
#pragma once

#include "vhist/qc/checks.h"
#include "vhist/qc/timeline.h"

#include <string>
#include <utility>
#include <vector>

namespace vhist::report {

struct ReportInput {
  std::string title;  // the input's file name
  // Where the numbers came from, in order: (label, value), e.g. ("codec", "h264"),
  // ("colour", "BT.709, limited range (tagged)"), ("vhist", "0.x, engine cpu").
  std::vector<std::pair<std::string, std::string>> provenance;
  const qc::Timeline* timeline = nullptr;
  double frame_rate = 0;
  std::vector<qc::Event> events;
  // Per event (same order; an empty string: none), a PNG of the event's worst frame.
  std::vector<std::string> thumbnails;
  qc::Thresholds thresholds;
  bool passed = true;
  // Lines for the summary beyond the events: what was not checked and why, the run's warnings.
  std::vector<std::string> notes;
};

// The whole HTML document. Every text from the input (names, tags) is escaped.
std::string html_report(const ReportInput& input);

}  // namespace vhist::report
