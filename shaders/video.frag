#version 460
// The video: the converted R'G'B' frame (the histogram engine's input, rgba8 or rgba16 words in
// a buffer) sampled bilinearly at v_uv and written unchanged to the UNORM swapchain (the codes
// are already gamma-encoded). Edges clamp.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};

layout(push_constant) uniform Push {
  layout(offset = 32) uvec2 frame;  // device address of the R'G'B' frame
  uint width;
  uint height;
  uint bits;  // 8: rgba8 words; deeper: rgba16, codes of `bits` bits
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

vec3 texel(ivec2 p) {
  p = clamp(p, ivec2(0), ivec2(pc.width - 1u, pc.height - 1u));
  uint index = uint(p.y) * pc.width + uint(p.x);
  Words words = Words(pc.frame);
  if (pc.bits == 8u) {
    uint w = words.word[index];
    return vec3(w & 0xffu, (w >> 8u) & 0xffu, (w >> 16u) & 0xffu) / 255.0;
  }
  uint w0 = words.word[2u * index];
  uint w1 = words.word[2u * index + 1u];
  return vec3(w0 & 0xffffu, w0 >> 16u, w1 & 0xffffu) / float((1u << pc.bits) - 1u);
}

void main() {
  vec2 pos = v_uv * vec2(pc.width, pc.height) - 0.5;
  ivec2 p0 = ivec2(floor(pos));
  vec2 f = pos - vec2(p0);
  // At one window pixel per video pixel (and wherever a pixel centre meets a texel centre) the
  // weights are 0: one fetch instead of four (lavapipe runs this shader on the CPU).
  if (all(lessThan(f, vec2(1.0 / 512.0)))) {
    colour = vec4(texel(p0), 1.0);
    return;
  }
  vec3 top = mix(texel(p0), texel(p0 + ivec2(1, 0)), f.x);
  vec3 bottom = mix(texel(p0 + ivec2(0, 1)), texel(p0 + ivec2(1, 1)), f.x);
  colour = vec4(mix(top, bottom, f.y), 1.0);
}
