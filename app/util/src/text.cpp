#include "vhist/util/text.h"

#include <cstdio>

namespace vhist::util {

namespace {

// "\xHH" (`hex_digits` 2) or "\uHHHH" (4).
void append_escape(std::string& out, char kind, int hex_digits, unsigned value) {
  constexpr char kHex[] = "0123456789abcdef";
  out += '\\';
  out += kind;
  for (int shift = 4 * (hex_digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xf];
}

// Code points that change how a terminal or a line of text behaves or reads.
bool escaped_code_point(char32_t c) {
  return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

}  // namespace

std::size_t utf8_sequence(std::string_view text, char32_t& code) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned lead = byte(0);
  if (lead < 0x80) {
    code = lead;
    return 1;
  }
  std::size_t length = 0;
  char32_t min = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, min = 0x80, code = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3, min = 0x800, code = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, min = 0x10000, code = lead & 0x07;
  } else {
    return 0;  // a continuation byte, 0xc0/0xc1 (always overlong) or 0xf5..0xff
  }
  if (text.size() < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    char32_t code = 0;
    const std::size_t n = utf8_sequence(text, code);
    if (n == 0) {
      append_escape(out, 'x', 2, static_cast<unsigned char>(text.front()));
      text.remove_prefix(1);
      continue;
    }
    if (code == '\n') {
      out += "\\n";
    } else if (code == '\r') {
      out += "\\r";
    } else if (code == '\t') {
      out += "\\t";
    } else if (code < 0x20 || code == 0x7f) {
      append_escape(out, 'x', 2, static_cast<unsigned>(code));
    } else if (escaped_code_point(code)) {
      append_escape(out, 'u', 4, static_cast<unsigned>(code));
    } else {
      out.append(text.substr(0, n));
    }
    text.remove_prefix(n);
  }
  return out;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    char32_t code = 0;
    const std::size_t n = utf8_sequence(text, code);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      text.remove_prefix(1);
    } else {
      out.append(text.substr(0, n));
      text.remove_prefix(n);
    }
  }
  return out;
}

std::string vformatted(const char* format, std::va_list args) {
  std::va_list measure, write;
  va_copy(measure, args);
  const int n = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  if (n <= 0) return {};
  std::string text(static_cast<std::size_t>(n) + 1, '\0');
  va_copy(write, args);
  std::vsnprintf(text.data(), text.size(), format, write);
  va_end(write);
  text.pop_back();  // vsnprintf's terminating zero
  return text;
}

std::string formatted(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::string text = vformatted(format, args);
  va_end(args);
  return text;
}

}  // namespace vhist::util
