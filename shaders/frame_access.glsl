// Access to frames and histogram buffers through buffer device addresses.
// Frames are read through 64-bit addresses rather than descriptors so that a frame larger than
// the device's maxStorageBufferRange (128 MiB on lavapipe, less than one 16384x16384 frame)
// is still one buffer and one dispatch.
#ifndef VHIST_FRAME_ACCESS_GLSL
#define VHIST_FRAME_ACCESS_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "vhist/shader_shared.h"

// A frame viewed as 16-byte blocks (4 RGBA8 pixels, or 2 RGBA16 pixels) for wide loads.
layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer FrameBlocks {
  uvec4 block[];
};
// The same frame viewed as single words, for the tail that does not fill a whole block.
layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer FrameWords {
  uint word[];
};
// Histogram: bins records of uvec4 (R, G, B, L counts), see shader_shared.h.
layout(buffer_reference, buffer_reference_align = 16, std430) buffer Histogram {
  uint count[];
};
// Per-channel scale factors (R, G, B, L) and the highest bin count of each channel.
layout(buffer_reference, buffer_reference_align = 16, std430) buffer Scale {
  vec4 scale;
  uvec4 max_count;
};
// The baseline's per-chunk histograms, chunk after chunk, each laid out like Histogram.
layout(buffer_reference, buffer_reference_align = 16, std430) buffer Chunks {
  uint count[];
};

// Number of uint32 words one pixel occupies.
uint words_per_pixel(uint packing) { return packing == kPackingRgba8 ? 1u : 2u; }

// Components of the pixel whose packed words are w0 (and w1 for RGBA16).
uvec3 unpack_pixel(uint packing, uint w0, uint w1) {
  if (packing == kPackingRgba8) {
    return uvec3(w0 & 0xffu, (w0 >> 8u) & 0xffu, (w0 >> 16u) & 0xffu);
  }
  return uvec3(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu);
}

// The four bins (R, G, B, L) one pixel falls into.
uvec4 pixel_bins(uvec3 rgb, uint bins, uint bits) {
  uint l = vhist_luma(rgb.r, rgb.g, rgb.b);
  return uvec4(vhist_bin(rgb.r, bins, bits), vhist_bin(rgb.g, bins, bits),
               vhist_bin(rgb.b, bins, bits), vhist_bin(l, bins, bits));
}

// Loads pixel `index` of a frame given as a word view.
uvec3 load_pixel(FrameWords frame, uint packing, uint index) {
  if (packing == kPackingRgba8) {
    return unpack_pixel(packing, frame.word[index], 0u);
  }
  return unpack_pixel(packing, frame.word[2u * index], frame.word[2u * index + 1u]);
}

#endif
