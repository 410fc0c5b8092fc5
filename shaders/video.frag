#version 460
// The video: the converted R'G'B' frame, copied into a sampled image (R8G8B8A8 or R16G16B16A16
// UNORM) and filtered bilinearly by the sampler, clamped at the edges, written unchanged to the
// UNORM swapchain (the codes are already gamma-encoded). A 16-bit image holds codes of `bits`
// bits, so its UNORM value is rescaled to [0, 1] by `code_scale` = 65535 / (2^bits - 1).
//
// Right of `split_x` (window pixels) the picture is equalized (equalize.glsl): the four texels
// around the sample point are read as codes, equalized each, then interpolated, so the result
// is the bilinear filtering of the equalized frame. With `divider` set, a line marks the split.
#extension GL_GOOGLE_include_directive : require
#include "equalize.glsl"

layout(set = 0, binding = 0) uniform sampler2D video;

// Laid out as VideoPush in app/viewer/overlay.cpp; quad.vert reads the first 32 bytes.
layout(push_constant) uniform Push {
  layout(offset = 32) float code_scale;
  uint bits;
  uint levels;
  uint equalize;  // kEqualize*
  uvec2 table;
  float split_x;
  uint divider;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

vec3 equalized_texel(ivec2 q, ivec2 size, float stored_max, float top) {
  const vec3 stored = texelFetch(video, clamp(q, ivec2(0), size - 1), 0).rgb;
  const uvec3 codes = uvec3(round(stored * stored_max));
  return vec3(equalize_codes(pc.table, pc.equalize, codes, pc.levels, pc.bits)) / top;
}

void main() {
  if (pc.divider != 0u && abs(gl_FragCoord.x - pc.split_x) < 1.0) {
    colour = vec4(0.9, 0.9, 0.9, 1.0);
    return;
  }
  if (pc.equalize == kEqualizeOff || gl_FragCoord.x < pc.split_x) {
    colour = vec4(texture(video, v_uv).rgb * pc.code_scale, 1.0);
    return;
  }
  const ivec2 size = textureSize(video, 0);
  const float stored_max = pc.bits == 8u ? 255.0 : 65535.0;
  const float top = float((1u << pc.bits) - 1u);
  const vec2 pos = v_uv * vec2(size) - 0.5;
  const ivec2 q = ivec2(floor(pos));
  const vec2 f = pos - vec2(q);
  const vec3 upper = mix(equalized_texel(q, size, stored_max, top), equalized_texel(q + ivec2(1, 0), size, stored_max, top), f.x);
  const vec3 lower = mix(equalized_texel(q + ivec2(0, 1), size, stored_max, top),
                         equalized_texel(q + ivec2(1, 1), size, stored_max, top), f.x);
  colour = vec4(mix(upper, lower, f.y), 1.0);
}
