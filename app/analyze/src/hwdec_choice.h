// --hwdec for `vhist analyze`: whether this run decodes on NVDEC, said on stderr, and the input
// reopened on it when it does (the input is opened on the CPU first, so that bad input is
// reported before any device starts).
#pragma once

#include "vhist/command_line/analyze_options.h"
#include "vhist/hwdec/hwdec.h"
#include "vhist/media/media_source.h"
#include "vhist/render/context.h"

#include <memory>
#include <string>

namespace vhist::app {

// The input's source options (start, stream), with the CUDA context and stream of `hw` when it
// is usable.
media::SourceOptions source_options(const AnalyzeOptions& options, const hwdec::Hwdec& hw);

// Whether the engine analyze will use reads frames in host memory (the CPU engine).
bool engine_reads_host(const AnalyzeOptions& options, const render::Context& context);

// Decides --hwdec by hwdec::choose_decoding() for `context` (made with hwdec::device_extensions()
// as optional extensions), the engine (`engine_reads_host`: the CPU engine, which reads host
// memory) and the input. When NVDEC takes it, `source` is reopened on it. When it does not, says
// why on stderr (auto: a note; nvdec: a warning, and the CPU decodes, as mpv does). Throws
// media::MediaError when the input does not open again on the CPU.
hwdec::Hwdec choose_hwdec(const AnalyzeOptions& options, const render::Context& context, bool engine_reads_host,
                          std::unique_ptr<media::MediaSource>& source);

// The decoder's name for the provenance header and messages: "hevc (nvdec)" for a frame decoded
// on NVDEC, else the FFmpeg decoder's name.
std::string decoder_name(const media::MediaInfo& info, const media::DecodedFrame& frame);

// What to say when the frames' path differs from what was asked, once per change: the first
// frame on the CPU though NVDEC was set up, or a later frame on another path than the first.
// Returns the line ("" when nothing is to be said).
std::string path_change(const media::MediaInfo& info, const media::DecodeReport& report,
                        const media::DecodedFrame& frame, bool first, bool first_on_gpu);

}  // namespace vhist::app
