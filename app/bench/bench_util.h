// Small helpers shared by the parts of vhist-bench.
#pragma once

#include "vhist/compute/frame_upload.h"
#include "vhist/render/context.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace vhist::bench {

// The median of the figures (mean of the middle two for an even count); v must not be empty.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Where FrameUpload stages frames on this device, under a table's title: the upload column means
// a copy only where frames are staged in host memory.
inline void print_staging(const render::Context& context) {
  const double heap_gib = static_cast<double>(context.host_visible_device_heap()) / (1u << 30);
  std::printf("staging: %s (largest device-local, host-visible heap: %.2f GiB)\n",
              heap_gib * (1u << 30) >= static_cast<double>(kDirectStagingHeap)
                  ? "device memory, read where it is written (no upload copy)"
                  : "host memory, copied to the device",
              heap_gib);
}

}  // namespace vhist::bench
