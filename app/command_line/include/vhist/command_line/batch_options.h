// `vhist batch`'s command line: the inputs (files, directories searched by extension, a list
// file), the output directory, how many files run at once, and the options handed on to each
// file's `vhist qc` (engine, decoding, device, bins, QC profile and failing checks), checked here
// by qc's own rows so a bad value stops the batch before any file is run. No Vulkan, no FFmpeg.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace vhist::app {

struct BatchOptions {
  std::vector<std::string> inputs;      // files and directories, as given
  std::string list;                     // --list FILE: one input per line ('-': standard input)
  std::string out;                      // --out DIR
  std::string key;                      // --key K: one input, its row printed, no tables
  std::vector<std::string> extensions;  // --ext: the files a directory gives (lower case, no dot)
  unsigned jobs = 1;                    // --jobs N
  bool threads = false;                 // --workers threads: the inputs on threads of one process
  bool force = false;                   // --force: run complete inputs again
  bool plan = false;                    // --plan: print the plan, run nothing
  bool report = false;                  // --report: each file's HTML report and DIR/index.html
  bool quiet = false;                   // -q
  std::vector<std::string> forward;     // each file's `vhist qc` options, as given
};

// The extensions a directory is searched for by default: the containers FFmpeg reads video from.
const std::vector<std::string>& default_extensions();

void add_batch_options(CLI::App& app, BatchOptions& options);
// After parsing: --out given, --key with one input, the handed-on options valid (parsed as
// `vhist qc` would). Returns an error, empty if none.
std::string finish_batch_options(BatchOptions& options);
const char* batch_help_footer();

}  // namespace vhist::app
