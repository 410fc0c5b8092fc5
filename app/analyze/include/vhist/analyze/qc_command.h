// `vhist qc`: QC checks over a whole file (app/qc), with timecodes: the events as JSON Lines or
// CSV, an HTML report, the viewer's timeline file; the exit status says pass or fail.
#pragma once

#include "vhist/command_line/qc_options.h"

namespace vhist::app {

// The exit status of `vhist qc` and `vhist batch` when an input failed its checks.
constexpr int kFailedChecksStatus = 3;

// Returns the exit status: 0 pass, 3 an event of a failing check, 1 environment or output
// failure, 2 bad input, 128 + signal interrupted.
int run_qc(const QcOptions& options);

}  // namespace vhist::app
