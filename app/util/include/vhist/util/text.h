// Untrusted text (file names, segment names, settings values, metadata tags) made safe for where
// it goes: a terminal or log line (printable), or a format that must be valid UTF-8 (JSON).
// Pure functions; thread-safe. Also printf's text as a string (formatted).
#pragma once

#include <cstdarg>
#include <cstddef>
#include <string>
#include <string_view>

namespace vhist::util {

// The length of the well-formed UTF-8 sequence at the start of `text` (1 to 4) and its code
// point in `code`; 0 when the bytes there are no such sequence (a stray continuation byte, a
// truncated sequence, an overlong form, a surrogate, above U+10FFFF), or `text` is empty.
std::size_t utf8_sequence(std::string_view text, char32_t& code);

// `text` as one printable line that cannot act on a terminal:
//   "\n", "\r", "\t" for those; "\xHH" for other control characters (C0, DEL) and for each byte
//   that is not part of well-formed UTF-8 (0xFF -> "\xff"); "\uHHHH" for C1 controls
//   (U+0080..U+009F) and the bidirectional overrides and isolates (U+202A..U+202E,
//   U+2066..U+2069), which could make a name read as another.
// Everything else (printable ASCII, a backslash included, and well-formed UTF-8) is kept. So
// printable(printable(t)) == printable(t): a message may be passed through it at every level
// (a quoted name, then the whole line at the terminal) without escapes piling up. The escapes
// are for reading: a literal "\n" in a name reads the same as a newline.
std::string printable(std::string_view text);

// `text` with each byte that is not part of well-formed UTF-8 replaced by U+FFFD (the
// replacement character); well-formed text is returned unchanged. For JSON, which must be UTF-8.
std::string valid_utf8(std::string_view text);

// printf's text for `format` and its arguments as a string, however long (vformatted: from a
// va_list, which it leaves unread: it works on a copy).
__attribute__((format(printf, 1, 2))) std::string formatted(const char* format, ...);
__attribute__((format(printf, 1, 0))) std::string vformatted(const char* format, std::va_list args);

}  // namespace vhist::util
