#include "vhist/command_line/qc_options.h"

#include "vhist/cli/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <cmath>

namespace vhist::app {

namespace {

// A number in [lo, hi] into `field`, or what it must be.
std::string set_number(double& field, std::string_view text, double lo, double hi, std::string_view expected) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < lo || v > hi) {
    return std::string(expected);
  }
  field = v;
  return {};
}

std::string set_failing(qc::Thresholds& t, std::string_view text) {
  std::vector<qc::Check> checks;
  if (text != "none") {
    while (!text.empty()) {
      const std::size_t comma = text.find(',');
      const std::string_view name = text.substr(0, comma);
      bool known = false;
      for (qc::Check c : qc::kAllChecks) {
        if (qc::check_name(c) == name) checks.push_back(c), known = true;
      }
      if (!known) {
        return "a comma-separated list of r103_luma, r103_rgb, clipped, black, frozen, light, range, decode_error "
               "(or none)";
      }
      text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
  }
  t.failing = std::move(checks);
  return {};
}

constexpr cli::CliRow<qc::Thresholds> kThresholdRows[] = {
    {"--r103-area", "PCT",
     "EBU R 103: the percent of the picture that may be outside the limits in a frame (default 1)", "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.r103_area, v, 0, 100, "a percentage from 0 to 100"); }},
    {"--clip-high", "PCT",
     "clipped: a frame is clipped when more than PCT % of its Y' samples sit at or above white (100 %: code 235 at "
     "8 bits, limited range) (default 1)",
     "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.clip_high, v, 0, 100, "a percentage from 0 to 100"); }},
    {"--clip-low", "PCT",
     "the same at or below black (0 %) (default 100: off, since letterbox bars and fades sit there legitimately)",
     "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.clip_low, v, 0, 100, "a percentage from 0 to 100"); }},
    {"--black-level", "PCT",
     "black: a sample is black at or below PCT % of the nominal range (default 10, FFmpeg blackdetect's pixel "
     "threshold)",
     "Checks",
     [](qc::Thresholds& t, std::string_view v) {
       return set_number(t.black_level, v, 0, 100, "a percentage from 0 to 100");
     }},
    {"--black-area", "PCT",
     "black: a frame is black when at least PCT % of its samples are (default 98, blackdetect's picture threshold)",
     "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.black_area, v, 0, 100, "a percentage from 0 to 100"); }},
    {"--black-min", "S", "black: report segments of at least S seconds (default 0: every black frame)", "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.black_min, v, 0, 86400, "seconds from 0"); }},
    {"--frozen-min", "S",
     "frozen: report the same picture held for at least S seconds (default 2, FFmpeg freezedetect's duration)", "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.frozen_min, v, 0, 86400, "seconds from 0"); }},
    {"--frozen-change", "PCT",
     "frozen: a frame holds the picture that began its run when the mean change of its 32 x 18 cells of Y' (G' of "
     "R'G'B' frames) is at most PCT % of the nominal range (default 0.1; 0: bit-exact repeats only)",
     "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.frozen_change, v, 0, 100, "a percentage from 0 to 100"); }},
    {"--light-slack", "CD",
     "light: cd/m2 a PQ frame may exceed the stream's MaxCLL, MaxFALL or mastering peak by (default 0.5: the "
     "metadata's figures are whole cd/m2)",
     "Checks",
     [](qc::Thresholds& t, std::string_view v) { return set_number(t.light_slack, v, 0, 10000, "cd/m2 from 0"); }},
    {"--fail", "CHECKS",
     "the checks whose events fail the run (exit status 3): a comma-separated list of r103_luma, r103_rgb, clipped, "
     "black, frozen, light, range, decode_error, or none (default r103_luma,r103_rgb,light,range,decode_error)",
     "Checks", set_failing},
};

constexpr cli::CliRow<QcOptions> kQcRows[] = {
    {"-o,--output", "FILE", "write the events to FILE (default: standard output)", "Output",
     [](QcOptions& o, std::string_view v) { return cli::set_text(o.events, v, "a file name (or - for standard output)"); }},
    {"--format", "F", "jsonl (one event per line, the default) or csv; default: csv when -o ends in .csv", "Output",
     [](QcOptions& o, std::string_view v) {
       if (v == "jsonl") o.format = RecordFormat::jsonl;
       else if (v == "csv") o.format = RecordFormat::csv;
       else return std::string("jsonl or csv");
       return std::string();
     }},
    {"--report", "FILE", "also write a self-contained HTML report (timeline, events with thumbnails, summary)",
     "Output", [](QcOptions& o, std::string_view v) { return cli::set_text(o.report, v, "a file name"); }},
    {"--profile", "FILE",
     "read thresholds from an INI file of the same names ('r103-area = 0.5', '# comments'); values given on the "
     "command line win",
     "Checks", [](QcOptions& o, std::string_view v) { return cli::set_text(o.profile, v, "a file name"); }},
    {"--timeline-file", "FILE", "also write the timeline file the viewer reads (the viewer's cache)", "Output",
     [](QcOptions& o, std::string_view v) { return cli::set_text(o.timeline, v, "a file name"); }},
    {"--records", "FILE",
     "also write vhist analyze's per-frame records (histograms, statistics) to FILE from the same decode; CSV "
     "when FILE ends in .csv",
     "Output", [](QcOptions& o, std::string_view v) { return cli::set_text(o.scan.output, v, "a file name"); }},
    {"--row", "FILE",
     "also write the file's summary row (provenance, exposure over all frames, light, verdict: one JSON object, "
     "vhist batch's table row) to FILE",
     "Output", [](QcOptions& o, std::string_view v) { return cli::set_text(o.row, v, "a file name"); }},
    {"--row-key", "K", "the row's key (vhist batch's name for the input)", "Output",
     [](QcOptions& o, std::string_view v) { return cli::set_text(o.row_key, v, "a name"); }, true},
    {"--progress-fd", "N", "write 'frames expected' lines to file descriptor N as frames are measured", "Output",
     [](QcOptions& o, std::string_view v) {
       const auto n = cli::parse_uint(v, 3, 1 << 20);
       if (!n) return std::string("a file descriptor from 3");
       o.progress_fd = static_cast<int>(*n);
       return std::string();
     },
     true},
};

}  // namespace

std::span<const cli::CliRow<QcOptions>> qc_rows() { return kQcRows; }
std::span<const cli::CliRow<qc::Thresholds>> threshold_rows() { return kThresholdRows; }

void add_qc_options(CLI::App& app, QcOptions& options) {
  cli::add_rows(app, cli::input_rows(), options.scan.common);
  cli::add_rows(app, qc_rows(), options);
  cli::add_rows(app, threshold_rows(), options.thresholds);
  // The scan: analyze's rows that apply (the records' options do not).
  for (const cli::CliRow<AnalyzeOptions>& row : analyze_rows()) {
    const std::string_view f = row.flags;
    if (f == "--frames" || f == "--engine" || f == "--bins" || f == "--threads" || f == "-q,--quiet" || f == "-v,--verbose") {
      cli::add_rows(app, std::span(&row, 1), options.scan);
    }
  }
  cli::add_rows(app, cli::time_rows(), options.scan.common);
  cli::add_rows(app, cli::device_rows(), options.scan.common);
  cli::add_rows(app, cli::decode_rows(), options.scan.common);
}

std::string apply_profile(const std::string& path, qc::Thresholds& t) {
  std::ifstream in(path);
  if (!in) return "--profile: cannot read '" + path + "'";
  // CLI11's INI reader takes ';' comments; '#' lines are comments too.
  std::stringstream text;
  for (std::string line; std::getline(in, line) && text.tellp() < (1 << 16);) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != '#') text << line << '\n';
  }
  for (const CLI::ConfigItem& item : CLI::ConfigINI().from_config(text)) {
    if (!item.parents.empty() && !(item.parents.size() == 1 && item.parents[0] == "qc")) {
      return "--profile '" + path + "': unknown section [" + item.parents[0] + "] (thresholds go at the top or in [qc])";
    }
    std::string name = item.name;
    std::replace(name.begin(), name.end(), '_', '-');
    const cli::CliRow<qc::Thresholds>* row = nullptr;
    for (const auto& r : kThresholdRows) row = r.flags == "--" + name ? &r : row;
    if (row == nullptr) return "--profile '" + path + "': unknown threshold '" + item.name + "'";
    const std::string value = item.inputs.empty() ? std::string() : item.inputs.front();
    if (const std::string expected = row->set(t, value); !expected.empty()) {
      return "--profile '" + path + "': " + name + " needs " + expected + ", not '" + value + "'";
    }
  }
  return {};
}

std::string preload_profile(const std::vector<std::string>& args, QcOptions& options) {
  for (std::size_t k = 0; k < args.size(); ++k) {
    std::string path;
    if (args[k] == "--profile" && k + 1 < args.size()) path = args[k + 1];
    if (args[k].rfind("--profile=", 0) == 0) path = args[k].substr(10);
    if (!path.empty()) return apply_profile(path, options.thresholds);
  }
  return {};
}

std::string finish_qc_options(QcOptions& o) {
  if (o.scan.common.input.empty()) return "no input file given";
  if (o.scan.engine == "none") return "--engine none decodes only and measures nothing to check: use auto, gpu or cpu";
  if (!o.format) {
    const bool csv = o.events.size() > 4 && o.events.compare(o.events.size() - 4, 4, ".csv") == 0;
    o.format = csv ? RecordFormat::csv : RecordFormat::jsonl;
  }
  const std::string& records = o.scan.output;
  const bool csv_records = records.size() > 4 && records.compare(records.size() - 4, 4, ".csv") == 0;
  o.scan.format = csv_records ? RecordFormat::csv : RecordFormat::jsonl;
  if (records == "-" || o.row == "-") return "--records and --row need a file (standard output carries the events)";
  return {};
}

const char* qc_help_footer() {
  return R"(Decodes every frame of INPUT with analyze's engine, measures it (Y' levels, clipping, EBU R 103's
luma and R'G'B' gamut limits before clamping, black, a checksum, PQ light) and reports the runs
of frames that break a check as events: check, start and end timecode (the stream's SMPTE
timecode when it has one, else from its timestamps) and frame numbers, worst value, share of
frames. docs/user-guide.md ("QC") gives each check's default and the standard it comes from.

Exit status: 0 every failing check passed; 3 an event of a failing check (--fail) was found;
1 no usable Vulkan device, or an output cannot be written; 2 bad usage or bad input;
130, 143, 129 interrupted (nothing is judged: the outputs are not written).
)";
}

}  // namespace vhist::app
