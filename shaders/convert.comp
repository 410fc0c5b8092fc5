#version 460
// The convert pass: a decoded frame's planes, as the decoder laid them out (planar, semi-planar
// or packed; 8- or 16-bit little-endian samples; 4:2:0, 4:2:2 or 4:4:4; Y'CbCr, R'G'B' or gray),
// to a tightly packed R'G'B' frame (rgba8 for 8-bit sources, rgba16 deeper) for the histogram
// passes and the display. One invocation per quad of 2 x 2 pixels, which share their chroma
// samples (4:2:0 reads 6 per component for the quad, not 16). The arithmetic is colour_shared.h's, which
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

// The two chroma samples of chroma row `row` that luma columns x0 (even) and x0 + 1 read, as
// their horizontal step (vhist_chroma_h): x2, for column x0 in .x and x0 + 1 in .y. Subsampled,
// both columns read the samples under x0 / 2 and the one right of it (clamped); else each
// column reads its own (x0 + 1 clamped to the row, for a frame of odd width).
ivec2 chroma_pair(uint c, uint row, uint x0) {
  uint sx = chroma_sx();
  uint chroma_w = (pc.width + (1u << sx) - 1u) >> sx;
  uint col_a = x0 >> sx;
  uint col_b = sx != 0u ? min(col_a + 1u, chroma_w - 1u) : min(x0 + 1u, pc.width - 1u);
  int a = int(read_sample(c, col_a, row));
  int b = int(read_sample(c, col_b, row));
  if (sx != 0u) return ivec2(vhist_chroma_h(a, b, sx, x0), vhist_chroma_h(a, b, sx, x0 + 1u));
  return ivec2(vhist_chroma_h(a, a, sx, x0), vhist_chroma_h(b, b, sx, x0 + 1u));
}

// Chroma component c, upsampled, x8, of the quad's four pixels: (x0, y0), (x0 + 1, y0),
// (x0, y0 + 1), (x0 + 1, y0 + 1). A 4:2:0 quad reads 6 samples (chroma rows y0 / 2 and the
// far rows of y0 and y0 + 1, each at two columns) instead of 16 pixel by pixel; the arithmetic
// is each pixel's own (colour_shared.h), as the CPU reference's.
ivec4 quad_chroma8(uint c, uint x0, uint y0) {
  uint sy = chroma_sy();
  if (sy == 0u) {
    ivec2 top = chroma_pair(c, y0, x0);
    ivec2 bottom = chroma_pair(c, min(y0 + 1u, pc.height - 1u), x0);
    return ivec4(vhist_chroma8(top.x, 0, sy), vhist_chroma8(top.y, 0, sy), vhist_chroma8(bottom.x, 0, sy),
                 vhist_chroma8(bottom.y, 0, sy));
  }
  uint chroma_h = (pc.height + (1u << sy) - 1u) >> sy;
  ivec2 near = chroma_pair(c, y0 >> sy, x0);
  ivec2 far0 = chroma_pair(c, vhist_chroma_far_row(y0, chroma_h), x0);
  ivec2 far1 = chroma_pair(c, vhist_chroma_far_row(y0 + 1u, chroma_h), x0);
  return ivec4(vhist_chroma8(near.x, far0.x, sy), vhist_chroma8(near.y, far0.y, sy), vhist_chroma8(near.x, far1.x, sy),
               vhist_chroma8(near.y, far1.y, sy));
}

shared uint gamut_counts[3];  // kGamut: this workgroup's low, high, out

// The quad's pixel (x, y) before its clamp, at upsampled chroma cb8, cr8 (Y'CbCr) or read
// directly (R'G'B', gray).
ivec3 unclamped(uint x, uint y, int cb8, int cr8) {
  if (model() == kModelRgb) return ivec3(read_sample(0u, x, y), read_sample(1u, x, y), read_sample(2u, x, y));
  int luma = int(read_sample(0u, x, y));
  // Gray, full range: cy = 2^shift and yoff = 0 make this the identity.
  if (model() == kModelGray) return ivec3(vhist_yuv_component_unclamped(luma, 0, 0, pc.cy, 0, 0, pc.yoff, 0, pc.shift));
  return ivec3(vhist_yuv_component_unclamped(luma, cb8, cr8, pc.cy, 0, pc.crv, pc.yoff, pc.coff8, pc.shift),
               vhist_yuv_component_unclamped(luma, cb8, cr8, pc.cy, -pc.cgu, -pc.cgv, pc.yoff, pc.coff8, pc.shift),
               vhist_yuv_component_unclamped(luma, cb8, cr8, pc.cy, pc.cbu, 0, pc.yoff, pc.coff8, pc.shift));
}

// Clamps pixel (x, y)'s value v and writes it; counts into `gamut` (low, high, out) whether a
// component of a Y'CbCr or gray pixel lies below or above R 103's limits before its clamp.
void write_pixel(uint x, uint y, ivec3 v, inout uvec3 gamut) {
  int max_code = int((1u << bits()) - 1u);
  bool low = vhist_gamut_low(v.r, max_code) || vhist_gamut_low(v.g, max_code) || vhist_gamut_low(v.b, max_code);
  bool high = vhist_gamut_high(v.r, max_code) || vhist_gamut_high(v.g, max_code) || vhist_gamut_high(v.b, max_code);
  gamut += uvec3(low ? 1u : 0u, high ? 1u : 0u, low || high ? 1u : 0u);
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

// Converts the quad of pixels at (x0, y0) (x0 and y0 even) that lie in the frame.
void convert_quad(uint x0, uint y0, inout uvec3 gamut) {
  ivec4 cb8 = ivec4(0);
  ivec4 cr8 = ivec4(0);
  if (model() == kModelYuv) {
    cb8 = quad_chroma8(1u, x0, y0);
    cr8 = quad_chroma8(2u, x0, y0);
  }
  for (uint k = 0u; k < 4u; ++k) {
    uint x = x0 + (k & 1u);
    uint y = y0 + (k >> 1u);
    if (x < pc.width && y < pc.height) write_pixel(x, y, unclamped(x, y, cb8[k], cr8[k]), gamut);
  }
}

// No early return: with kGamut every invocation reaches the barriers.
void main() {
  uint x0 = 2u * gl_GlobalInvocationID.x;
  uint y0 = 2u * gl_GlobalInvocationID.y;
  uint lane = gl_LocalInvocationIndex;
  if (kGamut) {
    if (lane < 3u) gamut_counts[lane] = 0u;
    barrier();
  }
  uvec3 gamut = uvec3(0u);
  if (x0 < pc.width && y0 < pc.height) convert_quad(x0, y0, gamut);
  if (kGamut) {
    for (uint k = 0u; k < 3u; ++k) {
      if (gamut[k] != 0u) atomicAdd(gamut_counts[k], gamut[k]);
    }
    barrier();
    if (lane < 3u && gamut_counts[lane] != 0u) atomicAdd(pc.measures.word[kMeasureGamutLow + lane], gamut_counts[lane]);
  }
}
