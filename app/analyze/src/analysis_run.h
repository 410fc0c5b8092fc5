// The one setup of an analysis, for `vhist analyze` and `vhist qc`: the input is checked and
// opened, then the Vulkan device and NVDEC (--hwdec), then the output (records; none with an
// observer), and the Analyzer runs; `after` sees the finished Analyzer and its source (qc's
// outputs) and returns the exit status. Exit statuses as run_analyze's. Messages go through say()
// (messages.h).
#pragma once

#include "analyzer.h"

#include "vhist/command_line/qc_options.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace vhist::app {

using AfterAnalysis = std::function<int(const Analyzer& analyzer, media::MediaSource& source, int status)>;

// `shared`: a Vulkan device that other threads use too (`vhist batch --workers threads`), instead
// of one of the run's own; the caller has installed the stop handlers.
int run_analysis(const AnalyzeOptions& options, AnalysisObserver* observer, const AfterAnalysis& after,
                 render::Context* shared = nullptr);

// The Vulkan device of a run (--device), with what NVDEC needs when --hwdec may use it; nullptr
// after saying (say(), "NAME: no usable Vulkan device: WHY") why there is none.
std::unique_ptr<render::Context> open_analysis_device(const AnalyzeOptions& options, const char* name);

// `vhist qc` of one input on a batch's worker thread (qc_command.cpp): on the shared device, its
// frames done and expected (-1: unknown) to `progress` instead of --progress-fd.
using ProgressReport = std::function<void(std::int64_t done, std::int64_t expected)>;
int run_qc_shared(const QcOptions& options, render::Context& shared, const ProgressReport& progress);

}  // namespace vhist::app
