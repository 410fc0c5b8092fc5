#version 460
// A histogram quad: the articles' bit-mask colours (histogram_bars.glsl) per pixel, blended over
// the video by the pipeline (index 0, the background, at the overlay's opacity).
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"

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
  uint index = bar_index(pc.histogram, pc.scale, pc.bins, pc.mode, pc.pixels, v_uv, pc.channel_mult);
  colour = bar_colour(pc.palette, index, pc.opacity);
}
