// vhist's whole command line, one CLI11 tree built from the option tables:
//   vhist [INPUT] [options]            the viewer (viewer/viewer_options.h)
//   vhist analyze INPUT [options]      per-frame histograms of a video (analyze_options.h)
//   vhist scope INPUT --at T -o PNG    one frame's scope as a PNG (scope_options.h)
//   vhist qc INPUT [options]           QC checks with timecodes, a report (qc_options.h)
//   vhist batch INPUT... --out DIR     many files: records, QC and a summary table (batch_options.h)
//   vhist --list-devices | --list-cameras | --self-test [--device SEL] | --version
//                                      the device tools; also spelled as the subcommands
//                                      list-devices, list-cameras, self-test and version
// No window, no Vulkan, no FFmpeg: the fuzzer parses command lines through here.
#pragma once

#include "vhist/command_line/analyze_options.h"
#include "vhist/command_line/batch_options.h"
#include "vhist/command_line/qc_options.h"
#include "vhist/command_line/scope_options.h"
#include "vhist/cli/option_table.h"
#include "vhist/command_line/viewer_options.h"

#include <string>
#include <vector>

namespace vhist::app {

enum class Command { viewer, analyze, scope, qc, batch, list_devices, list_cameras, self_test, version };

struct CommandLine {
  cli::ParseEnd end;  // end.done: print end.help (status 0) or report end.error (status 2)
  Command command = Command::viewer;
  viewer::ViewerOptions viewer;  // the viewer's options, and --device for the device tools
  AnalyzeOptions analyze;
  ScopeOptions scope;
  QcOptions qc;
  BatchOptions batch;
  // How errors and help name the command: "vhist", "vhist analyze", "vhist scope", "vhist qc" or "vhist batch".
  std::string program = "vhist";
};

// Parses `args` (argv without the program name). Never prints, never exits.
CommandLine parse_command_line(const std::vector<std::string>& args);

// The help of the root command, of `vhist analyze` and of `vhist scope`, as --help prints them.
std::string vhist_help();
std::string analyze_help();
std::string scope_help();
std::string qc_help();
std::string batch_help();

}  // namespace vhist::app
