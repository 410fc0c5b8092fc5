// `vhist batch`'s workers: each input is a `vhist qc` child process (this executable again), so a
// file that crashes its decoder costs one row, and --jobs N run at once. The children report
// their frames through --progress-fd; their standard error is kept for the failed row's message.
#pragma once

#include "batch_plan.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace vhist::app {

// The `vhist qc` arguments (after the program's name) that analyse one item: its records,
// events and row, with `forward`'s options.
std::vector<std::string> qc_arguments(const BatchItem& item, const std::vector<std::string>& forward);
// The last non-empty line of what `vhist qc` said on standard error, without its prefix.
std::string last_message(const std::string& text);

// How one input's run (a child process, or a worker thread) ended.
struct ChildEnd {
  std::size_t item = 0;  // its index in the plan
  int status = 0;        // exit status, or 128 + the signal that killed it
  std::string error;     // its last message on standard error (failed runs)
  double seconds = 0;
};

// What runs the inputs' `vhist qc`, --jobs at a time: child processes (BatchChildren) or worker
// threads (BatchThreads, batch_threads.h).
class BatchWorkers {
 public:
  virtual ~BatchWorkers() = default;
  // Starts `vhist qc` on the item. Returns an error (it could not be started), else empty.
  virtual std::string start(const BatchItem& item, std::size_t index) = 0;
  virtual std::size_t running() const = 0;
  // Waits up to `timeout` for output or an end; returns the runs that ended.
  virtual std::vector<ChildEnd> wait(std::chrono::milliseconds timeout) = 0;
  // The running inputs' share of their files done (0..1 each, summed), and frames done.
  virtual double running_share() const = 0;
  virtual std::int64_t frames() const = 0;  // frames measured, by ended and running runs
  // After a stop signal: stops every run and waits for them.
  virtual void stop_all() = 0;
};

class BatchChildren final : public BatchWorkers {
 public:
  // `forward`: options for every child's `vhist qc`.
  explicit BatchChildren(std::vector<std::string> forward) : forward_(std::move(forward)) {}
  ~BatchChildren() override;
  BatchChildren(const BatchChildren&) = delete;
  BatchChildren& operator=(const BatchChildren&) = delete;

  std::string start(const BatchItem& item, std::size_t index) override;
  std::size_t running() const override { return children_.size(); }
  std::vector<ChildEnd> wait(std::chrono::milliseconds timeout) override;
  double running_share() const override;
  std::int64_t frames() const override;
  // Asks every child to stop (SIGTERM; SIGKILL after a grace time) and waits for them.
  void stop_all() override;

 private:
  struct Child {
    int pid = -1;
    int err = -1, progress = -1;  // read ends of the pipes
    std::size_t item = 0;
    std::string err_text, progress_text;
    std::int64_t done = 0, expected = -1;
    std::chrono::steady_clock::time_point started;
  };
  void read_from(Child& c, int fd);
  ChildEnd reap(Child& c, int wait_status);

  std::vector<std::string> forward_;
  std::vector<Child> children_;
  std::int64_t frames_done_ = 0;  // of ended children
};

}  // namespace vhist::app
