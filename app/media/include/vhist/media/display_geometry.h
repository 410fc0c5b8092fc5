// How a stored picture is shown: the rotation in a display matrix and the sample aspect ratio,
// read from FFmpeg's stream and frame data into VideoFormat's terms. Internal to app/media;
// public only for vhist_media_tests, like pixel_formats.h.
#pragma once

#include <cstdint>
#include <string>

extern "C" {
#include <libavutil/rational.h>
}

struct AVFrame;
struct AVStream;

namespace vhist::media {

// A display matrix read as a quarter turn.
struct Rotation {
  std::uint32_t degrees = 0;  // clockwise that turn the stored picture upright: 0, 90, 180, 270
  // Why the matrix was not taken as it is (an angle that is no quarter turn, a mirror image, an
  // unreadable matrix), one line for a person; empty when it was.
  std::string note;
};

// Reads a display matrix (FFmpeg's 3x3 of 16.16 and 2.30 fixed point, as in
// AV_PKT_DATA_DISPLAYMATRIX). The clockwise angle is -av_display_rotation_get(), the rule
// FFmpeg's own autorotation follows; other angles go to the nearest quarter turn. A mirrored
// matrix (negative determinant) is read as its rotation after undoing a horizontal flip, and the
// flip is not applied: VideoFormat has no mirror, and a mirrored picture the right way up is
// closer than a picture turned the wrong way.
Rotation read_display_matrix(const std::int32_t matrix[9]);

// A sample aspect ratio as VideoFormat keeps it: 0:1, negative or otherwise invalid -> 1:1;
// reduced to lowest terms.
void read_sample_aspect(AVRational sar, std::uint32_t& num, std::uint32_t& den);

// The shape a stream declares: its display matrix (stream side data) and its sample aspect ratio
// (the container's, else the codec parameters'). Frames may override both (FrameGeometry).
struct StreamGeometry {
  Rotation rotation;
  AVRational sar{0, 1};
};
StreamGeometry read_stream_geometry(const AVStream& st);

// The shape of each decoded frame: the frame's own display matrix and sample aspect ratio where
// it has them, else the stream's. Reports a note (an odd angle, a flip) once per source on
// stderr, since the picture is drawn differently from what the file asks.
class FrameGeometry {
 public:
  // `name` stands for the input in the warning ("'clip.mp4'").
  void set_stream(const StreamGeometry& stream, std::string name);
  // Rotation and sample aspect ratio for `frame`, in VideoFormat's terms.
  void read(const AVFrame& frame, std::uint32_t& rotation, std::uint32_t& sar_num, std::uint32_t& sar_den);

 private:
  void warn_once(const std::string& note);
  StreamGeometry stream_;
  std::string name_;
  bool warned_ = false;
};

}  // namespace vhist::media
