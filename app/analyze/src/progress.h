// analyze's progress line on stderr. Not for other code.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace vhist::app {

// The progress line on stderr: drawn at most 10 times a second, only on a terminal.
class Progress {
 public:
  Progress(bool enabled, std::int64_t expected) : enabled_(enabled), expected_(expected) {}
  void update(std::int64_t done, bool force = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double fps = seconds > 0 ? static_cast<double>(done) / seconds : 0;
    if (expected_ > 0) {
      const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(expected_));
      char bar[31];
      const int filled = static_cast<int>(fraction * 30);
      for (int i = 0; i < 30; ++i) bar[i] = i < filled ? '#' : '.';
      bar[30] = '\0';
      std::fprintf(stderr, "\r[%s] %lld/%lld frames  %.1f fps ", bar, static_cast<long long>(done),
                   static_cast<long long>(expected_), fps);
    } else {
      std::fprintf(stderr, "\r%lld frames  %.1f fps ", static_cast<long long>(done), fps);
    }
  }
  void clear() {
    if (enabled_) std::fputs("\r\033[K", stderr);
  }

 private:
  bool enabled_;
  std::int64_t expected_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace vhist::app
