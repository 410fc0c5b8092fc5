// A scope guard: runs a callable when the scope ends, unless dismissed. For clean-ups that have
// no owner type of their own (a temporary file to remove on failure, a flag to reset).
#pragma once

#include <utility>

namespace vhist::util {

// Runs `f` once in the destructor unless dismiss() was called. `f` must not throw (it runs in a
// destructor). Neither copyable nor movable: it lives in the scope it guards.
//   ScopeGuard remove_tmp([&] { ::unlink(tmp.c_str()); });
//   ...
//   remove_tmp.dismiss();  // success: keep the file
template <class F>
class ScopeGuard {
 public:
  explicit ScopeGuard(F f) : f_(std::move(f)) {}
  ~ScopeGuard() {
    if (active_) f_();
  }
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;

  void dismiss() noexcept { active_ = false; }

 private:
  F f_;
  bool active_ = true;
};

}  // namespace vhist::util
