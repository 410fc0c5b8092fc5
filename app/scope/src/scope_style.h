// What `vhist scope` asks the FrameRenderer to draw: the viewer's DrawStyle with only the scope
// asked for (no video, no histograms), its drawing settings as given on the command line over
// their defaults, and what the PNG shows in words for stderr.
#pragma once

#include "vhist/command_line/scope_options.h"
#include "vhist/media/media_source.h"
#include "vhist/picture/draw_style.h"

#include <string>

namespace vhist::app {

// The style of the PNG: the whole target is the picture, and it holds the one scope.
viewer::DrawStyle scope_style(const ScopeOptions& options, const media::DecodedFrame& frame);

struct ScopeDescription {
  std::string text;  // "waveform (luma) of the whole frame; 1 plot column = 2 picture columns"
};
ScopeDescription describe_scope(const ScopeOptions& options, const media::DecodedFrame& frame);

}  // namespace vhist::app
