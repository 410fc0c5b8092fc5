// --hwdec in the viewer (hwdec_mode.h: mpv's spelling and meaning). When NVDEC is usable for the
// Vulkan device (an NVIDIA GPU whose CUDA device has the same UUID) and the GPU engine draws, a
// file is opened on its CUDA context and stream: its frames stay in GPU memory and go to the
// picture through the CUDA importer (FrameRenderer::set_import), never through host memory.
// Otherwise the CPU decodes, and the viewer says why: on stderr, on the OSD, and in the panel's
// decoder line ("decoder h264 (CPU; --hwdec auto: ...)"; "decoder hevc (nvdec)" on NVDEC).
#pragma once

#include "viewer_app.h"

#include "vhist/compute/engine_choice.h"
#include "vhist/hwdec/hwdec.h"
#include "vhist/render/context.h"

#include <string>

namespace vhist::viewer {

// Who converts and counts: choose_engine() decides (the CPU engine on a CPU Vulkan device);
// VHIST_ENGINE=gpu|cpu|auto overrides it (the tests run both). An unknown value is ignored.
Engine viewer_engine(const render::Context& context);

// Decides --hwdec for `context` (made with hwdec::device_extensions() as optional extensions
// when `mode` is not `no`) and the viewer's engine by hwdec::choose_decoding(), the rule
// `vhist analyze` applies: the CPU engine reads host memory, so NVDEC is refused with it.
hwdec::Hwdec open_viewer_hwdec(hwdec::HwdecMode mode, const render::Context& context, Engine engine);

// Opens the file `path` in app.transport.player, on NVDEC when app.decoding.hwdec is usable and
// hwdec::choose_decoding() takes the stream's codec; else on the CPU with the reason kept for
// announce_decoder() and the panel.
// Throws media::MediaError for bad input, as Player::open.
void open_player(App& app, const std::string& path, int stream);
// A camera was opened: its frames are not decoded by NVDEC (said when --hwdec is not `no`).
void note_camera_decoding(App& app);
// Says why the file just opened is decoded on the CPU (stderr and OSD) when --hwdec asked for
// NVDEC; nothing otherwise.
void announce_decoder(App& app);
// After a new frame: NVDEC's own check of the stream comes with the first frame; when that
// frame came from the CPU all the same, says why, once per file.
void watch_decode_path(App& app, const media::DecodedFrame& frame);
// The panel's line: "decoder hevc (nvdec)", "decoder h264 (CPU; --hwdec auto: why)"; empty with
// --hwdec no or no frame.
std::string decoder_line(const App& app);

// The stats page's words for the path: "no: CPU decoding (FFmpeg)", "nvdec: NVDEC, the frames
// stay on the GPU (upload = its copy into Vulkan memory)", "auto: CPU decoding (FFmpeg): why".
std::string hardware_decoding_text(const App& app);

}  // namespace vhist::viewer
