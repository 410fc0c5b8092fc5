// Where a frame's colour description came from: for each of matrix, range, primaries, transfer
// and chroma siting, the value vhist used and whether the stream said so or vhist assumed it (by
// the rules in docs/colour.md), and the HDR metadata the stream carries (mastering display,
// content light level). Only matrix, range and siting change the numbers; primaries and transfer
// say how to read them. Plain data, no FFmpeg types: app/media fills
// it from the decoder's frame, the records and the viewer print it.
#pragma once

#include "vhist/compute/video_frame.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace vhist {

// Each part's values are enums; what decides behaviour (PQ or HLG, limited or full, the matrix)
// switches on them, never on text. Their identifiers (FFmpeg's names, as the records print them)
// and the words people read come from one table per enum: colour_names.h.

// The colour primaries, as ITU-T H.273 / FFmpeg list them; `other`: a value FFmpeg knows and
// vhist does not (printed "unknown").
enum class ColourPrimaries : std::uint8_t {
  bt709, bt470m, bt470bg, smpte170m, smpte240m, film, bt2020, smpte428, smpte431, smpte432, ebu3213, other
};
// The transfer characteristics (H.273 / FFmpeg); `other` as for the primaries. Only smpte2084
// (PQ) and arib_std_b67 (HLG) are HDR: `other` never is.
enum class ColourTransfer : std::uint8_t {
  bt709, gamma22, gamma28, smpte170m, smpte240m, linear, log100, log316, iec61966_2_4, bt1361e, iec61966_2_1,
  bt2020_10, bt2020_12, smpte2084, smpte428, arib_std_b67, other
};
// Where chroma samples sit (FFmpeg's chroma locations).
enum class ChromaSiting : std::uint8_t { left, center, topleft, top, bottomleft, bottom };
// Where a part's value came from. stream: the stream said so; format: the pixel format implies
// it (R'G'B' is full range, yuvj* too); assumed: the stream said nothing vhist follows
// (docs/colour.md's rules); not_applicable: the part does not apply (no matrix for R'G'B', no
// siting without subsampled chroma) and the tag has no value (printed "none").
enum class ColourSource : std::uint8_t { stream, format, assumed, not_applicable };

template <typename E>
struct ColourTag {
  E value{};           // what vhist used; meaningless when source is not_applicable
  ColourSource source = ColourSource::assumed;
  std::string tag;     // the stream's own tag when it gave one ("smpte170m"), as it said it, else empty

  bool applies() const { return source != ColourSource::not_applicable; }
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
  ColourTag<ColourMatrix> matrix;
  ColourTag<ColourRange> range;
  ColourTag<ColourPrimaries> primaries;
  ColourTag<ColourTransfer> transfer;
  ColourTag<ChromaSiting> chroma_location;
  std::optional<MasteringDisplay> mastering;
  std::optional<ContentLight> content_light;
};

}  // namespace vhist
