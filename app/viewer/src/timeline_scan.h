// The viewer's background scan for the timeline (docs/architecture.md, "The timeline"): `vhist qc
// FILE --timeline-file CACHE --progress-fd 3 -q` run as a child process of the viewer, with its own
// decoder and engine, at a lower priority than playback (nice 10 and SCHED_IDLE, so that the
// player's threads always come first), and crash-isolated: a failing scan is a message in the
// strip, never a viewer that stops. The child writes "frames_done expected_frames\n" lines to
// fd 3 and the timeline file (timeline_file.h) atomically when it has finished; the viewer then
// loads it. A file scanned before is loaded from the cache at once when its identity (path, size,
// modification time) still matches. Main thread only.
#pragma once

#include "vhist/qc/timeline_file.h"

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace vhist::viewer {

class TimelineScan {
 public:
  enum class State {
    none,      // no input, or the timeline is turned off
    live,      // a camera: no timeline for live input
    scanning,  // the child runs
    ready,     // file() holds the timeline (from the cache or the scan)
    failed,    // message() says why
  };

  TimelineScan() = default;
  ~TimelineScan();
  TimelineScan(const TimelineScan&) = delete;
  TimelineScan& operator=(const TimelineScan&) = delete;

  // Stops any scan, then loads the cached timeline of `input` or starts scanning it. `live`: a
  // camera (State::live). `executable`: the vhist to run (empty: /proc/self/exe).
  void start(const std::string& input, bool live, const std::string& executable = {});
  // Ends the child (SIGTERM, then SIGKILL after half a second) and forgets the input.
  void stop();
  // Once a tick: reads the child's progress, and when it has ended, loads what it wrote. Returns
  // true when the timeline (or the state) changed.
  bool poll();

  State state() const { return state_; }
  const std::string& message() const { return message_; }
  const std::string& input() const { return input_; }
  // Progress while scanning (expected 0: not known yet).
  std::int64_t frames_done() const { return done_; }
  std::int64_t frames_expected() const { return expected_; }
  // The timeline once State::ready.
  const qc::TimelineFile* file() const { return file_ ? &*file_ : nullptr; }
  bool from_cache() const { return from_cache_; }
  // A number that changes whenever file() does (the strip redraws its cells then).
  std::uint64_t version() const { return version_; }
  // Children started since the viewer began (the test state line: a cached reopen starts none).
  int spawned() const { return spawned_; }

 private:
  void spawn(const std::string& executable);
  void read_progress();
  void read_errors();
  void finished(int status);
  void close_pipes();

  State state_ = State::none;
  std::string input_, cache_path_, message_, child_errors_, partial_line_;
  std::optional<qc::InputIdentity> identity_;
  std::optional<qc::TimelineFile> file_;
  pid_t child_ = -1;
  int progress_fd_ = -1, error_fd_ = -1;
  std::int64_t done_ = 0, expected_ = 0;
  bool from_cache_ = false;
  std::uint64_t version_ = 0;
  int spawned_ = 0;
};

std::string_view to_string(TimelineScan::State state);

}  // namespace vhist::viewer
