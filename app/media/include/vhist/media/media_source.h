// Video files in: FFmpeg demuxing and decoding on a thread of its own, into a bounded queue of
// frames. This directory is the only place in vhist that includes libav* headers; what leaves it
// is described with vhist's own types (VideoFormat, VideoPlanes).
//
// Local files only: inputs are opened through the `file` protocol with the protocol whitelist
// set to "file", so a playlist inside a file (HLS, concat) cannot reach the network.
#pragma once

#include "vhist/media/timecode.h"
#include "vhist/compute/source_colour.h"
#include "vhist/compute/video_frame.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::media {

// Bad input: what is wrong with it, in one line meant for a person ("cannot open 'x.mp4': no
// such file or directory"). Tools exit with status 2 on it.
class MediaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One stream of the file, as the container declares it (for the QC provenance).
struct StreamFact {
  int index = 0;          // as ffprobe numbers them
  std::string type;       // video, audio, subtitle, data, attachment
  std::string codec;      // FFmpeg's codec name ("h264", "aac", "bin_data"...)
  std::string detail;     // "1920x1080" for video, "48000 Hz, 2 channels" for audio; else empty
  double duration = -1;   // seconds; < 0 unknown
  std::string language;   // its language tag ("eng"), empty when none
};

struct MediaInfo {
  std::string path;
  std::string container;      // "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", ...
  std::string codec;          // "h264", "hevc", ...
  std::string decoder;        // the FFmpeg decoder used: "h264", "libvpx-vp9", ...
  // "nvdec" when the decoder was opened with FFmpeg's CUDA hwaccel (SourceOptions::cuda_context);
  // whether each frame came from it is DecodedFrame::device (the stream may be refused:
  // DecodeReport::hw_fallback says why).
  std::string hwaccel;
  int decoder_threads = 0;    // the threads it decodes with, as opened (FFmpeg's choice by default)
  std::string thread_type;    // "frame", "slice" or "none": how those threads share the work
  std::uint32_t width = 0;    // of the first frame's stream parameters
  std::uint32_t height = 0;
  std::string pixel_format;   // decoder's pixel format name
  double frame_rate = 0;      // frames per second (average), 0 when unknown
  double duration = -1;       // seconds, -1 when unknown
  std::int64_t frame_count = -1;  // from the container when it says, else -1
  int video_stream = -1;      // index in the container
  bool attached_picture = false;  // the stream is a file's cover art: one still picture
  std::vector<std::string> video_streams;  // the file's video streams: "0 (h264 1920x1080)", ...
  std::vector<StreamFact> streams;         // every stream of the file (video, audio, data...)
  bool constant_rate = false;  // the frame rate is known constant (frame numbers follow from times)
  // The shape the stream declares (its display matrix and sample aspect ratio); each frame's
  // VideoFormat carries its own, which may differ (a frame's display matrix or aspect ratio
  // wins over the stream's).
  std::uint32_t rotation = 0;                // degrees clockwise that turn the picture upright
  std::uint32_t sar_num = 1, sar_den = 1;    // sample aspect ratio (1:1 when not given)
  StreamTimecode timecode;  // the stream's SMPTE timecode (timecode.h), when the container has one
};

// One decoded frame. The planes point into memory owned by `owner` (the decoder's frame, or a
// converted copy), valid as long as the DecodedFrame (or a copy of its owner) lives.
struct DecodedFrame {
  VideoFormat format;       // layout, depth and colour (matrix and range resolved, never unknown)
  VideoPlanes planes;       // positive strides
  double pts = 0;           // presentation time in seconds from the stream's start time
  // Frame number: 0, 1, 2 ... in output order from open; after a seek, the first frame gets
  // llround(pts * frame_rate) (0 when the rate is unknown) and the count goes on from there. In a
  // stream of constant rate, frames lost in the middle (a jump in pts of more than one frame)
  // are skipped by the count too, so the number stays the frame's place at the rate: the gap in
  // the numbers is where the lost frames were (DecodeReport::gaps).
  std::int64_t index = 0;
  // Whether `index` is exact: counted from the start, or after a seek in a stream of constant
  // frame rate. After a seek in a variable-rate stream it is the time x the average rate, an
  // estimate.
  bool index_exact = true;
  bool damaged = false;     // the decoder reported errors it concealed in this frame
  bool converted = false;   // went through libswscale (the decoder's format is not handled)
  // Wall time the decode thread spent in the decoder (sending packets, receiving frames) since
  // the frame before, in ms; with frame threading, the time the decoder kept that thread busy.
  double decode_ms = 0;
  SourceColour colour;      // the colour description used, each part from the stream or assumed
  // The decoded picture has an alpha channel. Every pixel's colour is counted whatever its alpha
  // (docs/user-guide.md: alpha policy).
  bool has_alpha = false;
  // Its alpha samples, for leaving out transparent pixels: set when the decoder's format is read
  // directly and stored top-down (not through libswscale, which drops alpha); else data null.
  AlphaPlane alpha;
  // Where the planes are: host memory (planes.data), or GPU memory of the hardware decoder
  // (device.address; planes.stride holds the strides, planes.data is null, alpha is none).
  DeviceFrame device;
  std::shared_ptr<const void> owner;
};

// Frames lost between two decoded frames, told by their timestamps (DecodedFrame::index).
struct FrameGap {
  std::int64_t after_frame = 0;   // the last frame before the gap: its number and pts
  double after_pts = 0;
  std::int64_t before_frame = 0;  // the first frame after it
  double before_pts = 0;
  std::int64_t frames = 0;        // frames missing between them
};

// What happened during decoding, for the end-of-run report.
struct DecodeReport {
  static constexpr std::size_t kMaxGaps = 8;
  std::int64_t packets = 0;         // video packets read
  std::int64_t frames = 0;          // frames decoded
  std::int64_t lost = 0;            // video packets the decoder rejected (no frame came out)
  std::int64_t damaged = 0;         // frames with concealed errors
  std::int64_t errors = 0;          // error messages from the demuxer and decoder while decoding:
                                    // corrupt data shows here even when no frame is marked
  bool truncated = false;           // input ended early (read error, or fewer frames than promised)
  std::string truncation_reason;    // why `truncated`, one line
  std::string first_error;          // first decode error message, if any
  // Frames lost in the middle of the input (not at its end): the gaps in the timestamps of a
  // constant-rate stream, or, elsewhere, how many fewer frames came than the container promised
  // though the last one is at its end. `gaps` lists the first kMaxGaps gaps in order.
  std::int64_t missing = 0;
  std::vector<FrameGap> gaps;
  // Hardware decoding (MediaInfo::hwaccel): frames decoded on it, and why the decoder went to
  // (or stayed on) the CPU for this stream, empty while it has not.
  std::int64_t hw_frames = 0;
  std::string hw_fallback;
};

struct SourceOptions {
  std::size_t queue_frames = 4;     // bound of the decoded-frame queue
  int decoder_threads = 0;          // 0: FFmpeg's automatic choice (frame threading on)
  bool loop = false;                // at the end, seek to the start and go on
  double start = 0;                 // seconds: first frame delivered is the first with pts >= start
  int stream = -1;                  // the video stream by its index in the file; -1: the best one
  std::int64_t max_pixels = 0;      // decoder's limit on width * height (0: FFmpeg's default);
                                    // larger frames are rejected by the decoder
  // Hardware decoding: a CUDA context (CUcontext) and stream (CUstream) for FFmpeg's CUDA
  // hwaccel (NVDEC), made by app/hwdec for the Vulkan device's GPU and outliving the source.
  // Frames then stay in GPU memory (DecodedFrame::device), written on that stream. A stream the
  // hwaccel does not take is decoded on the CPU (DecodeReport::hw_fallback says why).
  // nullptr: CPU decoding.
  void* cuda_context = nullptr;
  void* cuda_stream = nullptr;
};

class MediaSource {
 public:
  // Opens `path` and starts the decoding thread. Throws MediaError for bad input: missing file,
  // directory, permission denied, empty file, not a media file, no video stream, unsupported
  // codec; the message says what and why.
  static std::unique_ptr<MediaSource> open(const std::string& path, const SourceOptions& options = {});
  // Opens bytes held in memory (copied), read through a custom AVIOContext; `name` stands for
  // the input in messages. Nothing outside the bytes is reachable: a playlist or reference inside
  // them (HLS, concat, a QuickTime data reference) that asks to open another file or URL is
  // refused. Throws MediaError as open() does. For the fuzzer and tests.
  static std::unique_ptr<MediaSource> open_memory(const std::string& name, std::string_view bytes,
                                                  const SourceOptions& options = {});
  virtual ~MediaSource() = default;

  virtual const MediaInfo& info() const = 0;

  enum class Status { frame, end, timeout };
  // Waits up to `timeout` for the next frame. `end` once the input is exhausted (and not
  // looping); after that report() is final. Throws MediaError when the input turned out bad
  // before any frame came (e.g. every packet corrupt).
  virtual Status next(DecodedFrame& frame, std::chrono::milliseconds timeout) = 0;

  // Seeks: the next frame returned is the first frame with pts >= seconds (or the frame with
  // that index, counting from the stream start at the average frame rate). Frames queued before
  // the call are dropped.
  virtual void seek(double seconds) = 0;
  virtual void seek_frame(std::int64_t index) = 0;
  virtual void set_loop(bool loop) = 0;

  virtual DecodeReport report() const = 0;
  // Decoded frames waiting in the queue, and its bound (the stats page); -1: not a queue.
  virtual std::array<std::int64_t, 2> queue_depth() const { return {-1, -1}; }
};

// Makes every file input's reads give up from now on, the one being opened included (FFmpeg's
// interrupt callback): for a signal handler (async-signal-safe: one atomic store). A read
// blocked in the kernel returns when the signal interrupts it (a handler without SA_RESTART).
void interrupt_all_inputs() noexcept;

// The FFmpeg version string (for --version and reports).
std::string ffmpeg_version();

}  // namespace vhist::media
