#include "vhist/compute/frame_converter.h"

#include "plane_push.h"

#include "vhist/colour_shared.h"
#include "vhist/compute_push.h"
#include "vhist/shaders/convert.spv.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace vhist {

namespace {

// The push constants, declared once for convert.comp and this code (compute_push.h). The range
// ends with the last field (C++ pads the struct to a multiple of 8).
using shader::ConvertPush;
constexpr std::uint32_t kConvertPushBytes = offsetof(ConvertPush, shift) + sizeof(std::int32_t);
static_assert(kConvertPushBytes == 108);

constexpr std::uint64_t kPlaneAlignment = 256;

}  // namespace

FrameConverter::FrameConverter(render::Context& context)
    : context_(context), pipeline_(context, convert_spv, {}, kConvertPushBytes, "convert") {}

std::string FrameConverter::check(const VideoFormat& format, const std::array<std::uint32_t, 3>& strides) const {
  if (auto err = check_video_format(format); !err.empty()) return err;
  for (std::uint32_t p = 0; p < format.plane_count; ++p) {
    if (strides[p] < format.plane_row_bytes(p)) {
      return "plane " + std::to_string(p) + " stride " + std::to_string(strides[p]) + " is shorter than its rows";
    }
    if (format.sample_bytes == 2 && strides[p] % 2 != 0) return "16-bit samples need even strides";
    if (std::uint64_t{strides[p]} * format.plane_rows(p) >= (1ull << 32)) {
      return "plane " + std::to_string(p) + " is 4 GiB or larger";
    }
  }
  const std::uint32_t groups_y = (format.height + 7) / 8;
  if (groups_y > 65535u) return "frame height " + std::to_string(format.height) + " exceeds the convert pass's limit";
  return {};
}

const render::ComputePipeline& FrameConverter::gamut_pipeline() const {
  if (!gamut_pipeline_) {
    const render::SpecConstant gamut{shader::kSpecGamut, 1};
    gamut_pipeline_ = std::make_unique<render::ComputePipeline>(context_, convert_spv, std::span(&gamut, 1),
                                                                kConvertPushBytes, "convert with gamut");
  }
  return *gamut_pipeline_;
}

void FrameConverter::record(VkCommandBuffer cmd, const VideoFormat& f, const GpuPlanes& planes, VkDeviceAddress dst,
                            VkDeviceAddress measures) const {
  if (auto err = check(f, planes.stride); !err.empty()) throw std::invalid_argument(err);
  if (measures != 0 && f.model == ColourModel::rgb) {
    throw std::invalid_argument("an R'G'B' frame has no Y'CbCr values to check the gamut of");
  }
  const ConversionCoefficients k = conversion_coefficients(f.matrix, f.range, f.bits);
  ConvertPush push{};
  plane_push(push, f, planes);
  push.dst = dst;
  push.measures = measures;
  push.cy = k.cy;
  push.crv = k.crv;
  push.cgu = k.cgu;
  push.cgv = k.cgv;
  push.cbu = k.cbu;
  push.yoff = k.yoff;
  push.coff8 = k.coff8;
  push.shift = k.shift;
  const render::ComputePipeline& pipeline = measures != 0 ? gamut_pipeline() : pipeline_;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
  vkCmdPushConstants(cmd, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, kConvertPushBytes, &push);
  // One invocation per 2 x 2 pixels; workgroups of 64 x 4 invocations (convert.comp).
  vkCmdDispatch(cmd, (f.width + 127) / 128, (f.height + 7) / 8, 1);
}

PlaneOffsets plane_offsets(const VideoFormat& format, const std::array<std::uint32_t, 3>& strides) {
  PlaneOffsets out;
  std::uint64_t at = 0;
  for (std::uint32_t p = 0; p < format.plane_count; ++p) {
    out.offset[p] = at;
    out.bytes[p] = std::uint64_t{strides[p]} * (format.plane_rows(p) - 1) + format.plane_row_bytes(p);
    at += (out.bytes[p] + 4 + kPlaneAlignment - 1) / kPlaneAlignment * kPlaneAlignment;
  }
  out.total = at;
  return out;
}

void copy_planes(const VideoFormat& format, const VideoPlanes& planes, const PlaneOffsets& layout, std::byte* dst) {
  for (std::uint32_t p = 0; p < format.plane_count; ++p) {
    std::memcpy(dst + layout.offset[p], planes.data[p], layout.bytes[p]);
  }
}

}  // namespace vhist
