#version 460
// A rectangle of a tightly packed frame copied out, its rows packed: the region of interest
// (region.h) for the histogram passes, which read whole packed frames. One invocation per word
// (a pixel is one word in RGBA8, two in RGBA16), one row of workgroups per row: a single
// dispatch, where one copy region per row costs about a microsecond each on some GPUs.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require
#include "vhist/shader_shared.h"

layout(local_size_x = 256) in;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer InWords {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer OutWords {
  uint word[];
};

#define VHIST_SHADER_rect_copy
#include "vhist/compute_push.h"  // the push constants

void main() {
  const uint row = gl_GlobalInvocationID.y;
  for (uint col = gl_GlobalInvocationID.x; col < pc.width_words; col += gl_NumWorkGroups.x * 256u) {
    pc.to.word[row * pc.width_words + col] = pc.from.word[(pc.y0 + row) * pc.stride_words + pc.x0_words + col];
  }
}
