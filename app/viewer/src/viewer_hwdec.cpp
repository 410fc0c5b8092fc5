#include "viewer_hwdec.h"

#include "vhist/util/text.h"

#include <cstdio>
#include <cstdlib>

namespace vhist::viewer {

namespace {

// The CPU decodes the file just opened: keep why, to be said by announce_decoder().
void decode_on_cpu(App& app, const std::string& why) {
  app.decoding.note = why;
  app.decoding.unsaid = true;
}

// What the viewer's Hwdec tells hwdec::choose_decoding(): its mode and the device's reason, the
// engine's already in it (open_viewer_hwdec); the mode `no` without one.
hwdec::DecodeFacts viewer_facts(const App& app) {
  return app.decoding.hwdec ? hwdec::device_facts(*app.decoding.hwdec) : hwdec::DecodeFacts{};
}

}  // namespace

Engine viewer_engine(const render::Context& context) {
  EngineChoice choice = EngineChoice::automatic;
  if (const char* engine = std::getenv("VHIST_ENGINE")) choice = parse_engine_choice(engine).value_or(choice);
  return choose_engine(context.description().kind, choice);
}

hwdec::Hwdec open_viewer_hwdec(hwdec::HwdecMode mode, const render::Context& context, Engine engine) {
  hwdec::Hwdec hw = hwdec::open_hwdec(mode, context);
  // The device's and the engine's reasons hold for every file: asked once, without a codec, and
  // kept as the Hwdec's reason (NVDEC given up) for open_player().
  hwdec::DecodeFacts facts = hwdec::device_facts(hw);
  facts.host_engine = engine == Engine::cpu;
  if (const hwdec::DecodeChoice choice = hwdec::choose_decoding(facts); !choice.nvdec) hw.refuse(choice.reason);
  return hw;
}

namespace {

// Opens the file on NVDEC where --hwdec takes it; returns why the CPU decodes it ("" when NVDEC
// does, or with --hwdec no). `watch`: NVDEC's own check comes with the first frame. Throws
// media::MediaError for bad input before anything of the open file changed.
std::string open_decoder(App& app, const std::string& path, int stream, bool& watch) {
  // The codec is known once the file is open: the rule is asked first without it (whether to
  // open on NVDEC at all), then with it.
  hwdec::DecodeFacts facts = viewer_facts(app);
  if (hwdec::DecodeChoice choice = hwdec::choose_decoding(facts); !choice.nvdec) {
    app.transport.player.open(path, stream);
    return choice.reason;
  }
  const hwdec::Hwdec& hw = *app.decoding.hwdec;
  try {
    app.transport.player.open(path, stream, hw.cuda_context(), hw.cuda_stream());
  } catch (const media::MediaError& e) {
    app.transport.player.open(path, stream);  // bad input throws again here, in the CPU decoder's words
    return hwdec::open_failed_reason(e.what());
  }
  const media::MediaInfo info = app.transport.player.info();
  facts.codec = info.codec;
  if (hwdec::DecodeChoice choice = hwdec::choose_decoding(facts); !choice.nvdec) {
    app.transport.player.open(path, stream);  // the NVDEC source goes once this one is open
    return choice.reason;
  }
  if (info.hwaccel.empty()) return hwdec::not_taken_reason(app.transport.player.report().hw_fallback);
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
  hwdec::DecodeFacts facts = viewer_facts(app);
  facts.camera = true;
  if (const hwdec::DecodeChoice choice = hwdec::choose_decoding(facts); !choice.reason.empty()) decode_on_cpu(app, choice.reason);
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
  decode_on_cpu(app, hwdec::not_taken_reason(app.transport.player.report().hw_fallback));
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
