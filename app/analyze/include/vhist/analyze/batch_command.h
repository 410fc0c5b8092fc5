// `vhist batch`: many inputs, each analysed and checked by its own `vhist qc` process, --jobs at
// a time, into one output directory with a summary table; resumable.
#pragma once

#include "vhist/command_line/batch_options.h"

namespace vhist::app {

// Returns the exit status: 0 every input passed, 3 an input failed QC, 1 an input could not be
// analysed (or the tables cannot be written), 2 bad usage, 128 + signal interrupted.
int run_batch(const BatchOptions& options);

}  // namespace vhist::app
