// The articles' histogram drawing, in composite.comp (the viewer's picture): for the bin under uv.x, one bit per channel whose
// scaled bar reaches the height 1 - uv.y, weighted by channel_mult (1, 2, 4, 8 for the channels
// drawn, 0 for the others); the sum indexes a 16-colour palette.
//
// A reference histogram is drawn as a light outline over the bars, at the same scale.
//
// Clipping (clip_shared.h): a bar taller than the scale (cut at the top) gets a cap, an orange
// band with a dark edge over its top 3 pixels, 1.5 pixels wider than the bar on each side; the
// share of pixels at each end code (from the statistics histogram, one level per code) is
// drawn as a marker in the bars' top corners; with kEndsOwnScale the end bins are drawn to their
// own scale (full height = every pixel; the scale buffer given is then that of the bins between
// them) and set off by dotted lines.
//
// The cumulative histogram (hist_cdf.comp's prefix sum, at one level per code) is drawn with
// the same masks and palette: per channel either instead of the histogram, as the area under
// the CDF, or over it, as a curve (a pixel is on the curve when its height lies between the
// CDF's values at the left and right edges of its column, give or take 1.5 pixels, so steep
// steps are drawn as vertical strokes).
#ifndef VHIST_HISTOGRAM_BARS_GLSL
#define VHIST_HISTOGRAM_BARS_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "vhist/clip_shared.h"

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
layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer Cumulative {
  uvec4 level[];  // R, G, B, L cumulative counts
};
layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer ReferenceBars {
  vec4 bin[];  // R, G, B, L: the reference's counts at the live histogram's bins and pixel count
};

// Scale modes: the articles' automatic scale (the scale pass), logarithmic, fixed.
const uint kScaleAuto = 0u;
const uint kScaleLog = 1u;
const uint kScaleFixed = 2u;

// What one histogram quad draws.
struct Bars {
  uvec2 histogram;    // `bins` records
  uvec2 scale;
  uvec2 cdf;          // `levels` records; read only when cdf_fill or cdf_line has bits
  uint bins;
  uint levels;
  uint mode;          // kScale*
  float pixels;
  uvec4 channel_mult;
  uint cdf_fill;      // bit c: channel c drawn as the area under its CDF instead of its histogram
  uint cdf_line;      // bit c: channel c's CDF drawn as a curve over the bars
  uvec2 reference;    // `bins` records; read only when reference_line has bits
  uint reference_line;  // bit c: channel c's reference drawn as an outline over the bars
  uvec2 level_counts;   // the statistics histogram, `levels` records (its first and last: the end codes)
  uint ends;            // kEndsMarkers, kEndsOwnScale
};

// Bar heights (0..1 of the quad) of four counts by the quad's scale mode.
vec4 bar_heights(Bars b, vec4 counts) {
  if (b.mode == kScaleLog) {
    const vec4 top = log2(vec4(Scale(b.scale).max_count) + 1.0);
    return log2(counts + 1.0) / max(top, vec4(1e-6));
  }
  if (b.mode == kScaleFixed) {
    // Full height when a bin holds five times its share of a flat histogram.
    return counts * (float(b.bins) / (5.0 * b.pixels));
  }
  return counts * Scale(b.scale).scale;
}

// The reference's bar heights at u (0..1 across the quad).
vec4 reference_heights(Bars b, float u) {
  const uint bin = min(uint(clamp(u, 0.0, 1.0) * float(b.bins)), b.bins - 1u);
  return bar_heights(b, ReferenceBars(b.reference).bin[bin]);
}

// The CDF of channel c at u (0..1 across the quad) as a fraction of the pixels.
float cdf_height(Bars b, float u, uint c) {
  const uint level = min(uint(clamp(u, 0.0, 1.0) * float(b.levels)), b.levels - 1u);
  return float(Cumulative(b.cdf).level[level][c]) / b.pixels;
}

// Heights of an end bin's four counts on the ends' own scale: full height = every pixel.
vec4 end_heights(Bars b, vec4 counts) {
  if (b.mode == kScaleLog) return log2(counts + 1.0) / max(log2(b.pixels + 1.0), 1e-6);
  return counts / b.pixels;
}

bool is_end_bin(Bars b, uint bin) { return (b.ends & kEndsOwnScale) != 0u && (bin == 0u || bin + 1u == b.bins); }

// The bar heights of the bin at u (0..1 across the quad): the histogram's (the ends' own scale
// for the end bins when asked), or the area under the CDF for the channels drawn so.
vec4 column_heights(Bars b, float u) {
  const uint bin = min(uint(clamp(u, 0.0, 1.0) * float(b.bins)), b.bins - 1u);
  const vec4 counts = vec4(Histogram(b.histogram).bin[bin]);
  vec4 heights = is_end_bin(b, bin) ? end_heights(b, counts) : bar_heights(b, counts);
  for (uint c = 0u; c < 4u; ++c) {
    if ((b.cdf_fill & (1u << c)) != 0u) heights[c] = cdf_height(b, u, c);
  }
  return heights;
}

// Whether a drawn histogram bar (not a CDF area) at u is taller than the scale by more than half
// a pixel (`pixel_y`: one pixel in heights; a bar of the maximum count may round a hair above 1).
bool bar_cut(Bars b, float u, float pixel_y) {
  if (u < 0.0 || u >= 1.0) return false;
  const vec4 h = column_heights(b, u);
  for (uint c = 0u; c < 4u; ++c) {
    if (b.channel_mult[c] != 0u && (b.cdf_fill & (1u << c)) == 0u && h[c] > 1.0 + 0.5 * pixel_y) return true;
  }
  return false;
}

// The clip markers' colour at uv (alpha 0: none): the palette colour of the channels whose
// marker covers the pixel, darkened along each marker's edge.
vec4 clip_marker_colour(Bars b, uvec2 palette, vec2 uv, vec2 pixel) {
  const float height = 1.0 / pixel.y, dy = uv.y / pixel.y;
  const float left = uv.x / pixel.x, right = (1.0 - uv.x) / pixel.x;
  if (min(left, right) + dy >= vhist_clip_marker(1.0, 1.0, height)) return vec4(0.0);  // past the largest
  const bool low = left <= right;
  const uvec4 counts = Histogram(b.level_counts).bin[low ? 0u : b.levels - 1u];
  const float dx = low ? left : right;
  uint index = 0u;
  bool edge = false;
  for (uint c = 0u; c < 4u; ++c) {
    if (b.channel_mult[c] == 0u) continue;
    const float leg = vhist_clip_marker(float(counts[c]), b.pixels, height);
    if (!vhist_in_clip_marker(dx, dy, leg)) continue;
    index += b.channel_mult[c];
    edge = edge || dx + dy >= leg - 1.0;
  }
  if (index == 0u) return vec4(0.0);
  const vec3 colour = Palette(palette).colour[index].rgb;
  return vec4(edge ? colour * 0.35 : colour, 1.0);
}

// The colour at uv (0..1 across the quad, y down); `pixel` is the size of one pixel in uv units.
// Index 0 (no bar) is the palette's background at `opacity`; a CDF curve is opaque, drawn in its
// channels' palette colour, darkened or lightened where it crosses a bar so it stays visible.
vec4 bars_colour(Bars b, uvec2 palette, float opacity, vec2 uv, vec2 pixel) {
  if ((b.ends & kEndsMarkers) != 0u) {
    const vec4 marker = clip_marker_colour(b, palette, uv, pixel);
    if (marker.a > 0.0) return marker;
  }
  const vec4 heights = column_heights(b, uv.x);
  const bvec4 reached = greaterThan(heights, vec4(1.0 - uv.y));  // bars grow up from the bottom
  const uint index = (reached.x ? b.channel_mult.x : 0u) + (reached.y ? b.channel_mult.y : 0u) +
                     (reached.z ? b.channel_mult.z : 0u) + (reached.w ? b.channel_mult.w : 0u);
  vec4 colour = Palette(palette).colour[index];
  if (index == 0u) colour.a *= opacity;
  const float y = 1.0 - uv.y;
  const float row = uv.y / pixel.y;  // pixels below the top
  if (row < 3.0 && (bar_cut(b, uv.x, pixel.y) || bar_cut(b, uv.x - 1.5 * pixel.x, pixel.y) ||
                   bar_cut(b, uv.x + 1.5 * pixel.x, pixel.y))) {
    return row < 2.0 ? vec4(kClipCapR, kClipCapG, kClipCapB, 1.0) : vec4(0.0, 0.0, 0.0, 1.0);
  }
  if ((b.ends & kEndsOwnScale) != 0u && b.bins > 2u && mod(floor(row), 4.0) < 2.0) {
    // Dotted lines between the end bins and the rest: the last column of bin 0 and the first of the last bin.
    const float x = uv.x * float(b.bins), step = pixel.x * float(b.bins);
    if ((x >= 1.0 - step && x < 1.0) || (x >= float(b.bins - 1u) && x < float(b.bins - 1u) + step)) {
      return vec4(0.8, 0.8, 0.8, 1.0);
    }
  }
  if (b.reference_line != 0u) {
    // The reference's outline: a pixel is on it when its height lies between the reference's
    // heights at the left and right edges of its column, give or take one pixel (so the steps
    // between bins are drawn as vertical strokes); light, so it reads over bars and background.
    const vec4 lo = reference_heights(b, uv.x - 0.5 * pixel.x), hi = reference_heights(b, uv.x + 0.5 * pixel.x);
    uint outline = 0u;
    for (uint c = 0u; c < 4u; ++c) {
      if ((b.reference_line & (1u << c)) == 0u || b.channel_mult[c] == 0u) continue;
      if (y >= min(lo[c], hi[c]) - pixel.y && y <= max(lo[c], hi[c]) + pixel.y) outline += b.channel_mult[c];
    }
    if (outline != 0u) return vec4(mix(Palette(palette).colour[outline].rgb, vec3(1.0), 0.55), 1.0);
  }
  if (b.cdf_line == 0u) return colour;

  uint line = 0u;
  for (uint c = 0u; c < 4u; ++c) {
    if ((b.cdf_line & (1u << c)) == 0u || b.channel_mult[c] == 0u) continue;
    const float lo = cdf_height(b, uv.x - 0.5 * pixel.x, c);
    const float hi = cdf_height(b, uv.x + 0.5 * pixel.x, c);
    if (y >= lo - 1.5 * pixel.y && y <= hi + 1.5 * pixel.y) line += b.channel_mult[c];
  }
  if (line == 0u) return colour;
  vec3 stroke = Palette(palette).colour[line].rgb;
  if (index != 0u) {
    const float luminance = dot(stroke, vec3(0.2126, 0.7152, 0.0722));
    stroke = luminance > 0.5 ? stroke * 0.3 : mix(stroke, vec3(1.0), 0.6);
  }
  return vec4(stroke, 1.0);
}

#endif  // VHIST_HISTOGRAM_BARS_GLSL
