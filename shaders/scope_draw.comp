#version 460
// The scopes drawn over the composite's picture (composite.comp wrote it): one dispatch per
// panel over its rectangle, each pixel the panel's background (opaque beside or under the video,
// at the histograms' opacity over it), the graticule and title (the panel's overlay grid,
// overlay.glsl), and the counts under it as brightness: the sum of the counts the pixel covers,
// mapped by log or linear and the gain, in the component's colour (the overlay waveform adds its
// three). scope_draw_shared.h has the parameters; scope_counts.h the counts' layout.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 16, local_size_y = 16) in;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Counts {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer Picture {
  uint word[];
};

#define VHIST_SHADER_scope_draw
#include "vhist/scope_draw_shared.h"
#include "vhist/draw_shared.h"
// overlay.glsl's items: the scopes' are rects and glyphs (scope_graticule.h), without the count
// labels of the histograms (which read the scale buffer), whose code is left out.
#define VHIST_OVERLAY_NO_COUNTS
#include "histogram_bars.glsl"
#include "overlay.glsl"

// The panel's kind (kScopeDraw*), fixed per pipeline: each kind's pipeline holds its own trace's
// code alone. Lavapipe (Mesa 22) runs every branch of a shader for every pixel, masked, so one
// shader for the three kinds cost each panel the three traces.
layout(constant_id = 0) const uint kKind = kScopeDrawWaveform;

float brightness(ScopeDrawParams p, float n) {
  if (n <= 0.0) return 0.0;
  const float s = max(p.samples, 1.0);
  const float b = p.mapping == kScopeMapLog ? log2(1.0 + n) / log2(1.0 + s) : n / s;
  return clamp(p.gain * b, 0.0, 1.0);
}

// The waveform's count of component c in plot column `column` over levels [l0, l1).
float waveform_sum(ScopeDrawParams p, uvec2 counts, uint c, uint column, uint l0, uint l1) {
  if (column >= p.columns) return 0.0;
  Counts w = Counts(counts);
  const uint base = (c * p.columns + column) * p.levels;
  uint n = 0u;
  for (uint l = l0; l < l1; ++l) n += w.word[base + l];
  return float(n);
}

// A row's count as if it covered the plot's mean levels per row (at least one): rows summing one
// level more or less than their neighbours (levels do not divide the rows) would stripe.
float per_row(ScopeDrawParams p, float n, uvec2 lv, float height) {
  return n / float(lv.y - lv.x) * max(float(p.levels) / height, 1.0);
}

// The levels [l0, l1) a pixel row covers: row r from the bottom of a plot `height` rows tall;
// at least one.
uvec2 row_levels(float r, float height, uint levels) {
  const uint l0 = uint(floor(r * float(levels) / height));
  const uint l1 = max(uint(floor((r + 1.0) * float(levels) / height)), l0 + 1u);
  return uvec2(min(l0, levels - 1u), min(l1, levels));
}

// The counts at `f` of the plot's (a parade part's) width: the equalized frame's at and right of
// the split, the frame's left of it.
uvec2 counts_at(ScopeDrawParams p, float f) {
  return (p.counts_right.x | p.counts_right.y) != 0u && f >= p.split_x ? p.counts_right : p.counts;
}

// The plot column drawn at pixel column x of a plot `width` pixels wide: the counts' columns
// (at most the width) spread across all of it, each over one pixel or more.
uint plot_column(ScopeDrawParams p, float x, float width) {
  return min(uint(floor(x * float(p.columns) / width)), p.columns - 1u);
}

vec3 waveform_trace(ScopeDrawParams p, vec2 centre) {
  const vec4 q = p.plot;
  if (centre.x < q.x || centre.x >= q.z || centre.y < q.y || centre.y >= q.w) return vec3(0.0);
  const uvec2 lv = row_levels(floor(q.w - centre.y), q.w - q.y, p.levels);
  float x = floor(centre.x - q.x);
  if (kKind == kScopeDrawParade) {
    const uint part = uint(floor(x / (p.part + p.gap)));
    x -= float(part) * (p.part + p.gap);
    if (part > 2u || x >= p.part || (p.mask & (1u << part)) == 0u) return vec3(0.0);
    const uvec2 counts = counts_at(p, (x + 0.5) / p.part);
    const uint column = plot_column(p, x, p.part);
    const float n = per_row(p, waveform_sum(p, counts, part, column, lv.x, lv.y), lv, q.w - q.y);
    return p.colour[part].rgb * brightness(p, n);
  }
  const uvec2 counts = counts_at(p, (x + 0.5) / (q.z - q.x));
  const uint column = plot_column(p, x, q.z - q.x);
  vec3 colour = vec3(0.0);
  for (uint c = 0u; c < p.components; ++c) {
    if ((p.mask & (1u << c)) == 0u) continue;
    colour += p.colour[c].rgb * brightness(p, per_row(p, waveform_sum(p, counts, c, column, lv.x, lv.y), lv, q.w - q.y));
  }
  return colour;
}

// The grid's cells [c0, c1) that the codes [lo, hi) fall in (at least one), N cells over 2^bits codes.
uvec2 cells_of(float lo, float hi, uint n, uint bits) {
  const float k = float(n) / float(1u << bits);
  const int c0 = int(floor(lo * k));
  const int c1 = max(int(floor(hi * k)), c0 + 1);
  return uvec2(clamp(c0, 0, int(n)), clamp(c1, 0, int(n)));
}

vec3 vector_trace(ScopeDrawParams p, vec2 centre) {
  const vec4 q = p.plot;  // the square
  if (centre.x < q.x || centre.x >= q.z || centre.y < q.y || centre.y >= q.w) return vec3(0.0);
  const uvec2 counts = counts_at(p, (centre.x - q.x) / (q.z - q.x));
  // Codes per pixel and the centre's code (scope_scale.h's chroma_to_plot, inverted).
  const float k = p.zoom * (q.z - q.x) / float(1u << p.bits);
  const float zero = float(1u << (p.bits - 1u));
  const vec2 mid = (q.xy + q.zw) * 0.5;
  const vec2 px = floor(centre);
  const uvec2 cb = cells_of(zero + (px.x - mid.x) / k, zero + (px.x + 1.0 - mid.x) / k, p.levels, p.bits);
  const uvec2 cr = cells_of(zero - (px.y + 1.0 - mid.y) / k, zero - (px.y - mid.y) / k, p.levels, p.bits);
  Counts w = Counts(counts);
  uint n = 0u;
  for (uint r = cr.x; r < cr.y; ++r) {
    for (uint c = cb.x; c < cb.y; ++c) n += w.word[r * p.levels + c];
  }
  // As per_row(): the count as if the pixel covered the mean cells per pixel (at least one).
  const float mean = max(float(p.levels) / (k * float(1u << p.bits)), 1.0);
  const float b = brightness(p, float(n) / float((cb.y - cb.x) * (cr.y - cr.x)) * mean * mean);
  if (b <= 0.0 || p.vector_colours == 0u) return vec3(b);
  // The chroma's own colour at mid luma, scaled so its brightest component is b.
  const vec2 uv = (vec2(float(cb.x + cb.y), float(cr.x + cr.y)) * 0.5 / float(p.levels) - 0.5) * 2.0;
  const vec3 rgb = max(vec3(0.5) + uv.x * p.cb_rgb.rgb + uv.y * p.cr_rgb.rgb, vec3(0.15));
  return rgb / max(max(rgb.r, rgb.g), rgb.b) * b;
}

void main() {
  ScopeDrawParams p = pc.params;
  const uvec2 pixel = uvec2(pc.x0, pc.y0) + gl_GlobalInvocationID.xy;
  const vec2 centre = vec2(pixel) + 0.5;
  const vec4 r = p.rect;
  if (pixel.x >= p.target_w || pixel.y >= p.target_h || centre.x < r.x || centre.x >= r.z || centre.y < r.y ||
      centre.y >= r.w) {
    return;
  }
  Picture picture = Picture(p.output_);
  const uint index = pixel.y * p.target_w + pixel.x;
  const uint under = picture.word[index];
  vec3 below = vec3(uvec3(under, under >> 8u, under >> 16u) & 0xffu) / 255.0;
  if (p.bgra != 0u) below = below.bgr;
  vec3 colour = mix(below, vec3(0.05), p.opacity);
  if (p.overlay_count != 0u) {
    const vec4 o = overlay_colour(p.overlay, p.overlay_first, uvec2(0u), centre);
    if (o.a > 0.0) colour = o.rgb;
  }
  // The traces over the background and graticule, as opaque as they are bright: a saturated
  // trace keeps its colour on a graticule line, a faint one lets the line show through.
  const vec3 trace = min(kKind == kScopeDrawVector ? vector_trace(p, centre) : waveform_trace(p, centre), vec3(1.0));
  colour = colour * (1.0 - max(max(trace.r, trace.g), trace.b)) + trace;
  uvec3 v = uvec3(round(clamp(colour, 0.0, 1.0) * 255.0));
  if (p.bgra != 0u) v = v.bgr;
  picture.word[index] = v.r | (v.g << 8u) | (v.b << 16u) | 0xff000000u;
}
