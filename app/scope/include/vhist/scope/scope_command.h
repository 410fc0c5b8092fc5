// `vhist scope`: one frame of a video file drawn as a scope into a PNG (scope_options.h has the
// command line). The frame is the first whose time is at or after --at; it is converted and
// counted by the engine and drawn by the viewer's FrameRenderer (the compute composite, the
// same passes and drawing as the window's scopes) into an offscreen RGBA8 buffer, read back and
// written as PNG through a temporary file renamed over -o (or to standard output).
#pragma once

#include "vhist/command_line/scope_options.h"

namespace vhist::app {

// Returns the exit status: 0 the PNG was written; 1 no usable Vulkan device, or the PNG could
// not be written; 2 bad input (unreadable file, --at past the end, --roi outside the frame, a
// Y'CbCr parade of an R'G'B' source, -o naming the input). Messages go to stderr, one line each.
int run_scope(const ScopeOptions& options);

}  // namespace vhist::app
