#include "vhist/compute/video_frame.h"

#include "vhist/compute/colour_names.h"

#include <algorithm>

namespace vhist {

// The names are colour_names.cpp's, the one table of each enum's identifiers.
std::string_view matrix_name(ColourMatrix m) { return colour_id(m); }

std::string_view range_name(ColourRange r) { return colour_id(r); }

std::string_view model_name(ColourModel m) {
  switch (m) {
    case ColourModel::yuv: return "yuv";
    case ColourModel::rgb: return "rgb";
    case ColourModel::gray: return "gray";
  }
  return "unknown";
}

namespace {

std::uint32_t used_components(const VideoFormat& f) { return f.model == ColourModel::gray ? 1u : 3u; }

bool is_chroma(const VideoFormat& f, std::uint32_t c) { return f.model == ColourModel::yuv && c > 0; }

std::uint32_t component_width(const VideoFormat& f, std::uint32_t c) {
  return is_chroma(f, c) ? f.chroma_width() : f.width;
}

std::uint32_t component_height(const VideoFormat& f, std::uint32_t c) {
  return is_chroma(f, c) ? f.chroma_height() : f.height;
}

}  // namespace

namespace {

// The stored width scaled by the sample aspect ratio, rounded to nearest, at least 1.
std::uint32_t scaled_width(const VideoFormat& f) {
  if (f.sar_num == 0 || f.sar_den == 0) return f.width;
  const std::uint64_t w = (std::uint64_t{f.width} * f.sar_num + f.sar_den / 2) / f.sar_den;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(w, 1, 0xffffffffu));
}

bool quarter_turn(const VideoFormat& f) { return f.rotation == 90 || f.rotation == 270; }

}  // namespace

std::uint32_t VideoFormat::display_width() const { return quarter_turn(*this) ? height : scaled_width(*this); }
std::uint32_t VideoFormat::display_height() const { return quarter_turn(*this) ? scaled_width(*this) : height; }

std::uint32_t VideoFormat::chroma_width() const {
  if (model != ColourModel::yuv) return width;
  const std::uint64_t w = (std::uint64_t{width} + (1u << chroma_shift_x) - 1) >> chroma_shift_x;
  return static_cast<std::uint32_t>(w);
}

std::uint32_t VideoFormat::chroma_height() const {
  if (model != ColourModel::yuv) return height;
  const std::uint64_t h = (std::uint64_t{height} + (1u << chroma_shift_y) - 1) >> chroma_shift_y;
  return static_cast<std::uint32_t>(h);
}

std::uint32_t VideoFormat::plane_rows(std::uint32_t p) const {
  std::uint32_t rows = 0;
  for (std::uint32_t c = 0; c < used_components(*this); ++c) {
    if (components[c].plane == p) rows = std::max(rows, component_height(*this, c));
  }
  return rows;
}

std::uint32_t VideoFormat::plane_row_bytes(std::uint32_t p) const {
  std::uint64_t bytes = 0;
  for (std::uint32_t c = 0; c < used_components(*this); ++c) {
    const ComponentLayout& l = components[c];
    const std::uint32_t w = component_width(*this, c);
    if (l.plane != p || w == 0) continue;
    bytes = std::max(bytes, std::uint64_t{w - 1} * l.step + l.offset + sample_bytes);
  }
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(bytes, UINT32_MAX));
}

std::string check_video_format(const VideoFormat& f) {
  const std::string name = f.pixel_format.empty() ? std::string("video format") : "pixel format " + f.pixel_format;
  if (f.width == 0 || f.height == 0) {
    return "frame size " + std::to_string(f.width) + "x" + std::to_string(f.height) + " is empty";
  }
  if (f.model != ColourModel::yuv && f.model != ColourModel::rgb && f.model != ColourModel::gray) {
    return name + ": unknown colour model";
  }
  if (f.matrix != ColourMatrix::bt601 && f.matrix != ColourMatrix::bt709 && f.matrix != ColourMatrix::bt2020) {
    return name + ": unknown colour matrix";
  }
  if (f.range != ColourRange::limited && f.range != ColourRange::full) return name + ": unknown colour range";
  const std::uint32_t max_bits = f.model == ColourModel::yuv ? 12 : 16;
  if (f.bits < 8 || f.bits > max_bits) {
    return name + ": " + std::to_string(f.bits) + "-bit " + std::string(model_name(f.model)) +
           " components are not supported (8 to " + std::to_string(max_bits) + ")";
  }
  const std::uint32_t want_bytes = f.bits == 8 ? 1 : 2;
  if (f.sample_bytes != want_bytes) {
    return name + ": " + std::to_string(f.bits) + "-bit samples must be stored in " + std::to_string(want_bytes) +
           " byte(s) (got " + std::to_string(f.sample_bytes) + ")";
  }
  if (f.chroma_shift_x > 1 || f.chroma_shift_y > 1) {
    return name + ": chroma subsampling beyond 2x is not supported";
  }
  if (f.model != ColourModel::yuv && (f.chroma_shift_x != 0 || f.chroma_shift_y != 0)) {
    return name + ": " + std::string(model_name(f.model)) + " frames have no chroma subsampling";
  }
  if (f.plane_count < 1 || f.plane_count > 3) {
    return name + ": " + std::to_string(f.plane_count) + " planes (1 to 3 are supported)";
  }
  std::array<bool, 3> plane_used{};
  for (std::uint32_t c = 0; c < used_components(f); ++c) {
    const ComponentLayout& l = f.components[c];
    const std::string comp = "component " + std::to_string(c);
    if (l.plane >= f.plane_count) return name + ": " + comp + " lies in plane " + std::to_string(l.plane) + " of " + std::to_string(f.plane_count);
    if (l.step < f.sample_bytes || l.step % f.sample_bytes != 0 || l.offset % f.sample_bytes != 0) {
      return name + ": " + comp + " has step " + std::to_string(l.step) + " and offset " + std::to_string(l.offset) +
             ", not whole " + std::to_string(f.sample_bytes) + "-byte samples";
    }
    if (l.shift + f.bits > 8 * f.sample_bytes) {
      return name + ": " + comp + " (shift " + std::to_string(l.shift) + ") does not fit its " +
             std::to_string(f.sample_bytes) + "-byte sample";
    }
    plane_used[l.plane] = true;
  }
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    if (!plane_used[p]) return name + ": plane " + std::to_string(p) + " holds no component";
  }
  return {};
}

}  // namespace vhist
