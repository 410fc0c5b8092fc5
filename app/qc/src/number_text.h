// The number format of qc's words (the checks' event details, the light limits' text).
#pragma once

#include <cstdio>
#include <string>

namespace vhist::qc {

// `v` with `digits` decimals: fixed(1000.0, 0) is "1000", fixed(0.125, 2) is "0.13".
inline std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace vhist::qc
