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
#include "vhist/compute/synthetic_frames.h"
#include "vhist/compute/video_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace vhist::bench {

bool run_video_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                     std::uint32_t iterations) {
  HistogramEngine engine(context);
  VideoPipeline pipeline(engine, 3);
  const bool cpu_device = context.properties().kind == render::DeviceKind::cpu;
  const std::uint32_t frames = iterations ? iterations : (cpu_device ? 10 : 200);
  bool all_ok = true;
  std::printf("\nvideo pipeline (as vhist analyze runs it): decoded frames -> staging -> upload -> convert -> histogram\n"
              "-> prefix sum (CDF) -> readback, 3 in flight\n");
  print_staging(context);
  std::printf("%-10s %-12s %9s %9s %9s %9s %9s %10s %8s %3s\n", "size", "format", "upload", "convert", "histogram",
              "gpu total", "x upload", "wall fps", "GB/s in", "ok");
  for (const auto& [w, h] : sizes) {
    for (bool deep : {false, true}) {
      // Four distinct frames in turn, so that no stage reads what it read last frame.
      std::vector<SyntheticVideoFrame> ring;
      for (std::uint32_t i = 0; i < 4; ++i) ring.push_back(make_natural_yuv420(w, h, deep ? 10 : 8, i));
      const std::uint32_t bins = stats_levels(ring[0].format.bits);
      if (!pipeline.check(ring[0].format, ring[0].view(), bins).empty()) {
        std::printf("%ux%u %s: skipped (%s)\n", w, h, ring[0].format.pixel_format.c_str(),
                    pipeline.check(ring[0].format, ring[0].view(), bins).c_str());
        continue;
      }
      // Verified: the first frame's histogram against the CPU reference.
      const Histogram want = reference_histogram(reference_convert(ring[0].format, ring[0].view()),
                                                 converted_format(ring[0].format), bins);
      std::vector<FrameResult> results;
      const auto submit = [&](std::uint64_t i) {
        const SyntheticVideoFrame& p = ring[i % ring.size()];
        if (auto done = pipeline.submit(p.format, p.view(), bins, i, true)) results.push_back(std::move(*done));
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
      for (const auto& plane : ring[0].planes) bytes += plane.size();
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
