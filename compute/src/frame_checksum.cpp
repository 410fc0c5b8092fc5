#include "vhist/compute/frame_checksum.h"

#include "vhist/compute/colour.h"
#include "vhist/measures_shared.h"

#include <stdexcept>

namespace vhist {

std::uint64_t reference_sample_checksum(const VideoFormat& f, const VideoPlanes& planes) {
  if (auto err = check_video_format(f); !err.empty()) throw std::invalid_argument(err);
  const std::uint32_t components = f.model == ColourModel::gray ? 1 : 3;
  std::uint32_t sum[2] = {0, 0};
  std::uint32_t position = 0;  // sample after sample, component after component
  for (std::uint32_t c = 0; c < components; ++c) {
    const bool chroma = c != 0 && f.model == ColourModel::yuv;
    const std::uint32_t w = chroma ? f.chroma_width() : f.width, h = chroma ? f.chroma_height() : f.height;
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x, ++position) {
        const std::uint32_t v = read_sample(f, planes, c, x, y);
        for (std::uint32_t k = 0; k < 2; ++k) sum[k] += v * shader::vhist_checksum_multiplier(position, k);
      }
    }
  }
  return checksum_from_sums(sum[0], sum[1]);
}

CellSums reference_cell_sums(const VideoFormat& f, const VideoPlanes& planes) {
  if (auto err = check_video_format(f); !err.empty()) throw std::invalid_argument(err);
  CellSums out{};
  const std::uint32_t c = shader::vhist_cell_component(static_cast<std::uint32_t>(f.model));
  for (std::uint32_t y = 0; y < f.height; ++y) {
    for (std::uint32_t x = 0; x < f.width; ++x) {
      const std::uint32_t cell = y * shader::kCellRows / f.height * shader::kCellColumns + x * shader::kCellColumns / f.width;
      out[cell] += read_sample(f, planes, c, x, y);
    }
  }
  return out;
}

}  // namespace vhist
