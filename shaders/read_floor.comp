#version 460
// The bandwidth floor: reads every byte of the frame once, with the same access pattern as
// hist_fast.comp (persistent workgroups, 16-byte loads, grid stride) and no counting.
// The loaded data is folded into one word that is stored only if it equals a value passed in
// by the host, so the loads cannot be optimized away while (almost) nothing is written.
#extension GL_GOOGLE_include_directive : require
#include "frame_access.glsl"

layout(local_size_x_id = kSpecWorkgroupSize) in;

#define VHIST_SHADER_read_floor
#include "vhist/compute_push.h"  // the push constants

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uvec4 acc = uvec4(0u);
  uint i = gl_GlobalInvocationID.x;
  for (; i + stride < pc.block_count; i += 2u * stride) {
    acc ^= pc.frame.block[i];
    acc ^= pc.frame.block[i + stride];
  }
  if (i < pc.block_count) {
    acc ^= pc.frame.block[i];
  }
  const uint folded = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (folded == pc.sentinel) {
    pc.sink.count[0] = folded;
  }
}
