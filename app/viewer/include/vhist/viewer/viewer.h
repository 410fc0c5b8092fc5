// The viewer: `vhist [INPUT] [options]` opens a window and plays INPUT (the bundled demo clip
// without one) with its R, G, B and luma histograms drawn over the video.
#pragma once

#include "vhist/command_line/viewer_options.h"

namespace vhist::viewer {

// Runs the viewer with the options of its command line (viewer_options.h); the settings file
// is read first and the command line's settings applied over it. Returns the exit status: 0;
// 1 no window or no usable Vulkan device (or validation messages); 2, with --frames or
// --quit-after, when the input given could not be played.
int run_viewer(const ViewerOptions& options);

}  // namespace vhist::viewer
