#include "media/media_source.h"

#include "media/av_handles.h"
#include "media/pixel_formats.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <variant>

namespace vhist::media {
namespace {

// ---------------------------------------------------------------------------------------------
// FFmpeg's log: silenced by default; error lines are routed to the source they belong to (the
// first one goes into the report and into open errors). VHIST_FFMPEG_LOG=1 keeps FFmpeg's own
// logging on stderr, for debugging.

struct LogSink;

// The sinks alive now: a context's opaque is used only when it is one of them.
std::mutex g_sinks_mutex;
std::set<const LogSink*>& live_sinks() {
  static std::set<const LogSink*> sinks;
  return sinks;
}

struct LogSink {
  LogSink() {
    const std::lock_guard lock(g_sinks_mutex);
    live_sinks().insert(this);
  }
  ~LogSink() {
    const std::lock_guard lock(g_sinks_mutex);
    live_sinks().erase(this);
  }
  LogSink(const LogSink&) = delete;
  LogSink& operator=(const LogSink&) = delete;

  std::mutex mutex;
  std::string first_error;
  std::int64_t errors = 0;  // messages at error level or worse
  std::string not_allowed;  // a "Protocol '...' not on whitelist" line
};

thread_local LogSink* t_sink = nullptr;

class ScopedSink {
 public:
  explicit ScopedSink(LogSink* sink) : previous_(t_sink) { t_sink = sink; }
  ~ScopedSink() { t_sink = previous_; }
  ScopedSink(const ScopedSink&) = delete;
  ScopedSink& operator=(const ScopedSink&) = delete;

 private:
  LogSink* previous_;
};

void log_callback(void* avcl, int level, const char* fmt, va_list args) {
  if (level > AV_LOG_ERROR) return;
  LogSink* sink = t_sink;
  const AVClass* cls = avcl ? *static_cast<const AVClass* const*>(avcl) : nullptr;
  std::unique_lock<std::mutex> registry;
  if (!sink && cls && std::strcmp(cls->class_name, "AVCodecContext") == 0) {
    // The decoder's own threads: their context copies keep the main context's opaque.
    auto* candidate = static_cast<LogSink*>(static_cast<AVCodecContext*>(avcl)->opaque);
    registry = std::unique_lock(g_sinks_mutex);
    if (candidate && live_sinks().count(candidate)) sink = candidate;
  }
  if (!sink) return;
  char line[512];
  int print_prefix = 0;
  va_list copy;
  va_copy(copy, args);
  av_log_format_line2(avcl, level, fmt, copy, line, sizeof line, &print_prefix);
  va_end(copy);
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return;
  if (cls && cls->item_name) {
    const char* item = cls->item_name(avcl);
    if (item && *item && std::strcmp(item, "NULL") != 0) text = std::string(item) + ": " + text;
  }
  const std::lock_guard lock(sink->mutex);
  ++sink->errors;
  if (sink->first_error.empty()) sink->first_error = text;
  if (sink->not_allowed.empty() && text.find("not on whitelist") != std::string::npos) sink->not_allowed = text;
}

void install_logging() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* keep = std::getenv("VHIST_FFMPEG_LOG");
    if (keep && *keep && std::strcmp(keep, "0") != 0) return;
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(log_callback);
  });
}

// ---------------------------------------------------------------------------------------------


// The checks libavformat would answer vaguely: what the path is, before opening it.
void check_local_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) throw MediaError("cannot open " + quoted(path) + ": no such file");
    if (err == EACCES || err == EPERM) throw MediaError("cannot open " + quoted(path) + ": permission denied");
    throw MediaError("cannot open " + quoted(path) + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) throw MediaError(quoted(path) + " is a directory, not a video file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int err = errno;
    if (err == EACCES || err == EPERM) throw MediaError("cannot open " + quoted(path) + ": permission denied");
    throw MediaError("cannot open " + quoted(path) + ": " + std::strerror(err));
  }
  ::close(fd);
  if (S_ISREG(st.st_mode) && st.st_size == 0) throw MediaError(quoted(path) + " is empty (0 bytes)");
}

std::string stream_summary(const AVFormatContext& fmt) {
  std::map<std::string, int> counts;
  for (unsigned i = 0; i < fmt.nb_streams; ++i) {
    const char* type = av_get_media_type_string(fmt.streams[i]->codecpar->codec_type);
    ++counts[type ? type : "unknown"];
  }
  if (counts.empty()) return "none";
  std::string s;
  for (const auto& [type, n] : counts) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + type;
  return s;
}

double q2d(AVRational r) { return r.den ? static_cast<double>(r.num) / r.den : 0.0; }

// An input held in memory, read through a custom AVIOContext.
struct MemoryInput {
  std::string bytes;
  std::size_t pos = 0;

  static int read(void* opaque, std::uint8_t* buf, int size) {
    auto* m = static_cast<MemoryInput*>(opaque);
    if (size <= 0) return 0;
    const std::size_t left = m->bytes.size() - std::min(m->pos, m->bytes.size());
    if (left == 0) return AVERROR_EOF;
    const std::size_t n = std::min(left, static_cast<std::size_t>(size));
    std::memcpy(buf, m->bytes.data() + m->pos, n);
    m->pos += n;
    return static_cast<int>(n);
  }

  static std::int64_t seek(void* opaque, std::int64_t offset, int whence) {
    auto* m = static_cast<MemoryInput*>(opaque);
    const auto size = static_cast<std::int64_t>(m->bytes.size());
    if (whence & AVSEEK_SIZE) return size;
    std::int64_t base = 0;
    switch (whence & ~AVSEEK_FORCE) {
      case SEEK_SET: base = 0; break;
      case SEEK_CUR: base = static_cast<std::int64_t>(m->pos); break;
      case SEEK_END: base = size; break;
      default: return AVERROR(EINVAL);
    }
    if (offset < -base || offset > size - base) return AVERROR(EINVAL);  // outside the bytes
    m->pos = static_cast<std::size_t>(base + offset);
    return base + offset;
  }
};

struct AvioFree {
  void operator()(AVIOContext* c) const {
    av_freep(&c->buffer);
    avio_context_free(&c);
  }
};
using AvioPtr = std::unique_ptr<AVIOContext, AvioFree>;

// The input in memory refers to another file or URL (a playlist, a data reference): refused.
int refuse_io_open(AVFormatContext*, AVIOContext**, const char* url, int, AVDictionary**) {
  if (LogSink* sink = t_sink) {
    const std::lock_guard lock(sink->mutex);
    if (sink->not_allowed.empty()) {
      sink->not_allowed = "opening '" + std::string(url ? url : "") + "' refused: not on whitelist";
    }
  }
  return AVERROR(EPERM);
}

// A stream's "DURATION" tag ("00:00:01.000000000", as Matroska muxers write it) in seconds; -1
// when there is none.
double duration_tag(const AVDictionary* metadata) {
  const AVDictionaryEntry* e = av_dict_get(metadata, "DURATION", nullptr, 0);
  if (!e || !e->value) return -1;
  unsigned h = 0, m = 0;
  double s = 0;
  char extra = 0;
  if (std::sscanf(e->value, "%u:%u:%lf%c", &h, &m, &s, &extra) != 3 || m >= 60 || s < 0 || s >= 60) return -1;
  return h * 3600.0 + m * 60.0 + s;
}

// ---------------------------------------------------------------------------------------------

class FfmpegSource final : public MediaSource {
 public:
  FfmpegSource(std::string path, const SourceOptions& options)
      : options_(options), loop_(options.loop), capacity_(std::max<std::size_t>(1, options.queue_frames)) {
    info_.path = std::move(path);
  }
  // Reads `bytes` instead of the file: `path` only names the input in messages.
  void use_memory(std::string_view bytes) {
    memory_ = std::make_unique<MemoryInput>();
    memory_->bytes.assign(bytes);
  }

  ~FfmpegSource() override {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
      abort_io_ = true;
    }
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  FfmpegSource(const FfmpegSource&) = delete;
  FfmpegSource& operator=(const FfmpegSource&) = delete;

  void open_input();
  void start() {
    if (options_.start > 0) pending_ = Seek{options_.start, false};
    {
      const std::lock_guard lock(sink_.mutex);
      errors_before_decoding_ = sink_.errors;
    }
    worker_ = std::thread([this] { run(); });
  }

  const MediaInfo& info() const override { return info_; }

  Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) override {
    // A year is "forever" and keeps now() + timeout from overflowing.
    timeout = std::min(timeout, std::chrono::milliseconds(std::chrono::hours(24 * 365)));
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, timeout, [&] { return !queue_.empty(); })) return Status::timeout;
    Item& item = queue_.front();
    if (auto* f = std::get_if<DecodedFrame>(&item)) {
      frame = std::move(*f);
      queue_.pop_front();
      lock.unlock();
      changed_.notify_all();
      return Status::frame;
    }
    if (auto* failure = std::get_if<Failure>(&item)) throw MediaError(failure->message);
    return Status::end;  // stays queued: `end` again until a seek
  }

  void seek(double seconds) override { request_seek(Seek{std::max(0.0, seconds), false}); }

  void seek_frame(std::int64_t index) override {
    if (frame_rate_ <= 0) throw MediaError(quoted(info_.path) + ": cannot seek to a frame number (unknown frame rate)");
    request_seek(Seek{static_cast<double>(std::max<std::int64_t>(0, index)) / frame_rate_, true});
  }

  void set_loop(bool loop) override { loop_ = loop; }

  DecodeReport report() const override {
    const std::lock_guard lock(mutex_);
    DecodeReport r = report_;
    const std::lock_guard sink_lock(sink_.mutex);
    if (r.first_error.empty()) r.first_error = sink_.first_error;
    r.errors = sink_.errors - errors_before_decoding_;
    return r;
  }

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

  static int interrupt(void* opaque) { return static_cast<std::atomic<bool>*>(opaque)->load() ? 1 : 0; }

  // Every other file or URL the input asks to open (a playlist's entries, a data reference) goes
  // through here: refused for input from memory; counted while opening, so that a playlist that
  // lists itself (HLS keeps adding variants for ever) ends with an error instead of a hang.
  static constexpr int kMaxNestedOpens = 256;
  static int nested_open(AVFormatContext* s, AVIOContext** pb, const char* url, int flags, AVDictionary** options) {
    auto* self = static_cast<FfmpegSource*>(s->opaque);
    if (!self || self->memory_ || !self->default_io_open_) return refuse_io_open(s, pb, url, flags, options);
    if (self->opening_ && ++self->nested_opens_ > kMaxNestedOpens) {
      self->too_many_opens_ = true;
      return AVERROR(ELOOP);
    }
    return self->default_io_open_(s, pb, url, flags, options);
  }

  void request_seek(Seek s) {
    {
      const std::lock_guard lock(mutex_);
      if (failed_) return;  // no thread to seek; next() throws the failure
      pending_ = s;
      queue_.clear();
    }
    changed_.notify_all();
  }

  template <class F>
  void update_report(F&& f) {
    const std::lock_guard lock(mutex_);
    f(report_);
  }

  // Queues an item, waiting for room; false (item dropped) when a seek or stop came first.
  bool push(Item item) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stop_ || pending_ || queue_.size() < capacity_; });
    if (stop_ || pending_) return false;
    queue_.push_back(std::move(item));
    lock.unlock();
    changed_.notify_all();
    return true;
  }

  bool interrupted() {
    const std::lock_guard lock(mutex_);
    return stop_ || pending_.has_value() || reseek_.has_value();
  }

  void run();
  void decode_loop();
  void begin_seek(const Seek& s, bool retry);
  bool seek_to(std::int64_t ts);
  bool feed(const AVPacket* packet);
  bool receive_all();
  bool handle_frame(AvFramePtr decoded);
  void note_error(const std::string& what, int err);
  void end_pass(bool read_error);

  // Fixed after open.
  SourceOptions options_;
  MediaInfo info_;
  mutable LogSink sink_;  // before the contexts: their logging may reach it until they are freed
  std::int64_t errors_before_decoding_ = 0;  // sink_.errors when the decode thread started
  std::unique_ptr<MemoryInput> memory_;  // open_memory's bytes (before io_ and format_: outlives them)
  AvioPtr io_;                           // their reader
  decltype(AVFormatContext::io_open) default_io_open_ = nullptr;
  bool opening_ = false;                 // in open_input (the worker has not started)
  int nested_opens_ = 0;
  bool too_many_opens_ = false;
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
  FrameConverter converter_;
  std::optional<Seek> reseek_;  // the seek landed after its target: again, earlier
  Seek last_seek_{};
  double reseek_backoff_ = 1.0;
  bool check_landing_ = false;
  double drop_before_ = -std::numeric_limits<double>::infinity();
  bool reindex_ = false;
  std::int64_t next_index_ = 0;
  double last_pts_ = -1;
  bool have_pts_ = false;
  // This pass (from open, a seek or a loop restart to the end of the input).
  bool pass_from_start_ = true;
  std::int64_t pass_frames_ = 0;
  double pass_max_pts_ = -1;
  // Since the last decoder flush: packets fed, frames out, decode errors.
  std::int64_t seg_fed_ = 0;
  std::int64_t seg_out_ = 0;
  std::int64_t seg_errors_ = 0;

  std::thread worker_;
};

void FfmpegSource::open_input() {
  const std::string& path = info_.path;
  const std::string q = quoted(path);
  if (!memory_) {
    check_local_file(path);
  } else if (memory_->bytes.empty()) {
    throw MediaError(q + " is empty (0 bytes)");
  }

  const ScopedSink scoped(&sink_);
  auto not_allowed = [&]() -> std::string {
    const std::lock_guard lock(sink_.mutex);
    if (sink_.not_allowed.empty()) return {};
    return q + " refers to input through a network or other protocol that is not allowed (" + sink_.not_allowed +
           "); vhist reads local files only";
  };
  auto first_log = [&]() {
    const std::lock_guard lock(sink_.mutex);
    return sink_.first_error;
  };

  AVFormatContext* raw = avformat_alloc_context();
  if (!raw) throw std::bad_alloc();
  raw->interrupt_callback.callback = &FfmpegSource::interrupt;
  raw->interrupt_callback.opaque = &abort_io_;
  AVDictionary* dict = nullptr;
  av_dict_set(&dict, "protocol_whitelist", "file", 0);
  std::string url = "file:" + path;
  if (memory_) {
    constexpr int kBufferBytes = 1 << 16;
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferBytes));
    if (buffer) io_.reset(avio_alloc_context(buffer, kBufferBytes, 0, memory_.get(), &MemoryInput::read, nullptr,
                                            &MemoryInput::seek));
    if (!io_) {
      av_free(buffer);
      avformat_free_context(raw);
      av_dict_free(&dict);
      throw std::bad_alloc();
    }
    raw->pb = io_.get();
    raw->flags |= AVFMT_FLAG_CUSTOM_IO;
    url.clear();
  }
  default_io_open_ = raw->io_open;
  raw->opaque = this;
  raw->io_open = &FfmpegSource::nested_open;
  opening_ = true;
  struct Opened {
    bool& flag;
    ~Opened() { flag = false; }
  } opened{opening_};
  auto too_many = [&]() -> std::string {
    if (!too_many_opens_) return {};
    return q + " asks to open more than " + std::to_string(kMaxNestedOpens) +
           " other files while being opened (a playlist that refers to itself?)";
  };
  std::unique_ptr<AVDictionary, DictFree> options(dict);
  dict = options.release();
  int ret = avformat_open_input(&raw, url.c_str(), nullptr, &dict);
  options.reset(dict);
  if (ret < 0) {  // avformat_open_input has freed the context
    if (std::string msg = not_allowed(); !msg.empty()) throw MediaError(msg);
    if (std::string msg = too_many(); !msg.empty()) throw MediaError(msg);
    // The input itself was readable (check_local_file): these come from a file it refers to (a
    // concat list's "Unsafe file name", an unreadable segment).
    if ((ret == AVERROR(ENOENT) || ret == AVERROR(EACCES) || ret == AVERROR(EPERM)) && !first_log().empty()) {
      throw MediaError(q + " refers to a file that cannot or may not be opened (" + first_log() +
                       "); vhist opens playlist entries only below the playlist's folder");
    }
    if (ret == AVERROR(EMFILE)) {  // a concat list that lists itself: one open file per level
      throw MediaError(q + " opens too many files (" + first_log() + "; a playlist that refers to itself?)");
    }
    if (ret == AVERROR(ENOENT)) throw MediaError("cannot open " + q + ": no such file");
    if (ret == AVERROR(EACCES) || ret == AVERROR(EPERM)) throw MediaError("cannot open " + q + ": permission denied");
    if (ret == AVERROR(EISDIR)) throw MediaError(q + " is a directory, not a video file");
    std::string detail = av_error(ret);
    if (const std::string log = first_log(); !log.empty()) detail += "; " + log;
    throw MediaError(q + " is not a video file FFmpeg recognises (" + detail + ")");
  }
  format_.reset(raw);
  info_.container = format_->iformat && format_->iformat->name ? format_->iformat->name : "";

  ret = avformat_find_stream_info(format_.get(), nullptr);
  if (std::string msg = not_allowed(); !msg.empty()) throw MediaError(msg);
  if (std::string msg = too_many(); !msg.empty()) throw MediaError(msg);
  if (ret < 0) {
    std::string detail = av_error(ret);
    if (const std::string log = first_log(); !log.empty()) detail += ": " + log;
    throw MediaError(q + ": cannot read the stream information (" + detail + ")");
  }

  stream_ = av_find_best_stream(format_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (stream_ < 0) throw MediaError(q + " has no video stream (streams: " + stream_summary(*format_) + ")");
  AVStream* st = format_->streams[stream_];
  for (unsigned i = 0; i < format_->nb_streams; ++i) {
    if (static_cast<int>(i) != stream_) format_->streams[i]->discard = AVDISCARD_ALL;
  }
  const AVCodecParameters* par = st->codecpar;
  const AVCodec* decoder = par->codec_id == AV_CODEC_ID_NONE ? nullptr : avcodec_find_decoder(par->codec_id);
  if (!decoder) {
    std::string name = avcodec_get_name(par->codec_id);
    if (par->codec_id == AV_CODEC_ID_NONE && !par->codec_tag) {
      throw MediaError(q + ": the video stream's codec is not identified (the file's header is incomplete or "
                       "damaged: truncated?)");
    }
    if (par->codec_id == AV_CODEC_ID_NONE) {
      char tag[AV_FOURCC_MAX_STRING_SIZE] = {};
      av_fourcc_make_string(tag, par->codec_tag);
      name = par->codec_tag ? std::string("'") + tag + "'" : "(unknown)";
    }
    throw MediaError(q + ": video codec " + name + " is not supported by this FFmpeg build");
  }

  codec_.reset(avcodec_alloc_context3(decoder));
  if (!codec_) throw std::bad_alloc();
  ret = avcodec_parameters_to_context(codec_.get(), par);
  if (ret < 0) throw MediaError(q + ": cannot set up the " + std::string(decoder->name) + " decoder (" + av_error(ret) + ")");
  codec_->pkt_timebase = st->time_base;
  codec_->thread_count = std::max(0, options_.decoder_threads);
  codec_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
  // Damaged frames come out (flagged) instead of being dropped silently; checksums are checked
  // where the codec has them.
  codec_->flags |= AV_CODEC_FLAG_OUTPUT_CORRUPT;
  codec_->err_recognition |= AV_EF_CRCCHECK;
  codec_->opaque = &sink_;
  if (options_.max_pixels > 0) codec_->max_pixels = options_.max_pixels;
  ret = avcodec_open2(codec_.get(), decoder, nullptr);
  if (ret < 0) {
    std::string detail = av_error(ret);
    if (const std::string log = first_log(); !log.empty()) detail += ": " + log;
    throw MediaError(q + ": cannot open the " + std::string(decoder->name) + " decoder (" + detail + ")");
  }

  time_base_ = st->time_base;
  start_ts_ = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
  AVRational rate = st->avg_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) rate = av_guess_frame_rate(format_.get(), st, nullptr);
  frame_rate_ = rate.num > 0 && rate.den > 0 ? q2d(rate) : 0;
  promised_frames_ = st->nb_frames > 0 ? st->nb_frames : -1;
  if (format_->duration_estimation_method != AVFMT_DURATION_FROM_BITRATE) {
    if (st->duration != AV_NOPTS_VALUE && st->duration > 0) {
      promised_duration_ = static_cast<double>(st->duration) * q2d(time_base_);
    } else if (const double tagged = duration_tag(st->metadata); tagged > 0) {
      promised_duration_ = tagged;  // Matroska: the track's DURATION tag
    } else if (format_->nb_streams == 1 && format_->duration != AV_NOPTS_VALUE && format_->duration > 0) {
      promised_duration_ = static_cast<double>(format_->duration) / AV_TIME_BASE;
    }
    // Matroska's durations are end times: from a stream that starts late (-output_ts_offset),
    // the frames' times (counted from the start) cover only the part after the start.
    const double start_seconds = static_cast<double>(start_ts_) * q2d(time_base_);
    if (promised_duration_ > 0 && start_seconds > 1.0 && st->duration == AV_NOPTS_VALUE) {
      promised_duration_ = std::max(0.0, promised_duration_ - start_seconds);
    }
  }

  info_.codec = avcodec_get_name(par->codec_id);
  info_.width = static_cast<std::uint32_t>(std::max(0, par->width));
  info_.height = static_cast<std::uint32_t>(std::max(0, par->height));
  const char* pix = av_get_pix_fmt_name(static_cast<AVPixelFormat>(par->format));
  info_.pixel_format = pix ? pix : "";
  info_.frame_rate = frame_rate_;
  if (st->duration != AV_NOPTS_VALUE && st->duration > 0) {
    info_.duration = static_cast<double>(st->duration) * q2d(time_base_);
  } else if (format_->duration != AV_NOPTS_VALUE && format_->duration > 0) {
    info_.duration = static_cast<double>(format_->duration) / AV_TIME_BASE;
  }
  info_.frame_count = promised_frames_;
  info_.video_stream = stream_;
}

void FfmpegSource::run() {
  const ScopedSink scoped(&sink_);
  std::string message;
  try {
    decode_loop();
    return;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "decoding failed";
  }
  // The thread ends here: the failure stays queued (after the frames already there) for next()
  // to throw, whatever seeks come later.
  try {
    {
      const std::lock_guard lock(mutex_);
      if (report_.first_error.empty()) report_.first_error = message;
      failed_ = true;
      queue_.push_back(Failure{quoted(info_.path) + ": " + message});
    }
    changed_.notify_all();
  } catch (...) {  // out of memory: nothing more can be said
  }
}

void FfmpegSource::note_error(const std::string& what, int err) {
  update_report([&](DecodeReport& r) {
    ++r.lost;
    if (r.first_error.empty()) {
      const std::lock_guard lock(sink_.mutex);
      r.first_error = !sink_.first_error.empty() ? sink_.first_error : what + ": " + av_error(err);
    }
  });
}

bool FfmpegSource::seek_to(std::int64_t ts) {
  AVFormatContext* fmt = format_.get();
  if (av_seek_frame(fmt, stream_, ts, AVSEEK_FLAG_BACKWARD) >= 0) return true;
  if (avformat_seek_file(fmt, stream_, std::numeric_limits<std::int64_t>::min(), ts, ts, 0) >= 0) return true;
  // No index and no timestamps to search (raw streams): from the beginning, dropping frames.
  if (avformat_seek_file(fmt, -1, std::numeric_limits<std::int64_t>::min(), 0, 0, AVSEEK_FLAG_BYTE) >= 0) return true;
  return av_seek_frame(fmt, -1, 0, AVSEEK_FLAG_BYTE) >= 0;
}

// Seeks to the keyframe at or before `s` (with `retry`, further back: the previous try landed
// after the target), flushes the decoder and drops the frames before the target.
void FfmpegSource::begin_seek(const Seek& s, bool retry) {
  last_seek_ = s;
  // Frame seeks take the nearest frame; time seeks allow for timestamps rounded to the time base
  // (Matroska: milliseconds), up to a millisecond.
  const double margin =
      s.by_frame && frame_rate_ > 0 ? 0.5 / frame_rate_ : 1e-9 + std::min(1e-3, 0.5 * q2d(time_base_));
  const double target = s.seconds - margin;
  double at = s.seconds;
  if (retry) {
    at = std::max(0.0, s.seconds - reseek_backoff_);
    reseek_backoff_ *= 2;
  } else {
    reseek_backoff_ = 1.0;
  }
  const auto ts = start_ts_ + static_cast<std::int64_t>(std::floor(at / q2d(time_base_)));
  if (!seek_to(at <= 0 ? start_ts_ : ts)) {
    update_report([&](DecodeReport& r) {
      if (r.first_error.empty()) r.first_error = "seeking to " + std::to_string(s.seconds) + " s failed";
    });
  }
  avcodec_flush_buffers(codec_.get());
  seg_fed_ = seg_out_ = seg_errors_ = 0;
  drop_before_ = target;
  reindex_ = true;
  check_landing_ = at > 0;
  pass_from_start_ = at <= 0;
  pass_frames_ = 0;
  pass_max_pts_ = -1;
  have_pts_ = false;
}

void FfmpegSource::decode_loop() {
  PacketPtr packet(av_packet_alloc());
  if (!packet) throw std::bad_alloc();
  bool read_error = false;
  bool at_end = false;
  int again = 0;
  while (true) {
    std::optional<Seek> request;
    bool retry = false;
    {
      std::unique_lock lock(mutex_);
      if (at_end) changed_.wait(lock, [&] { return stop_ || pending_; });
      if (stop_) return;
      if (pending_) {
        request = pending_;
        pending_.reset();
      } else if (reseek_) {
        request = reseek_;
        retry = true;
      }
      reseek_.reset();
    }
    if (request) {
      begin_seek(*request, retry);
      at_end = false;
      read_error = false;
      continue;
    }

    const int ret = av_read_frame(format_.get(), packet.get());
    if (ret == AVERROR(EAGAIN)) {
      if (++again > 1000) throw MediaError("the demuxer keeps asking to try again");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    again = 0;
    if (ret < 0) {
      if (abort_io_) return;
      if (ret != AVERROR_EOF && !read_error) {
        read_error = true;
        const std::string why = av_error(ret);
        const std::int64_t frames = pass_frames_;
        update_report([&](DecodeReport& r) {
          if (!r.truncated) {
            r.truncated = true;
            r.truncation_reason = "read error after " + std::to_string(frames) + " frames: " + why;
          }
        });
      }
      if (!feed(nullptr)) continue;  // drain; interrupted by a seek or stop
      end_pass(read_error);
      if (interrupted()) continue;
      if (loop_ && pass_frames_ > 0) {
        // From the start again: the index goes on, the timestamps start over.
        if (!seek_to(start_ts_)) throw MediaError("cannot seek back to the start to loop");
        avcodec_flush_buffers(codec_.get());
        seg_fed_ = seg_out_ = seg_errors_ = 0;
        pass_from_start_ = true;
        pass_frames_ = 0;
        pass_max_pts_ = -1;
        have_pts_ = false;
        read_error = false;
        continue;
      }
      std::int64_t decoded = 0;
      std::int64_t packets = 0;
      std::string first;
      {
        const std::lock_guard lock(mutex_);
        decoded = report_.frames;
        packets = report_.packets;
        first = report_.first_error;
      }
      if (first.empty()) {
        const std::lock_guard lock(sink_.mutex);
        first = sink_.first_error;
      }
      if (decoded == 0) {
        push(Failure{quoted(info_.path) + ": no frame could be decoded from " + std::to_string(packets) +
                     " video packets" + (first.empty() ? std::string() : " (" + first + ")")});
      } else {
        push(End{});
      }
      at_end = true;
      continue;
    }
    if (packet->stream_index != stream_) {
      av_packet_unref(packet.get());
      continue;
    }
    update_report([](DecodeReport& r) { ++r.packets; });
    feed(packet.get());
    av_packet_unref(packet.get());
  }
}

// Sends one packet (nullptr: drain) and takes every frame that is ready. False when interrupted.
bool FfmpegSource::feed(const AVPacket* packet) {
  for (int tries = 0;; ++tries) {
    const int ret = avcodec_send_packet(codec_.get(), packet);
    if (ret == AVERROR(EAGAIN)) {
      // Full: take frames out first. A decoder that neither takes nor gives is broken.
      if (!receive_all()) return false;
      if (tries > 100) throw MediaError("the decoder accepts no more input");
      continue;
    }
    if (!packet) {
      if (ret < 0 && ret != AVERROR_EOF) note_error("draining the decoder", ret);
      break;
    }
    // The packet is taken even when an error comes back: the error is that of decoding this
    // or (with frame threading) an earlier packet, which gave no frame.
    if (!(packet->flags & AV_PKT_FLAG_DISCARD)) ++seg_fed_;
    if (ret < 0) {
      ++seg_errors_;
      note_error("decoding a packet", ret);
    }
    break;
  }
  return receive_all();
}

bool FfmpegSource::receive_all() {
  for (int errors = 0;;) {
    AvFramePtr frame(av_frame_alloc());
    if (!frame) throw std::bad_alloc();
    const int ret = avcodec_receive_frame(codec_.get(), frame.get());
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return !interrupted();
    if (ret < 0) {
      ++seg_errors_;
      note_error("decoding a frame", ret);
      if (++errors > 10000) return !interrupted();
      continue;
    }
    if (!handle_frame(std::move(frame))) return false;
  }
}

bool FfmpegSource::handle_frame(AvFramePtr decoded) {
  ++seg_out_;
  ++pass_frames_;
  const bool damaged = decoded->decode_error_flags != 0 || (decoded->flags & AV_FRAME_FLAG_CORRUPT) != 0;
  update_report([&](DecodeReport& r) {
    ++r.frames;
    if (damaged) ++r.damaged;
  });

  double pts = 0;
  const std::int64_t ts = decoded->best_effort_timestamp;
  if (ts != AV_NOPTS_VALUE) {
    pts = static_cast<double>(ts - start_ts_) * time_base_.num / time_base_.den;
  } else if (have_pts_) {
    pts = last_pts_ + (frame_rate_ > 0 ? 1.0 / frame_rate_ : 0.0);
  }
  last_pts_ = pts;
  have_pts_ = true;
  pass_max_pts_ = std::max(pass_max_pts_, pts);

  if (check_landing_) {
    check_landing_ = false;
    // A keyframe after the target (an index by decoding time, or none): try again earlier.
    const double late = frame_rate_ > 0 ? 0.5 / frame_rate_ : 1e-3;
    if (pts > last_seek_.seconds + late) {
      const std::lock_guard lock(mutex_);
      reseek_ = last_seek_;
      return false;
    }
  }
  if (pts < drop_before_) return true;
  drop_before_ = -std::numeric_limits<double>::infinity();

  DecodedFrame frame;
  converter_.convert(std::move(decoded), frame);
  frame.pts = pts;
  frame.damaged = damaged;
  if (reindex_) {
    next_index_ = frame_rate_ > 0 ? std::llround(pts * frame_rate_) : 0;
    reindex_ = false;
  }
  frame.index = next_index_++;
  return push(std::move(frame));
}

// After the decoder is drained at the end of the input: the packets that gave no frame, and
// whether the input ended before what the container promised.
void FfmpegSource::end_pass(bool read_error) {
  const std::int64_t silent = seg_fed_ - seg_out_ - seg_errors_;
  seg_fed_ = seg_out_ = seg_errors_ = 0;
  std::string reason;
  if (!read_error && pass_frames_ > 0) {
    const double rate = frame_rate_;
    if (promised_frames_ > 0) {
      std::int64_t got = pass_frames_;
      if (!pass_from_start_ && rate > 0) got = std::llround(pass_max_pts_ * rate) + 1;
      if (pass_from_start_ || rate > 0) {
        if (got < promised_frames_ - 1) {
          reason = "the file ends after " + std::to_string(got) + " of " + std::to_string(promised_frames_) +
                   " frames (truncated?)";
        }
      }
    } else if (promised_duration_ > 0 && rate > 0 && pass_max_pts_ + 2.0 / rate < promised_duration_) {
      const std::int64_t got = pass_from_start_ ? pass_frames_ : std::llround(pass_max_pts_ * rate) + 1;
      reason = "the file ends after " + std::to_string(got) + " of " +
               std::to_string(std::llround(promised_duration_ * rate)) + " frames (truncated?)";
    }
  }
  update_report([&](DecodeReport& r) {
    if (silent > 0) r.lost += silent;
    if (!reason.empty() && !r.truncated) {
      r.truncated = true;
      r.truncation_reason = reason;
    }
  });
}

}  // namespace

std::unique_ptr<MediaSource> MediaSource::open(const std::string& path, const SourceOptions& options) {
  install_logging();
  auto source = std::make_unique<FfmpegSource>(path, options);
  source->open_input();
  source->start();
  return source;
}

std::unique_ptr<MediaSource> MediaSource::open_memory(const std::string& name, std::string_view bytes,
                                                     const SourceOptions& options) {
  install_logging();
  auto source = std::make_unique<FfmpegSource>(name, options);
  source->use_memory(bytes);
  source->open_input();
  source->start();
  return source;
}

std::string ffmpeg_version() {
  auto v = [](const char* name, unsigned version) {
    return std::string(name) + " " + std::to_string(AV_VERSION_MAJOR(version)) + "." +
           std::to_string(AV_VERSION_MINOR(version)) + "." + std::to_string(AV_VERSION_MICRO(version));
  };
  return v("libavcodec", avcodec_version()) + ", " + v("libavformat", avformat_version()) + ", " +
         v("libavutil", avutil_version()) + ", " + v("libswscale", swscale_version()) + " (FFmpeg " +
         av_version_info() + ")";
}

}  // namespace vhist::media
