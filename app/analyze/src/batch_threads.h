// `vhist batch --workers threads`: each input's `vhist qc` runs on a thread of the batch's own
// process, and every input shares one Vulkan device (and, with NVDEC, the GPU's one primary CUDA
// context). A device and a CUDA context take about half a second each to start, and starts made
// side by side by several processes queue in the drivers; with threads they are made once. The
// price: a file that crashes its decoder takes the whole batch down (its completed rows stay,
// and the next run goes on from them), and a run stuck in a driver call cannot be killed alone.
// Each thread's messages are kept for its row (messages.h), as a child's standard error is.
#pragma once

#include "batch_children.h"

#include "vhist/command_line/command_line.h"
#include "vhist/render/context.h"

#include <atomic>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace vhist::app {

class BatchThreads final : public BatchWorkers {
 public:
  // `forward`: options for every input's `vhist qc` (as BatchChildren's).
  explicit BatchThreads(std::vector<std::string> forward) : forward_(std::move(forward)) {}
  ~BatchThreads() override;
  BatchThreads(const BatchThreads&) = delete;
  BatchThreads& operator=(const BatchThreads&) = delete;

  // The first start opens the shared device; when it cannot be opened, every start returns why.
  std::string start(const BatchItem& item, std::size_t index) override;
  std::size_t running() const override { return workers_.size(); }
  std::vector<ChildEnd> wait(std::chrono::milliseconds timeout) override;
  double running_share() const override;
  std::int64_t frames() const override;
  // The stop signal reaches every thread's run (stop_signals.h): waits for them to end.
  void stop_all() override;

 private:
  struct Worker {
    CommandLine line;  // the input's `vhist qc` options, read by its run
    std::size_t item = 0;
    std::atomic<std::int64_t> done{0}, expected{-1};
    bool ended = false;  // under mutex_
    ChildEnd end;
    std::thread thread;
  };
  // Opens the shared device for `options` once; returns why it cannot be, else empty.
  std::string open_device(const AnalyzeOptions& options);
  void work(Worker& w);

  std::vector<std::string> forward_;
  std::unique_ptr<render::Context> context_;
  bool device_tried_ = false;
  std::string device_error_;
  std::list<Worker> workers_;
  std::mutex mutex_;
  std::condition_variable ended_;
  std::int64_t frames_done_ = 0;  // of ended runs
};

}  // namespace vhist::app
