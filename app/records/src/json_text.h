// The few JSON and number texts the header and summary writers share (records are written
// without a JSON library: a handful of strings and numbers).
#pragma once

#include "vhist/util/text.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace vhist::app {

// A JSON string literal. Written here: the writer emits a handful of strings, and records are
// written without a JSON library too. JSON is UTF-8: a byte of `s` that is not part of
// well-formed UTF-8 (a file name in another encoding) is written as U+FFFD; control characters
// as \u00XX.
inline std::string quoted_json(const std::string& text) {
  const std::string s = util::valid_utf8(text);
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

// Text for a CSV comment line ("# ..."): one line whatever `text` holds (control characters
// escaped, util::printable), so that no name can start a row of its own.
inline std::string comment_text(std::string_view text) { return util::printable(text); }

// `text` as one CSV field (RFC 4180) on one line: escaped as comment_text, then in double quotes
// with each quote doubled when it has a comma, a quote or space at either end; else as it is.
inline std::string csv_field(std::string_view text) {
  const std::string s = comment_text(text);
  const bool quote = s.find_first_of(",\"") != std::string::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

inline std::string number(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace vhist::app
