#include "vhist/command_line/command_line.h"

#include <CLI/CLI.hpp>

namespace vhist::app {

namespace {

constexpr const char* kDescription =
    "vhist: GPU-native video histograms. Plays INPUT (a local video file; without one, the bundled demo\n"
    "clip) in a window with its R, G, B and luma histograms drawn over the video.";

// The device tools: flags of the root command (as vhist always took them) and subcommands.
struct Tool {
  const char* flag;
  const char* subcommand;
  const char* help;
  Command command;
};
constexpr Tool kTools[] = {
    {"--list-devices", "list-devices", "list the Vulkan devices, their type, Vulkan version and driver",
     Command::list_devices},
    {"--list-cameras", "list-cameras", "list the V4L2 cameras with their formats, frame sizes and rates",
     Command::list_cameras},
    {"--self-test", "self-test",
     "histogram a synthetic frame on the GPU with both strategies and compare them with the CPU reference; exit 0 "
     "when all agree",
     Command::self_test},
    {"--version", "version", "print the version", Command::version},
};

// Which tool flags were given; the first in this order wins (as before the table: --version,
// then --list-cameras, then --list-devices, then --self-test).
struct ToolFlags {
  bool given[4] = {};
};

// Builds the tree over `line`; `tools` collects the device-tool flags and subcommands.
void build(CLI::App& root, CommandLine& line, ToolFlags& tools) {
  cli::configure_app(root, viewer::viewer_help_footer());
  viewer::add_viewer_options(root, line.viewer);
  for (std::size_t i = 0; i < std::size(kTools); ++i) {
    bool* given = &tools.given[i];
    cli::add_option(root, kTools[i].flag, "", kTools[i].help, "Device tools", false, [given](std::string_view) {
      *given = true;
      return std::string();
    });
    CLI::App* sub = root.add_subcommand(kTools[i].subcommand, kTools[i].help);
    cli::configure_app(*sub, "");
    sub->group("Device tools, as subcommands");
    if (kTools[i].command == Command::self_test) cli::add_rows(*sub, cli::device_rows(), line.viewer.common);
    sub->callback([given] { *given = true; });
  }
  CLI::App* analyze = root.add_subcommand("analyze", "per-frame histograms and statistics of a video file");
  cli::configure_app(*analyze, analyze_help_footer());
  add_analyze_options(*analyze, line.analyze);
  analyze->callback([&line] { line.command = Command::analyze; });
  CLI::App* scope = root.add_subcommand("scope", "one frame of a video file as a waveform, parade or vectorscope PNG");
  cli::configure_app(*scope, scope_help_footer());
  add_scope_options(*scope, line.scope);
  scope->callback([&line] { line.command = Command::scope; });
  CLI::App* qc = root.add_subcommand("qc", "QC checks over a whole file: events with timecodes, an HTML report");
  cli::configure_app(*qc, qc_help_footer());
  add_qc_options(*qc, line.qc);
  qc->callback([&line] { line.command = Command::qc; });
  CLI::App* batch = root.add_subcommand("batch", "many files at once: records, QC and one summary table");
  cli::configure_app(*batch, batch_help_footer());
  add_batch_options(*batch, line.batch);
  batch->callback([&line] { line.command = Command::batch; });
}

}  // namespace

namespace {

// `a` as a POSIX shell reads it back: bare when it is safe, else in single quotes.
std::string shell_word(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") ==
                        std::string::npos) {
    return a;
  }
  std::string out = "'";
  for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& given) {
  // `vhist help [COMMAND]`: the same text as `vhist [COMMAND] --help` (the man page's sections).
  std::vector<std::string> args = given;
  if (!args.empty() && args.front() == "help") {
    if (args.size() > 2 || (args.size() == 2 && args[1] != "analyze" && args[1] != "scope" && args[1] != "qc" &&
                            args[1] != "batch")) {
      CommandLine bad;
      bad.end = {true, 2, {}, "help names one command: vhist help [analyze|scope|qc|batch] (vhist --help for the viewer)"};
      return bad;
    }
    args = args.size() == 2 ? std::vector<std::string>{args[1], "--help"} : std::vector<std::string>{"--help"};
  }
  CommandLine line;
  if (!args.empty() && (args.front() == "analyze" || args.front() == "scope" || args.front() == "qc" ||
                         args.front() == "batch")) line.program = "vhist " + args.front();
  CLI::App root(kDescription, "vhist");
  ToolFlags tools;
  build(root, line, tools);
  if (line.program == "vhist qc") {
    if (const std::string error = preload_profile(args, line.qc); !error.empty()) {
      line.end = {true, 2, {}, error};
      return line;
    }
  }
  line.end = cli::parse_args(root, args, [&line] {
    if (line.program == "vhist scope") return line.scope.common.input;
    if (line.program == "vhist qc") return line.qc.scan.common.input;
    if (line.program == "vhist batch") return line.batch.inputs.empty() ? std::string() : line.batch.inputs.front();
    return line.program == "vhist" ? line.viewer.common.input : line.analyze.common.input;
  });
  if (line.end.done) return line;
  if (line.command == Command::analyze) {
    if (const std::string error = finish_analyze_options(line.analyze); !error.empty()) {
      line.end = {true, 2, {}, error};
    }
    return line;
  }
  if (line.command == Command::scope) {
    if (const std::string error = finish_scope_options(line.scope); !error.empty()) line.end = {true, 2, {}, error};
    return line;
  }
  if (line.command == Command::qc) {
    if (const std::string error = finish_qc_options(line.qc); !error.empty()) line.end = {true, 2, {}, error};
    line.qc.invocation = "vhist";
    for (const std::string& a : args) line.qc.invocation += " " + shell_word(a);
    return line;
  }
  if (line.command == Command::batch) {
    if (const std::string error = finish_batch_options(line.batch); !error.empty()) line.end = {true, 2, {}, error};
    return line;
  }
  for (const int i : {3, 1, 0, 2}) {
    if (tools.given[i]) {
      line.command = kTools[i].command;
      break;
    }
  }
  return line;
}

std::string vhist_help() { return parse_command_line({"--help"}).end.help; }
std::string analyze_help() { return parse_command_line({"analyze", "--help"}).end.help; }
std::string scope_help() { return parse_command_line({"scope", "--help"}).end.help; }
std::string qc_help() { return parse_command_line({"qc", "--help"}).end.help; }
std::string batch_help() { return parse_command_line({"batch", "--help"}).end.help; }

}  // namespace vhist::app
