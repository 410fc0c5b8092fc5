// The articles' histogram drawing, shared by histogram.frag (rasterized quads) and
// composite.comp (the compute-drawn picture): for the bin under uv.x, one bit per channel whose
// scaled bar reaches the height 1 - uv.y, weighted by channel_mult (1, 2, 4, 8 for the channels
// drawn, 0 for the others); the sum indexes a 16-colour palette.
#ifndef VHIST_HISTOGRAM_BARS_GLSL
#define VHIST_HISTOGRAM_BARS_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer Histogram {
  uvec4 bin[];  // R, G, B, L counts
};
layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer Scale {
  vec4 scale;
  uvec4 max_count;
};
layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer Palette {
  vec4 colour[16];
};

// Scale modes: the articles' automatic scale (the scale pass), logarithmic, fixed.
const uint kScaleAuto = 0u;
const uint kScaleLog = 1u;
const uint kScaleFixed = 2u;

// The palette index at uv (0..1 across the quad, y down) of a histogram of `bins` bins.
uint bar_index(uvec2 histogram, uvec2 scale, uint bins, uint mode, float pixels, vec2 uv, uvec4 channel_mult) {
  uint bin = min(uint(uv.x * float(bins)), bins - 1u);
  vec4 counts = vec4(Histogram(histogram).bin[bin]);
  vec4 heights;
  if (mode == kScaleLog) {
    vec4 top = log2(vec4(Scale(scale).max_count) + 1.0);
    heights = log2(counts + 1.0) / max(top, vec4(1e-6));
  } else if (mode == kScaleFixed) {
    // Full height when a bin holds five times its share of a flat histogram.
    heights = counts * (float(bins) / (5.0 * pixels));
  } else {
    heights = counts * Scale(scale).scale;
  }
  bvec4 reached = greaterThan(heights, vec4(1.0 - uv.y));  // bars grow up from the bottom
  return (reached.x ? channel_mult.x : 0u) + (reached.y ? channel_mult.y : 0u) + (reached.z ? channel_mult.z : 0u) +
         (reached.w ? channel_mult.w : 0u);
}

// The colour of palette index `index`; index 0 (no bar) is the background, at `opacity`.
vec4 bar_colour(uvec2 palette, uint index, float opacity) {
  vec4 c = Palette(palette).colour[index];
  if (index == 0u) c.a *= opacity;
  return c;
}

#endif  // VHIST_HISTOGRAM_BARS_GLSL
