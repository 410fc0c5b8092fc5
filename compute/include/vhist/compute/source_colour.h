// Where a frame's colour description came from: for each of matrix, range, primaries, transfer
// and chroma siting, the value vhist used and whether the stream said so or vhist assumed it (by
// the rules in docs/colour.md), and the HDR metadata the stream carries (mastering display,
// content light level). Only matrix, range and siting change the numbers; primaries and transfer
// say how to read them. Plain data, no FFmpeg types: app/media fills
// it from the decoder's frame, the records and the viewer print it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace vhist {

struct ColourTag {
  std::string value;   // what vhist used: "bt709", "limited", "smpte2084", "left", "none", ...
  // "stream": the stream said so; "format": the pixel format implies it (R'G'B' is full range,
  // yuvj* too); "assumed": the stream said nothing vhist follows (docs/colour.md's rules);
  // "n/a": it does not apply (no matrix for R'G'B', no siting without subsampled chroma).
  std::string source;
  std::string tag;     // the stream's own tag when it gave one ("smpte170m"), else empty
};

// SMPTE ST 2086: the display the content was mastered on.
struct MasteringDisplay {
  std::array<std::array<double, 2>, 3> primaries{};  // CIE 1931 xy of R, G, B
  std::array<double, 2> white{};                      // xy
  double min_luminance = 0, max_luminance = 0;        // cd/m2
};

// CTA-861.3: the brightest pixel (MaxCLL) and the brightest frame average (MaxFALL), cd/m2.
struct ContentLight {
  std::uint32_t max_cll = 0, max_fall = 0;
};

struct SourceColour {
  ColourTag matrix, range, primaries, transfer, chroma_location;
  std::optional<MasteringDisplay> mastering;
  std::optional<ContentLight> content_light;
};

}  // namespace vhist
