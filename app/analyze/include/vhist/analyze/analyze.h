// `vhist analyze`: decode a video file and write every frame's R, G, B and luma histograms and
// statistics as JSON Lines or CSV.
#pragma once

#include "vhist/command_line/analyze_options.h"

namespace vhist::app {

// Runs with the options of its command line (analyze_options.h). Returns the process exit
// status: 0 success, 1 environment or output failure, 2 bad input, 130 interrupted.
int run_analyze(const AnalyzeOptions& options);

}  // namespace vhist::app
