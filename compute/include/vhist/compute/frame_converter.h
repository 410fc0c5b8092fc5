// The GPU convert pass: decoded planes in GPU memory -> the R'G'B' frame the histogram engine
// counts (converted_format()). The arithmetic is the CPU reference's (colour_shared.h), so the
// result equals reference_convert() exactly.
#pragma once

#include "vhist/compute/colour.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace vhist {

// Where the planes of one frame are in GPU memory: a 4-byte aligned device address and the
// row stride of each plane.
struct GpuPlanes {
  std::array<VkDeviceAddress, 3> address{};
  std::array<std::uint32_t, 3> stride{};
};

class FrameConverter {
 public:
  explicit FrameConverter(render::Context& context);

  // Empty when the pass can convert such a frame with these strides; else the reason.
  std::string check(const VideoFormat& format, const std::array<std::uint32_t, 3>& strides) const;

  // Records the conversion into `dst` (converted_format(format).byte_size() bytes). With
  // `measures` (not 0; a Y'CbCr or gray frame) the pass also adds the frame's gamut counts
  // (reference_gamut's) into that measures buffer's words (measures_shared.h), which must be
  // zeroed and visible to compute reads and writes. Before: the planes' writes visible to
  // compute-shader reads. After: dst (and the measures) written by the compute stage. Throws
  // std::invalid_argument when check() fails, or for the gamut of an R'G'B' frame.
  void record(VkCommandBuffer cmd, const VideoFormat& format, const GpuPlanes& planes, VkDeviceAddress dst,
              VkDeviceAddress measures = 0) const;

 private:
  const render::ComputePipeline& gamut_pipeline() const;  // created on first use

  render::Context& context_;
  render::ComputePipeline pipeline_;
  mutable std::unique_ptr<render::ComputePipeline> gamut_pipeline_;
};

// Plane layout for uploads: where plane p of a frame starts in one buffer, each plane aligned
// to 256 bytes, rows at the source's strides. total is the bytes needed (padded so that the
// shader's 4-byte reads stay inside).
struct PlaneOffsets {
  std::array<std::uint64_t, 3> offset{};
  std::array<std::uint64_t, 3> bytes{};
  std::uint64_t total = 0;
};
PlaneOffsets plane_offsets(const VideoFormat& format, const std::array<std::uint32_t, 3>& strides);

// Copies the planes into `dst` (host memory laid out as plane_offsets() says).
void copy_planes(const VideoFormat& format, const VideoPlanes& planes, const PlaneOffsets& layout, std::byte* dst);

}  // namespace vhist
