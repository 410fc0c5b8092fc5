#include "vhist/compute/cpu_engine.h"

#include "cpu_band.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace vhist {

namespace {

using cpu_bands::BandJob;
using cpu_bands::BandLayout;
using cpu_bands::kBandRows;
using cpu_bands::kPairTable;
using cpu_bands::kPairTables;

// The band's entry point for the frame's sample size and the request.
void count_band(const BandJob& j) {
  const bool wide = j.f.sample_bytes != 1;
  if (j.want.gamut) return wide ? cpu_bands::count_band_16_gamut(j) : cpu_bands::count_band_8_gamut(j);
  wide ? cpu_bands::count_band_16(j) : cpu_bands::count_band_8(j);
}

}  // namespace

CpuEngine::CpuEngine(unsigned threads) : pool_(threads), partial_(pool_.size()), pair_tables_(pool_.size()) {}

Histogram CpuEngine::histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  return std::move(count(format, planes, bins, Request{}).levels);
}

Histogram CpuEngine::convert_and_histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                           std::byte* rgb_out) {
  return std::move(count(format, planes, bins, Request{}, rgb_out).levels);
}

PlaneCounts CpuEngine::planes(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  Request want;
  want.levels = false;
  want.planes = true;
  return std::move(*count(format, planes, bins, want).planes);
}

CpuEngine::Counts CpuEngine::count(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                   const Request& want, std::byte* rgb_out) {
  if (auto err = check_video_format(format); !err.empty()) throw std::invalid_argument(err);
  if (auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  if ((want.planes || want.gamut) && !has_planes(format)) {
    throw std::invalid_argument("an R'G'B' frame has no Y'CbCr planes (nor a gamut check of them)");
  }
  if (!want.levels && (want.light || want.gamut || rgb_out != nullptr)) {
    throw std::invalid_argument("the light levels, gamut counts and converted pixels come with the R'G'B' histograms");
  }
  const BandLayout layout(bins, want, format.bits, cpu_bands::counts_pairs(format, want, pool_.size()));
  // Bands of kBandRows rows, taken in turn by whichever thread is free: a thread that the
  // decoder's threads (or anything else) hold up does not hold the frame up by a whole half.
  const std::uint32_t bands = (format.height + kBandRows - 1) / kBandRows;
  std::atomic<std::uint32_t> next{0};
  band_hashes_.assign(want.checksum ? bands : 0u, 0u);
  const std::function<void(unsigned)> job = [&](unsigned i) {
    auto& counts = partial_[i];
    counts.assign(layout.size, 0u);
    auto& pairs = pair_tables_[i];  // zero between frames
    if (layout.paired && pairs.empty()) pairs.assign(kPairTables * kPairTable, 0u);
    bool counted = false;
    for (std::uint32_t band = next.fetch_add(1); band < bands; band = next.fetch_add(1)) {
      counted = true;
      const std::uint32_t y0 = band * kBandRows;
      const std::uint32_t y1 = std::min(format.height, y0 + kBandRows);
      std::uint64_t* hash = want.checksum ? &band_hashes_[band] : nullptr;
      const BandJob band_job{format, planes, want, layout, y0, y1, counts.data(), pairs.data(), rgb_out, hash};
      count_band(band_job);
    }
    if (layout.paired && counted) cpu_bands::fold_pairs(pairs.data(), layout, counts.data());
  };
  pool_.run(job);
  Counts out = cpu_bands::merge(partial_, layout, want);
  if (want.planes && !want.chroma && format.model == ColourModel::yuv) {
    out.planes->chroma_unbinned = std::uint64_t{format.chroma_width()} * format.chroma_height();
  }
  if (want.checksum) out.checksum = XXH3_64bits(band_hashes_.data(), band_hashes_.size() * sizeof(std::uint64_t));
  return out;
}

}  // namespace vhist
