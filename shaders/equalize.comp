#version 460
// Histogram equalization of a whole R'G'B' frame through the table hist_cdf.comp built
// (equalize.glsl), into a second frame of the same layout: once per frame, so that drawing it
// (read by the compute composite) costs no more than drawing the
// original. Persistent invocations walk the pixels with a grid stride.
#extension GL_GOOGLE_include_directive : require
#include "equalize.glsl"
#include "frame_access.glsl"

layout(local_size_x = 256) in;
layout(constant_id = kSpecBins) const uint kLevels = 256u;
layout(constant_id = kSpecPacking) const uint kPacking = kPackingRgba8;
layout(constant_id = kSpecBits) const uint kBits = 8u;

layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer OutWords {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 16, std430) writeonly buffer OutBlocks {
  uvec4 block[];
};

#define VHIST_SHADER_equalize
#include "vhist/compute_push.h"  // the push constants

// The packed pixel (w0, w1: its one or two words) with its components equalized.
uvec2 equalize_pixel(uint w0, uint w1) {
  const uvec3 e = equalize_codes(pc.table, pc.mode, unpack_pixel(kPacking, w0, w1), kLevels, kBits);
  if (kPacking == kPackingRgba8) return uvec2((w0 & 0xff000000u) | e.r | (e.g << 8u) | (e.b << 16u), 0u);
  return uvec2(e.r | (e.g << 16u), (w1 & 0xffff0000u) | e.b);
}

void main() {
  // 16-byte blocks (4 RGBA8 or 2 RGBA16 pixels) with a grid stride, then the last pixels that
  // do not fill a block, one word at a time.
  const uint words_per_pixel = kPacking == kPackingRgba8 ? 1u : 2u;
  const uint pixels_per_block = 4u / words_per_pixel;
  const uint blocks = pc.pixel_count / pixels_per_block;
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < blocks; i += stride) {
    const uvec4 b = pc.frame.block[i];
    uvec4 out_block;
    if (kPacking == kPackingRgba8) {
      out_block = uvec4(equalize_pixel(b.x, 0u).x, equalize_pixel(b.y, 0u).x, equalize_pixel(b.z, 0u).x,
                        equalize_pixel(b.w, 0u).x);
    } else {
      out_block = uvec4(equalize_pixel(b.x, b.y), equalize_pixel(b.z, b.w));
    }
    pc.equalized.block[i] = out_block;
  }
  const uint tail = blocks * pixels_per_block + gl_GlobalInvocationID.x;
  if (tail < pc.pixel_count) {
    FrameWords words = FrameWords(pc.frame);
    OutWords out_words = OutWords(pc.equalized);
    const uint w = tail * words_per_pixel;
    const uvec2 e = equalize_pixel(words.word[w], kPacking == kPackingRgba8 ? 0u : words.word[w + 1u]);
    out_words.word[w] = e.x;
    if (kPacking != kPackingRgba8) out_words.word[w + 1u] = e.y;
  }
}
