#version 460
// A histogram quad: the articles' bit-mask colours (histogram_bars.glsl) per pixel, blended over
// the video by the pipeline (index 0, the background, at the overlay's opacity), with the
// cumulative histogram where asked.
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"

// Laid out as HistogramPush in app/viewer/overlay.cpp; quad.vert reads the first 32 bytes.
layout(push_constant) uniform Push {
  layout(offset = 32) uvec2 histogram;
  uvec2 scale;
  uvec2 palette;
  uvec2 cdf;
  uvec4 channel_mult;
  uint bins;
  uint mode;
  float pixels;
  float opacity;
  uint levels;
  uint cdf_fill;
  uint cdf_line;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  const Bars b = Bars(pc.histogram, pc.scale, pc.cdf, pc.bins, pc.levels, pc.mode, pc.pixels, pc.channel_mult,
                      pc.cdf_fill, pc.cdf_line);
  colour = bars_colour(b, pc.palette, pc.opacity, v_uv, fwidth(v_uv));
}
