#include "hwdec_choice.h"

#include "messages.h"

#include "vhist/compute/engine_choice.h"
#include "vhist/media/camera.h"

#include <cstdio>
#include <utility>

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

namespace {

// Opens the input again on NVDEC (`hw` usable); returns why the CPU decodes it all the same (""
// when NVDEC does; its own check comes with the first frame). Where it does not open there, the
// CPU decoder opens it with NVDEC given up, as the viewer does; bad input throws
// media::MediaError there, in the CPU decoder's words.
std::string reopen_on_nvdec(const AnalyzeOptions& options, hwdec::Hwdec& hw, std::unique_ptr<media::MediaSource>& source) {
  source.reset();  // its decoder and thread go before the same file is opened again
  try {
    source = media::MediaSource::open(options.common.input, source_options(options, hw));
  } catch (const media::MediaError& e) {
    hw.refuse(hwdec::open_failed_reason(e.what()));
    source = media::MediaSource::open(options.common.input, source_options(options, hw));
    return hw.reason;
  }
  if (!source->info().hwaccel.empty()) return {};
  // This FFmpeg has no NVDEC for the decoder. The CUDA side stays: the source holds its context.
  return hwdec::not_taken_reason(source->report().hw_fallback);
}

}  // namespace

hwdec::Hwdec choose_hwdec(const AnalyzeOptions& options, const render::Context& context, bool engine_reads_host,
                          std::unique_ptr<media::MediaSource>& source) {
  hwdec::Hwdec hw;
  hw.mode = options.common.hwdec;
  if (hw.mode == hwdec::HwdecMode::no) return hw;
  const bool camera = media::is_camera_path(options.common.input);
  if (!camera) hw = hwdec::open_hwdec(hw.mode, context);  // the camera's reason comes first: no CUDA for it
  hwdec::DecodeFacts facts = hwdec::device_facts(hw);
  facts.camera = camera;
  facts.host_engine = engine_reads_host;
  facts.codec = source->info().codec;
  facts.threads = options.threads;
  const hwdec::DecodeChoice choice = hwdec::choose_decoding(facts);
  if (!choice.nvdec) {
    hw.refuse(choice.reason);
  } else if (std::string why = reopen_on_nvdec(options, hw, source); !why.empty()) {
    hw.reason = std::move(why);
  } else {
    return hw;
  }
  say("vhist analyze: %s\n", hwdec::fallback_line(hw.mode, hw.reason).c_str());
  return hw;
}

std::string decoder_name(const media::MediaInfo& info, const media::DecodedFrame& frame) {
  return frame.device.memory == FrameMemory::cuda ? info.codec + " (" + info.hwaccel + ")" : info.decoder;
}

std::string path_change(const media::MediaInfo& info, const media::DecodeReport& report,
                        const media::DecodedFrame& frame, bool first, bool first_on_gpu) {
  if (info.hwaccel.empty()) return {};
  const bool on_gpu = frame.device.memory != FrameMemory::host;
  const std::string why = ": " + hwdec::not_taken_reason(report.hw_fallback);
  if (first) {
    return on_gpu ? std::string() : "--hwdec: " + info.codec + " is decoded on the CPU" + why;
  }
  if (on_gpu == first_on_gpu) return {};
  return "warning: from frame " + std::to_string(frame.index) + " on, " + info.codec + " is decoded on " +
         (on_gpu ? "NVDEC" : "the CPU" + why) + " (the decoders are bit-exact: the records do not change)";
}

}  // namespace vhist::app
