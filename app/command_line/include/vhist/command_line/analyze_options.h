// `vhist analyze`'s command line: the shared groups (input, time, device, camera; option_table.h)
// and its own options. No Vulkan, no FFmpeg: the fuzzer parses command lines through here.
#pragma once

#include "vhist/cli/option_table.h"
#include "vhist/compute/region.h"
#include "vhist/records/record_writer.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace CLI {
class App;
}

namespace vhist::app {

struct AnalyzeOptions {
  cli::CommonOptions common;  // INPUT, --start, --device, --camera-*
  std::string output = "-";
  std::optional<RecordFormat> format;  // set by finish_analyze_options
  std::uint32_t bins = 256;
  std::int64_t frames = -1;
  std::string engine = "auto";  // auto, gpu, cpu or none
  unsigned threads = 0;         // --threads: the decoder's and the CPU engine's (0: one per core)
  bool quiet = false, verbose = false;
  bool cdf = false;
  bool ycbcr = false;  // --domain ycbcr: the records count the Y'CbCr planes as decoded
  bool skip_transparent = false;  // --alpha skip: fully transparent pixels are not counted
  std::optional<PixelRect> roi;   // --roi X,Y,W,H: count that rectangle of stored pixels only

  double start() const { return common.start.value_or(0.0); }
};

// analyze's own options (not the shared groups), for the tests.
std::span<const cli::CliRow<AnalyzeOptions>> analyze_rows();

// Adds analyze's options to `app` (the `analyze` subcommand).
void add_analyze_options(CLI::App& app, AnalyzeOptions& options);
// After parsing: checks what needs all options at once (an input is given) and fills in the
// defaults that depend on others (--format from -o's extension). Returns an error, empty if none.
std::string finish_analyze_options(AnalyzeOptions& options);
// The help's footer: statistics, the progress bar, exit status.
const char* analyze_help_footer();

}  // namespace vhist::app
