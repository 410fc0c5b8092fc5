// vhist-bench --video: decoded-frame layouts through the video pipeline (staging copy, upload,
// convert, histogram, readback), three frames in flight as `vhist analyze` runs them.
// Reports per-frame GPU time by stage from timestamp queries (medians) and the wall-clock
// throughput; the baseline measured in the same run is the upload copy alone.
#include "video_bench.h"

#include "bench_util.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/video_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace vhist::bench {

namespace {

struct Planes {
  VideoFormat format;
  std::vector<std::vector<std::byte>> data;
  VideoPlanes view;
};

// A natural-looking 4:2:0 frame: luma gradients with texture, slowly varying chroma. `deep`
// gives 10-bit samples in 16-bit words (yuv420p10le), else 8-bit (yuv420p).
Planes make_yuv420(std::uint32_t w, std::uint32_t h, bool deep, std::uint32_t seed) {
  Planes p;
  VideoFormat& f = p.format;
  f.width = w;
  f.height = h;
  f.bits = deep ? 10 : 8;
  f.sample_bytes = deep ? 2 : 1;
  f.model = ColourModel::yuv;
  f.chroma_shift_x = f.chroma_shift_y = 1;
  f.plane_count = 3;
  for (std::uint32_t c = 0; c < 3; ++c) f.components[c] = {c, 0, f.sample_bytes, 0};
  f.matrix = ColourMatrix::bt709;
  f.range = ColourRange::limited;
  f.pixel_format = deep ? "yuv420p10le" : "yuv420p";
  const std::uint32_t max = (1u << f.bits) - 1;
  const auto put = [&](std::vector<std::byte>& plane, std::size_t index, std::uint32_t v) {
    if (deep) {
      const auto s = static_cast<std::uint16_t>(std::min(v, max));
      std::memcpy(plane.data() + index * 2, &s, 2);
    } else {
      plane[index] = static_cast<std::byte>(std::min(v, max));
    }
  };
  std::uint32_t state = seed * 2654435761u + 1;
  const auto noise = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 28;  // 0..15
  };
  const double scale = deep ? 4.0 : 1.0;
  for (std::uint32_t p_index = 0; p_index < 3; ++p_index) {
    const std::uint32_t pw = p_index == 0 ? w : (w + 1) / 2, ph = p_index == 0 ? h : (h + 1) / 2;
    std::vector<std::byte> plane(std::size_t{pw} * ph * f.sample_bytes);
    for (std::uint32_t y = 0; y < ph; ++y) {
      for (std::uint32_t x = 0; x < pw; ++x) {
        double v;
        if (p_index == 0) {
          v = 40 + 150.0 * x / pw + 30 * std::sin(y * 0.01 + seed) + noise();
        } else {
          v = 128 + 40 * std::sin((x + y * (p_index == 1 ? 1 : -1)) * 0.004 + seed);
        }
        put(plane, std::size_t{y} * pw + x, static_cast<std::uint32_t>(v * scale));
      }
    }
    p.view.stride[p_index] = pw * f.sample_bytes;
    p.data.push_back(std::move(plane));
  }
  for (std::uint32_t i = 0; i < 3; ++i) p.view.data[i] = p.data[i].data();
  return p;
}

}  // namespace

bool run_video_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                     std::uint32_t iterations) {
  HistogramEngine engine(context);
  VideoPipeline pipeline(engine, 3);
  const bool cpu_device = context.properties().kind == render::DeviceKind::cpu;
  const std::uint32_t frames = iterations ? iterations : (cpu_device ? 10 : 200);
  bool all_ok = true;
  std::printf("\nvideo pipeline (as vhist analyze runs it): decoded frames -> staging -> upload -> convert -> histogram\n"
              "-> prefix sum (CDF) -> readback, 3 in flight\n");
  std::printf("%-10s %-12s %9s %9s %9s %9s %9s %10s %8s %3s\n", "size", "format", "upload", "convert", "histogram",
              "gpu total", "x upload", "wall fps", "GB/s in", "ok");
  for (const auto& [w, h] : sizes) {
    for (bool deep : {false, true}) {
      // Four distinct frames in turn, so that no stage reads what it read last frame.
      std::vector<Planes> ring;
      for (std::uint32_t i = 0; i < 4; ++i) ring.push_back(make_yuv420(w, h, deep, i));
      const std::uint32_t bins = stats_levels(ring[0].format.bits);
      if (!pipeline.check(ring[0].format, ring[0].view, bins).empty()) {
        std::printf("%ux%u %s: skipped (%s)\n", w, h, ring[0].format.pixel_format.c_str(),
                    pipeline.check(ring[0].format, ring[0].view, bins).c_str());
        continue;
      }
      // Verified: the first frame's histogram against the CPU reference.
      const Histogram want = reference_histogram(reference_convert(ring[0].format, ring[0].view),
                                                 converted_format(ring[0].format), bins);
      std::vector<FrameResult> results;
      const auto submit = [&](std::uint64_t i) {
        const Planes& p = ring[i % ring.size()];
        if (auto done = pipeline.submit(p.format, p.view, bins, i, true)) results.push_back(std::move(*done));
      };
      // Warm-up: clocks up, buffers allocated.
      const std::uint32_t warmup = cpu_device ? 2 : 50;
      for (std::uint32_t i = 0; i < warmup; ++i) submit(i);
      while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
      const bool ok = results.front().histogram == want && results.front().cdf == reference_cdf(want);
      all_ok = all_ok && ok;
      results.clear();
      const auto t0 = std::chrono::steady_clock::now();
      for (std::uint32_t i = 0; i < frames; ++i) submit(i);
      while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::vector<double> upload, convert, histogram, total;
      for (const auto& r : results) {
        upload.push_back(r.upload_ms);
        convert.push_back(r.convert_ms);
        histogram.push_back(r.histogram_ms);
        total.push_back(r.gpu_ms);
      }
      const double fps = frames / seconds;
      std::uint64_t bytes = 0;
      for (const auto& plane : ring[0].data) bytes += plane.size();
      std::printf("%-10s %-12s %7.3fms %7.3fms %7.3fms %7.3fms %9.2f %10.1f %8.2f %3s\n",
                  (std::to_string(w) + "x" + std::to_string(h)).c_str(), ring[0].format.pixel_format.c_str(),
                  median(upload), median(convert), median(histogram), median(total),
                  median(total) / std::max(1e-9, median(upload)), fps, fps * static_cast<double>(bytes) * 1e-9,
                  ok ? "yes" : "NO");
    }
  }
  std::printf("medians of %u frames; upload = staging -> device copy; histogram includes the prefix sum and the\n"
              "readback copies; x upload = gpu total / upload; ok = first frame's histogram and CDF equal the CPU's\n",
              frames);
  return all_ok;
}

}  // namespace vhist::bench
