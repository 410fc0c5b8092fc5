// vhist-bench --video: decoded-frame layouts through the video pipeline (staging copy, upload,
// convert, histogram, readback), three frames in flight as `vhist analyze` runs them.
// Reports per-frame GPU time by stage from timestamp queries (medians) and the wall-clock
// throughput; the baseline measured in the same run is the upload copy alone.
// With --hwdec and NVDEC usable, the hardware path beside it: the same frames as NVDEC leaves
// them (NV12 / P010 in CUDA device memory, put there once), each frame imported by the CUDA
// FrameImport (a device-to-device copy into the pipeline's Vulkan planes, synchronised by
// timeline semaphores) instead of staged and uploaded; its "upload" is that copy (CUDA events).
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
#include <memory>
#include <string>
#include <vector>

namespace vhist::bench {

namespace {

// The frames a row cycles through: in host memory, and for the hardware path in CUDA memory.
struct RowFrames {
  std::vector<SyntheticVideoFrame> host;
  std::vector<std::shared_ptr<const DeviceFrame>> device;  // empty: the host path
  std::vector<Histogram> want;  // the CPU reference of each frame's histogram
};

// Times one row and prints it; returns whether every warm-up frame's histogram (and the first
// one's CDF) equalled the CPU reference.
bool time_row(VideoPipeline& pipeline, const RowFrames& frames, std::uint32_t count, bool cpu_device,
              const char* path) {
  const SyntheticVideoFrame& first = frames.host[0];
  const std::uint32_t bins = stats_levels(first.format.bits);
  std::vector<FrameResult> results;
  const auto submit = [&](std::uint64_t i) {
    const std::size_t k = i % frames.host.size();
    const DeviceFrame device = frames.device.empty() ? DeviceFrame{} : *frames.device[k];
    auto done = pipeline.submit(frames.host[k].format, frames.host[k].view(), bins, i, true, {}, device);
    if (done) results.push_back(std::move(*done));
  };
  // Warm-up: clocks up, buffers allocated; its results verified.
  const std::uint32_t warmup = cpu_device ? 2 : 50;
  for (std::uint32_t i = 0; i < warmup; ++i) submit(i);
  while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
  bool ok = results.front().cdf == reference_cdf(frames.want[0]);
  for (const FrameResult& r : results) ok = ok && r.histogram == frames.want[r.tag % frames.want.size()];
  results.clear();
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint32_t i = 0; i < count; ++i) submit(i);
  while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> upload, convert, histogram, total;
  for (const auto& r : results) {
    upload.push_back(r.upload_ms);
    convert.push_back(r.convert_ms);
    histogram.push_back(r.histogram_ms);
    total.push_back(r.gpu_ms);
  }
  const double fps = count / seconds;
  std::uint64_t bytes = 0;
  for (const auto& plane : first.planes) bytes += plane.size();
  std::printf("%-10s %-12s %-6s %7.3fms %7.3fms %7.3fms %7.3fms %9.2f %10.1f %8.2f %3s\n",
              (std::to_string(first.format.width) + "x" + std::to_string(first.format.height)).c_str(),
              first.format.pixel_format.c_str(), path, median(upload), median(convert), median(histogram),
              median(total), median(total) / std::max(1e-9, median(upload)), fps,
              fps * static_cast<double>(bytes) * 1e-9, ok ? "yes" : "NO");
  return ok;
}

// The host path's frames of one size and depth, and their CPU references.
RowFrames host_frames(std::uint32_t w, std::uint32_t h, bool deep) {
  RowFrames f;
  // Four distinct frames in turn, so that no stage reads what it read last frame.
  for (std::uint32_t i = 0; i < 4; ++i) f.host.push_back(make_natural_yuv420(w, h, deep ? 10 : 8, i));
  const std::uint32_t bins = stats_levels(f.host[0].format.bits);
  for (const auto& frame : f.host) {
    f.want.push_back(reference_histogram(reference_convert(frame.format, frame.view()),
                                         converted_format(frame.format), bins));
  }
  return f;
}

// The same samples as NVDEC leaves them, in CUDA memory; the same references (the same codes).
RowFrames device_frames(const RowFrames& host, const hwdec::Hwdec& hw) {
  RowFrames f;
  for (const auto& frame : host.host) {
    f.host.push_back(nvdec_frame(frame));
    f.device.push_back(hw.put_frame(f.host.back().format, f.host.back().view()));
  }
  f.want = host.want;
  return f;
}

}  // namespace

SyntheticVideoFrame nvdec_frame(const SyntheticVideoFrame& planar) {
  const bool deep = planar.format.bits > 8;
  const std::uint32_t w = planar.format.width, h = planar.format.height, bytes = deep ? 2 : 1;
  SyntheticVideoFrame out;
  out.format = synthetic_layout_format(deep ? "p010" : "nv12", w, h);
  out.format.matrix = planar.format.matrix;
  out.format.range = planar.format.range;
  out.stride = {w * bytes, ((w + 1) / 2) * 2 * bytes, 0};
  const auto sample = [&](std::uint32_t p, std::size_t i) -> std::uint16_t {
    const std::byte* s = planar.planes[p].data() + i * bytes;
    return deep ? static_cast<std::uint16_t>(std::to_integer<unsigned>(s[0]) | std::to_integer<unsigned>(s[1]) << 8)
                : static_cast<std::uint16_t>(std::to_integer<unsigned>(s[0]));
  };
  const auto put = [&](std::vector<std::byte>& plane, std::size_t i, std::uint16_t v) {
    if (deep) v = static_cast<std::uint16_t>(v << 6);
    plane[i * bytes] = static_cast<std::byte>(v & 0xff);
    if (deep) plane[i * bytes + 1] = static_cast<std::byte>(v >> 8);
  };
  out.planes.assign(2, {});
  out.planes[0].resize(std::size_t{out.stride[0]} * h);
  for (std::size_t i = 0; i < std::size_t{w} * h; ++i) put(out.planes[0], i, sample(0, i));
  const std::size_t chroma = std::size_t{(w + 1) / 2} * ((h + 1) / 2);
  out.planes[1].resize(std::size_t{out.stride[1]} * ((h + 1) / 2));
  for (std::size_t i = 0; i < chroma; ++i) {
    put(out.planes[1], 2 * i, sample(1, i));
    put(out.planes[1], 2 * i + 1, sample(2, i));
  }
  return out;
}

bool run_video_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                     std::uint32_t iterations, const hwdec::Hwdec& hw) {
  HistogramEngine engine(context);
  VideoPipeline pipeline(engine, 3, Strategy::fast, 0, hw.import());
  const bool cpu_device = context.properties().kind == render::DeviceKind::cpu;
  const std::uint32_t frames = iterations ? iterations : (cpu_device ? 10 : 200);
  bool all_ok = true;
  std::printf("\nvideo pipeline (as vhist analyze runs it): decoded frames -> staging -> upload -> convert -> histogram\n"
              "-> prefix sum (CDF) -> readback, 3 in flight%s\n",
              hw.usable() ? "; nvdec rows: frames in CUDA memory -> import (CUDA copy) -> convert -> ..." : "");
  print_staging(context);
  std::printf("%-10s %-12s %-6s %9s %9s %9s %9s %9s %10s %8s %3s\n", "size", "format", "path", "upload", "convert",
              "histogram", "gpu total", "x upload", "wall fps", "GB/s in", "ok");
  for (const auto& [w, h] : sizes) {
    for (bool deep : {false, true}) {
      const SyntheticVideoFrame probe = make_natural_yuv420(w, h, deep ? 10 : 8, 0);
      const std::uint32_t bins = stats_levels(probe.format.bits);
      if (const std::string why = pipeline.check(probe.format, probe.view(), bins); !why.empty()) {
        std::printf("%ux%u %s: skipped (%s)\n", w, h, probe.format.pixel_format.c_str(), why.c_str());
        continue;
      }
      const RowFrames host = host_frames(w, h, deep);
      all_ok = time_row(pipeline, host, frames, cpu_device, "host") && all_ok;
      if (hw.usable()) all_ok = time_row(pipeline, device_frames(host, hw), frames, cpu_device, "nvdec") && all_ok;
    }
  }
  std::printf("medians of %u frames; upload = staging -> device copy (nvdec: the CUDA copy into the Vulkan planes,\n"
              "CUDA events, added to gpu total); histogram includes the prefix sum and the readback copies;\n"
              "x upload = gpu total / upload; ok = the warm-up frames' histograms (and the first one's CDF) equal\n"
              "the CPU's\n",
              frames);
  return all_ok;
}

}  // namespace vhist::bench
