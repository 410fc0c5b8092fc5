// FfmpegSource's decoding thread: read packets, decode, map frames and queue them; seeks,
// looping, and what the end of the input says about it (truncated, lost packets).
#include "file_source.h"

#include "colour_tags.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
}

#include <chrono>
#include <cmath>
#include <utility>

namespace vhist::media {

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

// Back to the first packet. MPEG transport and program streams have no index: a seek by time
// compares decoding times and lands after the first keyframe when pictures are reordered (its
// B-frames decode earlier than the keyframe shows), so they go back to byte 0 instead.
bool FfmpegSource::seek_to_start() {
  AVFormatContext* fmt = format_.get();
  const std::string name = fmt->iformat && fmt->iformat->name ? fmt->iformat->name : "";
  if ((name == "mpegts" || name == "mpeg") && avformat_seek_file(fmt, -1, 0, 0, 0, AVSEEK_FLAG_BYTE) >= 0) return true;
  return seek_to(start_ts_);
}

// After a seek or a loop restart: the decoder flushed, a new pass begins.
void FfmpegSource::reset_pass(bool from_start) {
  avcodec_flush_buffers(codec_.get());
  seg_fed_ = seg_out_ = seg_errors_ = 0;
  pass_from_start_ = from_start;
  pass_frames_ = 0;
  pass_max_pts_ = -1;
  pass_missing_ = 0;
  have_numbered_ = false;
  have_pts_ = false;
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
  if (!(at <= 0 ? seek_to_start() : seek_to(ts))) {
    update_report([&](DecodeReport& r) {
      if (r.first_error.empty()) r.first_error = "seeking to " + std::to_string(s.seconds) + " s failed";
    });
  }
  reset_pass(at <= 0);
  drop_before_ = target;
  reindex_ = true;
  check_landing_ = at > 0;
  await_key_ = at > 0;
  key_wait_ = 0;
}

// A frame before the target is decoded only for the frames that refer to it, so a frame no other
// refers to (nal_ref_idc 0 in H.264, a B frame in MPEG-2, ...) need not be decoded at all: the
// decoder skips them there (as `ffmpeg -skip_frame noref` does), a third of the work of landing
// in a long GOP of B frames. Decided per packet by its timestamp (a frame has its packet's), the
// frames out are the same with or without it. Not in a pass from the start, whose frames are
// counted against the container's promise.
bool FfmpegSource::pre_roll(std::int64_t pts) const {
  return !pass_from_start_ && std::isfinite(drop_before_) && pts != AV_NOPTS_VALUE &&
         static_cast<double>(pts - start_ts_) * q2d(time_base_) < drop_before_;
}

// While a seek waits for its keyframe: true when `packet` is to be dropped unseen.
bool FfmpegSource::before_keyframe(const AVPacket& packet) {
  if (!await_key_) return false;
  if ((packet.flags & AV_PKT_FLAG_KEY) == 0 && ++key_wait_ <= kKeyWaitPackets) return true;
  await_key_ = false;
  return false;
}

// The seek to make now, if any, with whether it is a retry; waits at the end of the input until
// a seek or stop comes. `stop` is set when the thread is to end.
std::optional<std::pair<FfmpegSource::Seek, bool>> FfmpegSource::take_seek(bool at_end, bool& stop) {
  std::unique_lock lock(mutex_);
  if (at_end) changed_.wait(lock, [&] { return stop_ || pending_; });
  stop = stop_;
  if (stop_) return std::nullopt;
  std::optional<std::pair<Seek, bool>> request;
  if (pending_) {
    request.emplace(*pending_, false);
    pending_.reset();
  } else if (reseek_) {
    request.emplace(*reseek_, true);
  }
  reseek_.reset();
  return request;
}

void FfmpegSource::decode_loop() {
  PacketPtr packet(av_packet_alloc());
  if (!packet) throw std::bad_alloc();
  bool read_error = false;
  bool at_end = false;
  int again = 0;
  while (true) {
    bool stop = false;
    if (const auto request = take_seek(at_end, stop)) {
      begin_seek(request->first, request->second);
      at_end = false;
      read_error = false;
      continue;
    }
    if (stop) return;

    const int ret = av_read_frame(format_.get(), packet.get());
    if (refused_open_) throw MediaError(refusal());  // a later segment outside the playlist's folder
    if (ret == AVERROR(EAGAIN)) {
      if (++again > 1000) throw MediaError("the demuxer keeps asking to try again");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    again = 0;
    if (ret < 0) {
      if (abort_io_ || ret == AVERROR_EXIT) return;  // stopped (interrupt_all_inputs: a signal)
      at_end = handle_read_end(ret, read_error);
      continue;
    }
    if (packet->stream_index != stream_ || before_keyframe(*packet)) {
      av_packet_unref(packet.get());
      continue;
    }
    update_report([](DecodeReport& r) { ++r.packets; });
    feed(packet.get());
    av_packet_unref(packet.get());
  }
}

// The demuxer said EOF or failed (`ret`): drain the decoder, take stock of the pass, then loop
// or queue the end. True when the end is queued (the thread then waits for a seek or stop).
bool FfmpegSource::handle_read_end(int ret, bool& read_error) {
  if (await_key_) {  // a seek found no keyframe after it: again, earlier (begin_seek backs off)
    const std::lock_guard lock(mutex_);
    reseek_ = last_seek_;
    return false;
  }
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
  if (!feed(nullptr)) return false;  // drain; interrupted by a seek or stop
  end_pass(read_error);
  if (interrupted()) return false;
  if (loop_ && pass_frames_ > 0) {
    restart_for_loop();
    read_error = false;
    return false;
  }
  queue_end();
  return true;
}

// From the start again: the index goes on, the timestamps start over.
void FfmpegSource::restart_for_loop() {
  if (!seek_to_start()) throw MediaError("cannot seek back to the start to loop");
  reset_pass(true);
}

// The end of the input, or a failure when not a single frame came out of it.
void FfmpegSource::queue_end() {
  std::int64_t decoded = 0;
  std::int64_t packets = 0;
  std::string first;
  {
    const std::lock_guard lock(mutex_);
    decoded = report_.frames;
    packets = report_.packets;
    first = report_.first_error;
  }
  std::string hw_fallback;  // FFmpeg's decoders that need a hwaccel (av1) fail after NVDEC refused
  {
    const std::lock_guard lock(sink_.mutex);
    if (first.empty()) first = sink_.first_error;
    hw_fallback = sink_.hw_fallback;
  }
  if (decoded == 0) {
    push(Failure{quoted(info_.path) + ": no frame could be decoded from " + std::to_string(packets) +
                 " video packets" + (first.empty() ? std::string() : " (" + first + ")") +
                 (hw_fallback.empty() ? std::string() : "; --hwdec: " + hw_fallback)});
  } else {
    push(End{});
  }
}

// Sends one packet (nullptr: drain) and takes every frame that is ready. False when interrupted.
bool FfmpegSource::feed(const AVPacket* packet) {
  const bool skipping = packet && pre_roll(packet->pts);
  codec_->skip_frame = skipping ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;
  for (int tries = 0;; ++tries) {
    const auto sent_at = std::chrono::steady_clock::now();
    const int ret = avcodec_send_packet(codec_.get(), packet);
    decoder_time_ += std::chrono::steady_clock::now() - sent_at;
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
    // or (with frame threading) an earlier packet, which gave no frame. A pre-roll packet may
    // give none on purpose: not counted (nor are the pre-roll's frames).
    if (!(packet->flags & AV_PKT_FLAG_DISCARD) && !skipping) ++seg_fed_;
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
    const auto asked_at = std::chrono::steady_clock::now();
    const int ret = avcodec_receive_frame(codec_.get(), frame.get());
    decoder_time_ += std::chrono::steady_clock::now() - asked_at;
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

// The frame's time in seconds from the stream's start; without a timestamp, one frame after the
// previous frame.
double FfmpegSource::frame_time(const AVFrame& decoded) {
  double pts = 0;
  const std::int64_t ts = decoded.best_effort_timestamp;
  if (ts != AV_NOPTS_VALUE) {
    pts = static_cast<double>(ts - start_ts_) * time_base_.num / time_base_.den;
  } else if (have_pts_) {
    pts = last_pts_ + (frame_rate_ > 0 ? 1.0 / frame_rate_ : 0.0);
  }
  last_pts_ = pts;
  have_pts_ = true;
  pass_max_pts_ = std::max(pass_max_pts_, pts);
  return pts;
}

bool FfmpegSource::handle_frame(AvFramePtr decoded) {
  ++pass_frames_;
  const bool damaged = decoded->decode_error_flags != 0 || (decoded->flags & AV_FRAME_FLAG_CORRUPT) != 0;
  const bool on_gpu = decoded->format == AV_PIX_FMT_CUDA;
  update_report([&](DecodeReport& r) {
    ++r.frames;
    if (damaged) ++r.damaged;
    if (on_gpu) ++r.hw_frames;
  });
  if (!pre_roll(decoded->pts)) ++seg_out_;  // as its packet was counted (feed)
  const double pts = frame_time(*decoded);

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
  std::uint32_t rotation = 0, sar_num = 1, sar_den = 1;
  geometry_.read(*decoded, rotation, sar_num, sar_den);
  const ColourTags tags = read_colour_tags(*decoded, format_->streams[stream_]);
  const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(decoded->format));
  frame.has_alpha = desc && (desc->flags & AV_PIX_FMT_FLAG_ALPHA);
  mapper_.map(std::move(decoded), frame, codec_->sw_pix_fmt);
  frame.colour = source_colour(tags, frame.format);
  frame.format.rotation = rotation;
  frame.format.sar_num = sar_num;
  frame.format.sar_den = sar_den;
  frame.pts = pts;
  frame.damaged = damaged;
  frame.decode_ms = std::chrono::duration<double, std::milli>(std::exchange(decoder_time_, {})).count();
  number_frame(frame, pts);
  return push(std::move(frame));
}

// In a stream of constant rate, consecutive frames are one frame duration apart: a jump of more
// (rounded to whole frames) is frames lost there, which the count skips so that the number stays
// pts x rate from the pass's first frame. A variable rate says nothing of that: counted as decoded.
void FfmpegSource::number_frame(DecodedFrame& frame, double pts) {
  if (reindex_) {
    next_index_ = frame_rate_ > 0 ? std::llround(pts * frame_rate_) : 0;
    index_exact_ = pass_from_start_ || constant_rate_;
    reindex_ = false;
  } else if (have_numbered_ && constant_rate_ && frame_rate_ > 0) {
    const std::int64_t skipped = std::llround((pts - numbered_pts_) * frame_rate_) - 1;
    if (skipped > 0) {
      const FrameGap gap{next_index_ - 1, numbered_pts_, next_index_ + skipped, pts, skipped};
      update_report([&](DecodeReport& r) {
        r.missing += skipped;
        if (r.gaps.size() < DecodeReport::kMaxGaps) r.gaps.push_back(gap);
      });
      pass_missing_ += skipped;
      next_index_ += skipped;
    }
  }
  frame.index = next_index_++;
  frame.index_exact = index_exact_;
  numbered_pts_ = pts;
  have_numbered_ = true;
}

// After the decoder is drained at the end of the input: the packets that gave no frame, and
// whether the input ended before what the container promised.
void FfmpegSource::end_pass(bool read_error) {
  const std::int64_t silent = seg_fed_ - seg_out_ - seg_errors_;
  seg_fed_ = seg_out_ = seg_errors_ = 0;
  const std::string reason = read_error ? std::string() : truncation();
  const std::int64_t shortfall = reason.empty() ? middle_shortfall() : 0;
  update_report([&](DecodeReport& r) {
    if (silent > 0) r.lost += silent;
    r.missing += shortfall;
    if (!reason.empty() && !r.truncated) {
      r.truncated = true;
      r.truncation_reason = reason;
    }
  });
}

// Why this pass ended before what the container promised (frames or duration); empty when it
// did not, or when that cannot be told.
std::string FfmpegSource::truncation() const {
  if (pass_frames_ <= 0) return {};
  const double rate = frame_rate_;
  if (promised_frames_ > 0) {
    std::int64_t got = pass_frames_ + pass_missing_;  // frames lost in the middle are no truncation
    if (!pass_from_start_ && rate > 0) got = std::llround(pass_max_pts_ * rate) + 1;
    if ((pass_from_start_ || rate > 0) && got < promised_frames_ - 1 && !reached_promised_end()) {
      return "the file ends after " + std::to_string(got) + " of " + std::to_string(promised_frames_) +
             " frames (truncated?)";
    }
    return {};
  }
  if (promised_duration_ > 0 && rate > 0 && pass_max_pts_ + 2.0 / rate < promised_duration_) {
    const std::int64_t got = pass_from_start_ ? pass_frames_ : std::llround(pass_max_pts_ * rate) + 1;
    return "the file ends after " + std::to_string(got) + " of " +
           std::to_string(std::llround(promised_duration_ * rate)) + " frames (truncated?)";
  }
  return {};
}

bool FfmpegSource::reached_promised_end() const {
  return pass_from_start_ && promised_frames_ > 0 && frame_rate_ > 0 &&
         std::llround(pass_max_pts_ * frame_rate_) + 1 >= promised_frames_ - 1;
}

std::int64_t FfmpegSource::middle_shortfall() const {
  if (pass_frames_ <= 0 || !reached_promised_end()) return 0;
  const std::int64_t got = pass_frames_ + pass_missing_;
  return got < promised_frames_ - 1 ? promised_frames_ - got : 0;
}

}  // namespace vhist::media
