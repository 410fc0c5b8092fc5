#include "vhist/compute/region.h"

#include <cstring>
#include <stdexcept>

namespace vhist {

std::string check_rect(const PixelRect& r, std::uint32_t frame_width, std::uint32_t frame_height) {
  const std::string text = std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.width) + "," +
                           std::to_string(r.height);
  if (r.width == 0 || r.height == 0) return "the region " + text + " is empty";
  if (std::uint64_t{r.x} + r.width > frame_width || std::uint64_t{r.y} + r.height > frame_height) {
    return "the region " + text + " (x, y, width, height) does not lie inside the " + std::to_string(frame_width) + "x" +
           std::to_string(frame_height) + " frame";
  }
  return {};
}

FrameFormat region_format(const FrameFormat& format, const PixelRect& rect) {
  FrameFormat out = format;
  out.width = rect.width;
  out.height = rect.height;
  return out;
}

std::vector<std::byte> crop_frame(std::span<const std::byte> pixels, const FrameFormat& format, const PixelRect& rect) {
  if (auto err = check_rect(rect, format.width, format.height); !err.empty()) throw std::invalid_argument(err);
  const std::size_t bpp = format.bytes_per_pixel();
  std::vector<std::byte> out(rect.pixel_count() * bpp);
  for (std::uint32_t row = 0; row < rect.height; ++row) {
    const std::size_t from = (std::size_t{rect.y + row} * format.width + rect.x) * bpp;
    std::memcpy(out.data() + std::size_t{row} * rect.width * bpp, pixels.data() + from, std::size_t{rect.width} * bpp);
  }
  return out;
}

}  // namespace vhist
