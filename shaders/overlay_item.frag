#version 460
// One overlay item of a histogram panel (the axis, a tick, a glyph of a label, a guide, ...) in
// the raster path: quad.vert places a quad over the item's rect, drawn after the panel's quad,
// in the items' order, so the last that covers a pixel wins as in the composite's grid. The
// coverage test is overlay.glsl's, shared with composite.comp, so the two paths agree. Drawing
// items as their own small quads costs only their pixels: testing them in every pixel of the
// panel (histogram.frag) cost lavapipe a third of a 1280x720 frame.
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"  // the Scale buffer

#define VHIST_SHADER_overlay_item_frag
#include "vhist/draw_shared.h"  // the push constants, OverlayItem
#include "overlay.glsl"

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  const OverlayItem it = OverlayItems(pc.overlay).item[pc.index];
  if (!item_covers(it, pc.scale, gl_FragCoord.xy)) discard;
  colour = vec4(it.colour.rgb, 1.0);
}
