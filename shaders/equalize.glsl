// Histogram equalization of one pixel from the table hist_cdf.comp built (equalize_shared.h has
// the definitions; compute/src/cdf.cpp is the CPU reference that must give the same codes).
#ifndef VHIST_EQUALIZE_GLSL
#define VHIST_EQUALIZE_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "vhist/equalize_shared.h"

// levels records of (R, G, B, L) equalized codes.
layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer EqualizeTable {
  uvec4 level[];
};

// The `bits`-bit codes rgb equalized by `mode` (kEqualizeLuma or kEqualizeChannels; any other
// value leaves them as they are).
uvec3 equalize_codes(uvec2 table_address, uint mode, uvec3 rgb, uint levels, uint bits) {
  EqualizeTable table = EqualizeTable(table_address);
  if (mode == kEqualizeChannels) {
    return uvec3(table.level[vhist_bin(rgb.r, levels, bits)].r, table.level[vhist_bin(rgb.g, levels, bits)].g,
                 table.level[vhist_bin(rgb.b, levels, bits)].b);
  }
  if (mode != kEqualizeLuma) return rgb;
  const uint y = vhist_luma(rgb.r, rgb.g, rgb.b);
  const uint yeq = table.level[vhist_bin(y, levels, bits)].a;
  if (y == 0u) return uvec3(yeq);
  const uint top = (1u << bits) - 1u;
  const uint mx = max(rgb.r, max(rgb.g, rgb.b));
  const uint gain = vhist_luma_gain(y, yeq, mx, top);
  return uvec3(vhist_apply_gain(rgb.r, gain), vhist_apply_gain(rgb.g, gain), vhist_apply_gain(rgb.b, gain));
}

#endif  // VHIST_EQUALIZE_GLSL
