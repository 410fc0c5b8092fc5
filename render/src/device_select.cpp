#include "vhist/render/device_select.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace vhist::render {

std::string_view device_kind_name(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::discrete: return "discrete GPU";
    case DeviceKind::integrated: return "integrated GPU";
    case DeviceKind::virtual_gpu: return "virtual GPU";
    case DeviceKind::cpu: return "CPU";
    case DeviceKind::other: return "other";
  }
  return "other";
}

std::string api_version_string(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

bool device_usable(const DeviceDescription& d) {
  return d.api_version >= VK_API_VERSION_1_3 && d.has_compute_queue && d.has_required_features;
}

namespace {

int kind_rank(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::discrete: return 0;
    case DeviceKind::integrated: return 1;
    case DeviceKind::virtual_gpu: return 2;
    case DeviceKind::cpu: return 3;
    case DeviceKind::other: return 4;
  }
  return 4;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string why_unusable(const DeviceDescription& d) {
  if (d.api_version < VK_API_VERSION_1_3) return "Vulkan " + api_version_string(d.api_version) + " < 1.3";
  if (!d.has_compute_queue) return "no compute queue";
  if (!d.has_required_features) return "lacks bufferDeviceAddress, synchronization2, maintenance4 or timestamps";
  return "usable";
}

std::string found_list(const std::vector<DeviceDescription>& devices) {
  if (devices.empty()) return "no Vulkan devices at all";
  std::string s;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i) s += ", ";
    s += "[" + std::to_string(i) + "] " + devices[i].name + " " + api_version_string(devices[i].api_version);
    if (!device_usable(devices[i])) s += " (" + why_unusable(devices[i]) + ")";
  }
  return s;
}

}  // namespace

DeviceChoice choose_device(const std::vector<DeviceDescription>& devices, std::string_view selector) {
  DeviceChoice choice;
  if (selector.empty()) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (!device_usable(devices[i])) continue;
      if (choice.index < 0 || kind_rank(devices[i].kind) < kind_rank(devices[static_cast<std::size_t>(choice.index)].kind)) {
        choice.index = static_cast<int>(i);
      }
    }
    if (choice.index < 0) {
      choice.error = "No Vulkan 1.3 device found (found: " + found_list(devices) +
                     "). Install a Vulkan 1.3 driver (for a CPU device: apt-get install mesa-vulkan-drivers).";
    }
    return choice;
  }

  const bool is_index = std::all_of(selector.begin(), selector.end(), [](unsigned char c) { return std::isdigit(c); });
  if (is_index) {
    std::size_t index = 0;
    const auto [ptr, ec] = std::from_chars(selector.data(), selector.data() + selector.size(), index);
    if (ec != std::errc{} || index >= devices.size()) {
      choice.error = "Device index " + std::string(selector) + " does not exist (found: " + found_list(devices) +
                     "). Run 'vhist --list-devices' to see the indices.";
    } else if (!device_usable(devices[index])) {
      choice.error = "Device " + std::string(selector) + " (" + devices[index].name + ") cannot run vhist: " +
                     why_unusable(devices[index]) + ". Pick another with --device or VHIST_DEVICE.";
    } else {
      choice.index = static_cast<int>(index);
    }
    return choice;
  }

  const std::string needle = lower(selector);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (lower(devices[i].name).find(needle) == std::string::npos) continue;
    if (device_usable(devices[i])) {
      choice.index = static_cast<int>(i);
      return choice;
    }
    choice.error = "Device '" + devices[i].name + "' matches '" + std::string(selector) + "' but cannot run vhist: " +
                   why_unusable(devices[i]) + ".";
  }
  if (choice.error.empty()) {
    choice.error = "No Vulkan device name contains '" + std::string(selector) + "' (found: " + found_list(devices) +
                   "). Run 'vhist --list-devices'.";
  }
  return choice;
}

}  // namespace vhist::render
