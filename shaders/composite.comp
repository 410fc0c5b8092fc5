#version 460
// The viewer's picture drawn by a compute pass instead of the rasterizer: the video placed by the
// fit mode (bilinear, clamped, as the sampler does) and the histogram quads with the articles' bit-mask
// colours blended over it, into a tightly packed RGBA8 buffer. For GPUs whose graphics units are
// few or absent (data-centre parts such as the H100/H200 run the render pass several times
// slower than this pass) and for headless use. Same geometry and colours as video.frag and
// histogram.frag, equalization, the cumulative histogram, the picture's area, the frame's
// rotation and the panels' overlay (overlay.glsl) included.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "histogram_bars.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
// Specialized: 1 in the pipeline for PQ and HLG pictures (p.hdr says which), 0 in the SDR one,
// which then carries none of the display mapping's code (as video.frag).
layout(constant_id = 0) const uint kHdrDisplay = 0u;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer OutWords {
  uint word[];
};

#define VHIST_SHADER_composite
#include "vhist/draw_shared.h"  // CompositeParams, the push constants, OverlayItem
#include "overlay.glsl"
#include "stored_uv.glsl"
#include "exposure.glsl"
#include "hdr_display.glsl"

// The frame's codes at q (clamped to the edges), of the equalized frame when asked, in [0, 1].
// The codes of stored pixel q (clamped to the frame), of the equalized frame or the original.
uvec3 texel(CompositeParams p, ivec2 q, bool equalized) {
  q = clamp(q, ivec2(0), ivec2(p.width - 1u, p.height - 1u));
  const uint index = uint(q.y) * p.width + uint(q.x);
  Words words = Words(equalized ? p.equalized : p.frame);
  if (p.bits == 8u) {
    const uint w = words.word[index];
    return uvec3(w & 0xffu, (w >> 8u) & 0xffu, (w >> 16u) & 0xffu);
  }
  const uint w0 = words.word[2u * index];
  const uint w1 = words.word[2u * index + 1u];
  return uvec3(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu);
}

// The video at pixel centre `centre`: placed in the area by the fit mode (video_rect, black
// outside it as the rasterizer leaves the clear colour), upright, the equalized frame right of
// the divider.
vec3 video_colour(CompositeParams p, vec2 centre) {
  const vec4 r = p.video_rect;
  if (centre.x < r.x || centre.x >= r.z || centre.y < r.y || centre.y >= r.w) return vec3(0.0);
  const vec2 uv = stored_uv((centre - r.xy) / (r.zw - r.xy), p.rotation);
  const vec2 pos = uv * vec2(p.width, p.height) - 0.5;
  const ivec2 q = ivec2(floor(pos));
  const vec2 f = pos - vec2(q);
  const bool eq = (p.equalized.x | p.equalized.y) != 0u && centre.x >= p.split_x;
  const uvec3 c00 = texel(p, q, eq), c10 = texel(p, q + ivec2(1, 0), eq);
  const uvec3 c01 = texel(p, q + ivec2(0, 1), eq), c11 = texel(p, q + ivec2(1, 1), eq);
  if (p.divider != 0u && abs(centre.x - p.split_x) < 1.0) return vec3(0.9);
  const vec3 top = mix(vec3(c00), vec3(c10), f.x), bottom = mix(vec3(c01), vec3(c11), f.x);
  // An HDR original tone-mapped for display (the equalized frame is shown as codes).
  vec3 colour = mix(top, bottom, f.y) / float((1u << p.bits) - 1u);
  if (kHdrDisplay != 0u) colour = hdr_to_sdr(colour, eq ? kHdrNone : p.hdr, p.hdr_peak, p.hdr_target);
  if (p.marks == 0u) return colour;
  // The marks are decided per stored pixel: the one under this pixel's centre (floor(uv * size),
  // which is q plus one where f >= 0.5: one of the four), its codes exact.
  const uvec3 codes = f.y >= 0.5 ? (f.x >= 0.5 ? c11 : c01) : (f.x >= 0.5 ? c10 : c00);
  return exposure_marked(colour, codes, centre, p.marks, p.zebra_low, p.zebra_high, p.bits, p.phase,
                         uvec3(p.range_mask, p.range_low, p.range_high), p.band_lo, p.band_hi);
}

void main() {
  CompositeParams p = pc.params;
  uvec2 px = gl_GlobalInvocationID.xy;
  if (px.x >= p.target_w || px.y >= p.target_h) return;
  vec2 centre = vec2(px) + 0.5;
  vec3 colour = vec3(0.0);
  const bool inside = centre.x >= p.area.x && centre.x < p.area.z && centre.y >= p.area.y && centre.y < p.area.w;
  if (inside && p.has_video != 0u) colour = video_colour(p, centre);
  for (uint i = 0u; inside && i < p.quad_count; ++i) {
    vec4 r = p.quad_rect[i];
    if (centre.x < r.x || centre.x >= r.z || centre.y < r.y || centre.y >= r.w) continue;
    const Bars b = Bars(p.histogram, p.scale, p.cdf, p.bins, p.levels, p.mode, p.pixels, p.quad_mult[i], p.cdf_fill,
                        p.cdf_line, p.reference, p.reference_line, p.level_counts, p.ends);
    const vec4 c = panel_colour(b, p.palette, p.opacity, p.quad_bars[i], p.overlay, p.overlay_first[i],
                                p.overlay_count[i], p.overlay_over_bars[i], centre);
    colour = mix(colour, c.rgb, c.a);
  }
  uvec3 v = uvec3(round(clamp(colour, 0.0, 1.0) * 255.0));
  OutWords(p.output_).word[px.y * p.target_w + px.x] = v.r | (v.g << 8u) | (v.b << 16u) | 0xff000000u;
}
