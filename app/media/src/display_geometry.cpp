#include "vhist/media/display_geometry.h"

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/frame.h>
}

#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

namespace vhist::media {

Rotation read_display_matrix(const std::int32_t matrix[9]) {
  std::int32_t m[9];
  std::memcpy(m, matrix, sizeof m);
  Rotation r;
  // The 2x2 part's determinant (16.16 x 16.16): negative when the matrix mirrors the picture.
  const double det = static_cast<double>(m[0]) * m[4] - static_cast<double>(m[1]) * m[3];
  if (det < 0) {
    av_display_matrix_flip(m, 1, 0);
    r.note = "the display matrix mirrors the picture; drawn unmirrored";
  }
  const double ccw = av_display_rotation_get(m);
  if (std::isnan(ccw)) return {0, "the display matrix cannot be read (zero scale); drawn as stored"};
  double cw = std::fmod(-ccw, 360.0);
  if (cw < 0) cw += 360.0;
  const long quarters = std::lround(cw / 90.0) % 4;
  r.degrees = static_cast<std::uint32_t>(quarters * 90);
  if (std::fabs(cw - static_cast<double>(quarters * 90)) > 0.5 && std::fabs(cw - 360.0) > 0.5) {
    char text[128];
    std::snprintf(text, sizeof text, "the display matrix turns the picture %.0f degrees clockwise; drawn turned %u", cw, r.degrees);
    r.note = r.note.empty() ? text : r.note + "; " + text;
  }
  return r;
}

void read_sample_aspect(AVRational sar, std::uint32_t& num, std::uint32_t& den) {
  num = den = 1;
  if (sar.num <= 0 || sar.den <= 0) return;
  const int g = std::gcd(sar.num, sar.den);
  num = static_cast<std::uint32_t>(sar.num / g);
  den = static_cast<std::uint32_t>(sar.den / g);
}

StreamGeometry read_stream_geometry(const AVStream& st) {
  StreamGeometry g;
  std::size_t size = 0;
  // FFmpeg 5.1 keeps the container's display matrix (an MP4 track header's) as stream side data.
  const std::uint8_t* sd = av_stream_get_side_data(&st, AV_PKT_DATA_DISPLAYMATRIX, &size);
  if (sd && size >= 9 * sizeof(std::int32_t)) {
    std::int32_t m[9];
    std::memcpy(m, sd, sizeof m);
    g.rotation = read_display_matrix(m);
  }
  g.sar = st.sample_aspect_ratio.num > 0 ? st.sample_aspect_ratio : st.codecpar->sample_aspect_ratio;
  return g;
}

void FrameGeometry::set_stream(const StreamGeometry& stream, std::string name) {
  stream_ = stream;
  name_ = std::move(name);
  if (!stream_.rotation.note.empty()) warn_once(stream_.rotation.note);
}

void FrameGeometry::read(const AVFrame& frame, std::uint32_t& rotation, std::uint32_t& sar_num,
                         std::uint32_t& sar_den) {
  Rotation r = stream_.rotation;
  const AVFrameSideData* sd = av_frame_get_side_data(&frame, AV_FRAME_DATA_DISPLAYMATRIX);
  if (sd && sd->size >= 9 * sizeof(std::int32_t)) {
    std::int32_t m[9];
    std::memcpy(m, sd->data, sizeof m);
    r = read_display_matrix(m);
    if (!r.note.empty()) warn_once(r.note);
  }
  rotation = r.degrees;
  read_sample_aspect(frame.sample_aspect_ratio.num > 0 ? frame.sample_aspect_ratio : stream_.sar, sar_num, sar_den);
}

void FrameGeometry::warn_once(const std::string& note) {
  if (warned_) return;
  warned_ = true;
  std::fprintf(stderr, "vhist: %s: %s\n", name_.c_str(), note.c_str());
}

}  // namespace vhist::media
