#version 460
// The scale pass (articles' part 2): per channel, the factor that maps a bin count to a bar
// height in [0, 1]: scale = max(1 / max_count, 0.2 * bins / pixels). With skip_ends, max_count
// is that of the bins between the end bins (the end bins drawn to their own scale).
// Both quotients are computed as the correctly rounded float of an exact integer quotient
// (1 / max_count and bins / (5 * pixels)), by long division in integers, so the GPU result does
// not depend on the device's float division precision and equals the CPU's bit for bit.
#extension GL_GOOGLE_include_directive : require
#include "frame_access.glsl"
#include "scale_quotient.glsl"

layout(local_size_x = kScaleWorkgroupSize) in;
layout(constant_id = kSpecBins) const uint kBins = 256u;

#define VHIST_SHADER_hist_scale
#include "vhist/compute_push.h"  // the push constants

shared uvec4 partial_max[kScaleWorkgroupSize];

void main() {
  const uint lid = gl_LocalInvocationIndex;
  uvec4 m = uvec4(0u);
  const uint first = pc.skip_ends != 0u ? 1u : 0u, end = pc.skip_ends != 0u ? kBins - 1u : kBins;
  for (uint bin = first + lid; bin < end; bin += kScaleWorkgroupSize) {
    const uint base = bin * kChannelCount;
    m = max(m, uvec4(pc.histogram.count[base], pc.histogram.count[base + 1u],
                     pc.histogram.count[base + 2u], pc.histogram.count[base + 3u]));
  }
  partial_max[lid] = m;
  barrier();
  for (uint half_size = kScaleWorkgroupSize / 2u; half_size > 0u; half_size /= 2u) {
    if (lid < half_size) {
      partial_max[lid] = max(partial_max[lid], partial_max[lid + half_size]);
    }
    barrier();
  }
  // One invocation per channel: the long divisions run side by side, not one after another.
  if (lid < kChannelCount) {
    const uint max_count = partial_max[0][lid];
    pc.scale.scale[lid] = channel_scale(max_count, kBins, pc.pixel_count);
    pc.scale.max_count[lid] = max_count;
  }
}
