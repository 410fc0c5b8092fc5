// The CPU engine: converts and histograms decoded frames on the CPU's cores, for machines whose
// Vulkan device is itself a CPU (lavapipe), where a plain multi-threaded loop is several times
// faster than emulated compute shaders. It uses the same arithmetic as the GPU passes
// (colour_shared.h and shader_shared.h), so its histograms equal the reference's exactly.
#pragma once

#include "vhist/compute/histogram_types.h"
#include "vhist/compute/video_frame.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace vhist {

class CpuEngine {
 public:
  // `threads` workers in all (the calling thread is one of them); 0: one per hardware thread.
  explicit CpuEngine(unsigned threads = 0);
  ~CpuEngine();
  CpuEngine(const CpuEngine&) = delete;
  CpuEngine& operator=(const CpuEngine&) = delete;

  unsigned threads() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  // Equals reference_histogram(reference_convert(format, planes), converted_format(format), bins).
  // Throws std::invalid_argument when the format or bin count is not supported.
  Histogram histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins);

 private:
  // Runs job(i) for i in [0, threads()) on all workers and waits for all of them.
  void run_on_all(const std::function<void(unsigned)>& job);
  void worker_loop(unsigned index);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_cv_, done_cv_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stopping_ = false;
  std::vector<std::vector<std::uint32_t>> partial_;  // per worker: 4 channels x bins counts
};

}  // namespace vhist
