// A fixed set of worker threads that run one job on all of them at once (fork-join): the CPU
// engine's row bands and the video pipeline's parallel staging copies.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace vhist {

class ThreadPool {
 public:
  // `threads` in all, the calling thread included (so threads - 1 are started); 0: one per
  // hardware thread.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  // Runs job(i) for every i in [0, size()), job(0) on the calling thread, and returns when all
  // have finished. One caller at a time. Exceptions thrown by a job terminate the program:
  // jobs must not throw.
  void run(const std::function<void(unsigned)>& job);

 private:
  void worker_loop(unsigned index);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_cv_, done_cv_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stopping_ = false;
};

}  // namespace vhist
