#version 460
// The window's present pass: the composite's picture (a buffer, 4 bytes a pixel, tightly packed,
// already in the swapchain image's byte order) stored into the swapchain image bound as a storage
// image, where vkCmdCopyBufferToImage into a swapchain image is slow (about 190 GB/s on an H100).
// B8G8R8A8 has no SPIR-V image format, so the image is written without one: a texel is given as
// four normalized floats in R, G, B, A order, which the image's format stores in its own byte
// order. A B8G8R8A8 picture word holds (B, G, R, A) in bytes 0..3, given as (byte 2, byte 1,
// byte 0, byte 3); an R8G8B8A8 one in order. Each byte lands where the copy put it.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "vhist/shader_shared.h"

// A warp reads 32 neighbouring words of a row (128 bytes); eight rows per workgroup suit tiled images.
layout(local_size_x = 32, local_size_y = 8) in;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer PictureWords {
  uint word[];
};
layout(set = 0, binding = 0) uniform writeonly image2D target;

#define VHIST_SHADER_present_pass
#include "vhist/compute_push.h"  // the push constants

void main() {
  const uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= pc.width || p.y >= pc.height) return;
  const uint w = pc.picture.word[p.y * pc.width + p.x];
  // Code k as (k + 0.25) / 255: converted back to UNORM8 it is k whether the conversion rounds to
  // nearest or toward zero (the spec allows either of the two nearest codes); 255 clamps to 1.
  vec4 texel = (vec4(uvec4(w, w >> 8, w >> 16, w >> 24) & 255u) + 0.25) / 255.0;
  if (pc.bgra != 0u) texel = texel.zyxw;
  imageStore(target, ivec2(p), texel);
}
