#version 460
// The viewer's picture, the one drawing path (the window copies it into the swapchain image; the
// benchmark and the tests read it back): the video placed by the fit mode (bilinear, clamped),
// upright, with the exposure marks and the HDR display mapping, and the histogram panels with the
// articles' bit-mask colours, the cumulative histogram and the overlay (overlay.glsl) blended over
// it, black outside the picture's area, into a tightly packed buffer of 8-bit RGBA (or BGRA)
// pixels. Several dispatches of this shader, specialized (below): the video pass over the
// target, then each panel's passes over its own pixels; each pixel is written by one of them.
// The parameters are a uniform buffer: lavapipe reads a uniform field once for a whole vector
// of invocations, and memory reached by address once per invocation.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
// Specialized: 1 in the pipeline for PQ and HLG pictures (params.hdr says which), 0 in the SDR
// one, which then carries none of the display mapping's code.
layout(constant_id = 0) const uint kHdrDisplay = 0u;
// Specialized: 0 in the video pass (every pixel outside the panels), 1 in the panels' pass (one
// dispatch per panel over its rect), which alone carries the panels' code. On lavapipe, where
// every invocation runs all of the shader's code (branches only mask lanes), the video pixels
// then cost only the video's code.
layout(constant_id = 1) const uint kPanels = 0u;
// Specialized: what a panel's pass draws (kPart*). A panel that overlaps no other is drawn over
// its bars' rect by the bars pass (no overlay code; the whole pass when the overlay lies over
// the bars) and over the strips round them by the frame pass (no bars code); any other panel
// by the whole pass over its rect.
layout(constant_id = 2) const uint kPart = 3u;
const uint kPartBars = 1u;
const uint kPartFrame = 2u;
const uint kPartWhole = 3u;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer OutWords {
  uint word[];
};

#define VHIST_SHADER_composite
#include "vhist/draw_shared.h"  // CompositeParams (`params`), the push constants, OverlayItem
#include "overlay.glsl"
#include "stored_uv.glsl"
#include "exposure.glsl"
#include "hdr_display.glsl"

// The codes of stored pixel q (clamped to the frame), of the equalized frame or the original.
uvec3 texel(ivec2 q, bool equalized) {
  q = clamp(q, ivec2(0), ivec2(params.width - 1u, params.height - 1u));
  const uint index = uint(q.y) * params.width + uint(q.x);
  Words words = Words(equalized ? params.equalized : params.frame);
  if (params.bits == 8u) {
    const uint w = words.word[index];
    return uvec3(w & 0xffu, (w >> 8u) & 0xffu, (w >> 16u) & 0xffu);
  }
  const uint w0 = words.word[2u * index];
  const uint w1 = words.word[2u * index + 1u];
  return uvec3(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu);
}

// The video at pixel centre `centre`: placed in the area by the fit mode (video_rect, black
// outside it), upright, the equalized frame right of
// the divider.
vec3 video_colour(vec2 centre) {
  const vec4 r = params.video_rect;
  if (centre.x < r.x || centre.x >= r.z || centre.y < r.y || centre.y >= r.w) return vec3(0.0);
  const vec2 uv = stored_uv((centre - r.xy) / (r.zw - r.xy), params.rotation);
  const vec2 pos = uv * vec2(params.width, params.height) - 0.5;
  const ivec2 q = ivec2(floor(pos));
  const vec2 f = pos - vec2(q);
  const bool eq = (params.equalized.x | params.equalized.y) != 0u && centre.x >= params.split_x;
  const uvec3 c00 = texel(q, eq), c10 = texel(q + ivec2(1, 0), eq);
  const uvec3 c01 = texel(q + ivec2(0, 1), eq), c11 = texel(q + ivec2(1, 1), eq);
  if (params.divider != 0u && abs(centre.x - params.split_x) < 1.0) return vec3(0.9);
  const vec3 top = mix(vec3(c00), vec3(c10), f.x), bottom = mix(vec3(c01), vec3(c11), f.x);
  // An HDR original tone-mapped for display (the equalized frame is shown as codes).
  vec3 colour = mix(top, bottom, f.y) / float((1u << params.bits) - 1u);
  if (kHdrDisplay != 0u) colour = hdr_to_sdr(colour, eq ? kHdrNone : params.hdr, params.hdr_peak, params.hdr_target);
  if (params.marks == 0u) return colour;
  // The marks are decided per stored pixel: the one under this pixel's centre (floor(uv * size),
  // which is q plus one where f >= 0.5: one of the four), its codes exact.
  const uvec3 codes = f.y >= 0.5 ? (f.x >= 0.5 ? c11 : c01) : (f.x >= 0.5 ? c10 : c00);
  return exposure_marked(colour, codes, centre, params.marks, params.zebra_low, params.zebra_high, params.bits,
                         params.phase, uvec3(params.range_mask, params.range_low, params.range_high), params.band_lo, params.band_hi);
}

// Whether pixel centre c lies in rect r (x0, y0, x1, y1): left and top edges in, right and bottom out.
bool covers(vec4 r, vec2 c) { return c.x >= r.x && c.x < r.z && c.y >= r.y && c.y < r.w; }

void main() {
  const uvec2 px = gl_GlobalInvocationID.xy + uvec2(pc.x0, pc.y0);
  if (px.x >= params.target_w || px.y >= params.target_h) return;
  const vec2 centre = vec2(px) + 0.5;
  const bool inside = covers(params.area, centre);
  // The pass of panel pc.quad draws the pixels of its rect that no earlier panel covers (their
  // pass drew them); the video pass, every pixel no panel covers.
  uint first = params.quad_count;
  for (uint i = 0u; inside && i < params.quad_count; ++i) {
    if (covers(params.quad_rect[i], centre)) {
      first = i;
      break;
    }
  }
  if (kPanels != 0u ? first != pc.quad : first != params.quad_count) return;
  if (kPart == kPartFrame && covers(params.quad_bars[first], centre)) return;
  vec3 colour = vec3(0.0);
  if (inside && params.has_video != 0u) colour = video_colour(centre);
  if (kPanels != 0u) {
    for (uint i = first; i < params.quad_count; ++i) {
      if (!covers(params.quad_rect[i], centre)) continue;
      const Bars b = Bars(params.histogram, params.scale, params.cdf, params.bins, params.levels, params.mode,
                          params.pixels, params.quad_mult[i], params.cdf_fill, params.cdf_line, params.reference,
                          params.reference_line, params.level_counts, params.ends);
      const vec4 c = panel_colour(b, params.palette, params.opacity, params.quad_bars[i], params.overlay,
                                  params.overlay_first[i], params.overlay_count[i], params.overlay_over_bars[i], centre,
                                  kPart != kPartFrame, kPart != kPartBars);
      colour = mix(colour, c.rgb, c.a);
    }
  }
  uvec3 v = uvec3(round(clamp(colour, 0.0, 1.0) * 255.0));
  if (params.bgra != 0u) v = v.bgr;
  OutWords(params.output_).word[px.y * params.target_w + px.x] = v.r | (v.g << 8u) | (v.b << 16u) | 0xff000000u;
}
