// `vhist analyze`: the setup of a run (input, Vulkan device, NVDEC, output) around the Analyzer
// (analyzer.h), shared with `vhist qc`.
#include "vhist/analyze/analyze.h"

#include "analysis_run.h"
#include "hwdec_choice.h"
#include "messages.h"
#include "stop_signals.h"

#include "vhist/camera_options/camera_options.h"
#include "vhist/media/camera.h"
#include "vhist/render/vk_check.h"
#include "vhist/util/text.h"

#include <cstdio>
#include <future>
#include <memory>

namespace vhist::app {

namespace {

// The input: a camera (live frames until --frames N or Ctrl-C) or a file, decoded on the CPU
// (choose_hwdec may reopen it on NVDEC). Throws media::MediaError.
std::unique_ptr<media::MediaSource> open_source(const AnalyzeOptions& options) {
  if (media::is_camera_path(options.common.input)) {
    return media::CameraSource::open(options.common.input, cli::camera_options(options.common));
  }
  return media::MediaSource::open(options.common.input, source_options(options, {}));
}

render::ContextOptions device_options(const AnalyzeOptions& options) {
  render::ContextOptions context_options;
  context_options.device = options.common.device;
  if (options.common.hwdec != hwdec::HwdecMode::no) context_options.optional_device_extensions = hwdec::device_extensions();
  return context_options;
}

// The device a run opens for itself, started on a thread of its own while the input opens: the
// input's probe and the device's start (lavapipe's loads LLVM) each take tens of milliseconds on
// a 2-core machine, one after the other before. get() rethrows the start's failure.
std::future<std::unique_ptr<render::Context>> start_device(const AnalyzeOptions& options) {
  return std::async(std::launch::async,
                    [context_options = device_options(options)] { return std::make_unique<render::Context>(context_options); });
}

// The started device, or null after saying why there is none.
std::unique_ptr<render::Context> started_device(std::future<std::unique_ptr<render::Context>>& starting,
                                                const char* name) {
  try {
    return starting.get();
  } catch (const std::exception& e) {
    say("%s: no usable Vulkan device: %s\n", name, render::failure_message(e).c_str());
    return nullptr;
  }
}

}  // namespace

std::unique_ptr<render::Context> open_analysis_device(const AnalyzeOptions& options, const char* name) {
  auto starting = start_device(options);
  return started_device(starting, name);
}

namespace {

// The input, said why not (exit status in `status`) when it cannot be opened.
std::unique_ptr<media::MediaSource> open_input(const AnalyzeOptions& options, const char* name, int& status) {
  try {
    return open_source(options);
  } catch (const media::MediaError& e) {
    status = stop_requested() ? interrupted_while_opening() : 2;
    if (!stop_requested()) say("%s: %s\n", name, util::printable(e.what()).c_str());
  } catch (const std::exception& e) {  // out of memory or threads: said as such
    say("%s: %s\n", name, render::failure_message(e).c_str());
    status = 1;
  }
  return nullptr;
}

// The Analyzer's run on an opened input and device, then `after`; a validation message during
// the run fails it.
int analyse(const AnalyzeOptions& options, AnalysisObserver* observer, const AfterAnalysis& after,
            media::MediaSource& source, render::Context& context, const hwdec::Hwdec& hw, const char* name) {
  std::string error;
  const bool records = observer == nullptr || !options.output.empty();
  const std::unique_ptr<Output> out = records ? Output::open(options.output, error) : nullptr;
  if (!out && records) {
    say("%s: %s\n", name, error.c_str());
    return 1;
  }
  const std::uint32_t messages_before = context.validation_message_count();
  try {
    Analyzer analyzer(options, source, context, out.get(), hw.import(), observer);
    int status = analyzer.run();
    if (after) status = after(analyzer, source, status);
    if (const std::uint32_t messages = context.validation_message_count() - messages_before; messages != 0) {
      say("%s: %u Vulkan validation messages\n", name, messages);
      if (status == 0 || status == 3) status = 1;  // a passed or failed verdict on a faulty run is none
    }
    return status;
  } catch (const OutputClosed&) {
    return kOutputClosedStatus;
  } catch (const std::exception& e) {
    say("%s: %s\n", name, util::printable(render::failure_message(e)).c_str());
    return 1;
  }
}

}  // namespace

int run_analysis(const AnalyzeOptions& options, AnalysisObserver* observer, const AfterAnalysis& after,
                 render::Context* shared) {
  const char* name = observer != nullptr ? "vhist qc" : "vhist analyze";
  // An output that is the input would destroy it: refused before anything is opened.
  const std::string conflict = options.output.empty() ? std::string() : output_conflict(options.common.input, options.output);
  if (!conflict.empty()) {
    say("%s: %s\n", name, conflict.c_str());
    return 2;
  }
  // Declared in the order they are needed at the end: the input (with NVDEC's decoder) goes
  // before the CUDA side (hw), which goes before the Vulkan device.
  std::unique_ptr<render::Context> own_context;
  hwdec::Hwdec hw;
  // A shared device's owner (the batch's main thread) has put the stop handlers in place. Bad
  // input is reported before a failing device; returning waits for the device's start to end.
  std::future<std::unique_ptr<render::Context>> starting;
  if (shared == nullptr) {
    install_stop_handlers();
    try {
      starting = start_device(options);
    } catch (const std::exception& e) {  // no thread to start it on
      say("%s: %s\n", name, render::failure_message(e).c_str());
      return 1;
    }
  }
  int status = 0;
  std::unique_ptr<media::MediaSource> source = open_input(options, name, status);
  if (!source) return status;
  if (shared == nullptr && !(own_context = started_device(starting, name))) return 1;
  render::Context& context = shared != nullptr ? *shared : *own_context;
  try {
    hw = choose_hwdec(options, context, engine_reads_host(options, context), source);
  } catch (const media::MediaError& e) {
    say("%s: %s\n", name, util::printable(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {  // out of memory or threads while reopening on NVDEC
    say("%s: --hwdec: %s\n", name, render::failure_message(e).c_str());
    return 1;
  }
  // The stop handlers are in place (above): a signal from here on ends the run through the
  // loop, which removes the temporary file when no record was written. `vhist qc` writes records
  // only with --records (options.output); its observer takes the frames.
  return analyse(options, observer, after, *source, context, hw, name);
}

int run_analyze(const AnalyzeOptions& options) { return run_analysis(options, nullptr, {}); }

}  // namespace vhist::app
