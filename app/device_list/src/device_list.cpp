// print_device_list (cli.h): apart from the value parsers, which need no Vulkan.
#include "vhist/device_list/device_list.h"
#include "vhist/cli/cli.h"

#include "vhist/render/context.h"

#include <cstdio>
#include <exception>
#include <string>

namespace vhist::cli {

int print_device_list() {
  try {
    const auto devices = render::Context::list_devices();
    if (devices.empty()) {
      std::printf("No Vulkan devices found. Install a Vulkan driver (for a CPU device: apt-get install "
                  "mesa-vulkan-drivers).\n");
      return 1;
    }
    const auto choice = render::choose_device(devices, "");
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const auto& d = devices[i];
      std::printf("[%zu] %s\n    type: %s, Vulkan %s, driver: %s%s%s\n", i, d.name.c_str(),
                  std::string(render::device_kind_name(d.kind)).c_str(), render::api_version_string(d.api_version).c_str(),
                  d.driver.c_str(), render::device_usable(d) ? "" : " (not usable by vhist)",
                  static_cast<int>(i) == choice.index ? " (default)" : "");
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist: %s\n", e.what());
    return 1;
  }
}

}  // namespace vhist::cli
