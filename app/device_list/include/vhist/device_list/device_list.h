// `vhist --list-devices` and `vhist-bench --list-devices`: the Vulkan devices the loader reports.
#pragma once

namespace vhist::cli {

// Prints every Vulkan device the loader reports, with whether vhist can use it, to stdout.
// Returns the process exit status.
int print_device_list();

}  // namespace vhist::cli
