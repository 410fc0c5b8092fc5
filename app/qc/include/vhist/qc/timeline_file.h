// A scanned file's timeline and events on disk: what `vhist qc --timeline-file FILE` writes and the
// viewer's timeline reads (from its cache, so that reopening a file is instant). A binary file of
// fixed-size little-endian fields after a magic and a version; a file of another version, a
// truncated or corrupt one, or one made from a different input (size or modification time
// changed) is refused with a reason, and the viewer scans again.
#pragma once

#include "vhist/qc/checks.h"
#include "vhist/qc/timeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vhist::qc {

struct InputIdentity {
  std::string path;             // absolute
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const InputIdentity&) const = default;
};
// The input's identity now; nullopt when it cannot be read (a camera, a pipe, a missing file).
std::optional<InputIdentity> identify_input(const std::string& path);

struct TimelineFile {
  InputIdentity input;
  double frame_rate = 0;  // nominal
  double duration = 0;    // seconds, as the container says (0: unknown)
  bool complete = false;  // every frame of the input was scanned (not interrupted or cut short)
  Timeline timeline;
  std::vector<Event> events;
};

// Writes `file` to `path` through a temporary file and a rename. Returns an error, empty if none.
std::string save_timeline(const std::string& path, const TimelineFile& file);
// Reads a timeline file; nullopt with `error` set when it is missing, of another version,
// truncated or corrupt.
std::optional<TimelineFile> load_timeline(const std::string& path, std::string& error);
// Where the viewer keeps the timeline of `input`: $XDG_CACHE_HOME/vhist/timelines (else
// ~/.cache/vhist/timelines), a file named by a hash of the input's identity.
std::string timeline_cache_path(const InputIdentity& input);

}  // namespace vhist::qc
