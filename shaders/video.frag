#version 460
// The video: the converted R'G'B' frame, copied into a sampled image (R8G8B8A8 or R16G16B16A16
// UNORM) and filtered bilinearly by the sampler, clamped at the edges, written unchanged to the
// UNORM swapchain (the codes are already gamma-encoded). A 16-bit image holds codes of `bits`
// bits, so its UNORM value is rescaled to [0, 1] by `code_scale` = 65535 / (2^bits - 1).
// The split view draws this quad twice, scissored: the original frame left of the divider, the
// equalized one (equalize.comp) right of it; with `divider` set, a line marks the split.
// v_uv runs across the upright picture; stored_uv() turns it into the stored frame's.
// A PQ or HLG frame is tone-mapped for display when `hdr` asks (hdr_display.glsl).
#extension GL_GOOGLE_include_directive : require
#include "stored_uv.glsl"
#include "exposure.glsl"
#include "hdr_display.glsl"
layout(set = 0, binding = 0) uniform sampler2D video;
// Specialized: 1 in the pipeline that draws PQ and HLG pictures (pc.hdr says which), 0 in the
// SDR one, which then carries none of the mapping's code (its registers slowed the exposure
// marks by a fifth at 4K on an H100, docs/benchmarks.md).
layout(constant_id = 0) const uint kHdrDisplay = 0u;

#define VHIST_SHADER_video_frag
#include "vhist/draw_shared.h"  // the push constants

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  if (pc.divider != 0u && abs(gl_FragCoord.x - pc.split_x) < 1.0) {
    colour = vec4(0.9, 0.9, 0.9, 1.0);
    return;
  }
  const vec2 uv = stored_uv(v_uv, pc.rotation);
  // An HDR source tone-mapped for this SDR target (hdr_display.glsl); the marks read the codes.
  vec3 rgb = texture(video, uv).rgb * pc.code_scale;
  if (kHdrDisplay != 0u) rgb = hdr_to_sdr(rgb, pc.hdr, pc.hdr_peak, pc.hdr_target);
  if (pc.marks != 0u) {
    // The marks are decided per stored pixel: the one under this fragment, its codes exact.
    const ivec2 size = textureSize(video, 0);
    const ivec2 texel = clamp(ivec2(floor(uv * vec2(size))), ivec2(0), size - 1);
    const float unorm_max = pc.bits == 8u ? 255.0 : 65535.0;
    const uvec3 codes = uvec3(round(texelFetch(video, texel, 0).rgb * unorm_max));
    rgb = exposure_marked(rgb, codes, gl_FragCoord.xy, pc.marks, pc.zebra_low, pc.zebra_high, pc.bits, pc.phase,
                          uvec3(pc.range_mask, pc.range_low, pc.range_high), pc.band_lo, pc.band_hi);
  }
  colour = vec4(rgb, 1.0);
}
