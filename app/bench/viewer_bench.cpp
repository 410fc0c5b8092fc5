#include "viewer_bench.h"

#include "bench_util.h"

#include "viewer/offscreen.h"
#include "viewer/overlay.h"

#include "vhist/render/image.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace vhist::bench {

namespace {

// A decoded-looking 8-bit 4:2:0 frame (gradients, texture, slowly varying chroma).
struct Frame {
  VideoFormat format;
  std::vector<std::vector<std::byte>> data;
  VideoPlanes planes;
};

Frame make_frame(std::uint32_t w, std::uint32_t h, std::uint32_t seed) {
  Frame f;
  f.format.width = w;
  f.format.height = h;
  f.format.bits = 8;
  f.format.sample_bytes = 1;
  f.format.model = ColourModel::yuv;
  f.format.chroma_shift_x = f.format.chroma_shift_y = 1;
  f.format.plane_count = 3;
  for (std::uint32_t c = 0; c < 3; ++c) f.format.components[c] = {c, 0, 1, 0};
  f.format.matrix = ColourMatrix::bt709;
  f.format.range = ColourRange::limited;
  f.format.pixel_format = "yuv420p";
  std::uint32_t state = seed * 2654435761u + 7;
  for (std::uint32_t p = 0; p < 3; ++p) {
    const std::uint32_t pw = p == 0 ? w : (w + 1) / 2, ph = p == 0 ? h : (h + 1) / 2;
    std::vector<std::byte> plane(std::size_t{pw} * ph);
    for (std::uint32_t y = 0; y < ph; ++y) {
      for (std::uint32_t x = 0; x < pw; ++x) {
        state = state * 1664525u + 1013904223u;
        const double v = p == 0 ? 30 + 180.0 * x / pw + 20 * std::sin(y * 0.02 + seed) + (state >> 29)
                                : 128 + 50 * std::sin((x + (p == 1 ? y : -static_cast<int>(y))) * 0.005 + seed);
        plane[std::size_t{y} * pw + x] = static_cast<std::byte>(std::clamp(v, 0.0, 255.0));
      }
    }
    f.planes.stride[p] = pw;
    f.data.push_back(std::move(plane));
  }
  for (std::uint32_t p = 0; p < 3; ++p) f.planes.data[p] = f.data[p].data();
  return f;
}

}  // namespace

bool run_viewer_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                      std::uint32_t iterations) {
  const bool cpu_device = context.properties().kind == render::DeviceKind::cpu;
  const std::uint32_t frames = iterations ? iterations : (cpu_device ? 20 : 300);
  std::printf("\nviewer frame, offscreen: new 8-bit 4:2:0 frame each tick -> staging -> upload -> convert -> "
              "histograms -> video quad + histogram quads, 2 in flight\n");
  std::printf("%-10s %-8s %-26s %12s %12s %10s %9s\n", "size", "engine", "drawn", "gpu median", "gpu min", "wall fps",
              "vs base");
  struct Variant {
    const char* name;
    bool video, histograms, composite;
    bool cdf;       // the prefix sum, and the CDF curves drawn over all four histograms
    EqualizeMode equalize;
    bool split;     // equalized right of a centred divider only (else the whole picture)
    int base;       // the variant this one is compared with (-1: none)
  };
  // The whole frame, rasterized, then without each of the two draws, to see what each costs;
  // then the same picture drawn by the compute composite pass; then both with the cumulative
  // histograms drawn over the bars and the picture equalized (split view), against the plain ones.
  constexpr auto off = EqualizeMode::off, luma = EqualizeMode::luma, channels = EqualizeMode::channels;
  const Variant variants[] = {{"raster: video + hist", true, true, false, false, off, false, -1},
                              {"raster: hist only", false, true, false, false, off, false, -1},
                              {"raster: video only", true, false, false, false, off, false, -1},
                              {"raster: nothing drawn", false, false, false, false, off, false, -1},
                              {"compute: video + hist", true, true, true, false, off, false, -1},
                              {"raster: + equalize luma", true, true, false, false, luma, false, 0},
                              {"raster: + eq. luma, split", true, true, false, false, luma, true, 0},
                              {"raster: + cdf curves", true, true, false, true, off, false, 0},
                              {"compute: + equalize luma", true, true, true, false, luma, false, 4},
                              {"compute: + eq. channels", true, true, true, false, channels, false, 4},
                              {"compute: + eq. luma, split", true, true, true, false, luma, true, 4},
                              {"compute: + cdf curves", true, true, true, true, off, false, 4},
                              {"compute: + cdf + eq. split", true, true, true, true, luma, true, 4}};
  for (const auto& [w, h] : sizes) {
   std::vector<double> medians(std::size(variants), 0.0);
   for (std::size_t v = 0; v < std::size(variants); ++v) {
    const Variant& variant = variants[v];
    viewer::OffscreenTarget target(context, {w, h});
    viewer::Overlay overlay(context, target.render_pass(), cpu_device);
    std::vector<Frame> ring;
    for (std::uint32_t i = 0; i < 3; ++i) ring.push_back(make_frame(w, h, i));
    if (auto err = overlay.check(ring[0].format, ring[0].planes, 256); !err.empty()) {
      std::printf("%ux%u: skipped (%s)\n", w, h, err.c_str());
      continue;
    }
    viewer::OverlayStyle style;  // the defaults: split layout, all channels, 256 bins, auto scale
    style.video = variant.video;
    if (!variant.histograms) style.channels = {false, false, false, false};
    if (variant.cdf) style.cdf = {viewer::CdfMode::over, viewer::CdfMode::over, viewer::CdfMode::over, viewer::CdfMode::over};
    style.equalize = variant.equalize;
    style.split_view = variant.split;
    style.split_position = 0.5f;
    std::vector<double> gpu_ms;
    const viewer::RenderTarget rt = variant.composite ? target.composite() : target.raster();
    if (variant.composite && !variant.video) continue;
    const std::uint32_t warmup = cpu_device ? 2 : 50;
    std::chrono::steady_clock::time_point t0;
    for (std::uint32_t i = 0; i < warmup + frames; ++i) {
      if (i == warmup) t0 = std::chrono::steady_clock::now();
      overlay.begin();
      if (i > warmup + 1) gpu_ms.push_back(overlay.numbers().gpu_ms);  // that slot's previous tick, timed
      const Frame& f = ring[i % ring.size()];
      const VkCommandBuffer cmd = overlay.record(&f.format, &f.planes, false, style, rt, nullptr, nullptr);
      render::submit(context, cmd, overlay.fence());
      overlay.end();
    }
    overlay.wait_idle();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    medians[v] = median(gpu_ms);
    char ratio[16] = "";
    if (variant.base >= 0 && medians[static_cast<std::size_t>(variant.base)] > 0) {
      std::snprintf(ratio, sizeof ratio, "%.3fx", medians[v] / medians[static_cast<std::size_t>(variant.base)]);
    }
    std::printf("%-10s %-8s %-26s %10.3fms %10.3fms %10.1f %9s\n", (std::to_string(w) + "x" + std::to_string(h)).c_str(),
                cpu_device ? "cpu" : "gpu", variant.name, medians[v], *std::min_element(gpu_ms.begin(), gpu_ms.end()),
                frames / seconds, ratio);
   }
  }
  std::printf("gpu = timestamp queries around each tick's whole command buffer (median of %u ticks); vs base = that\n"
              "median over the plain variant's median in this run\n", frames);
  return true;
}

}  // namespace vhist::bench
