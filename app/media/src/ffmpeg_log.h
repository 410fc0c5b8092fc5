// FFmpeg's log, one policy for all of app/media (internal: files, cameras). FFmpeg keeps one
// global log level and callback, so the policy is set once, by install_ffmpeg_logging(), before
// the first libav* call of every entry point (MediaSource::open*, CameraSource::open).
//
// The policy: FFmpeg prints nothing on stderr. Lines at error level or worse are routed to the
// LogSink of the input they belong to (the first goes into the report and into open errors):
// the sink set on the calling thread by ScopedSink, or for a decoder's own worker threads the
// sink in the AVCodecContext's `opaque`. Lines that belong to no sink (a camera's failed ioctls
// after an unplug) are dropped. VHIST_FFMPEG_LOG=1 (any value but empty or "0") leaves FFmpeg's
// own logging on stderr instead, for debugging; sinks then see nothing.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace vhist::media {

// Sets the policy above; does its work once per process however often and from whichever
// threads it is called.
void install_ffmpeg_logging();

// Where the error lines of one input go. A decoder context may point at it (`opaque`) only while
// it lives: the callback uses a context's opaque only when it is a live sink.
struct LogSink {
  LogSink();
  ~LogSink();
  LogSink(const LogSink&) = delete;
  LogSink& operator=(const LogSink&) = delete;

  std::mutex mutex;         // guards the fields below
  std::string first_error;
  std::int64_t errors = 0;  // messages at error level or worse
  std::string not_allowed;  // a "Protocol '...' not on whitelist" line
  std::string refused_format;  // a demuxer not allowed (input_rules.h): "concat"
  std::string outside;         // a nested open refused by FfmpegSource::nested_open: why
  std::string last_error;
  // Hardware decoding (hw_decode.h): the hwaccel was chosen by get_format, the error count then
  // (lines logged by a hwaccel that then refused the stream are its reason, not decode errors),
  // why frames come from the CPU decoder (empty while they do not).
  bool hw_chosen = false;
  std::int64_t hw_mark = 0;
  std::string hw_fallback;
};

// Routes the calling thread's FFmpeg error lines to `sink` for the object's lifetime (the
// previous sink, if any, comes back after).
class ScopedSink {
 public:
  explicit ScopedSink(LogSink* sink);
  ~ScopedSink();
  ScopedSink(const ScopedSink&) = delete;
  ScopedSink& operator=(const ScopedSink&) = delete;

 private:
  LogSink* previous_;
};

// The sink set on the calling thread; nullptr when none.
LogSink* current_log_sink();

}  // namespace vhist::media
