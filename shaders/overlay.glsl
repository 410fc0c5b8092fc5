// What is drawn over a histogram panel (composite.comp): the items picture_overlay.cpp laid out (the axis, ticks, code-value
// labels, guides, legend, scale label) in target pixels, text in the 5x7 font of font_shared.h.
// The count a full-height bar means is read here from the scale buffer the scale pass wrote
// (or the CPU engine uploaded), so the label belongs to the same frame as the bars.
// Include after histogram_bars.glsl (the Scale buffer) and draw_shared.h (OverlayItem).
#ifndef VHIST_OVERLAY_GLSL
#define VHIST_OVERLAY_GLSL

#include "vhist/font_shared.h"

layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer OverlayItems {
  OverlayItem item[];
};

// The count a full-height bar means for the channels in `mask` (the largest of them).
uint full_height_count(OverlayItem it, uvec2 scale) {
  uint n = 0u;
  for (uint c = 0u; c < 4u; ++c) {
    if ((it.mask & (1u << c)) == 0u) continue;
    const uint peak = Scale(scale).max_count[c];
    n = max(n, it.kind == kOverlayCountLog ? peak : it.kind == kOverlayCountFixed ? it.value : min(peak, it.value));
  }
  return n;
}

// The glyph at character k (from the left) of n written with thousands commas; a space past its end.
uint count_glyph(uint n, uint k) {
  uint digits = 1u;
  for (uint t = n; t >= 10u; t /= 10u) ++digits;
  const uint len = digits + (digits - 1u) / 3u;
  if (k >= len) return kGlyphSpace;
  const uint j = len - 1u - k;  // from the right
  if (j % 4u == 3u) return kGlyphComma;
  uint d = j - j / 4u, p = n;
  for (uint i = 0u; i < d; ++i) p /= 10u;
  return p % 10u;
}

// Whether item `it` covers the pixel at centre `centre`: its rect filled, or the pixel on in its glyph.
bool item_covers(OverlayItem it, uvec2 scale, vec2 centre) {
  const vec4 r = it.rect;
  if (centre.x < r.x || centre.x >= r.z || centre.y < r.y || centre.y >= r.w) return false;
  if (it.kind == kOverlaySolid) return true;
  const uvec2 font_px = uvec2((centre - r.xy) * (float(kTextScaleUnit) / float(it.scale)));
  if (font_px.x >= kGlyphWidth || font_px.y >= kGlyphHeight) return false;
#ifdef VHIST_OVERLAY_NO_COUNTS
  // The includer draws no count labels: the glyph's pixels are the item's own (overlay_grid()
  // copied them from the font). Lavapipe looked the font table up for every pixel at a cost
  // larger than all the rest of a scope's drawing.
  const uint bit = font_px.y * kGlyphWidth + font_px.x;
  return ((bit < 32u ? it.pixels_low >> bit : it.pixels_high >> (bit - 32u)) & 1u) != 0u;
#else
  const uint glyph = it.kind == kOverlayGlyph ? it.glyph : count_glyph(full_height_count(it, scale), it.glyph);
  return vhist_glyph_pixel(glyph, font_px.x, font_px.y);
#endif
}

layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer OverlayWords {
  uint word[];
};

// The overlay's colour at pixel centre `centre` from the panel's grid at slot `first` of
// `items` (overlay_grid.h): alpha 1 where one of the items of the pixel's cell covers it, else 0.
vec4 overlay_colour(uvec2 items, uint first, uvec2 scale, vec2 centre) {
  OverlayItems list = OverlayItems(items);
  const vec4 grid = list.item[first].rect;  // x0, y0, cell width, cell height
  const uint columns = list.item[first].glyph, rows = list.item[first].scale;
  const vec2 cell = floor((centre - grid.xy) / grid.zw);
  if (cell.x < 0.0 || cell.y < 0.0 || cell.x >= float(columns) || cell.y >= float(rows)) return vec4(0.0);
  const uint entry = OverlayWords(items).word[(first + 1u) * 16u + uint(cell.y) * columns + uint(cell.x)];
  vec4 colour = vec4(0.0);
  for (uint i = first + (entry & 0xffffu), end = i + (entry >> 16u); i < end; ++i) {
    const vec4 r = list.item[i].rect;  // the rect alone until an item covers the pixel
    if (centre.x < r.x || centre.x >= r.z || centre.y < r.y || centre.y >= r.w) continue;
    const OverlayItem it = list.item[i];
    if (item_covers(it, scale, centre)) colour = vec4(it.colour.rgb, 1.0);
  }
  return colour;
}

// A histogram panel at pixel centre `centre`: the bars inside `bars` (else the background at
// the overlay's opacity), the overlay over them (the grid at slot `first`; count 0: none;
// over_bars 0: none over the bars). `with_bars` false: the caller knows the pixel is outside the
// bars; `with_overlay` false: it knows no item covers the pixel. Given as constants, they leave
// the code of what is not drawn out of the shader.
vec4 panel_colour(Bars b, uvec2 palette, float opacity, vec4 bars, uvec2 items, uint first, uint count,
                  uint over_bars, vec2 centre, bool with_bars, bool with_overlay) {
  vec4 c;
  if (with_bars && centre.x >= bars.x && centre.x < bars.z && centre.y >= bars.y && centre.y < bars.w) {
    const vec2 size = bars.zw - bars.xy;
    c = bars_colour(b, palette, opacity, (centre - bars.xy) / size, 1.0 / size);
    if (over_bars == 0u) return c;
  } else {
    c = Palette(palette).colour[0];
    c.a *= opacity;
  }
  if (!with_overlay || count == 0u) return c;
  const vec4 o = overlay_colour(items, first, b.scale, centre);
  return o.a > 0.0 ? o : c;
}

#endif  // VHIST_OVERLAY_GLSL
