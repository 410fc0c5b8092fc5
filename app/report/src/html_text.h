// Text for the HTML report: escaping of untrusted text, base64 for data: URIs, numbers and times.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vhist::report {

// `text` made safe as HTML text or a quoted attribute value: first util::printable (control
// characters, bytes that are not UTF-8 and bidirectional overrides become visible escapes), then
// & < > " ' as character references.
std::string escape(std::string_view text);

// RFC 4648 base64 with padding (no line breaks), for data: URIs. A dozen lines: no Debian
// package offers a C++ encoder worth a dependency.
std::string base64(std::string_view bytes);

// `value` with `digits` decimals ("%.*f", C locale's point).
std::string fixed(double value, int digits);

// A count with thin spaces between thousands ("180 000").
std::string grouped(std::int64_t value);

// Seconds as a time-axis label: "12 s" / "1.5 s" under a minute, "M:SS" under an hour, else
// "H:MM:SS"; `step` (the ticks' spacing) decides whether tenths are shown.
std::string time_label(double seconds, double step, double span);

// The pages' one style sheet (the report's and the batch index's).
const char* style_sheet();

// A duration for a person: "0.040 s", "12.5 s", "3 min 05 s", "1 h 02 min".
std::string duration_text(double seconds);

}  // namespace vhist::report
