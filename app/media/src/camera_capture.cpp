// The capture source: a camera opened as a MediaSource, streaming on a thread of its own;
// the newest frame wins, a watchdog notices a camera that stopped, and a lost camera is reopened
// when it comes back. (Enumeration and format negotiation: camera_enum.cpp, camera_format.cpp.)
#include "vhist/media/camera.h"

#include "av_handles.h"
#include "camera_device.h"
#include "camera_format.h"
#include "camera_v4l2.h"
#include "colour_tags.h"
#include "vhist/media/display_geometry.h"
#include "ffmpeg_log.h"
#include "vhist/media/pixel_formats.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
}

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>

// How a camera is read (see also docs in camera.h):
//
// Timestamps: FFmpeg's v4l2 demuxer with `timestamps=default` (set explicitly) hands out the
// kernel's buffer timestamp unchanged, in microseconds; UVC, vivid and nearly every modern driver
// stamp buffers on CLOCK_MONOTONIC (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC). `abs` and `mono2abs` would
// convert to wall-clock time through a time filter, which is neither comparable with
// clock_gettime(CLOCK_MONOTONIC) nor free of jitter. If the first timestamp after opening is not
// within [now - 10 s, now + 1 s] on CLOCK_MONOTONIC (a driver with other timestamps), pts becomes
// the arrival time on CLOCK_MONOTONIC instead, for that connection. A timestamp later than the
// frame's arrival is clamped to the arrival (vivid stamps the nominal end of exposure, which can
// lie ahead of the dequeue by most of a frame period).
//
// Reads never block: the device is opened with AVFMT_FLAG_NONBLOCK (FFmpeg opens the node with
// O_NONBLOCK), so VIDIOC_DQBUF answers EAGAIN when no buffer is ready and the capture thread
// sleeps 2 ms between tries, checking its stop flag and the watchdog. (FFmpeg 5.1's v4l2 demuxer
// neither polls nor looks at the interrupt callback; a blocking DQBUF can wait forever after an
// unplug.) As a last line of defence the destructor waits at most ~0.8 s for the thread and then
// leaves it running detached; everything it touches is owned through a shared_ptr.
//
// Buffers: packets from the demuxer point into the driver's mmap'ed buffers, which FFmpeg unmaps
// when the device is closed, however many are still referenced. Every packet is therefore copied
// into memory of our own and the driver's buffer returned at once, so frames the consumer holds
// survive a lost camera, and the driver never runs short of buffers.

namespace vhist::media {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollInterval = std::chrono::milliseconds(2);
constexpr auto kReopenInterval = std::chrono::milliseconds(500);
constexpr auto kDestroyWait = std::chrono::milliseconds(800);

double monotonic_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Everything the capture thread uses: shared with the source and kept alive by the thread, so
// that a thread left behind (see the top of the file) never touches freed memory.
class Capture {
 public:
  Capture(Request request, CameraInfo info, const CameraOptions& options)
      : request_(std::move(request)),
        camera_(std::move(info)),
        watchdog_(options.watchdog.count() > 0 ? options.watchdog : std::chrono::milliseconds(2000)) {}

  void open_first() {
    device_ = open_device(request_, camera_, &abort_io_);
    const std::lock_guard lock(mutex_);
    status_.connected = false;  // until the first frame
    status_.message = "waiting for the first frame";
    last_activity_ = Clock::now();
  }

  void fill_info(MediaInfo& info) const {
    const AVFormatContext* fmt = device_->format.get();
    const AVCodecParameters* par = fmt->streams[0]->codecpar;
    info.path = request_.path;
    info.container = fmt->iformat && fmt->iformat->name ? fmt->iformat->name : "video4linux2";
    info.codec = avcodec_get_name(par->codec_id);
    info.width = static_cast<std::uint32_t>(std::max(0, par->width));
    info.height = static_cast<std::uint32_t>(std::max(0, par->height));
    const char* pix = av_get_pix_fmt_name(static_cast<AVPixelFormat>(par->format));
    info.pixel_format = pix ? pix : "";
    const AVRational rate = fmt->streams[0]->avg_frame_rate;
    info.frame_rate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    info.duration = -1;
    info.frame_count = -1;
    info.video_stream = 0;
    const StreamGeometry geometry = read_stream_geometry(*fmt->streams[0]);
    info.rotation = geometry.rotation.degrees;
    read_sample_aspect(geometry.sar, info.sar_num, info.sar_den);
  }

  void run() noexcept {
    try {
      loop();
    } catch (const std::exception& e) {
      fail(e.what());
    } catch (...) {
      fail("capture failed");
    }
    device_.reset();
    {
      const std::lock_guard lock(mutex_);
      finished_ = true;
    }
    finished_cv_.notify_all();
    frame_cv_.notify_all();
  }

  void stop() {
    abort_io_ = true;
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_cv_.notify_all();
  }

  // Waits up to `timeout` for the thread to end; false when it did not.
  bool wait_finished(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return finished_cv_.wait_for(lock, timeout, [&] { return finished_; });
  }

  MediaSource::Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) {
    timeout = std::min(timeout, std::chrono::milliseconds(std::chrono::hours(24 * 365)));
    std::unique_lock lock(mutex_);
    frame_cv_.wait_for(lock, timeout, [&] { return latest_.has_value() || !failure_.empty() || finished_; });
    if (latest_) {
      frame = std::move(*latest_);
      latest_.reset();
      return MediaSource::Status::frame;
    }
    if (!failure_.empty()) throw MediaError(failure_);
    return MediaSource::Status::timeout;
  }

  CameraStatus status() const {
    const std::lock_guard lock(mutex_);
    CameraStatus s = status_;
    // The capture thread says so too, but it might be the one that is stuck.
    if (s.connected && Clock::now() - last_activity_ > watchdog_ + std::chrono::milliseconds(500)) {
      s.connected = false;
      s.message = lost_message(no_frame_reason());
    }
    return s;
  }

  DecodeReport report() const {
    const std::lock_guard lock(mutex_);
    return report_;
  }

 private:
  static std::string lost_message(const std::string& why) {
    return "camera lost (" + why + "); waiting for it to come back";
  }
  std::string no_frame_reason() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", std::chrono::duration<double>(watchdog_).count());
    return std::string("no frame for ") + buf + " s";
  }

  // Sleeps up to `d`; true when asked to stop.
  bool sleep_for(Clock::duration d) {
    std::unique_lock lock(mutex_);
    return wake_cv_.wait_for(lock, d, [&] { return stop_; });
  }
  bool stopping() {
    const std::lock_guard lock(mutex_);
    return stop_;
  }

  void fail(const std::string& message) {
    const std::lock_guard lock(mutex_);
    failure_ = "camera " + quoted(request_.path) + ": " + message;
    if (report_.first_error.empty()) report_.first_error = failure_;
    status_.connected = false;
    status_.message = failure_;
  }

  void lose(const std::string& why) {
    device_.reset();
    reopened_ = false;  // STREAMOFF, unmap, close: the node can go (and come back under its name)
    const std::lock_guard lock(mutex_);
    status_.connected = false;
    status_.message = lost_message(why);
    lost_reason_ = why;
    ++report_.errors;
    if (report_.first_error.empty()) report_.first_error = status_.message;
  }

  void try_reopen() {
    struct stat st {};
    if (::stat(request_.path.c_str(), &st) != 0) return;  // not back yet
    try {
      device_ = open_device(request_, camera_, &abort_io_);
    } catch (const MediaError& e) {
      const std::lock_guard lock(mutex_);
      status_.message = lost_message(lost_reason_) + " (last try: " + e.what() + ")";
      return;
    }
    reopened_ = true;  // a reconnect once frames come
    const std::lock_guard lock(mutex_);
    status_.message = lost_message(lost_reason_) + " (reopened, waiting for frames)";
    last_activity_ = Clock::now();
  }

  void loop() {
    PacketPtr packet(av_packet_alloc());
    PacketPtr own(av_packet_alloc());
    AvFramePtr decoded(av_frame_alloc());
    if (!packet || !own || !decoded) throw std::bad_alloc();
    int pending_read = 0;  // a read error met while looking for newer packets
    while (!stopping()) {
      if (!device_) {
        if (sleep_for(kReopenInterval)) return;
        try_reopen();
        continue;
      }
      const int ret = pending_read != 0 ? pending_read : av_read_frame(device_->format.get(), packet.get());
      pending_read = 0;
      if (ret == AVERROR(EAGAIN)) {
        Clock::time_point last;
        {
          const std::lock_guard lock(mutex_);
          last = last_activity_;
        }
        if (Clock::now() - last > watchdog_) {
          lose(no_frame_reason());
          continue;
        }
        if (sleep_for(kPollInterval)) return;
        continue;
      }
      if (ret < 0) {
        if (abort_io_) return;
        lose(ret == AVERROR_EOF ? std::string("end of stream") : av_error_text(ret));
        continue;
      }
      double arrival = monotonic_now();
      bool copied = take_packet(packet.get(), own.get());
      if (copied && device_->intra_only) copied = skip_to_newest(packet.get(), own.get(), arrival, pending_read);
      if (!copied) continue;
      {
        const std::lock_guard lock(mutex_);
        ++report_.packets;
      }
      const int sent = avcodec_send_packet(device_->codec.get(), own.get());
      av_packet_unref(own.get());
      if (sent < 0) {
        note_decode_error("decoding a frame", sent);
        continue;
      }
      while (avcodec_receive_frame(device_->codec.get(), decoded.get()) == 0) {
        AvFramePtr taken(av_frame_alloc());
        if (!taken) throw std::bad_alloc();
        av_frame_move_ref(taken.get(), decoded.get());
        deliver(std::move(taken), arrival);
      }
    }
  }

  // Newest wins before decoding too: packets already waiting in the driver's queue are newer
  // than the one in `own`, so a decoder slower than the camera (a large MJPEG frame on a slow CPU)
  // skips to the newest instead of working through a backlog. A skipped packet counts as
  // captured and dropped (CameraStatus), not as decoded (DecodeReport). Only for intra-only
  // streams. `own` and `arrival` become the newest packet's; false when copying it failed (no
  // packet in hand). A read error met on the way goes to `pending_read`, handled as the next
  // read's result.
  bool skip_to_newest(AVPacket* packet, AVPacket* own, double& arrival, int& pending_read) {
    for (;;) {
      const int more = av_read_frame(device_->format.get(), packet);
      if (more == AVERROR(EAGAIN)) return true;
      if (more < 0) {
        pending_read = more;
        return true;
      }
      const double newer_arrival = monotonic_now();
      if (packet->size <= 0) {  // an empty buffer: counted as lost, the packet in hand stays
        take_packet(packet, nullptr);
        continue;
      }
      av_packet_unref(own);
      const bool copied = take_packet(packet, own);
      arrival = newer_arrival;
      {
        const std::lock_guard lock(mutex_);
        ++status_.captured;
        ++status_.dropped;
      }
      if (!copied) return false;
    }
  }

  // Copies `packet` into memory of our own (`own`; nullptr: drops it) and gives the driver's
  // buffer back. False for an empty packet (the driver flagged an error), counted as read and
  // lost; the others are counted when they go to the decoder.
  bool take_packet(AVPacket* packet, AVPacket* own) {
    const int size = packet->size;
    bool copied = false;
    if (own && size > 0 && av_new_packet(own, size) == 0) {
      std::memcpy(own->data, packet->data, static_cast<std::size_t>(size));
      own->pts = packet->pts;
      own->dts = packet->dts;
      own->flags = packet->flags;
      own->stream_index = packet->stream_index;
      copied = true;
    }
    av_packet_unref(packet);
    const std::lock_guard lock(mutex_);
    last_activity_ = Clock::now();
    if (!copied) {
      ++report_.packets;
      ++report_.lost;
    }
    return copied;
  }

  void note_decode_error(const std::string& what, int err) {
    const std::lock_guard lock(mutex_);
    ++report_.lost;
    ++report_.errors;
    if (report_.first_error.empty()) report_.first_error = what + ": " + av_error_text(err);
  }

  void deliver(AvFramePtr decoded, double arrival) {
    Device& dev = *device_;
    double pts = arrival;
    const std::int64_t ts = decoded->best_effort_timestamp != AV_NOPTS_VALUE ? decoded->best_effort_timestamp : decoded->pts;
    if (dev.first_frame) {  // after each (re)open: the stream's shape may have changed too
      dev.first_frame = false;
      geometry_.set_stream(read_stream_geometry(*dev.format->streams[0]), quoted(request_.path));
      const double t = ts != AV_NOPTS_VALUE ? static_cast<double>(ts) * av_q2d(dev.time_base) : -1e30;
      dev.arrival_time = !(t >= arrival - 10.0 && t <= arrival + 1.0);
    }
    // A capture cannot end after it arrived: a later buffer timestamp (vivid stamps a frame with
    // its nominal end of exposure, up to 0.9 frame periods ahead of when it can be dequeued)
    // becomes the arrival time, so that latency is never measured short.
    if (!dev.arrival_time && ts != AV_NOPTS_VALUE) pts = std::min(arrival, static_cast<double>(ts) * av_q2d(dev.time_base));
    const bool damaged = decoded->decode_error_flags != 0 || (decoded->flags & AV_FRAME_FLAG_CORRUPT) != 0;

    DecodedFrame frame;
    std::uint32_t rotation = 0, sar_num = 1, sar_den = 1;
    geometry_.read(*decoded, rotation, sar_num, sar_den);
    const ColourTags tags = read_colour_tags(*decoded, nullptr);
    mapper_.map(std::move(decoded), frame);  // throws MediaError: unsupported format
    frame.colour = source_colour(tags, frame.format);
    frame.format.rotation = rotation;
    frame.format.sar_num = sar_num;
    frame.format.sar_den = sar_den;
    frame.pts = pts;
    frame.damaged = damaged;
    const bool reconnected = reopened_;
    reopened_ = false;
    {
      const std::lock_guard lock(mutex_);
      frame.index = status_.captured++;
      ++report_.frames;
      if (damaged) ++report_.damaged;
      if (latest_) ++status_.dropped;
      latest_ = std::move(frame);
      if (reconnected) ++status_.reconnects;
      status_.connected = true;
      status_.message.clear();
    }
    frame_cv_.notify_all();
  }

  // Fixed after construction.
  const Request request_;
  const CameraInfo camera_;
  const std::chrono::milliseconds watchdog_;

  // The capture thread's own.
  std::unique_ptr<Device> device_;
  FrameMapper mapper_;
  FrameGeometry geometry_;
  std::string lost_reason_;
  bool reopened_ = false;  // reopened after a loss, no frame yet
  std::atomic<bool> abort_io_{false};

  // Shared (mutex_).
  mutable std::mutex mutex_;
  std::condition_variable frame_cv_;     // a frame (or the failure) is there
  std::condition_variable wake_cv_;      // stop
  std::condition_variable finished_cv_;  // the thread has ended
  std::optional<DecodedFrame> latest_;
  CameraStatus status_;
  DecodeReport report_;
  Clock::time_point last_activity_ = Clock::now();
  std::string failure_;
  bool stop_ = false;
  bool finished_ = false;
};

class V4l2Camera final : public CameraSource {
 public:
  explicit V4l2Camera(std::shared_ptr<Capture> capture) : capture_(std::move(capture)) { capture_->fill_info(info_); }

  ~V4l2Camera() override {
    capture_->stop();
    if (!worker_.joinable()) return;
    if (capture_->wait_finished(kDestroyWait)) {
      worker_.join();
    } else {
      worker_.detach();  // stuck in the kernel: it keeps its own reference to the Capture
    }
  }
  V4l2Camera(const V4l2Camera&) = delete;
  V4l2Camera& operator=(const V4l2Camera&) = delete;

  void start() {
    std::shared_ptr<Capture> keep = capture_;
    worker_ = std::thread([keep] { keep->run(); });
  }

  const MediaInfo& info() const override { return info_; }
  Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) override { return capture_->next(frame, timeout); }
  void seek(double) override {}
  void seek_frame(std::int64_t) override {}
  void set_loop(bool) override {}
  DecodeReport report() const override { return capture_->report(); }
  CameraStatus status() const override { return capture_->status(); }

 private:
  std::shared_ptr<Capture> capture_;
  MediaInfo info_;
  std::thread worker_;
};

}  // namespace

std::unique_ptr<CameraSource> CameraSource::open(const std::string& path, const CameraOptions& options) {
  install_ffmpeg_logging();
  CameraInfo info;
  Request request = prepare_request(path, options, info);
  auto capture = std::make_shared<Capture>(std::move(request), std::move(info), options);
  capture->open_first();
  auto source = std::make_unique<V4l2Camera>(std::move(capture));
  source->start();
  return source;
}

}  // namespace vhist::media
