// The names of the colour description's enums (source_colour.h), from one table per enum:
// each value's identifier, which the provenance records (analyze's header and CSV comment lines)
// carry and scripts read ("smpte2084", "bt470bg", "limited", "assumed": FFmpeg's names where
// FFmpeg has the value, vhist's own for its matrices), and the words people read in the viewer's
// panel, picture and OSD and analyze's messages ("PQ", "BT.601 625-line (PAL)"). Plain C++.
#pragma once

#include "vhist/compute/source_colour.h"

#include <optional>
#include <string>
#include <string_view>

namespace vhist {

// A value's identifier: "bt601"; "limited"; "smpte432"; "smpte2084", "bt470m" (FFmpeg's name of
// gamma 2.2), "unknown" for ColourTransfer::other; "left"; "stream", "n/a".
std::string_view colour_id(ColourMatrix v);
std::string_view colour_id(ColourRange v);
std::string_view colour_id(ColourPrimaries v);
std::string_view colour_id(ColourTransfer v);
std::string_view colour_id(ChromaSiting v);
std::string_view colour_id(ColourSource v);

// The value as people say it: "BT.601", "limited", "Display P3", "PQ", "gamma 2.2", "left".
std::string_view spoken_colour(ColourMatrix v);
std::string_view spoken_colour(ColourRange v);
std::string_view spoken_colour(ColourPrimaries v);
std::string_view spoken_colour(ColourTransfer v);
std::string_view spoken_colour(ChromaSiting v);

// The value of E whose identifier is `id` (the inverse of colour_id); none for an identifier the
// table does not have. Defined for the six enums above.
template <typename E>
std::optional<E> colour_from_id(std::string_view id);

// A part that does not apply has no value: "none", and for the matrix, said "none (R'G'B')".
inline std::string_view spoken_none(ColourMatrix) { return "none (R'G'B')"; }
template <typename E>
std::string_view spoken_none(E) { return "none"; }

// A tag's identifier and spoken name, "none" when its part does not apply.
template <typename E>
std::string_view colour_id(const ColourTag<E>& t) {
  return t.applies() ? colour_id(t.value) : "none";
}
template <typename E>
std::string_view spoken_colour(const ColourTag<E>& t) {
  return t.applies() ? spoken_colour(t.value) : spoken_none(t.value);
}

// The colour a frame is read with in a few words: "BT.2020 limited, PQ" (matrix, range,
// transfer), "sRGB R'G'B' full" for a picture without a matrix, with the primaries when they
// are not the matrix's own ("BT.709 limited, BT.709, primaries BT.2020").
std::string spoken_colour_summary(const SourceColour& colour);

}  // namespace vhist
