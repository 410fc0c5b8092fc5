#include "hwdec_choice.h"

#include "messages.h"

#include "vhist/compute/engine_choice.h"
#include "vhist/media/camera.h"

#include <cstdio>

namespace vhist::app {

media::SourceOptions source_options(const AnalyzeOptions& options, const hwdec::Hwdec& hw) {
  media::SourceOptions s;
  s.start = options.start();
  s.stream = options.common.stream;
  s.decoder_threads = static_cast<int>(options.threads);
  s.cuda_context = hw.cuda_context();
  s.cuda_stream = hw.cuda_stream();
  return s;
}

bool engine_reads_host(const AnalyzeOptions& options, const render::Context& context) {
  const EngineChoice choice = parse_engine_choice(options.engine).value_or(EngineChoice::automatic);
  return options.engine != "none" && choose_engine(context.description().kind, choice) == Engine::cpu;
}

hwdec::Hwdec choose_hwdec(const AnalyzeOptions& options, const render::Context& context, bool engine_reads_host,
                          std::unique_ptr<media::MediaSource>& source) {
  const hwdec::HwdecMode mode = options.common.hwdec;
  hwdec::Hwdec hw;
  hw.mode = mode;
  if (mode == hwdec::HwdecMode::no) return hw;
  if (media::is_camera_path(options.common.input)) {
    hw.reason = "a camera's frames are not decoded by NVDEC";
  } else {
    hw = hwdec::open_hwdec(mode, context);  // the device's reason first: it holds for every engine
    if (engine_reads_host) hwdec::refuse_for_host_engine(hw);
    const std::string faster = hwdec::cpu_faster_reason(mode, source->info().codec, options.threads);
    if (hw.usable() && !faster.empty()) hw.refuse(faster);
  }
  if (hw.usable()) {
    source.reset();  // its decoder and thread go before the same file is opened again
    source = media::MediaSource::open(options.common.input, source_options(options, hw));
    if (!source->info().hwaccel.empty()) return hw;  // NVDEC's own check comes with the first frame
    hw.reason = source->report().hw_fallback;       // this FFmpeg has no NVDEC for the decoder
  }
  say("vhist analyze: %s\n", hwdec::fallback_line(mode, hw.reason).c_str());
  return hw;
}

std::string decoder_name(const media::MediaInfo& info, const media::DecodedFrame& frame) {
  return frame.device.memory == FrameMemory::cuda ? info.codec + " (" + info.hwaccel + ")" : info.decoder;
}

std::string path_change(const media::MediaInfo& info, const media::DecodeReport& report,
                        const media::DecodedFrame& frame, bool first, bool first_on_gpu) {
  if (info.hwaccel.empty()) return {};
  const bool on_gpu = frame.device.memory != FrameMemory::host;
  const std::string why = report.hw_fallback.empty() ? "" : ": " + report.hw_fallback;
  if (first) {
    return on_gpu ? std::string() : "--hwdec: " + info.codec + " is decoded on the CPU" + why;
  }
  if (on_gpu == first_on_gpu) return {};
  return "warning: from frame " + std::to_string(frame.index) + " on, " + info.codec + " is decoded on " +
         (on_gpu ? "NVDEC" : "the CPU" + why) + " (the decoders are bit-exact: the records do not change)";
}

}  // namespace vhist::app
