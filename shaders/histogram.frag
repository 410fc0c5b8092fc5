#version 460
// A histogram quad: the articles' bit-mask colours (histogram_bars.glsl) per pixel, blended over
// the video by the pipeline (index 0, the background, at the overlay's opacity), with the
// cumulative histogram where asked.
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"

#define VHIST_SHADER_histogram_frag
#include "vhist/draw_shared.h"  // the push constants

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  const Bars b = Bars(pc.histogram, pc.scale, pc.cdf, pc.bins, pc.levels, pc.mode, pc.pixels, pc.channel_mult,
                      pc.cdf_fill, pc.cdf_line);
  colour = bars_colour(b, pc.palette, pc.opacity, v_uv, fwidth(v_uv));
}
