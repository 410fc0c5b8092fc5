#include "html_text.h"

#include "vhist/util/text.h"

#include <cmath>
#include <cstdio>

namespace vhist::report {

std::string escape(std::string_view text) {
  const std::string safe = util::printable(text);
  std::string out;
  out.reserve(safe.size() + 16);
  for (const char c : safe) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t k = 0;
  for (; k + 3 <= bytes.size(); k += 3) {
    const std::uint32_t v = (std::uint32_t{static_cast<std::uint8_t>(bytes[k])} << 16) |
                            (std::uint32_t{static_cast<std::uint8_t>(bytes[k + 1])} << 8) |
                            std::uint32_t{static_cast<std::uint8_t>(bytes[k + 2])};
    out += kDigits[v >> 18];
    out += kDigits[(v >> 12) & 63];
    out += kDigits[(v >> 6) & 63];
    out += kDigits[v & 63];
  }
  const std::size_t rest = bytes.size() - k;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t{static_cast<std::uint8_t>(bytes[k])} << 16;
    if (rest == 2) v |= std::uint32_t{static_cast<std::uint8_t>(bytes[k + 1])} << 8;
    out += kDigits[v >> 18];
    out += kDigits[(v >> 12) & 63];
    out += rest == 2 ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, std::isfinite(value) ? value : 0.0);
  return buf;
}

std::string grouped(std::int64_t value) {
  const std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out = value < 0 ? "-" : "";
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += "\u2009";
    out += digits[k];
  }
  return out;
}

std::string time_label(double seconds, double step, double span) {
  char buf[48];
  if (span < 60) {
    std::snprintf(buf, sizeof buf, step < 1 ? "%.1f s" : "%.0f s", seconds);
    return buf;
  }
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (span < 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", whole / 60, whole % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", whole / 3600, (whole / 60) % 60, whole % 60);
  }
  return buf;
}

std::string duration_text(double seconds) {
  char buf[64];
  if (seconds < 10) {
    std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  } else if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  } else if (seconds < 3600) {
    const auto s = static_cast<long long>(std::llround(seconds));
    std::snprintf(buf, sizeof buf, "%lld min %02lld s", s / 60, s % 60);
  } else {
    const auto m = static_cast<long long>(std::llround(seconds / 60));
    std::snprintf(buf, sizeof buf, "%lld h %02lld min", m / 60, m % 60);
  }
  return buf;
}

}  // namespace vhist::report
