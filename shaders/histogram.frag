#version 460
// The articles' histogram drawing: for the bin under this pixel, one bit per channel whose bar
// reaches this height, weighted by channel_mult (1, 2, 4, 8 for the channels drawn, 0 for the
// others); their sum picks one of 16 palette colours. Index 0 (no bar) is the background, drawn
// with the overlay's opacity.
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

layout(push_constant) uniform Push {
  layout(offset = 32) uvec2 histogram;
  uvec2 scale;
  uvec2 palette;
  layout(offset = 64) uvec4 channel_mult;
  uint bins;
  uint mode;
  float pixels;
  float opacity;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  uint bin = min(uint(v_uv.x * float(pc.bins)), pc.bins - 1u);
  vec4 counts = vec4(Histogram(pc.histogram).bin[bin]);
  vec4 heights;
  if (pc.mode == kScaleLog) {
    vec4 top = log2(vec4(Scale(pc.scale).max_count) + 1.0);
    heights = log2(counts + 1.0) / max(top, vec4(1e-6));
  } else if (pc.mode == kScaleFixed) {
    // Full height when a bin holds five times its share of a flat histogram.
    heights = counts * (float(pc.bins) / (5.0 * pc.pixels));
  } else {
    heights = counts * Scale(pc.scale).scale;
  }
  float y = 1.0 - v_uv.y;  // v_uv.y is 0 at the top of the quad; bars grow up
  bvec4 reached = greaterThan(heights, vec4(y));
  uint index = (reached.x ? pc.channel_mult.x : 0u) + (reached.y ? pc.channel_mult.y : 0u) +
               (reached.z ? pc.channel_mult.z : 0u) + (reached.w ? pc.channel_mult.w : 0u);
  vec4 c = Palette(pc.palette).colour[index];
  if (index == 0u) c.a *= pc.opacity;
  colour = c;
}
