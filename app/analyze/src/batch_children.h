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

// How one child ended.
struct ChildEnd {
  std::size_t item = 0;  // its index in the plan
  int status = 0;        // exit status, or 128 + the signal that killed it
  std::string error;     // its last message on standard error (failed runs)
  double seconds = 0;
};

class BatchChildren {
 public:
  // `forward`: options for every child's `vhist qc`.
  explicit BatchChildren(std::vector<std::string> forward) : forward_(std::move(forward)) {}
  ~BatchChildren();
  BatchChildren(const BatchChildren&) = delete;
  BatchChildren& operator=(const BatchChildren&) = delete;

  // Starts `vhist qc` on the item. Returns an error (the process could not be made), else empty.
  std::string start(const BatchItem& item, std::size_t index);
  std::size_t running() const { return children_.size(); }
  // Waits up to `timeout` for output or an end; returns the children that ended.
  std::vector<ChildEnd> wait(std::chrono::milliseconds timeout);
  // The running children's share of their files done (0..1 each, summed), and frames done.
  double running_share() const;
  std::int64_t frames() const;  // frames measured by the children, ended and running
  // Asks every child to stop (SIGTERM) and waits for them.
  void stop_all();

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
