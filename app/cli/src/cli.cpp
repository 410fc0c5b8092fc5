#include "vhist/cli/cli.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>

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

}  // namespace vhist::cli
