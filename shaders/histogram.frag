#version 460
// A histogram panel: the articles' bit-mask colours (histogram_bars.glsl) per pixel in its bars'
// rectangle and the background elsewhere in the panel (its axis, labels, guides and legend are
// drawn over it by overlay_item.frag); blended over the video by the pipeline (the background at the
// overlay's opacity), with the cumulative histogram where asked. Works in target pixels
// (gl_FragCoord), as composite.comp does, so the two agree.
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"

#define VHIST_SHADER_histogram_frag
#include "vhist/draw_shared.h"  // the push constants, OverlayItem
#include "overlay.glsl"

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  const Bars b = Bars(pc.histogram, pc.scale, pc.cdf, pc.bins, pc.levels, pc.mode, pc.pixels, pc.channel_mult,
                      pc.masks & 15u, (pc.masks >> 4u) & 15u, pc.reference, (pc.masks >> 8u) & 15u, pc.level_counts,
                      pc.ends);
  // The overlay is drawn after the panel by overlay_item.frag: no items here.
  colour = panel_colour(b, pc.palette, pc.opacity, pc.uv, uvec2(0u), 0u, 0u, 0u, gl_FragCoord.xy, true,
                        false);
}
