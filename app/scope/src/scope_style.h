// What `vhist scope` asks the FrameRenderer to draw: the viewer's DrawStyle with only the scope
// asked for, filling the PNG (DrawStyle::scopes_only; no video, no histograms), its drawing
// settings as given on the command line over their defaults, and what the PNG shows in words.
#pragma once

#include "vhist/command_line/scope_options.h"
#include "vhist/media/media_source.h"
#include "vhist/picture/draw_style.h"

#include <string>

namespace vhist::app {

// The style of the PNG: the whole target holds the one scope.
viewer::DrawStyle scope_style(const ScopeOptions& options, const media::DecodedFrame& frame);

// What is counted, in words: "the whole frame (1920x1080)", "--roi 0,0,960,540 (960x540 stored
// pixels)".
std::string region_text(const ScopeOptions& options, const VideoFormat& format);

}  // namespace vhist::app
