#version 460
// The video: the converted R'G'B' frame, copied into a sampled image (R8G8B8A8 or R16G16B16A16
// UNORM) and filtered bilinearly by the sampler, clamped at the edges, written unchanged to the
// UNORM swapchain (the codes are already gamma-encoded). A 16-bit image holds codes of `bits`
// bits, so its UNORM value is rescaled to [0, 1] by `code_scale` = 65535 / (2^bits - 1).
layout(set = 0, binding = 0) uniform sampler2D video;

layout(push_constant) uniform Push {
  layout(offset = 32) float code_scale;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 colour;

void main() {
  colour = vec4(texture(video, v_uv).rgb * pc.code_scale, 1.0);
}
