#version 460
// The cells pass: the picture's cell sums (measures_shared.h, kCellColumns x kCellRows), each
// the sum of one component's samples in the cell (Y'; G' of R'G'B' frames) as the decoder laid
// them out, for finding a held picture after lossy re-encoding (qc's frozen check). One
// workgroup per row of cells; its lanes' sums are added in shared memory and each cell's word of
// the measures buffer written once.
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

shared uint sums[kCellColumns];

// One workgroup per row of cells; lane l sums cell column l % 32 over every 8th row of the cell
// row, starting at row l / 32: each lane reads runs of its cell's samples along a row.
void main() {
  uint lane = gl_LocalInvocationID.x;
  if (lane < kCellColumns) sums[lane] = 0u;
  barrier();
  uint cx = lane % kCellColumns;
  uint cy = gl_WorkGroupID.x;
  uint x0 = vhist_cell_first(cx, pc.width, kCellColumns);
  uint x1 = vhist_cell_first(cx + 1u, pc.width, kCellColumns);
  uint y1 = vhist_cell_first(cy + 1u, pc.height, kCellRows);
  uint c = vhist_cell_component(model());
  uint own = 0u;
  for (uint y = vhist_cell_first(cy, pc.height, kCellRows) + lane / kCellColumns; y < y1; y += 8u) {
    for (uint x = x0; x < x1; ++x) own += read_sample(c, x, y);
  }
  atomicAdd(sums[cx], own);
  barrier();
  if (lane < kCellColumns) MeasureWords(pc.result).word[kMeasureCells + cy * kCellColumns + lane] = sums[lane];
}
