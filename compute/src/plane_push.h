// The push constants' fields of every pass that reads a frame's planes as uploaded
// (plane_access.glsl: the convert, planes and checksum passes), packed as ConvertPush's.
#pragma once

#include "vhist/compute/frame_converter.h"
#include "vhist/compute/video_frame.h"

#include <cstdint>

namespace vhist {

template <typename Push>
void plane_push(Push& push, const VideoFormat& f, const GpuPlanes& planes) {
  for (std::uint32_t p = 0; p < 3; ++p) {
    const std::uint32_t q = p < f.plane_count ? p : 0;
    push.plane[p] = planes.address[q];
    push.stride[p] = planes.stride[q];
  }
  push.width = f.width;
  push.height = f.height;
  for (std::uint32_t c = 0; c < 3; ++c) {
    const ComponentLayout& comp = f.components[f.model == ColourModel::gray ? 0 : c];
    push.comp[c] = comp.plane | (comp.offset << 4) | (comp.step << 8) | (comp.shift << 16);
  }
  push.format = f.bits | (f.sample_bytes << 8) | (static_cast<std::uint32_t>(f.model) << 12) |
                (f.chroma_shift_x << 16) | (f.chroma_shift_y << 20);
}

}  // namespace vhist
