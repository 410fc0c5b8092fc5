// `vhist qc`'s command line: the scan's options (analyze's input, time, device and decoding
// groups, --frames, --engine), where the events, report and timeline go, and every QC threshold
// (qc::Thresholds' defaults; the rows here are their only spelling), also read from a profile
// file (--profile: an INI file of the same names). No Vulkan, no FFmpeg.
#pragma once

#include "vhist/cli/option_table.h"
#include "vhist/command_line/analyze_options.h"
#include "vhist/qc/checks.h"
#include "vhist/records/record_writer.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace vhist::app {

struct QcOptions {
  QcOptions() { scan.output.clear(); }
  // INPUT, --start, --frames, --engine, --device, --hwdec, --bins, -q, -v; scan.output: --records
  // (analyze's per-frame records from the same decode; empty: none)
  AnalyzeOptions scan;
  std::string events = "-";   // -o: the events, JSON Lines or CSV
  std::optional<RecordFormat> format;
  std::string report;         // --report FILE.html
  std::string timeline;       // --timeline-file FILE (the viewer's timeline file)
  std::string row;            // --row FILE: the file's summary row (JSON, `vhist batch`'s table)
  std::string row_key;        // --row-key K: the row's key (vhist batch's name for the input)
  int progress_fd = -1;       // --progress-fd N: "done expected" lines for the viewer
  std::string profile;        // --profile FILE, applied before the command line's own values
  std::string invocation;     // the command line as given ("vhist qc clip.mp4 --report r.html"), for the provenance
  qc::Thresholds thresholds;
};

std::span<const cli::CliRow<QcOptions>> qc_rows();
std::span<const cli::CliRow<qc::Thresholds>> threshold_rows();

void add_qc_options(CLI::App& app, QcOptions& options);
// The profile file's thresholds into `t` (its own keys: the threshold rows' names, '-' or '_').
// Returns an error, empty if none.
std::string apply_profile(const std::string& path, qc::Thresholds& t);
// Before the command line is parsed: applies the --profile named in `args` (qc's arguments), so
// that the command line's own values, parsed after, win. Returns an error, empty if none.
std::string preload_profile(const std::vector<std::string>& args, QcOptions& options);
// After parsing: an input is given, --format from -o's extension. Returns an error, empty if none.
std::string finish_qc_options(QcOptions& options);
const char* qc_help_footer();

}  // namespace vhist::app
