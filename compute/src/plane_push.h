// The push constants' fields of every pass that reads a frame's planes as uploaded
// (plane_access.glsl: the convert, planes, checksum and scope passes), packed as ConvertPush's.
#pragma once

#include "vhist/compute/frame_converter.h"
#include "vhist/compute/video_frame.h"

#include <cstdint>

namespace vhist {

// The planes' addresses, strides, component layouts and format (the scope passes' too).
template <typename Push>
void plane_fields(Push& push, const VideoFormat& f, const GpuPlanes& planes) {
  for (std::uint32_t p = 0; p < 3; ++p) {
    const std::uint32_t q = p < f.plane_count ? p : 0;
    push.plane[p] = planes.address[q];
    push.stride[p] = planes.stride[q];
  }
  for (std::uint32_t c = 0; c < 3; ++c) {
    const ComponentLayout& comp = f.components[f.model == ColourModel::gray ? 0 : c];
    push.comp[c] = comp.plane | (comp.offset << 4) | (comp.step << 8) | (comp.shift << 16);
  }
  push.format = f.bits | (f.sample_bytes << 8) | (static_cast<std::uint32_t>(f.model) << 12) |
                (f.chroma_shift_x << 16) | (f.chroma_shift_y << 20);
}

// The same and the frame's size.
template <typename Push>
void plane_push(Push& push, const VideoFormat& f, const GpuPlanes& planes) {
  plane_fields(push, f, planes);
  push.width = f.width;
  push.height = f.height;
}

}  // namespace vhist
