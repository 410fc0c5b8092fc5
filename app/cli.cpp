#include "cli.h"

// The fuzzer builds the parsers alone (fuzz/), without Vulkan.
#ifndef VHIST_CLI_PARSERS_ONLY
#include "vhist/render/context.h"
#endif

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>
#include <cstdio>
#include <exception>

namespace vhist::cli {

std::optional<std::uint32_t> parse_uint(std::string_view text, std::uint32_t min, std::uint32_t max) {
  std::uint32_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> parse_time(std::string_view text) {
  double total = 0;
  int fields = 0;
  std::size_t at = 0;
  while (true) {
    const std::size_t colon = text.find(':', at);
    const std::string part(text.substr(at, colon == std::string_view::npos ? std::string_view::npos : colon - at));
    if (part.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(part.c_str(), &end);
    if (errno != 0 || end != part.c_str() + part.size() || !(v >= 0) || v > 1e9) return std::nullopt;
    total = total * 60 + v;
    if (++fields > 3) return std::nullopt;
    if (colon == std::string_view::npos) break;
    at = colon + 1;
  }
  return total;
}

std::optional<double> parse_rate(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || errno != 0 || end != s.c_str() + s.size() || !(v > 0) || v > 1000) return std::nullopt;
  return v;
}

std::optional<double> parse_fraction(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || errno != 0 || end != s.c_str() + s.size() || !(v >= 0) || v > 1) return std::nullopt;
  return v;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_size(std::string_view text) {
  const auto x = text.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const auto w = parse_uint(text.substr(0, x), 1, 1u << 20);
  const auto h = parse_uint(text.substr(x + 1), 1, 1u << 20);
  if (!w || !h) return std::nullopt;
  return std::pair{*w, *h};
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto item = text.substr(0, comma);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

#ifndef VHIST_CLI_PARSERS_ONLY
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
#endif

}  // namespace vhist::cli
