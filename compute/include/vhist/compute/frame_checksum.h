// The GPU pipeline's frame checksum (checksum.comp, FrameResult::checksum), defined in plain C++:
// for finding frozen frames, two sums modulo 2^32 of every sample of the frame (each component
// on its own grid, the code value without padding or unused bits) times odd multipliers that
// depend on the sample's position (measures_shared.h). Equal samples give equal checksums
// whatever the layout's strides and padding; a frame that differs in one sample always gives
// another checksum. Not the CPU engine's checksum (CpuEngine::Counts::checksum, XXH3 of the
// bytes): checksums are compared within one run of one engine.
#pragma once

#include "vhist/compute/video_frame.h"
#include "vhist/measures_shared.h"

#include <array>
#include <cstdint>

namespace vhist {

// The checksum of a frame of any model: sum 0 in the low 32 bits, sum 1 in the high 32.
// Throws std::invalid_argument when check_video_format() fails.
std::uint64_t reference_sample_checksum(const VideoFormat& format, const VideoPlanes& planes);

// The picture's cell sums (measures_shared.h): cell (cx, cy) at [cy * kCellColumns + cx], the
// sum of the code values of Y' (G' of R'G'B' frames) in it. Two frames of one picture that a
// lossy encoder made slightly different have nearly equal cell means; the GPU pipeline's cells
// pass and the CPU engine give this reference's sums exactly.
using CellSums = std::array<std::uint32_t, shader::kCellCount>;
CellSums reference_cell_sums(const VideoFormat& format, const VideoPlanes& planes);

// The checksum from the measures buffer's two sums (kMeasureChecksum).
inline std::uint64_t checksum_from_sums(std::uint32_t sum0, std::uint32_t sum1) {
  return std::uint64_t{sum0} | (std::uint64_t{sum1} << 32);
}

}  // namespace vhist
