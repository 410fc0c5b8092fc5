#include "vhist/qc/held_picture.h"

#include <cmath>

namespace vhist::qc {

namespace {

// The cells' means (codes); a cell without samples (a frame narrower than the grid) has mean 0.
std::array<double, shader::kCellCount> cell_means(const CellSums& cells, std::uint32_t width, std::uint32_t height) {
  std::array<double, shader::kCellCount> out{};
  for (std::uint32_t cy = 0; cy < shader::kCellRows; ++cy) {
    const std::uint32_t rows = shader::vhist_cell_first(cy + 1, height, shader::kCellRows) -
                               shader::vhist_cell_first(cy, height, shader::kCellRows);
    for (std::uint32_t cx = 0; cx < shader::kCellColumns; ++cx) {
      const std::uint32_t columns = shader::vhist_cell_first(cx + 1, width, shader::kCellColumns) -
                                    shader::vhist_cell_first(cx, width, shader::kCellColumns);
      const std::uint32_t k = cy * shader::kCellColumns + cx;
      if (rows * columns != 0) out[k] = static_cast<double>(cells[k]) / (static_cast<double>(rows) * columns);
    }
  }
  return out;
}

}  // namespace

HeldPicture::Verdict HeldPicture::next(const CellSums& cells, const VideoFormat& f) {
  const std::array<double, shader::kCellCount> means = cell_means(cells, f.width, f.height);
  const bool same_shape = f.width == width_ && f.height == height_ && f.bits == bits_ && f.range == range_;
  if (same_shape) {
    double sum = 0;
    for (std::uint32_t k = 0; k < shader::kCellCount; ++k) sum += std::abs(means[k] - anchor_[k]);
    const double scale = static_cast<double>(1u << (f.bits - 8));
    const double nominal = f.range == ColourRange::limited ? 219.0 * scale : static_cast<double>((1u << f.bits) - 1u);
    const double change = sum / shader::kCellCount / nominal * 100.0;
    if (change <= threshold_) return {true, static_cast<float>(change)};
  }
  anchor_ = means;
  width_ = f.width;
  height_ = f.height;
  bits_ = f.bits;
  range_ = f.range;
  return {};
}

}  // namespace vhist::qc
