// `vhist analyze`: decode a video file and write every frame's R, G, B and luma histograms and
// statistics as JSON Lines or CSV.
#pragma once

namespace vhist::app {

// argv[0] is "analyze". Returns the process exit status: 0 success, 1 environment or output
// failure, 2 bad input or usage, 130 interrupted.
int run_analyze(int argc, char** argv);

}  // namespace vhist::app
