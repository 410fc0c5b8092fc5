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

// The whole HTML document. Every text from the input (names, tags, details, notes) is escaped
// (util::printable, then HTML's five characters); a Content-Security-Policy meta tag forbids
// any load but data: images and inline styles, and there is no script.
//
// The heatmap (an <image id="heatmap"> in the timeline's SVG, a PNG data: URI) has one pixel
// column per timeline column and 256 rows, row 0 = level 255 (bottom = level 0). A pixel's
// colour is matplotlib's inferno (its 11 published stops, linear between them) at position 0
// when no pixel of the column is at that level, else at 0.1 + 0.9 * clamp(1 + log10(share) / 6,
// 0, 1), where share = the column's luma count at the level / the column's luma count (so a
// level holding every pixel of the column is inferno(1) = #fcffa4, the least drawn 10^-6).
// Curves are per column by qc::column_measures() (the viewer's timeline strip's rule too): min of
// the minima, max of the maxima, of the shares and of the light, mean of the percentiles and means.
// The event table lists at most 200 events per check (a row says how many more).
// Throws std::runtime_error only when the heatmap's PNG cannot be encoded.
std::string html_report(const ReportInput& input);

// One file of a batch, for batch_index_html (vhist batch --report): the facts of its row.
struct BatchIndexRow {
  std::string key;      // its name in the batch's directory
  std::string report;   // its report, relative to the index (empty: none)
  std::string status;   // ok, partial (a damaged input judged as far as it decodes) or error
  std::string verdict;  // pass or fail (empty for an error)
  std::string failing;  // the failing checks that had events, comma-separated
  std::string error;    // the row's error
  std::string codec, picture, colour, input;
  double duration = -1;  // seconds; < 0 unknown
  long long frames = -1;  // frames analysed; < 0 unknown
};

// The batch's index.html: one row per file (verdict, failing checks, duration, frames, codec,
// picture, colour, input path, a link to its report), the counts on top; self-contained and
// offline like the report (the same style sheet and Content-Security-Policy, no script).
std::string batch_index_html(const std::vector<BatchIndexRow>& rows, const std::string& title);

}  // namespace vhist::report
