// Playback: a MediaSource and the clock that decides which decoded frame is due. The clock is
// the presentation time (pts; audio is ignored), advanced by wall time × speed while playing.
// Each tick() takes the next frame whose pts has come. When a late tick finds several due, it
// shows the first and leaves the next for the next tick, so that a stall of a tick or two (a
// busy machine) shows every frame a little late instead of skipping one; frames more than
// kLateLimit (media time) behind the clock are skipped to catch up, and counted as dropped.
#pragma once

#include "vhist/media/camera.h"
#include "vhist/media/media_source.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace vhist::viewer {

class Player {
 public:
  // Opens `path` (throws media::MediaError for bad input). The first frame is shown at once.
  // `stream`: the video stream's index in the file; -1: the best one. `cuda_context` and
  // `cuda_stream` (media::SourceOptions): decode on NVDEC, frames left in GPU memory.
  void open(const std::string& path, int stream = -1, void* cuda_context = nullptr, void* cuda_stream = nullptr);
  // Opens a camera: live, the newest captured frame is shown each tick, nothing is seekable;
  // pausing freezes the picture while capture goes on.
  void open_camera(const std::string& path, const media::CameraOptions& options);
  bool live() const noexcept { return camera_ != nullptr; }
  // The camera's state (connected, "camera lost ...", captured and dropped counts).
  media::CameraStatus camera_status() const { return camera_ ? camera_->status() : media::CameraStatus{}; }
  // Capture-to-present latency of the frame on screen, in ms: CLOCK_MONOTONIC now minus the
  // frame's V4L2 buffer timestamp (live sources only; 0 otherwise).
  double frame_age_ms() const;
  void close();
  bool is_open() const noexcept { return source_ != nullptr; }
  const media::MediaInfo& info() const { return source_->info(); }
  const std::string& path() const noexcept { return path_; }

  // Advances the clock to `now` and takes the frame due. Returns true when `frame()` changed.
  // Throws media::MediaError when the input failed (the caller shows it and keeps the last frame).
  bool tick(std::chrono::steady_clock::time_point now);

  // The frame on screen (empty before the first).
  const std::optional<media::DecodedFrame>& frame() const noexcept { return current_; }
  double clock() const noexcept { return clock_; }
  double duration() const;  // seconds; the last pts seen when the container does not say

  void set_paused(bool paused);
  bool paused() const noexcept { return paused_; }
  // Whether a frame is still to come without the clock moving (after open, a seek or a step):
  // the viewer keeps ticking until it has come, also when paused.
  bool awaiting_frame() const noexcept { return show_next_; }
  void set_loop(bool loop) noexcept { loop_ = loop; }
  bool loop() const noexcept { return loop_; }
  void set_speed(double speed) noexcept { speed_ = speed; }
  double speed() const noexcept { return speed_; }

  // Seeks; the first frame at or after `seconds` is shown next, paused or not.
  void seek(double seconds);
  // Steps one frame forward (pauses) or back (pauses; seeks to the previous frame's index).
  void step_forward();
  void step_back();

  // How far behind the clock (seconds of media time) a frame may be shown rather than skipped.
  static constexpr double kLateLimit = 0.1;

  std::int64_t dropped() const noexcept { return dropped_; }
  std::int64_t shown() const noexcept { return shown_; }
  bool at_end() const noexcept { return ended_; }
  media::DecodeReport report() const { return source_ ? source_->report() : media::DecodeReport{}; }
  std::array<std::int64_t, 2> queue_depth() const {
    return source_ ? source_->queue_depth() : std::array<std::int64_t, 2>{-1, -1};
  }
  // Wall time of the last frame's wait for the decoder, for the status line (ms).
  double decode_wait_ms() const noexcept { return decode_wait_ms_; }

 private:
  // Takes over an opened source and starts from its beginning.
  void start(std::unique_ptr<media::MediaSource> source, media::CameraSource* camera, const std::string& path);
  // Pulls the next decoded frame into pending_ when there is none, waiting up to `timeout`.
  void pull(std::chrono::milliseconds timeout);

  std::unique_ptr<media::MediaSource> source_;
  media::CameraSource* camera_ = nullptr;  // source_ when it is a camera
  std::string path_;
  std::optional<media::DecodedFrame> current_, pending_;
  double clock_ = 0;
  double speed_ = 1;
  bool paused_ = false, loop_ = true, ended_ = false;
  bool show_next_ = false;  // after a seek or step: show the next frame even when paused
  std::chrono::steady_clock::time_point last_tick_{};
  std::int64_t dropped_ = 0, shown_ = 0;
  double last_pts_ = 0;
  double seek_target_ = 0;  // of the last seek, while its frame has not come
  double decode_wait_ms_ = 0;
};

}  // namespace vhist::viewer
