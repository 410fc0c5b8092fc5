// The CPU reference: the histogram and scale definitions in plain C++, written independently of
// the shaders but from the same integer definitions (vhist/shader_shared.h), so the GPU results
// must equal these bit for bit. Single-threaded and simple on purpose.
#pragma once

#include "vhist/compute/histogram_types.h"

#include <cstdint>
#include <span>

namespace vhist {

// Histogram of a frame laid out as `format` describes; `pixels` holds format.byte_size() bytes.
Histogram reference_histogram(std::span<const std::byte> pixels, const FrameFormat& format, std::uint32_t bins);

// The scale pass: scale = max(1 / max_count, bins / (5 * pixels)), each quotient rounded once
// to the nearest float (ties to even).
Scale reference_scale(const Histogram& histogram, std::uint64_t pixel_count);

// n / d correctly rounded to binary32. Computed in double and narrowed: both steps round to
// nearest, and double (53 bits) is wide enough that the double rounding never differs from a
// single rounding for a quotient (53 >= 2 * 24 + 2).
float quotient_rn(std::uint32_t n, std::uint32_t d);

}  // namespace vhist
