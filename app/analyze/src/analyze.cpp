// `vhist analyze`: the setup of a run (input, Vulkan device, NVDEC, output) around the Analyzer
// (analyzer.h), shared with `vhist qc`.
#include "vhist/analyze/analyze.h"

#include "analysis_run.h"
#include "hwdec_choice.h"
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

// The Vulkan device, started on a thread of its own while the input opens: the input's probe
// and the device's start (lavapipe's loads LLVM) each take tens of milliseconds on this 2-core
// machine, one after the other before. get() rethrows the start's failure.
std::future<std::unique_ptr<render::Context>> start_context(const AnalyzeOptions& options) {
  render::ContextOptions context_options;
  context_options.device = options.common.device;
  if (options.common.hwdec != hwdec::HwdecMode::no) context_options.optional_device_extensions = hwdec::device_extensions();
  return std::async(std::launch::async, [context_options] { return std::make_unique<render::Context>(context_options); });
}

}  // namespace

int run_analysis(const AnalyzeOptions& options, AnalysisObserver* observer, const AfterAnalysis& after) {
  const char* name = observer != nullptr ? "vhist qc" : "vhist analyze";
  // An output that is the input would destroy it: refused before anything is opened.
  const std::string conflict = options.output.empty() ? std::string() : output_conflict(options.common.input, options.output);
  if (!conflict.empty()) {
    std::fprintf(stderr, "%s: %s\n", name, conflict.c_str());
    return 2;
  }
  // Declared in the order they are needed at the end: the input (with NVDEC's decoder) goes
  // before the CUDA side (hw), which goes before the Vulkan device.
  std::unique_ptr<render::Context> context;
  hwdec::Hwdec hw;
  install_stop_handlers();
  std::future<std::unique_ptr<render::Context>> starting;
  try {
    starting = start_context(options);
  } catch (const std::exception& e) {  // no thread to start it on
    std::fprintf(stderr, "%s: %s\n", name, render::failure_message(e).c_str());
    return 1;
  }
  // Bad input is still reported first; returning waits for the device's start to end.
  std::unique_ptr<media::MediaSource> source;
  try {
    source = open_source(options);
  } catch (const media::MediaError& e) {
    if (stop_requested()) return interrupted_while_opening();
    std::fprintf(stderr, "%s: %s\n", name, util::printable(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {  // out of memory or threads: said as such
    std::fprintf(stderr, "%s: %s\n", name, render::failure_message(e).c_str());
    return 1;
  }

  try {
    context = starting.get();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: no usable Vulkan device: %s\n", name, render::failure_message(e).c_str());
    return 1;
  }
  try {
    hw = choose_hwdec(options, *context, engine_reads_host(options, *context), source);
  } catch (const media::MediaError& e) {
    std::fprintf(stderr, "%s: %s\n", name, util::printable(e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {  // out of memory or threads while reopening on NVDEC
    std::fprintf(stderr, "%s: --hwdec: %s\n", name, render::failure_message(e).c_str());
    return 1;
  }

  // The stop handlers are in place (above): a signal from here on ends the run through the
  // loop, which removes the temporary file when no record was written. `vhist qc` writes records
  // only with --records (options.output); its observer takes the frames.
  std::string error;
  const bool records = observer == nullptr || !options.output.empty();
  const std::unique_ptr<Output> out = records ? Output::open(options.output, error) : nullptr;
  if (!out && records) {
    std::fprintf(stderr, "%s: %s\n", name, error.c_str());
    return 1;
  }
  try {
    Analyzer analyzer(options, *source, *context, out.get(), hw.import(), observer);
    int status = analyzer.run();
    if (after) status = after(analyzer, *source, status);
    if (context->validation_message_count() != 0) {
      std::fprintf(stderr, "%s: %u Vulkan validation messages\n", name, context->validation_message_count());
      if (status == 0 || status == 3) status = 1;  // a passed or failed verdict on a faulty run is none
    }
    return status;
  } catch (const OutputClosed&) {
    return kOutputClosedStatus;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, util::printable(render::failure_message(e)).c_str());
    return 1;
  }
}

int run_analyze(const AnalyzeOptions& options) { return run_analysis(options, nullptr, {}); }

}  // namespace vhist::app
