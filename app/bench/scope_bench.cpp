#include "scope_bench.h"

#include "bench_util.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/scope_pass.h"
#include "vhist/compute/synthetic_frames.h"

#include "vhist/render/gpu_timer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace vhist::bench {

namespace {

constexpr std::uint32_t kPlotWidth = 1024;
// The last row: the vectorscope with its shared window around zero chroma (off by default: on an
// H100 it was slower than global atomics alone, 0.025 against 0.020 ms at 4K).
constexpr const char* kPassNames[] = {"waveform luma", "waveform R'G'B'", "waveform Y'CbCr", "vectorscope",
                                      "vectorscope, window"};
constexpr std::uint32_t kPasses = 5;

// A frame uploaded and converted once, as the viewer leaves it before its passes.
struct DeviceFrame {
  render::Buffer planes, rgb;
  ScopeInputs inputs;
};

DeviceFrame upload(render::Context& context, const SyntheticVideoFrame& t) {
  DeviceFrame d;
  const PlaneOffsets layout = plane_offsets(t.format, t.stride);
  d.planes = render::Buffer(context, layout.total, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            render::MemoryUse::device, true, "bench scope planes");
  std::vector<std::byte> host(layout.total);
  copy_planes(t.format, t.view(), layout, host.data());
  upload_blocking(context, d.planes, host);
  const FrameFormat out = converted_format(t.format);
  d.rgb = render::Buffer(context, (out.byte_size() + 15) & ~std::uint64_t{15}, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         render::MemoryUse::device, true, "bench scope rgb");
  d.inputs.format = t.format;
  for (std::uint32_t p = 0; p < t.format.plane_count; ++p) {
    d.inputs.planes.address[p] = d.planes.address() + layout.offset[p];
    d.inputs.planes.stride[p] = t.stride[p];
  }
  d.inputs.rgb = d.rgb.address();
  FrameConverter converter(context);
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    converter.record(cmd, t.format, d.inputs.planes, d.rgb.address());
  });
  return d;
}

struct ScopeBuffers {
  std::vector<WaveformRequest> waveforms;
  VectorscopeRequest vectorscope;
  std::vector<render::Buffer> counts;  // one per pass
};

// Records the passes between timestamps 0..kPasses.
void record_passes(VkCommandBuffer cmd, ScopePass& scopes, const render::GpuTimer& timer, const DeviceFrame& frame,
                   const ScopeBuffers& b) {
  timer.reset(cmd);
  timer.write(cmd, 0);
  for (std::uint32_t k = 0; k < 3; ++k) {
    scopes.record_waveform(cmd, frame.inputs, b.waveforms[k], b.counts[k]);
    timer.write(cmd, k + 1);
  }
  scopes.record_vectorscope(cmd, frame.inputs, b.vectorscope, b.counts[3]);
  timer.write(cmd, 4);
  scopes.set_vectorscope_window(true);
  scopes.record_vectorscope(cmd, frame.inputs, b.vectorscope, b.counts[4]);
  scopes.set_vectorscope_window(false);
  timer.write(cmd, 5);
  results_to_transfer(cmd);
}

std::vector<std::uint32_t> read_words(render::Context& context, const render::Buffer& counts) {
  render::Buffer back(context, counts.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                      "bench scope readback");
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, counts.size()};
    vkCmdCopyBuffer(cmd, counts.get(), back.get(), 1, &region);
  });
  std::vector<std::uint32_t> words(counts.size() / 4);
  std::memcpy(words.data(), back.mapped(), words.size() * 4);
  return words;
}

// The first frame's counts read back and compared with the CPU engine's; `cpu_ms`: the CPU
// engine's time for each pass (one run, all hardware threads).
bool verify(render::Context& context, const SyntheticVideoFrame& t, const ScopeBuffers& b,
            std::vector<double>& cpu_ms) {
  CpuEngine cpu;
  std::vector<std::byte> rgb(converted_format(t.format).byte_size());
  cpu.convert_and_histogram(t.format, t.view(), 256, rgb.data());
  bool ok = true;
  for (std::uint32_t k = 0; k < kPasses; ++k) {
    const std::vector<std::uint32_t> got = read_words(context, b.counts[k]);
    const std::uint32_t* words = got.data();
    // Counted twice, the second timed (the first also warms the threads and the memory).
    for (int run = 0; run < 2; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      if (k < 3) {
        const WaveformCounts want = cpu.waveform(t.format, t.view(), rgb, b.waveforms[k]);
        ok = ok && waveform_from_words(t.format, b.waveforms[k], words) == want;
      } else {
        const VectorscopeCounts want = cpu.vectorscope(t.format, t.view(), rgb, b.vectorscope);
        ok = ok && vectorscope_from_words(t.format, b.vectorscope, words) == want;
      }
      if (run == 1) cpu_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  return ok;
}

// Times the passes over a ring of frames of one size and depth; prints a row per pass.
bool time_size(render::Context& context, std::uint32_t w, std::uint32_t h, std::uint32_t bits, std::uint32_t frames,
               std::uint32_t warmup) {
  std::vector<SyntheticVideoFrame> ring;
  std::vector<DeviceFrame> device;
  for (std::uint32_t i = 0; i < 3; ++i) {
    ring.push_back(make_natural_yuv420(w, h, bits, i));
    device.push_back(upload(context, ring.back()));
  }
  const std::uint32_t levels = bits <= 8 ? 256 : 1024;
  ScopePass scopes(context);
  ScopeBuffers b;
  for (WaveformMode mode : {WaveformMode::luma, WaveformMode::rgb, WaveformMode::ycbcr}) {
    b.waveforms.push_back({mode, levels, kPlotWidth, std::nullopt});
    b.counts.push_back(scopes.create_counts(ScopePass::waveform_bytes(ring[0].format, b.waveforms.back()), "bench"));
  }
  b.vectorscope = {levels, std::nullopt};
  for (int k = 0; k < 2; ++k) b.counts.push_back(scopes.create_counts(ScopePass::vectorscope_bytes(b.vectorscope), "bench"));
  render::GpuTimer timer(context, kPasses + 1);
  std::vector<std::vector<double>> ms(kPasses);
  for (std::uint32_t i = 0; i < warmup + frames; ++i) {
    context.submit_and_wait([&](VkCommandBuffer cmd) { record_passes(cmd, scopes, timer, device[i % 3], b); });
    const std::vector<double> ns = timer.read_ns(kPasses + 1);
    for (std::uint32_t k = 0; i >= warmup && k < kPasses; ++k) ms[k].push_back((ns[k + 1] - ns[k]) * 1e-6);
  }
  context.submit_and_wait([&](VkCommandBuffer cmd) { record_passes(cmd, scopes, timer, device[0], b); });
  std::vector<double> cpu_ms;
  const bool ok = verify(context, ring[0], b, cpu_ms);
  const WaveformShape shape = waveform_shape(w, kPlotWidth);
  for (std::uint32_t k = 0; k < kPasses; ++k) {
    const std::string grid = k < 3 ? std::to_string(shape.plot_columns) + " x " + std::to_string(levels)
                                   : std::to_string(levels) + " x " + std::to_string(levels);
    std::printf("%-10s %-12s %-19s %-12s %10.3fms %10.3fms %10.2fms %3s\n",
                (std::to_string(w) + "x" + std::to_string(h)).c_str(), ring[0].format.pixel_format.c_str(),
                kPassNames[k], grid.c_str(), median(ms[k]), *std::min_element(ms[k].begin(), ms[k].end()), cpu_ms[k],
                ok ? "yes" : "NO");
  }
  return ok;
}

}  // namespace

bool run_scope_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                     std::uint32_t iterations) {
  const bool cpu_device = context.properties().kind == render::DeviceKind::cpu;
  const std::uint32_t frames = iterations ? iterations : (cpu_device ? 5 : 300);
  const std::uint32_t warmup = cpu_device ? 1 : 50;
  std::printf("\nscope counts: each pass alone between timestamps; each tick counts the next of three 4:2:0 frames "
              "uploaded and converted beforehand; waveform %u plot columns wide\n", kPlotWidth);
  std::printf("%-10s %-12s %-19s %-12s %12s %12s %12s %3s\n", "size", "format", "pass", "counts", "gpu median",
              "gpu min", "cpu engine", "ok");
  bool all_ok = true;
  for (const auto& [w, h] : sizes) {
    for (std::uint32_t bits : {8u, 10u}) all_ok = time_size(context, w, h, bits, frames, warmup) && all_ok;
  }
  std::printf("medians of %u ticks; cpu engine = the CPU engine's time for the first frame (its second run, %u threads, the comparison included); ok = "
              "the first frame's counts equal the CPU engine's (itself equal to the CPU reference in the tests)\n",
              frames, CpuEngine().threads());
  return all_ok;
}

}  // namespace vhist::bench
