#include "vhist/command_line/batch_options.h"

#include "vhist/command_line/command_line.h"
#include "vhist/cli/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>

namespace vhist::app {

namespace {

// The options each file's `vhist qc` takes from the batch's command line.
constexpr std::string_view kForwarded[] = {"--engine", "--hwdec", "--device", "--bins", "--threads", "--profile", "--fail"};

// A forwarded option's help and group: its own row's, from qc's command line.
std::pair<std::string, std::string> forwarded_help(std::string_view flag) {
  for (const auto& row : analyze_rows()) {
    if (row.flags == flag) return {std::string(row.help), std::string(row.group)};
  }
  for (const auto rows : {cli::device_rows(), cli::decode_rows()}) {
    for (const auto& row : rows) {
      if (row.flags == flag) return {std::string(row.help), std::string(row.group)};
    }
  }
  for (const auto& row : qc_rows()) {
    if (row.flags == flag) return {std::string(row.help), "Checks"};
  }
  for (const auto& row : threshold_rows()) {
    if (row.flags == flag) return {std::string(row.help), "Checks"};
  }
  return {"", ""};
}

std::string set_extensions(BatchOptions& o, std::string_view text) {
  o.extensions.clear();
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string e(text.substr(0, comma));
    if (!e.empty() && e.front() == '.') e.erase(0, 1);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (e.empty() || e.find('/') != std::string::npos) return "a comma-separated list of extensions such as mp4,mkv";
    o.extensions.push_back(e);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return o.extensions.empty() ? "a comma-separated list of extensions such as mp4,mkv" : "";
}

// A key names files inside --out: relative, no ".." component ("take1..final.mov" is a name).
bool key_inside_out(const std::string& key) {
  if (key.front() == '/') return false;
  for (std::size_t start = 0; start <= key.size();) {
    const std::size_t slash = std::min(key.find('/', start), key.size());
    if (key.compare(start, slash - start, "..") == 0 && slash - start == 2) return false;
    start = slash + 1;
  }
  return true;
}

}  // namespace

const std::vector<std::string>& default_extensions() {
  static const std::vector<std::string> list = {"mp4", "m4v", "mov", "mkv", "webm", "avi", "mxf", "ts", "m2ts", "mts",
                                                "mpg", "mpeg", "vob", "flv", "wmv", "3gp", "ogv", "dv", "y4m", "nut"};
  return list;
}

void add_batch_options(CLI::App& app, BatchOptions& o) {
  app.add_option("INPUT", o.inputs, cli::wrap("video files, and directories searched (recursively) for files with --ext's extensions"))
      ->type_name("INPUT...");
  cli::add_option(app, "--list", "FILE", "also the inputs named in FILE, one per line ('-': standard input; '#' lines "
                  "and blank lines are skipped)", "Input", false,
                  [&o](std::string_view v) { return cli::set_text(o.list, v, "a file name"); });
  cli::add_option(app, "--ext", "LIST", "the extensions a directory is searched for (default: mp4,m4v,mov,mkv,webm,avi,"
                  "mxf,ts,m2ts,mts,mpg,mpeg,vob,flv,wmv,3gp,ogv,dv,y4m,nut)", "Input", false,
                  [&o](std::string_view v) { return set_extensions(o, v); });
  cli::add_option(app, "--out", "DIR", "the output directory: each input's records, events and row, and the summary "
                  "tables (made when missing)", "Output", false,
                  [&o](std::string_view v) { return cli::set_text(o.out, v, "a directory"); });
  cli::add_option(app, "--jobs", "N", "files analysed at once, each in its own process with its own decoder "
                  "(default 1)", "Output", false, [&o](std::string_view v) {
                    const auto n = cli::parse_uint(v, 1, 256);
                    if (!n) return std::string("a whole number from 1 to 256");
                    o.jobs = *n;
                    return std::string();
                  });
  cli::add_option(app, "--workers", "KIND", "processes (default): each input in a `vhist qc` process of its own, so a "
                  "file that crashes its decoder is one failed row; threads: every input on a thread of this process, "
                  "sharing one Vulkan device and CUDA context that start once (faster for many short files or many "
                  "NVDEC streams), but a crash stops the batch", "Output", false, [&o](std::string_view v) {
                    if (v != "processes" && v != "threads") return std::string("processes or threads");
                    o.threads = v == "threads";
                    return std::string();
                  });
  cli::add_option(app, "--force", "", "analyse inputs again even where their outputs are complete", "Output", false,
                  [&o](std::string_view) { return o.force = true, std::string(); });
  cli::add_option(app, "--report", "", "also each input's HTML report from the same decode (DIR/KEY.report.html, as "
                  "vhist qc --report writes it) and DIR/index.html, the batch's table linking them (self-contained, "
                  "offline)", "Output", false, [&o](std::string_view) { return o.report = true, std::string(); });
  cli::add_option(app, "--plan", "", "print the plan (one JSON object per input: input, key, records, events, row, "
                  "done) and run nothing", "Output", false, [&o](std::string_view) { return o.plan = true, std::string(); });
  cli::add_option(app, "--key", "K", "with one input: name its outputs DIR/K.*, print its row on standard output and "
                  "write no tables (for callers that gather the rows: Dask, Slurm)", "Output", false,
                  [&o](std::string_view v) { return cli::set_text(o.key, v, "a name"); });
  cli::add_option(app, "-q,--quiet", "", "no progress line", "Output", false,
                  [&o](std::string_view) { return o.quiet = true, std::string(); });
  for (std::string_view flag : kForwarded) {
    const auto [help, group] = forwarded_help(flag);
    cli::add_option(app, flag, "V", help, group, false, [&o, flag](std::string_view v) {
      o.forward.emplace_back(flag);
      o.forward.emplace_back(v);
      return std::string();
    });
  }
}

std::string finish_batch_options(BatchOptions& o) {
  if (o.out.empty()) return "--out DIR is needed: where the records and the summary tables go";
  if (o.inputs.empty() && o.list.empty()) return "no inputs given (files, directories or --list FILE)";
  if (!o.key.empty() && (o.inputs.size() != 1 || !o.list.empty())) return "--key names exactly one input";
  if (!o.key.empty() && !key_inside_out(o.key)) return "--key must be a relative name inside --out, without '..'";
  if (o.extensions.empty()) o.extensions = default_extensions();
  // The handed-on options, parsed as each file's `vhist qc` will parse them.
  std::vector<std::string> qc = {"qc", "input"};
  qc.insert(qc.end(), o.forward.begin(), o.forward.end());
  const CommandLine line = parse_command_line(qc);
  if (line.end.done) return line.end.error;
  return {};
}

const char* batch_help_footer() {
  return R"(Runs `vhist qc` on every input, --jobs at a time, each in its own process (or, with --workers
threads, on a thread of this one): a bad file is one failed row, never a stopped batch. For each
input it writes DIR/KEY.jsonl (vhist analyze's records), DIR/KEY.qc.jsonl (the QC events) and
last DIR/KEY.row.json (its summary row); KEY is the path below the directory it was found in, or
a file's name. An input whose row is there (and newer than the input) is complete and skipped
unless --force, so an interrupted batch resumes where it stopped. At the end DIR/summary.csv and
DIR/summary.jsonl hold one row per input, in input order (docs/user-guide.md, "Batch", lists
the columns).

Exit status: 0 every input analysed and passed; 3 an input failed its QC checks; 1 an input could
not be analysed (its row says why); 2 bad usage or no inputs; 130, 143 interrupted.
)";
}

}  // namespace vhist::app
