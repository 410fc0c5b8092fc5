// The process's peak resident memory, for the run summaries of `vhist analyze -v` and the viewer.
#pragma once

#include <sys/resource.h>

namespace vhist {

// The largest resident set this process has had so far, in MiB (Linux reports KiB).
inline double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace vhist
