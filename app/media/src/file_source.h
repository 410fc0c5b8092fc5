// The file input behind MediaSource::open and open_memory (internal to app/media): FFmpeg
// demuxing and decoding on a thread of its own into a bounded queue of frames.
//
// Three files, by job:
//   file_source.cpp         the consumer's side: the queue, seeks, the report, the factories;
//   file_source_open.cpp    opening the input, in named steps (open_input);
//   file_source_decode.cpp  the decoding thread: read, decode, seek, end of input.
#pragma once

#include "av_handles.h"
#include "vhist/media/display_geometry.h"
#include "ffmpeg_log.h"
#include "vhist/media/media_source.h"
#include "vhist/media/pixel_formats.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

namespace vhist::media {

// An input held in memory, read through a custom AVIOContext (file_source_open.cpp).
struct MemoryInput {
  std::string bytes;
  std::size_t pos = 0;

  static int read(void* opaque, std::uint8_t* buf, int size);
  static std::int64_t seek(void* opaque, std::int64_t offset, int whence);
};

struct AvioFree {
  void operator()(AVIOContext* c) const;
};
using AvioPtr = std::unique_ptr<AVIOContext, AvioFree>;

class FfmpegSource final : public MediaSource {
 public:
  FfmpegSource(std::string path, const SourceOptions& options);
  ~FfmpegSource() override;
  FfmpegSource(const FfmpegSource&) = delete;
  FfmpegSource& operator=(const FfmpegSource&) = delete;

  // Reads `bytes` instead of the file: the path only names the input in messages.
  void use_memory(std::string_view bytes);
  // Opens the input and its decoder and fills info(). Throws MediaError (see MediaSource::open).
  void open_input();
  // Starts the decoding thread.
  void start();

  const MediaInfo& info() const override { return info_; }
  Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) override;
  void seek(double seconds) override;
  void seek_frame(std::int64_t index) override;
  void set_loop(bool loop) override { loop_ = loop; }
  DecodeReport report() const override;
  std::array<std::int64_t, 2> queue_depth() const override;

 private:
  struct Seek {
    double seconds = 0;
    bool by_frame = false;
  };
  struct End {};
  struct Failure {
    std::string message;
  };
  using Item = std::variant<DecodedFrame, End, Failure>;

  // Every other file or URL the input asks to open goes through nested_open (see the .cpp).
  static constexpr int kMaxNestedOpens = 256;
  static int interrupt(void* opaque);
  static int nested_open(AVFormatContext* s, AVIOContext** pb, const char* url, int flags, AVDictionary** options);

  // Opening, step by step (file_source_open.cpp).
  void check_input() const;
  void check_concat_list();  // a concat list: checked and kept in concat_list_, or MediaError
  AVFormatContext* new_format_context();
  void open_container(AVFormatContext* raw);
  [[noreturn]] void throw_open_failure(int ret) const;
  void read_stream_info();
  // The input is standard input ("-"), read through FFmpeg's pipe protocol.
  bool reads_stdin() const { return !memory_ && info_.path == "-"; }
  AVStream* choose_video_stream();
  void open_decoder(const AVStream& st);
  void read_timing(AVStream& st);
  void fill_info(const AVStream& st);
  void throw_refused_input() const;  // a refused nested open or too many of them: MediaError
  std::string nested_problem(const char* url) const;  // why `url` may not be opened; empty if it may
  std::string refusal() const;  // a file or format refused (input_rules.h), for a person; empty if none
  std::string first_log() const;

  // The consumer's side (file_source.cpp).
  void request_seek(Seek s);
  template <class F>
  void update_report(F&& f) {
    const std::lock_guard lock(mutex_);
    f(report_);
  }
  bool push(Item item);
  bool interrupted();

  // The decoding thread (file_source_decode.cpp).
  void run();
  void decode_loop();
  std::optional<std::pair<Seek, bool>> take_seek(bool at_end, bool& stop);
  bool handle_read_end(int ret, bool& read_error);
  void restart_for_loop();
  void queue_end();
  void begin_seek(const Seek& s, bool retry);
  void reset_pass(bool from_start);
  bool seek_to(std::int64_t ts);
  bool seek_to_start();
  bool before_keyframe(const AVPacket& packet);
  // Whether a packet or frame of timestamp `pts` (the stream's time base) is before the seek's
  // target (dropped once decoded): the decoder then skips the frames no other frame refers to
  // (AVDISCARD_NONREF), which changes no frame it outputs.
  bool pre_roll(std::int64_t pts) const;
  bool feed(const AVPacket* packet);
  bool receive_all();
  bool handle_frame(AvFramePtr decoded);
  // Gives `frame` its number (DecodedFrame::index), skipping frames lost before it.
  void number_frame(DecodedFrame& frame, double pts);
  double frame_time(const AVFrame& decoded);
  void note_error(const std::string& what, int err);
  void end_pass(bool read_error);
  std::string truncation() const;
  // Frames the container promised that are missing though the pass reached its end (lost in
  // the middle), less those already found by the gaps; 0 when that cannot be told.
  std::int64_t middle_shortfall() const;
  // Whether this pass, from the start, reached the last frame the container promised (its pts
  // at the rate), whatever was lost before it.
  bool reached_promised_end() const;

  // Fixed after open.
  SourceOptions options_;
  MediaInfo info_;
  mutable LogSink sink_;  // before the contexts: their logging may reach it until they are freed
  std::int64_t errors_before_decoding_ = 0;  // sink_.errors when the decode thread started
  std::unique_ptr<MemoryInput> memory_;  // open_memory's bytes (before io_ and format_: outlives them)
  // A concat list vhist has checked (concat_list.h): FFmpeg parses these bytes, not the file again.
  std::unique_ptr<MemoryInput> concat_list_;
  AvioPtr io_;                           // the reader of memory_ or concat_list_
  decltype(AVFormatContext::io_open) default_io_open_ = nullptr;
  bool opening_ = false;                 // in open_input (the worker has not started)
  int nested_opens_ = 0;
  bool too_many_opens_ = false;
  std::vector<std::string> roots_;  // the folders nested files must lie below (input_rules.h)
  bool confined_ = false;           // nested opens are checked against roots_
  std::atomic<bool> refused_open_{false};  // a nested open was refused (sink_.outside says why)
  FormatPtr format_;
  CodecPtr codec_;
  int stream_ = -1;
  AVRational time_base_{1, 1};
  std::int64_t start_ts_ = 0;
  double frame_rate_ = 0;
  std::int64_t promised_frames_ = -1;  // the container's frame count
  double promised_duration_ = -1;      // the video stream's duration, seconds (-1: unknown)

  // Shared with the consumer (mutex_).
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Item> queue_;
  std::optional<Seek> pending_;
  bool stop_ = false;
  bool failed_ = false;  // the thread ended on an error, queued last
  DecodeReport report_;
  std::atomic<bool> loop_;
  std::atomic<bool> abort_io_{false};
  const std::size_t capacity_;

  // The worker's own.
  // The decode thread's time in the decoder since the last frame out (DecodedFrame::decode_ms).
  std::chrono::steady_clock::duration decoder_time_{};
  FrameMapper mapper_;
  FrameGeometry geometry_;  // each frame's rotation and sample aspect ratio
  std::optional<Seek> reseek_;  // the seek landed after its target: again, earlier
  Seek last_seek_{};
  double reseek_backoff_ = 1.0;
  bool check_landing_ = false;
  // After a seek into the middle: packets are dropped until a keyframe (a container without an
  // index, such as MPEG-TS, lands on any packet; decoding from there gives damaged pictures),
  // at most kKeyWaitPackets of them (a stream that flags no keyframes is decoded as it comes).
  bool await_key_ = false;
  std::int64_t key_wait_ = 0;
  static constexpr std::int64_t kKeyWaitPackets = 2000;
  double drop_before_ = -std::numeric_limits<double>::infinity();
  bool reindex_ = false;
  std::int64_t next_index_ = 0;
  // Whether frame numbers are counted (from the start) or exact from the time after a seek (a
  // constant frame rate); false after a seek in a stream whose rate may vary.
  bool index_exact_ = true;
  bool constant_rate_ = false;
  double last_pts_ = -1;
  bool have_pts_ = false;
  // This pass (from open, a seek or a loop restart to the end of the input).
  bool pass_from_start_ = true;
  std::int64_t pass_frames_ = 0;
  double pass_max_pts_ = -1;
  std::int64_t pass_missing_ = 0;  // frames found missing by the gaps in this pass's timestamps
  double numbered_pts_ = 0;        // the pts of the last frame numbered in this pass
  bool have_numbered_ = false;
  // Since the last decoder flush: packets fed, frames out, decode errors; the packets and frames
  // of the pre-roll (before a seek's target, where frames are skipped on purpose) not counted.
  std::int64_t seg_fed_ = 0;
  std::int64_t seg_out_ = 0;
  std::int64_t seg_errors_ = 0;

  std::atomic<bool> worker_done_{false};  // run() has returned
  std::thread worker_;
};

// A rational as a double; 0 for a zero denominator.
inline double q2d(AVRational r) { return r.den ? static_cast<double>(r.num) / r.den : 0.0; }

}  // namespace vhist::media
