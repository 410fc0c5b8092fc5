// The viewer: `vhist [INPUT] [options]` opens a window and plays INPUT (the bundled demo clip
// without one) with its R, G, B and luma histograms drawn over the video.
#pragma once

namespace vhist::viewer {

// argv as given to `vhist` (argv[0] the program). Returns the exit status: 0; 1 no window or
// no usable Vulkan device (or validation messages); 2 bad usage, or, with --frames, when the
// input given could not be played.
int run_viewer(int argc, char** argv);

// The options text for `vhist --help`.
const char* viewer_usage();

}  // namespace vhist::viewer
