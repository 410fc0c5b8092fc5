// The few JSON and number texts the header and summary writers share (records are written
// without a JSON library: a handful of strings and numbers).
#pragma once

#include <cstdio>
#include <string>

namespace vhist::app {

// A JSON string literal. Written here: the writer emits a handful of strings, and records are
// written without a JSON library too.
inline std::string quoted_json(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

inline std::string number(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace vhist::app
