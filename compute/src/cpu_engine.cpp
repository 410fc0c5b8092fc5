#include "vhist/compute/cpu_engine.h"

#include "vhist/colour_shared.h"
#include "vhist/compute/colour.h"

#include <algorithm>
#include <stdexcept>

namespace vhist {

namespace {

// Reads `count` samples of one component along a row, `step` bytes apart, into `out`.
template <typename Sample>
void read_row(const std::byte* row, std::uint32_t offset, std::uint32_t step, std::uint32_t shift, std::uint32_t mask,
              std::uint32_t count, std::int32_t* out) {
  const std::byte* p = row + offset;
  for (std::uint32_t i = 0; i < count; ++i, p += step) {
    Sample v;
    __builtin_memcpy(&v, p, sizeof v);
    out[i] = static_cast<std::int32_t>((static_cast<std::uint32_t>(v) >> shift) & mask);
  }
}

struct RowScratch {
  std::vector<std::int32_t> y, cb8, cr8, near, far;
  std::vector<std::uint16_t> r, g, b;
};

// Chroma of one component for luma row y, upsampled and x8, into out[0..width).
template <typename Sample>
void chroma_row(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t c, std::uint32_t y, RowScratch& s,
                std::int32_t* out) {
  const ComponentLayout& comp = f.components[c];
  const std::uint32_t mask = (1u << f.bits) - 1u;
  const std::uint32_t cw = f.chroma_width(), ch = f.chroma_height();
  const std::uint32_t sx = f.chroma_shift_x, sy = f.chroma_shift_y;
  const auto row_ptr = [&](std::uint32_t row) { return planes.data[comp.plane] + std::size_t{row} * planes.stride[comp.plane]; };
  const std::uint32_t near_row = y >> sy;
  read_row<Sample>(row_ptr(near_row), comp.offset, comp.step, comp.shift, mask, cw, s.near.data());
  if (sy != 0) {
    read_row<Sample>(row_ptr(shader::vhist_chroma_far_row(y, ch)), comp.offset, comp.step, comp.shift, mask, cw,
                     s.far.data());
  }
  const std::int32_t* n = s.near.data();
  const std::int32_t* fa = s.far.data();
  for (std::uint32_t x = 0; x < f.width; ++x) {
    const std::uint32_t a = x >> sx;
    const std::uint32_t b = (sx != 0 && a + 1 < cw) ? a + 1 : a;
    const int h_near = shader::vhist_chroma_h(n[a], n[b], sx, x);
    const int h_far = sy != 0 ? shader::vhist_chroma_h(fa[a], fa[b], sx, x) : 0;
    out[x] = shader::vhist_chroma8(h_near, h_far, sy);
  }
}

// Converts rows [y0, y1) and counts them into counts[channel * bins + bin].
template <typename Sample>
void histogram_rows(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t bins, std::uint32_t y0,
                    std::uint32_t y1, std::uint32_t* counts) {
  const std::uint32_t w = f.width;
  RowScratch s;
  s.y.resize(w);
  s.cb8.resize(w);
  s.cr8.resize(w);
  s.near.resize(f.chroma_width());
  s.far.resize(f.chroma_width());
  s.r.resize(w);
  s.g.resize(w);
  s.b.resize(w);
  const ConversionCoefficients k = conversion_coefficients(f.matrix, f.range, f.bits);
  const std::uint32_t mask = (1u << f.bits) - 1u;
  const std::uint32_t bits = f.bits;
  std::uint32_t* cr = counts;
  std::uint32_t* cg = counts + bins;
  std::uint32_t* cb = counts + 2 * bins;
  std::uint32_t* cl = counts + 3 * bins;
  for (std::uint32_t y = y0; y < y1; ++y) {
    const auto component_row = [&](std::uint32_t c, std::int32_t* out) {
      const ComponentLayout& comp = f.components[c];
      read_row<Sample>(planes.data[comp.plane] + std::size_t{y} * planes.stride[comp.plane], comp.offset, comp.step,
                       comp.shift, mask, w, out);
    };
    if (f.model == ColourModel::rgb) {
      component_row(0, s.y.data());
      component_row(1, s.cb8.data());
      component_row(2, s.cr8.data());
      for (std::uint32_t x = 0; x < w; ++x) {
        s.r[x] = static_cast<std::uint16_t>(s.y[x]);
        s.g[x] = static_cast<std::uint16_t>(s.cb8[x]);
        s.b[x] = static_cast<std::uint16_t>(s.cr8[x]);
      }
    } else if (f.model == ColourModel::gray) {
      component_row(0, s.y.data());
      const bool full = f.range == ColourRange::full;
      for (std::uint32_t x = 0; x < w; ++x) {
        const std::uint32_t v =
            full ? static_cast<std::uint32_t>(s.y[x])
                 : shader::vhist_yuv_component(s.y[x], 0, 0, k.cy, 0, 0, k.yoff, 0, k.shift, k.max_code);
        s.r[x] = s.g[x] = s.b[x] = static_cast<std::uint16_t>(v);
      }
    } else {
      component_row(0, s.y.data());
      chroma_row<Sample>(f, planes, 1, y, s, s.cb8.data());
      chroma_row<Sample>(f, planes, 2, y, s, s.cr8.data());
      const std::int32_t* yv = s.y.data();
      const std::int32_t* u = s.cb8.data();
      const std::int32_t* v = s.cr8.data();
      for (std::uint32_t x = 0; x < w; ++x) {
        s.r[x] = static_cast<std::uint16_t>(
            shader::vhist_yuv_component(yv[x], u[x], v[x], k.cy, 0, k.crv, k.yoff, k.coff8, k.shift, k.max_code));
        s.g[x] = static_cast<std::uint16_t>(shader::vhist_yuv_component(yv[x], u[x], v[x], k.cy, -k.cgu, -k.cgv, k.yoff,
                                                                        k.coff8, k.shift, k.max_code));
        s.b[x] = static_cast<std::uint16_t>(
            shader::vhist_yuv_component(yv[x], u[x], v[x], k.cy, k.cbu, 0, k.yoff, k.coff8, k.shift, k.max_code));
      }
    }
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t r = s.r[x], g = s.g[x], b = s.b[x];
      ++cr[shader::vhist_bin(r, bins, bits)];
      ++cg[shader::vhist_bin(g, bins, bits)];
      ++cb[shader::vhist_bin(b, bins, bits)];
      ++cl[shader::vhist_bin(shader::vhist_luma(r, g, b), bins, bits)];
    }
  }
}

}  // namespace

CpuEngine::CpuEngine(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  partial_.resize(threads);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

CpuEngine::~CpuEngine() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void CpuEngine::worker_loop(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* job = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(index);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_cv_.notify_one();
    }
  }
}

void CpuEngine::run_on_all(const std::function<void(unsigned)>& job) {
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    pending_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  start_cv_.notify_all();
  job(0);
  std::unique_lock lock(mutex_);
  done_cv_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
}

Histogram CpuEngine::histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  if (auto err = check_video_format(format); !err.empty()) throw std::invalid_argument(err);
  if (auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  const unsigned n = threads();
  const std::uint32_t rows_per_band = (format.height + n - 1) / n;
  const std::function<void(unsigned)> job = [&](unsigned i) {
    auto& counts = partial_[i];
    counts.assign(std::size_t{bins} * 4, 0u);
    const std::uint32_t y0 = std::min(format.height, i * rows_per_band);
    const std::uint32_t y1 = std::min(format.height, y0 + rows_per_band);
    if (format.sample_bytes == 1) {
      histogram_rows<std::uint8_t>(format, planes, bins, y0, y1, counts.data());
    } else {
      histogram_rows<std::uint16_t>(format, planes, bins, y0, y1, counts.data());
    }
  };
  run_on_all(job);
  Histogram out(bins);
  for (const auto& counts : partial_) {
    for (std::uint32_t ch = 0; ch < 4; ++ch) {
      for (std::uint32_t b = 0; b < bins; ++b) out.counts[std::size_t{b} * 4 + ch] += counts[std::size_t{ch} * bins + b];
    }
  }
  return out;
}

}  // namespace vhist
