// Colour descriptions as people say them, for every text a person reads (the viewer's panel,
// picture and OSD, analyze's messages): "smpte2084" -> "PQ", "arib-std-b67" -> "HLG",
// "bt2020nc" -> "BT.2020", "iec61966-2-1" -> "sRGB". The identifiers themselves (vhist's and
// FFmpeg's, as SourceColour holds them) stay in the provenance records (analyze's header and CSV
// comment lines), which scripts read. Plain C++.
#pragma once

#include "vhist/compute/source_colour.h"

#include <string>
#include <string_view>

namespace vhist {

enum class ColourPart { matrix, range, primaries, transfer, chroma_location };

// `value` (an identifier of `part`) as people say it; an identifier it does not know, as it is.
std::string spoken_colour(ColourPart part, std::string_view value);

// The colour a frame is read with in a few words: "BT.2020 limited, PQ" (matrix, range,
// transfer), "sRGB R'G'B' full" for a picture without a matrix, with the primaries when they
// are not the matrix's own ("BT.709 limited, BT.709, primaries BT.2020").
std::string spoken_colour_summary(const SourceColour& colour);

}  // namespace vhist
