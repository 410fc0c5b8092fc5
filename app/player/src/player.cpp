#include "vhist/viewer/player.h"

#include <algorithm>
#include <ctime>

namespace vhist::viewer {

void Player::start(std::unique_ptr<media::MediaSource> source, media::CameraSource* camera, const std::string& path) {
  source_ = std::move(source);
  camera_ = camera;
  path_ = path;
  current_.reset();
  pending_.reset();
  clock_ = 0;
  ended_ = false;
  dropped_ = shown_ = 0;
  last_pts_ = 0;
  seek_target_ = 0;
  show_next_ = camera == nullptr;  // a file shows its first frame at once; a camera its newest
  last_tick_ = {};
}

void Player::open(const std::string& path, int stream, void* cuda_context, void* cuda_stream) {
  media::SourceOptions options;
  options.stream = stream;
  options.cuda_context = cuda_context;
  options.cuda_stream = cuda_stream;
  start(media::MediaSource::open(path, options), nullptr, path);
}

void Player::open_camera(const std::string& path, const media::CameraOptions& options) {
  auto camera = media::CameraSource::open(path, options);
  media::CameraSource* raw = camera.get();
  start(std::move(camera), raw, path);
}

double Player::frame_age_ms() const {
  if (!camera_ || !current_) return 0;
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 - current_->pts) * 1000.0;
}

void Player::close() {
  camera_ = nullptr;
  source_.reset();
  current_.reset();
  pending_.reset();
  path_.clear();
}

double Player::duration() const {
  if (!source_) return 0;
  const double d = source_->info().duration;
  return d > 0 ? d : last_pts_;
}

void Player::pull(std::chrono::milliseconds timeout) {
  if (pending_ || !source_) return;
  media::DecodedFrame frame;
  const auto start = std::chrono::steady_clock::now();
  const auto status = source_->next(frame, timeout);
  if (status == media::MediaSource::Status::frame) {
    decode_wait_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    pending_ = std::move(frame);
  } else if (status == media::MediaSource::Status::end) {
    if (show_next_ && seek_target_ > 0) {
      // A seek past the last frame: show the last frame instead of nothing. Step back (to the
      // known duration first, then by halves) until a frame comes.
      const double duration = source_->info().duration;
      const double frame_time = source_->info().frame_rate > 0 ? 1.0 / source_->info().frame_rate : 0.04;
      seek_target_ = duration > 0 && seek_target_ > duration - frame_time ? std::max(0.0, duration - frame_time)
                                                                           : seek_target_ / 2;
      if (seek_target_ < frame_time) seek_target_ = 0;
      source_->seek(seek_target_);
      clock_ = seek_target_;
    } else if (loop_ && shown_ > 0) {
      source_->seek(0);
      clock_ = 0;
      show_next_ = true;
    } else {
      ended_ = true;
    }
  }
}

bool Player::tick(std::chrono::steady_clock::time_point now) {
  if (!source_) return false;
  if (camera_) {
    // Live: the newest frame, at once; paused, the picture stays while capture goes on.
    media::DecodedFrame frame;
    if (source_->next(frame, std::chrono::milliseconds(0)) != media::MediaSource::Status::frame) return false;
    if (paused_) return false;
    current_ = std::move(frame);
    clock_ = current_->pts;
    ++shown_;
    return true;
  }
  const double elapsed =
      last_tick_ == std::chrono::steady_clock::time_point{} ? 0.0 : std::chrono::duration<double>(now - last_tick_).count();
  last_tick_ = now;
  if (!paused_ && !ended_) clock_ += std::min(elapsed, 0.25) * speed_;  // a long stall does not skip ahead

  bool changed = false;
  // The first frame after open, a seek or a step: wait for it (briefly), paused or not.
  if (show_next_) {
    pull(std::chrono::milliseconds(current_ ? 50 : 2000));
    if (pending_) {
      current_ = std::move(pending_);
      pending_.reset();
      clock_ = current_->pts;
      show_next_ = false;
      seek_target_ = 0;
      ++shown_;
      changed = true;
    }
    return changed;
  }
  if (paused_) return false;
  for (;;) {
    pull(std::chrono::milliseconds(0));
    if (!pending_ || pending_->pts > clock_) break;
    if (changed) {
      // Two frames due in one tick (the tick came late). The one taken is shown now, a little
      // late, and the next waits for the next tick, unless the taken one is more than
      // kLateLimit behind the clock: then it is overtaken (dropped) to catch up.
      if (clock_ - current_->pts <= kLateLimit) break;
      ++dropped_;
    }
    current_ = std::move(pending_);
    pending_.reset();
    last_pts_ = std::max(last_pts_, current_->pts);
    changed = true;
  }
  if (changed) ++shown_;
  // A clock far ahead of the decoder (slow decoding) would drop every frame: hold it at the
  // frame on screen instead, so playback slows down rather than skips.
  if (current_ && !pending_ && clock_ > current_->pts + 0.5) clock_ = current_->pts + 0.5;
  return changed;
}

void Player::set_paused(bool paused) {
  paused_ = paused;
  last_tick_ = {};
  if (!paused && ended_) seek(0);
}

void Player::seek(double seconds) {
  if (!source_ || camera_) return;
  const double target = std::max(0.0, seconds);
  seek_target_ = target;
  source_->seek(target);
  pending_.reset();
  clock_ = target;
  ended_ = false;
  show_next_ = true;
}

void Player::step_forward() {
  if (camera_) return;
  paused_ = true;
  show_next_ = true;
}

void Player::step_back() {
  if (!source_ || !current_ || camera_) return;
  paused_ = true;
  if (current_->index <= 0 || source_->info().frame_rate <= 0) return;
  source_->seek_frame(current_->index - 1);
  pending_.reset();
  ended_ = false;
  show_next_ = true;
}

}  // namespace vhist::viewer
