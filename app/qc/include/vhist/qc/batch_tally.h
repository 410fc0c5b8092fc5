// What became of a batch's inputs, counted from their rows' status and verdict: one rule for
// `vhist batch`'s last line and its index.html (html_report.h).
#pragma once

#include <cstddef>
#include <string_view>

namespace vhist::qc {

struct BatchTally {
  std::size_t passed = 0, failed = 0, errors = 0;
  std::size_t partial = 0;  // of the passed and failed: damaged inputs judged as far as they decode
  // A row: status "ok", "partial" or anything else (an error); qc "pass" or "fail".
  void add(std::string_view status, std::string_view qc) {
    if (status != "ok" && status != "partial") {
      ++errors;
      return;
    }
    partial += status == "partial" ? 1 : 0;
    ++(qc == "fail" ? failed : passed);
  }
};

}  // namespace vhist::qc
