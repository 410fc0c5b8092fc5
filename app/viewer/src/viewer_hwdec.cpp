#include "viewer_hwdec.h"

#include "vhist/util/text.h"

#include <cstdio>
#include <cstdlib>

namespace vhist::viewer {

namespace {

// The CPU decodes the file just opened: keep why, to be said by announce_decoder().
void decode_on_cpu(App& app, const std::string& why) {
  app.decoding.note = why.empty() ? "NVDEC did not take the stream" : why;
  app.decoding.unsaid = true;
}

}  // namespace

Engine viewer_engine(const render::Context& context) {
  EngineChoice choice = EngineChoice::automatic;
  if (const char* engine = std::getenv("VHIST_ENGINE")) choice = parse_engine_choice(engine).value_or(choice);
  return choose_engine(context.description().kind, choice);
}

hwdec::Hwdec open_viewer_hwdec(hwdec::HwdecMode mode, const render::Context& context, Engine engine) {
  hwdec::Hwdec hw = hwdec::open_hwdec(mode, context);  // the device's reason first: it holds for every engine
  if (engine == Engine::cpu) hwdec::refuse_for_host_engine(hw);
  return hw;
}

namespace {

// Opens the file on NVDEC where --hwdec takes it; returns why the CPU decodes it ("" when NVDEC
// does, or with --hwdec no). `watch`: NVDEC's own check comes with the first frame. Throws
// media::MediaError for bad input before anything of the open file changed.
std::string open_decoder(App& app, const std::string& path, int stream, bool& watch) {
  const hwdec::Hwdec* hw = app.decoding.hwdec;
  if (!hw || hw->mode == hwdec::HwdecMode::no || !hw->usable()) {
    app.transport.player.open(path, stream);
    return hw && hw->mode != hwdec::HwdecMode::no ? hw->reason : std::string();
  }
  try {
    app.transport.player.open(path, stream, hw->cuda_context(), hw->cuda_stream());
  } catch (const media::MediaError& e) {
    app.transport.player.open(path, stream);  // bad input throws again here, in the CPU decoder's words
    return std::string("the decoder did not open on NVDEC: ") + e.what();
  }
  const media::MediaInfo info = app.transport.player.info();
  if (std::string faster = hwdec::cpu_faster_reason(hw->mode, info.codec); !faster.empty()) {
    app.transport.player.open(path, stream);  // the NVDEC source goes once this one is open
    return faster;
  }
  if (info.hwaccel.empty()) {  // this FFmpeg has no NVDEC for the decoder
    const std::string why = app.transport.player.report().hw_fallback;
    return why.empty() ? "NVDEC did not take the stream" : why;
  }
  watch = true;
  return {};
}

}  // namespace

void open_player(App& app, const std::string& path, int stream) {
  bool watch = false;
  const std::string why = open_decoder(app, path, stream, watch);
  app.decoding.note = why;
  app.decoding.unsaid = !why.empty();
  app.decoding.watch = watch;
}

void note_camera_decoding(App& app) {
  app.decoding.note.clear();
  app.decoding.unsaid = false;
  app.decoding.watch = false;
  if (app.decoding.hwdec && app.decoding.hwdec->mode != hwdec::HwdecMode::no) decode_on_cpu(app, "a camera's frames are not decoded by NVDEC");
}

void announce_decoder(App& app) {
  if (!app.decoding.unsaid || !app.decoding.hwdec) return;
  app.decoding.unsaid = false;
  const std::string line = hwdec::fallback_line(app.decoding.hwdec->mode, app.decoding.note);
  std::fprintf(stderr, "vhist: %s\n", util::printable(line).c_str());
  show_message(app, line);
}

void watch_decode_path(App& app, const media::DecodedFrame& frame) {
  if (!app.decoding.watch) return;
  app.decoding.watch = false;
  if (frame.device.memory != FrameMemory::host) return;
  decode_on_cpu(app, app.transport.player.report().hw_fallback);
  announce_decoder(app);
}

std::string decoder_line(const App& app) {
  if (!app.decoding.hwdec || app.decoding.hwdec->mode == hwdec::HwdecMode::no || !app.transport.player.is_open() || !app.transport.player.frame()) return {};
  const media::MediaInfo& info = app.transport.player.info();
  if (app.transport.player.frame()->device.memory != FrameMemory::host) return "decoder " + info.codec + " (" + info.hwaccel + ")";
  const std::string name = info.decoder.empty() ? info.codec : info.decoder;
  const std::string why = app.decoding.note.empty() ? "" : "; --hwdec " + std::string(hwdec::hwdec_name(app.decoding.hwdec->mode)) +
                                                             ": " + app.decoding.note;
  return "decoder " + name + " (CPU" + why + ")";
}

std::string hardware_decoding_text(const App& app) {
  const hwdec::HwdecMode mode = app.decoding.hwdec ? app.decoding.hwdec->mode : hwdec::HwdecMode::no;
  const std::string name(hwdec::hwdec_name(mode));
  const bool on_gpu = app.transport.player.is_open() && app.transport.player.frame() && app.transport.player.frame()->device.memory != FrameMemory::host;
  if (on_gpu) return name + ": NVDEC, the frames stay on the GPU (upload = its copy into Vulkan memory)";
  return name + ": CPU decoding (FFmpeg)" + (app.decoding.note.empty() ? "" : ": " + app.decoding.note);
}

}  // namespace vhist::viewer
