// Choosing a physical device. Pure logic over plain descriptions, so it is unit-tested without
// a GPU; Context feeds it what the Vulkan loader reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::render {

enum class DeviceKind { discrete, integrated, virtual_gpu, cpu, other };

std::string_view device_kind_name(DeviceKind kind);

struct DeviceDescription {
  std::string name;
  DeviceKind kind = DeviceKind::other;
  std::uint32_t api_version = 0;  // VK_MAKE_API_VERSION encoding
  std::string driver;             // "NVIDIA 580.159.04", "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)"
  bool has_compute_queue = false;
  bool has_required_features = false;  // Vulkan 1.3 core features vhist needs (see Context)
};

// "1.3.230"
std::string api_version_string(std::uint32_t api_version);

// A device can run vhist: Vulkan 1.3, a compute queue, the required features.
bool device_usable(const DeviceDescription& device);

struct DeviceChoice {
  int index = -1;         // into the list given to choose_device; -1 when none
  std::string error;      // set when index == -1: what was found and what to do
};

// Picks a device. With an empty `selector`: the first usable discrete GPU, else integrated,
// virtual, CPU, other. A selector of digits picks that index of the list; any other selector
// picks the first usable device whose name contains it (case-insensitive).
DeviceChoice choose_device(const std::vector<DeviceDescription>& devices, std::string_view selector);

}  // namespace vhist::render
