#version 460
// The convert pass: a decoded frame's planes, as the decoder laid them out (planar, semi-planar
// or packed; 8- or 16-bit little-endian samples; 4:2:0, 4:2:2 or 4:4:4; Y'CbCr, R'G'B' or gray),
// to a tightly packed R'G'B' frame (rgba8 for 8-bit sources, rgba16 deeper) for the histogram
// passes and the display. One invocation per pixel. The arithmetic is colour_shared.h's, which
// the CPU reference shares, so both produce the same codes. With kGamut the pass also counts
// R 103's gamut check on the values before their clamp (reference_gamut): per workgroup in
// shared memory, then one atomic add per counter into the measures buffer.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "vhist/colour_shared.h"
#include "vhist/measures_shared.h"

layout(local_size_x = 64, local_size_y = 4) in;
layout(constant_id = kSpecGamut) const bool kGamut = false;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer OutWords {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer MeasureWords {
  uint word[];
};

#define VHIST_SHADER_convert
#include "vhist/compute_push.h"  // the push constants

#include "plane_access.glsl"  // bits(), model(), read_sample()...

// Chroma component c (1: Cb, 2: Cr) of luma pixel (x, y), upsampled, x8.
int chroma8(uint c, uint x, uint y) {
  uint sx = chroma_sx();
  uint sy = chroma_sy();
  uint chroma_w = (pc.width + (1u << sx) - 1u) >> sx;
  uint chroma_h = (pc.height + (1u << sy) - 1u) >> sy;
  uint col_a = x >> sx;
  uint col_b = (sx != 0u && col_a + 1u < chroma_w) ? col_a + 1u : col_a;
  uint row_near = y >> sy;
  int h_near = vhist_chroma_h(int(read_sample(c, col_a, row_near)), int(read_sample(c, col_b, row_near)), sx, x);
  int h_far = 0;
  if (sy != 0u) {
    uint row_far = vhist_chroma_far_row(y, chroma_h);
    h_far = vhist_chroma_h(int(read_sample(c, col_a, row_far)), int(read_sample(c, col_b, row_far)), sx, x);
  }
  return vhist_chroma8(h_near, h_far, sy);
}

shared uint gamut_counts[3];  // kGamut: this workgroup's low, high, out

// Converts pixel (x, y) and writes it; `low` and `high`: whether a component of a Y'CbCr or
// gray pixel lies below or above R 103's limits before its clamp.
void convert_pixel(uint x, uint y, out bool low, out bool high) {
  int max_code = int((1u << bits()) - 1u);
  ivec3 v;  // before the clamp
  if (model() == kModelRgb) {
    v = ivec3(read_sample(0u, x, y), read_sample(1u, x, y), read_sample(2u, x, y));
  } else if (model() == kModelGray) {
    int luma = int(read_sample(0u, x, y));
    // Full range: cy = 2^shift and yoff = 0 make this the identity.
    v = ivec3(vhist_yuv_component_unclamped(luma, 0, 0, pc.cy, 0, 0, pc.yoff, 0, pc.shift));
  } else {
    int luma = int(read_sample(0u, x, y));
    int cb8 = chroma8(1u, x, y);
    int cr8 = chroma8(2u, x, y);
    v = ivec3(vhist_yuv_component_unclamped(luma, cb8, cr8, pc.cy, 0, pc.crv, pc.yoff, pc.coff8, pc.shift),
              vhist_yuv_component_unclamped(luma, cb8, cr8, pc.cy, -pc.cgu, -pc.cgv, pc.yoff, pc.coff8, pc.shift),
              vhist_yuv_component_unclamped(luma, cb8, cr8, pc.cy, pc.cbu, 0, pc.yoff, pc.coff8, pc.shift));
  }
  low = vhist_gamut_low(v.r, max_code) || vhist_gamut_low(v.g, max_code) || vhist_gamut_low(v.b, max_code);
  high = vhist_gamut_high(v.r, max_code) || vhist_gamut_high(v.g, max_code) || vhist_gamut_high(v.b, max_code);
  uvec3 rgb = uvec3(vhist_clamp_code(v.r, max_code), vhist_clamp_code(v.g, max_code), vhist_clamp_code(v.b, max_code));
  uint index = y * pc.width + x;
  OutWords out_words = OutWords(pc.dst);
  if (bits() == 8u) {
    out_words.word[index] = rgb.r | (rgb.g << 8u) | (rgb.b << 16u) | 0xff000000u;
  } else {
    out_words.word[2u * index] = rgb.r | (rgb.g << 16u);
    out_words.word[2u * index + 1u] = rgb.b | (uint(max_code) << 16u);
  }
}

// No early return: with kGamut every invocation reaches the barriers.
void main() {
  uint x = gl_GlobalInvocationID.x;
  uint y = gl_GlobalInvocationID.y;
  uint lane = gl_LocalInvocationIndex;
  if (kGamut) {
    if (lane < 3u) gamut_counts[lane] = 0u;
    barrier();
  }
  bool low = false;
  bool high = false;
  if (x < pc.width && y < pc.height) convert_pixel(x, y, low, high);
  if (kGamut) {
    if (low) atomicAdd(gamut_counts[0], 1u);
    if (high) atomicAdd(gamut_counts[1], 1u);
    if (low || high) atomicAdd(gamut_counts[2], 1u);
    barrier();
    if (lane < 3u && gamut_counts[lane] != 0u) atomicAdd(pc.measures.word[kMeasureGamutLow + lane], gamut_counts[lane]);
  }
}
