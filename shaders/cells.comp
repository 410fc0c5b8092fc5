#version 460
// The cells pass: the picture's cell sums (measures_shared.h, kCellColumns x kCellRows), one
// workgroup per cell, each the sum of one component's samples in it (Y'; G' of R'G'B' frames)
// as the decoder laid them out, for finding a held picture after lossy re-encoding
// (qc's frozen check). Each lane sums a share of the cell's samples; the workgroup adds the
// lanes' sums in shared memory and writes the cell's word of the measures buffer once.
// reference_cell_sums (frame_checksum.h) is its CPU reference. A cell of an 8K frame holds
// 240 x 240 samples: at 16 bits their sum stays below 2^32.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "vhist/colour_shared.h"
#include "vhist/measures_shared.h"

layout(local_size_x = 256) in;

layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer Words {
  uint word[];
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer MeasureWords {
  uint word[];
};

#define VHIST_SHADER_cells
#include "vhist/compute_push.h"  // the push constants

#include "plane_access.glsl"  // bits(), model(), read_sample()...

shared uint sum;

void main() {
  uint lane = gl_LocalInvocationID.x;
  if (lane == 0u) sum = 0u;
  barrier();
  uint cx = gl_WorkGroupID.x;
  uint cy = gl_WorkGroupID.y;
  uint x0 = vhist_cell_first(cx, pc.width, kCellColumns);
  uint y0 = vhist_cell_first(cy, pc.height, kCellRows);
  uint w = vhist_cell_first(cx + 1u, pc.width, kCellColumns) - x0;
  uint h = vhist_cell_first(cy + 1u, pc.height, kCellRows) - y0;
  uint c = vhist_cell_component(model());
  uint own = 0u;
  for (uint i = lane; i < w * h; i += gl_WorkGroupSize.x) {
    uint row = i / w;
    own += read_sample(c, x0 + (i - row * w), y0 + row);
  }
  atomicAdd(sum, own);
  barrier();
  if (lane == 0u) MeasureWords(pc.result).word[kMeasureCells + cy * kCellColumns + cx] = sum;
}
