// The CPU engine's scope counts (CpuEngine::waveform, ::vectorscope): the GPU passes' division
// of work on the CPU's threads. Each thread owns a range of plot columns of the waveform and
// counts only the samples that fall in them (no partial sums); the vectorscope's threads count
// bands of rows into partial grids that are added at the end.
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/scope_shared.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace vhist {

namespace {

using shader::vhist_scope_chroma;
using shader::vhist_scope_column;

// Samples [x0, x1) x [y0, y1) of a grid.
struct Box {
  std::uint32_t x0, x1, y0, y1;
};

// The samples of a grid subsampled by 2^sx x 2^sy that may stand in display columns [d0, d1)
// of region r: the stored columns (rotation 0, 180) or rows (90, 270) those display columns
// show, widened to whole samples of the grid.
Box samples_for_columns(const PixelRect& r, std::uint32_t rotation, std::uint32_t d0, std::uint32_t d1,
                        std::uint32_t sx, std::uint32_t sy) {
  std::uint32_t x0 = r.x, x1 = r.x + r.width, y0 = r.y, y1 = r.y + r.height;
  if (rotation == 90) {
    y0 = r.y + r.height - d1, y1 = r.y + r.height - d0;
  } else if (rotation == 180) {
    x0 = r.x + r.width - d1, x1 = r.x + r.width - d0;
  } else if (rotation == 270) {
    y0 = r.y + d0, y1 = r.y + d1;
  } else {
    x0 = r.x + d0, x1 = r.x + d1;
  }
  return {x0 >> sx, ((x1 - 1) >> sx) + 1, y0 >> sy, ((y1 - 1) >> sy) + 1};
}

// Component c (0..2) of pixel i of a converted frame.
std::uint32_t rgb_at(std::span<const std::byte> rgb, const FrameFormat& f, std::uint64_t i, std::uint32_t c) {
  if (f.packing == PixelPacking::rgba8) return std::to_integer<std::uint32_t>(rgb[i * 4 + c]);
  std::uint16_t v = 0;
  std::memcpy(&v, rgb.data() + i * 8 + c * 2, 2);
  return v;
}

struct WaveformJob {
  const VideoFormat& format;
  const VideoPlanes& planes;
  std::span<const std::byte> rgb;
  PixelRect region;
  std::uint32_t shift;  // code >> shift is the level
  WaveformCounts& out;
};

// Counts plot columns [p0, p1): every sample whose display column lies in them.
void count_plot_columns(const WaveformJob& job, std::uint32_t p0, std::uint32_t p1) {
  const VideoFormat& f = job.format;
  const PixelRect& r = job.region;
  WaveformCounts& out = job.out;
  const std::uint32_t run = out.shape.run, d0 = p0 * run, d1 = std::min(p1 * run, out.shape.columns);
  const FrameFormat rgb_format = converted_format(f);
  const bool planes = out.mode == WaveformMode::ycbcr;
  const std::size_t plane_words = std::size_t{out.shape.plot_columns} * out.levels;
  // Each display column's first count (its plot column's, d / run), looked up: a division per
  // sample cost more than the rest of the loop.
  std::vector<std::size_t> column_at(d1 > d0 ? d1 - d0 : 0);
  for (std::uint32_t d = d0; d < d1; ++d) column_at[d - d0] = std::size_t{d / run} * out.levels;
  for (std::uint32_t c = 0; c < (planes ? 3u : 1u); ++c) {
    const std::uint32_t sx = c == 0 ? 0 : f.chroma_shift_x, sy = c == 0 ? 0 : f.chroma_shift_y;
    const Box box = samples_for_columns(r, f.rotation, d0, d1, sx, sy);
    for (std::uint32_t y = box.y0; y < box.y1; ++y) {
      for (std::uint32_t x = box.x0; x < box.x1; ++x) {
        const std::uint32_t lx = std::clamp(x << sx, r.x, r.x + r.width - 1);
        const std::uint32_t ly = std::clamp(y << sy, r.y, r.y + r.height - 1);
        const std::uint32_t d = vhist_scope_column(lx, ly, r.x, r.y, r.width, r.height, f.rotation);
        if (d < d0 || d >= d1) continue;  // a chroma sample standing in a neighbour's column
        std::uint32_t* column = out.counts.data() + column_at[d - d0];
        if (planes) {
          ++column[c * plane_words + (read_sample(f, job.planes, c, x, y) >> job.shift)];
          continue;
        }
        const std::uint64_t i = std::uint64_t{y} * rgb_format.width + x;
        const std::uint32_t rr = rgb_at(job.rgb, rgb_format, i, 0), gg = rgb_at(job.rgb, rgb_format, i, 1),
                            bb = rgb_at(job.rgb, rgb_format, i, 2);
        if (out.mode == WaveformMode::luma) {
          ++column[shader::vhist_luma(rr, gg, bb) >> job.shift];
        } else {
          ++column[rr >> job.shift];
          ++column[plane_words + (gg >> job.shift)];
          ++column[2 * plane_words + (bb >> job.shift)];
        }
      }
    }
  }
}

void check_rgb_size(const VideoFormat& format, std::span<const std::byte> rgb) {
  if (rgb.size() < converted_format(format).byte_size()) {
    throw std::invalid_argument("the converted frame holds " + std::to_string(rgb.size()) + " bytes, fewer than its " +
                                std::to_string(converted_format(format).byte_size()));
  }
}

}  // namespace

WaveformCounts CpuEngine::waveform(const VideoFormat& format, const VideoPlanes& planes, std::span<const std::byte> rgb,
                                   const WaveformRequest& request) {
  if (auto err = check_waveform(format, request); !err.empty()) throw std::invalid_argument(err);
  if (request.mode != WaveformMode::ycbcr) check_rgb_size(format, rgb);
  WaveformCounts out = empty_waveform(format, request);
  const auto shift = format.bits - static_cast<std::uint32_t>(std::countr_zero(request.levels));
  const WaveformJob job{format, planes, rgb, scope_region(format, request.region), shift, out};
  const unsigned n = threads();
  const std::uint32_t per_thread = (out.shape.plot_columns + n - 1) / n;
  pool_.run([&](unsigned i) {
    const std::uint32_t p0 = std::min(out.shape.plot_columns, i * per_thread);
    count_plot_columns(job, p0, std::min(out.shape.plot_columns, p0 + per_thread));
  });
  return out;
}

VectorscopeCounts CpuEngine::vectorscope(const VideoFormat& format, const VideoPlanes& planes,
                                         std::span<const std::byte> rgb, const VectorscopeRequest& request) {
  if (auto err = check_vectorscope(format, request); !err.empty()) throw std::invalid_argument(err);
  const bool from_planes = vectorscope_from_planes(format);
  if (!from_planes) check_rgb_size(format, rgb);
  const std::uint32_t size = request.size;
  const auto shift = format.bits - static_cast<std::uint32_t>(std::countr_zero(size));
  const PixelRect s = vectorscope_samples(format, scope_region(format, request.region));
  const ChromaFromRgb k = chroma_from_rgb(format.matrix, format.range, format.bits);
  const FrameFormat rgb_format = converted_format(format);
  const unsigned n = threads();
  const std::uint32_t per_band = (s.height + n - 1) / n;
  std::vector<std::vector<std::uint32_t>> parts(n);
  pool_.run([&](unsigned i) {
    auto& grid = parts[i];
    grid.assign(std::size_t{size} * size, 0);
    const std::uint32_t y0 = s.y + std::min(s.height, i * per_band), y1 = s.y + std::min(s.height, (i + 1) * per_band);
    for (std::uint32_t y = y0; y < y1; ++y) {
      for (std::uint32_t x = s.x; x < s.x + s.width; ++x) {
        std::uint32_t cb = 0, cr = 0;
        if (from_planes) {
          cb = read_sample(format, planes, 1, x, y);
          cr = read_sample(format, planes, 2, x, y);
        } else {
          const std::uint64_t p = std::uint64_t{y} * rgb_format.width + x;
          const int r = static_cast<int>(rgb_at(rgb, rgb_format, p, 0)), g = static_cast<int>(rgb_at(rgb, rgb_format, p, 1)),
                    b = static_cast<int>(rgb_at(rgb, rgb_format, p, 2));
          cb = vhist_scope_chroma(r, g, b, k.cb[0], k.cb[1], k.cb[2], k.zero, k.max_code);
          cr = vhist_scope_chroma(r, g, b, k.cr[0], k.cr[1], k.cr[2], k.zero, k.max_code);
        }
        ++grid[std::size_t{cr >> shift} * size + (cb >> shift)];
      }
    }
  });
  VectorscopeCounts out{size, from_planes, std::vector<std::uint32_t>(std::size_t{size} * size, 0)};
  for (const auto& grid : parts) {
    for (std::size_t j = 0; j < grid.size(); ++j) out.counts[j] += grid[j];
  }
  return out;
}

}  // namespace vhist
