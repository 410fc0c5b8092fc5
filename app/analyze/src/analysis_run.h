// The one setup of an analysis, for `vhist analyze` and `vhist qc`: the input is checked and
// opened, then the Vulkan device and NVDEC (--hwdec), then the output (records; none with an
// observer), and the Analyzer runs; `after` sees the finished Analyzer and its source (qc's
// outputs) and returns the exit status. Exit statuses as run_analyze's.
#pragma once

#include "analyzer.h"

#include <functional>

namespace vhist::app {

using AfterAnalysis = std::function<int(const Analyzer& analyzer, media::MediaSource& source, int status)>;

int run_analysis(const AnalyzeOptions& options, AnalysisObserver* observer, const AfterAnalysis& after);

}  // namespace vhist::app
