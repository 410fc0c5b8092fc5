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
  // Split at the colons first: at most three fields, none empty.
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t colon = text.find(':', at);
    parts.emplace_back(text.substr(at, colon == std::string_view::npos ? std::string_view::npos : colon - at));
    if (parts.back().empty() || parts.size() > 3) return std::nullopt;
    if (colon == std::string_view::npos) break;
    at = colon + 1;
  }
  double total = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const bool first = i == 0, last = i + 1 == parts.size();
    // Hours and minutes are whole numbers; after a colon, minutes and seconds are below 60
    // ("1:99" is no time, not 159 s). The first field has no upper bound but the overall one.
    if (!last && part.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(part.c_str(), &end);
    if (errno != 0 || end != part.c_str() + part.size() || !(v >= 0) || v > 1e9) return std::nullopt;
    if (!first && !(v < 60)) return std::nullopt;
    total = total * 60 + v;
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

std::optional<std::array<std::uint32_t, 4>> parse_rect(std::string_view text) {
  std::array<std::uint32_t, 4> n{};
  std::size_t at = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t end = i < 3 ? text.find(',', at) : text.size();
    if (end == std::string_view::npos || at > text.size()) return std::nullopt;
    const auto value = parse_uint(text.substr(at, end - at), 0, 65535);
    if (!value || (i >= 2 && *value == 0)) return std::nullopt;
    n[i] = *value;
    at = end + 1;
  }
  return n;
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
