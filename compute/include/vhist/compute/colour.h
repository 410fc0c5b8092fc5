// The conversion of decoded frames (any VideoFormat) to the R'G'B' frames the histogram engine
// counts: the fixed-point coefficients (one definition, used by the GPU pass, the CPU engine and
// the reference) and the CPU reference conversion. docs/colour.md explains the arithmetic.
#pragma once

#include "vhist/compute/histogram_types.h"
#include "vhist/compute/video_frame.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vhist {

// Integer coefficients of the conversion of one format (see colour_shared.h for their use).
// For rgb sources they are unused; for gray only cy and yoff matter (full range: identity).
struct ConversionCoefficients {
  std::int32_t cy = 0;   // Y' gain, scaled by 2^shift
  std::int32_t crv = 0;  // Cr -> R'
  std::int32_t cgu = 0;  // Cb -> G' (subtracted)
  std::int32_t cgv = 0;  // Cr -> G' (subtracted)
  std::int32_t cbu = 0;  // Cb -> B'
  std::int32_t yoff = 0;   // Y' code of black
  std::int32_t coff8 = 0;  // chroma code of zero, x8
  std::int32_t shift = 0;  // S
  std::int32_t max_code = 0;  // 2^bits - 1
  bool operator==(const ConversionCoefficients&) const = default;
};

// The coefficients for `bits`-bit samples of the given matrix and range. Computed in double
// from the standards' Kr and Kb and rounded to nearest once; the GPU and CPU paths both take
// their integers from here.
ConversionCoefficients conversion_coefficients(ColourMatrix matrix, ColourRange range, std::uint32_t bits);

// The R'G'B' frame a video frame converts to: same size and depth; rgba8 for 8-bit sources,
// rgba16 (bits = source depth) for deeper ones.
FrameFormat converted_format(const VideoFormat& format);

// Reads the code value of sample (x, y) of component c (on that component's own grid).
std::uint32_t read_sample(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t c, std::uint32_t x,
                          std::uint32_t y);

// The CPU reference: converts a whole frame, pixel by pixel, into converted_format(format)
// (tightly packed; alpha set to the maximum code). Throws std::invalid_argument when
// check_video_format() fails.
std::vector<std::byte> reference_convert(const VideoFormat& format, const VideoPlanes& planes);

// The R'G'B' of pixel (x, y), as the reference computes it.
struct Rgb {
  std::uint32_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};
Rgb reference_pixel(const VideoFormat& format, const VideoPlanes& planes, const ConversionCoefficients& k,
                    std::uint32_t x, std::uint32_t y);
// The same before the clamp to the code range 0..2^bits - 1: the matrix's values
// (vhist_yuv_component_unclamped), which out-of-gamut Y'CbCr takes outside it; an R'G'B'
// frame's samples and a full-range gray frame's Y' as they are.
struct RgbUnclamped {
  std::int32_t r = 0, g = 0, b = 0;
  bool operator==(const RgbUnclamped&) const = default;
};
RgbUnclamped reference_pixel_unclamped(const VideoFormat& format, const VideoPlanes& planes,
                                       const ConversionCoefficients& k, std::uint32_t x, std::uint32_t y);

}  // namespace vhist
