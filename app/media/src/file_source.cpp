#include "file_source.h"

#include "ffmpeg_log.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <csignal>

#include <pthread.h>

namespace vhist::media {

FfmpegSource::FfmpegSource(std::string path, const SourceOptions& options)
    : options_(options), loop_(options.loop), capacity_(std::max<std::size_t>(1, options.queue_frames)) {
  info_.path = std::move(path);
}

FfmpegSource::~FfmpegSource() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    abort_io_ = true;
  }
  changed_.notify_all();
  if (!worker_.joinable()) return;
  // A read blocked in the kernel (a FIFO or pipe whose writer paused) sees abort_io_ only when
  // the call returns: after 50 ms, SIGURG (a no-op handler installed without SA_RESTART by
  // start()) is sent to the thread every 50 ms, so that read(2) fails with EINTR and FFmpeg, which
  // checks the interrupt callback before trying again, gives up.
  for (int waited = 0; !worker_done_.load(); ++waited) {
    if (waited >= 10) pthread_kill(worker_.native_handle(), SIGURG);
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + (waited >= 10 ? 45 : 0)));
  }
  worker_.join();
}

void FfmpegSource::use_memory(std::string_view bytes) {
  memory_ = std::make_unique<MemoryInput>();
  memory_->bytes.assign(bytes);
}

void FfmpegSource::start() {
  if (options_.start > 0) pending_ = Seek{options_.start, false};
  {
    const std::lock_guard lock(sink_.mutex);
    errors_before_decoding_ = sink_.errors;
  }
  static std::once_flag wake_handler;
  std::call_once(wake_handler, [] {
    struct sigaction action {};
    action.sa_handler = [](int) {};  // only to interrupt a blocking call (see ~FfmpegSource)
    sigemptyset(&action.sa_mask);
    sigaction(SIGURG, &action, nullptr);
  });
  worker_ = std::thread([this] {
    run();
    worker_done_ = true;
  });
}

MediaSource::Status FfmpegSource::next(DecodedFrame& frame, std::chrono::milliseconds timeout) {
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

void FfmpegSource::seek(double seconds) { request_seek(Seek{std::max(0.0, seconds), false}); }

void FfmpegSource::seek_frame(std::int64_t index) {
  if (frame_rate_ <= 0) throw MediaError(quoted(info_.path) + ": cannot seek to a frame number (unknown frame rate)");
  request_seek(Seek{static_cast<double>(std::max<std::int64_t>(0, index)) / frame_rate_, true});
}

std::array<std::int64_t, 2> FfmpegSource::queue_depth() const {
  const std::lock_guard lock(mutex_);
  return {static_cast<std::int64_t>(queue_.size()), static_cast<std::int64_t>(capacity_)};
}

DecodeReport FfmpegSource::report() const {
  const std::lock_guard lock(mutex_);
  DecodeReport r = report_;
  const std::lock_guard sink_lock(sink_.mutex);
  if (r.first_error.empty()) r.first_error = sink_.first_error;
  r.errors = sink_.errors - errors_before_decoding_;
  r.hw_fallback = sink_.hw_fallback;
  return r;
}

void FfmpegSource::request_seek(Seek s) {
  {
    const std::lock_guard lock(mutex_);
    if (failed_) return;  // no thread to seek; next() throws the failure
    pending_ = s;
    queue_.clear();
  }
  changed_.notify_all();
}

// Queues an item, waiting for room; false (item dropped) when a seek or stop came first.
bool FfmpegSource::push(Item item) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return stop_ || pending_ || queue_.size() < capacity_; });
  if (stop_ || pending_) return false;
  queue_.push_back(std::move(item));
  lock.unlock();
  changed_.notify_all();
  return true;
}

bool FfmpegSource::interrupted() {
  const std::lock_guard lock(mutex_);
  return stop_ || pending_.has_value() || reseek_.has_value();
}

std::unique_ptr<MediaSource> MediaSource::open(const std::string& path, const SourceOptions& options) {
  install_ffmpeg_logging();
  auto source = std::make_unique<FfmpegSource>(path, options);
  source->open_input();
  source->start();
  return source;
}

std::unique_ptr<MediaSource> MediaSource::open_memory(const std::string& name, std::string_view bytes,
                                                     const SourceOptions& options) {
  install_ffmpeg_logging();
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
