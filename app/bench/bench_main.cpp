// vhist-bench: GPU time per frame of the histogram engine, measured with timestamp queries,
// against a read-only pass over the same frame (the bandwidth floor) measured in the same run.
//
// For each frame size and content it reports, cold (each iteration reads the next frame of a
// ring larger than the GPU's last-level cache, as a video would) and hot (the same frame
// again): the median time of the floor, of each strategy, their Gpixel/s, GB/s and ratio to the
// floor; plus the host-to-device upload time of one frame and the cost of an empty dispatch
// plus the histogram clear. Every strategy's result is checked against the CPU reference.
// Links only Vulkan and the engine: no GLFW, no FFmpeg.
#include "anchors.h"
#include "bench_util.h"
#include "vhist/cli/cli.h"
#include "vhist/cli/option_table.h"
#include "vhist/device_list/device_list.h"

#include "scope_bench.h"
#include "video_bench.h"
#include "viewer_bench.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/histogram_engine.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/render/gpu_timer.h"
#include "vhist/render/vk_check.h"
#include "vhist/shaders/empty.spv.h"
#include "vhist/compute_push.h"
#include "vhist/shaders/read_floor.spv.h"
#include "vhist/version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace {

using vhist::bench::median;

using vhist::render::Buffer;
using vhist::render::ComputePipeline;
using vhist::render::Context;
using vhist::render::GpuTimer;

constexpr const char* kDescription =
    "vhist-bench: measures the GPU histogram engine with timestamp queries (medians over iterations).";

struct Options {
  std::string device;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes{{1920, 1080}, {3840, 2160}, {7680, 4320}};
  std::vector<vhist::Content> contents{std::begin(vhist::kAllContents), std::end(vhist::kAllContents)};
  std::vector<vhist::Strategy> strategies{vhist::Strategy::fast, vhist::Strategy::baseline};
  std::uint32_t bins = 256;
  std::uint32_t iterations = 0;
  std::uint64_t ring_bytes = 256ull << 20;
  bool sweep = false;
  bool validation = false;
  bool video = false, video_only = false;
  bool viewer = false, viewer_only = false;
  bool scopes = false, scopes_only = false;
  std::string json_path;
  std::string anchors_path;  // --anchors: the CUDA anchors' output to print beside vhist's figures
  bool quick = false;       // applied after parsing: sizes and iterations not given explicitly
  bool sizes_given = false, iterations_given = false;
  bool list_devices = false, version = false;
  vhist::cli::CommonOptions decode;  // --hwdec (the shared option table's row): the --video table's hardware path
};

using vhist::shader::FloorPush;  // read_floor.comp's push constants (compute_push.h)

struct Row {
  std::string size, content, what, mode;
  double median_us = 0, min_us = 0, gpix_s = 0, gb_s = 0, ratio = 0;
  std::string verified;  // "yes", "NO", or "" when not applicable
  std::string config;
};

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

class Bench {
 public:
  Bench(Context& context, const Options& options)
      : context_(context), options_(options), engine_(context), timer_(context, 2 * iterations()) {
    const std::uint32_t wg = std::min<std::uint32_t>(256, context.properties().max_workgroup_invocations);
    const vhist::render::SpecConstant spec[] = {{vhist::shader::kSpecWorkgroupSize, wg}};
    floor_ = ComputePipeline(context, read_floor_spv, spec, sizeof(FloorPush), "read_floor");
    floor_workgroup_size_ = wg;
    empty_ = ComputePipeline(context, empty_spv, {}, 0, "empty");
  }

  std::uint32_t iterations() const {
    if (options_.iterations) return options_.iterations;
    return context_.properties().kind == vhist::render::DeviceKind::cpu ? 5 : 100;
  }

  // Median (and minimum) GPU time in microseconds of `body(i)` over the timed iterations.
  // Each iteration starts after the previous one has completed (ALL_COMMANDS timestamps and a
  // full barrier), so the figures are per-frame latencies, not overlapped throughput.
  // The timed iterations follow about 50 ms of untimed repetitions of the same work: GPUs idle
  // at a low clock and take milliseconds to reach their working clock.
  std::pair<double, double> time(const std::function<void(VkCommandBuffer, std::uint32_t)>& body) {
    const auto estimate = run_timed(body, 0, std::min<std::uint32_t>(3, iterations()));
    const double estimate_us = std::max(1.0, median(estimate));
    const auto warmup = static_cast<std::uint32_t>(std::clamp(kWarmupUs / estimate_us, 1.0, 20000.0));
    const auto us = run_timed(body, warmup, iterations());
    return {median(us), *std::min_element(us.begin(), us.end())};
  }

  std::vector<double> run_timed(const std::function<void(VkCommandBuffer, std::uint32_t)>& body,
                                std::uint32_t warmup, std::uint32_t timed) {
    auto full_barrier = [](VkCommandBuffer cmd) {
      vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                    VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                                    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                    VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    };
    context_.submit_and_wait([&](VkCommandBuffer cmd) {
      timer_.reset(cmd);
      for (std::uint32_t i = 0; i < warmup; ++i) {
        full_barrier(cmd);
        body(cmd, i);
      }
      for (std::uint32_t i = 0; i < timed; ++i) {
        full_barrier(cmd);
        timer_.write(cmd, 2 * i);
        body(cmd, warmup + i);
        timer_.write(cmd, 2 * i + 1);
      }
    });
    const auto ts = timer_.read_ns(2 * timed);
    std::vector<double> us;
    for (std::uint32_t i = 0; i < timed; ++i) us.push_back((ts[2 * i + 1] - ts[2 * i]) / 1000.0);
    return us;
  }

  void run() {
    const auto& d = context_.description();
    const auto& p = context_.properties();
    std::printf("device: %s (%s), %s\n", d.name.c_str(), d.driver.c_str(),
                std::string(vhist::render::device_kind_name(d.kind)).c_str());
    std::printf("limits: subgroup %u, shared memory %u B, multiprocessors %s, timestamp period %.3f ns\n",
                p.subgroup_size, p.max_shared_memory,
                p.multiprocessor_count ? std::to_string(p.multiprocessor_count).c_str() : "unknown",
                p.timestamp_period_ns);
    std::printf("iterations per figure: %u (median), bins: %u, cold ring: %llu MiB\n\n", iterations(), options_.bins,
                static_cast<unsigned long long>(options_.ring_bytes >> 20));
    for (const auto& [w, h] : options_.sizes) run_size({w, h, vhist::PixelPacking::rgba8, 8}, options_.sweep);
    print_table();
    if (!options_.anchors_path.empty()) print_anchor_table(vhist::bench::Anchors::load(options_.anchors_path));
    if (!options_.json_path.empty()) write_json();
  }

  bool all_verified() const {
    return std::none_of(rows_.begin(), rows_.end(), [](const Row& r) { return r.verified == "NO"; });
  }

 private:
  static constexpr double kWarmupUs = 50000.0;

  void run_size(const vhist::FrameFormat& format, bool sweep) {
    if (auto err = engine_.check(format, options_.bins); !err.empty()) {
      throw std::runtime_error("cannot benchmark " + std::to_string(format.width) + "x" +
                               std::to_string(format.height) + ": " + err);
    }
    const std::string size = std::to_string(format.width) + "x" + std::to_string(format.height);
    const std::uint64_t bytes = format.byte_size();
    const std::uint32_t ring = static_cast<std::uint32_t>(std::max<std::uint64_t>(2, (options_.ring_bytes + bytes - 1) / bytes));
    std::fprintf(stderr, "[%s] %u frames of %.1f MB in the cold ring\n", size.c_str(), ring, bytes / 1e6);

    std::vector<Buffer> frames;
    for (std::uint32_t i = 0; i < ring; ++i) frames.push_back(engine_.create_frame_buffer(format, "bench frame " + std::to_string(i)));
    Buffer staging(context_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, vhist::render::MemoryUse::upload, false, "bench staging");
    const vhist::HistogramTarget target = engine_.create_target("bench");
    const Buffer sink(context_, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vhist::render::MemoryUse::device, true, "floor sink");
    for (vhist::Strategy s : options_.strategies) engine_.prepare(format, options_.bins, s);

    // Fixed cost: an empty dispatch plus the histogram clear.
    {
      const auto [med, mn] = time([&](VkCommandBuffer cmd, std::uint32_t) {
        vkCmdFillBuffer(cmd, target.histogram.get(), 0, VkDeviceSize{options_.bins} * 16, 0);
        empty_.dispatch_without_push(cmd, 1);
      });
      rows_.push_back({size, "-", "empty+fill", "-", med, mn, 0, 0, 0, "", ""});
    }

    for (vhist::Content content : options_.contents) {
      const std::string cname(vhist::content_name(content));
      std::fprintf(stderr, "[%s] %s: generating and computing the CPU reference\n", size.c_str(), cname.c_str());
      const auto pixels = vhist::make_frame(format, content);
      const auto expected = vhist::reference_histogram(pixels, format, options_.bins);
      const auto expected_scale = vhist::reference_scale(expected, format.pixel_count());
      std::memcpy(staging.mapped(), pixels.data(), bytes);

      // Upload: host-visible staging memory -> device-local frame, one copy per ring slot.
      const auto [up_med, up_min] = time([&](VkCommandBuffer cmd, std::uint32_t i) {
        const VkBufferCopy region{0, 0, bytes};
        vkCmdCopyBuffer(cmd, staging.get(), frames[i % ring].get(), 1, &region);
      });
      rows_.push_back({size, cname, "upload", "host->gpu", up_med, up_min, format.pixel_count() / up_med / 1e3,
                       bytes / up_med / 1e3, 0, "", ""});
      // Every ring slot now holds the frame (the warm-up and timed iterations cover them all
      // once the iteration count reaches the ring size; copy the rest explicitly).
      context_.submit_and_wait([&](VkCommandBuffer cmd) {
        const VkBufferCopy region{0, 0, bytes};
        for (std::uint32_t i = 0; i < ring; ++i) vkCmdCopyBuffer(cmd, staging.get(), frames[i].get(), 1, &region);
      });

      for (const bool cold : {true, false}) {
        const std::string mode = cold ? "cold" : "hot";
        auto frame_of = [&](std::uint32_t i) -> const Buffer& { return frames[cold ? i % ring : 0]; };
        const std::uint32_t blocks = static_cast<std::uint32_t>(bytes / 16);
        const std::uint32_t floor_groups = floor_workgroups(blocks);
        const auto [fl_med, fl_min] = time([&](VkCommandBuffer cmd, std::uint32_t i) {
          floor_.dispatch(cmd, FloorPush{frame_of(i).address(), sink.address(), blocks, 0x9e3779b9u}, floor_groups);
        });
        rows_.push_back({size, cname, "floor", mode, fl_med, fl_min, format.pixel_count() / fl_med / 1e3,
                         bytes / fl_med / 1e3, 1.0, "", std::to_string(floor_groups) + " wg"});
        for (vhist::Strategy s : options_.strategies) {
          const auto [med, mn] = time([&](VkCommandBuffer cmd, std::uint32_t i) {
            engine_.record(cmd, frame_of(i).address(), format, options_.bins, s, target);
          });
          const auto got = vhist::read_back_blocking(context_, target, options_.bins);
          const bool ok = got.histogram == expected && got.scale == expected_scale;
          std::string config;
          if (s == vhist::Strategy::fast) config = vhist::fast_config_text(engine_.fast_config(format, options_.bins));
          rows_.push_back({size, cname, std::string(vhist::strategy_name(s)), mode, med, mn,
                           format.pixel_count() / med / 1e3, bytes / med / 1e3, med / fl_med, ok ? "yes" : "NO", config});
        }
      }
      if (sweep) run_sweep(format, cname, frames, target, expected);
    }
  }

  std::uint32_t floor_workgroups(std::uint32_t blocks) const {
    const auto& p = context_.properties();
    const std::uint32_t resident = p.kind == vhist::render::DeviceKind::cpu
                                       ? 2 * std::max(1u, std::thread::hardware_concurrency())
                                       : (p.multiprocessor_count ? p.multiprocessor_count : 32) * (2048 / floor_workgroup_size_);
    const std::uint32_t useful = std::max<std::uint32_t>(1, blocks / (floor_workgroup_size_ * 8));
    return std::min({resident, useful, p.max_workgroup_count_x});
  }

  // Times the fast strategy over a grid of parameters: workgroup size and count x unroll x copies
  // of the running sums (one shared copy); the table's choice unfused and merging; 8 interleaved
  // and 16 packed shared copies.
  void run_sweep(const vhist::FrameFormat& format, const std::string& cname, const std::vector<Buffer>& frames,
                 const vhist::HistogramTarget& target, const vhist::Histogram& expected) {
    const auto& p = context_.properties();
    const std::uint32_t units = p.kind == vhist::render::DeviceKind::cpu ? std::max(1u, std::thread::hardware_concurrency())
                                                                        : (p.multiprocessor_count ? p.multiprocessor_count : 32);
    const std::uint32_t ring = static_cast<std::uint32_t>(frames.size());
    const std::string size = std::to_string(format.width) + "x" + std::to_string(format.height);
    std::printf("sweep %s %s (cold), median us:\n", size.c_str(), cname.c_str());
    double best = 1e30;
    auto measure = [&](const vhist::FastOverrides& o) {
      engine_.set_fast_overrides(o);
      const auto [med, mn] = time([&](VkCommandBuffer cmd, std::uint32_t i) {
        engine_.record(cmd, frames[i % ring].address(), format, options_.bins, vhist::Strategy::fast, target);
      });
      const bool ok = vhist::read_back_blocking(context_, target, options_.bins).histogram == expected;
      const std::string config = vhist::fast_config_text(engine_.fast_config(format, options_.bins));
      std::printf("  %-48s %9.2f%s\n", config.c_str(), med, ok ? "" : "  MISMATCH");
      sweep_rows_.push_back({size, cname, "fast-sweep", "cold", med, mn, format.pixel_count() / med / 1e3,
                             format.byte_size() / med / 1e3, 0, ok ? "yes" : "NO", config});
      best = std::min(best, med);
    };
    measure({0, 0, 0, 0, -1, -1, 0});  // the table's choice, unfused: what fusing buys
    measure({0, 0, 0, 0, 1, -1, -1});  // the table's choice, merging
    // One copy: workgroup size and count per multiprocessor x 2, unroll, copies of the running sums.
    const std::uint32_t shapes[][2] = {{1024, 2}, {1024, 4}, {512, 4}};
    for (const auto& [wg, per_unit2] : shapes) {
      if (wg > p.max_workgroup_invocations) continue;
      for (std::uint32_t unroll : {2u, 4u}) {
        for (std::uint32_t global : {2u, 4u, 8u}) {
          measure({wg, 1, std::max(1u, units * per_unit2 / 2), unroll, 0, 0, -1, global});
        }
      }
    }
    // The table's shape with 8 interleaved copies and with 16 packed copies.
    const std::uint32_t wg = std::min(1024u, p.max_workgroup_invocations);
    if (4 * options_.bins * 4 * 8 + 32 <= p.max_shared_memory) {
      measure({wg, 8, units, 2, 0, static_cast<int>(vhist::shader::kLayoutInterleaved), -1, 2});
      measure({wg, 16, units, 2, 0, static_cast<int>(vhist::shader::kLayoutPacked16), -1, 2});
    }
    std::printf("  best: %.2f us\n", best);
    engine_.set_fast_overrides({});
  }

  void print_table() const {
    std::printf("%-10s %-8s %-11s %-9s %11s %11s %9s %9s %8s %-4s %s\n", "size", "content", "pass", "mode",
                "median_us", "min_us", "Gpix/s", "GB/s", "/floor", "ok", "config");
    for (const Row& r : rows_) {
      std::printf("%-10s %-8s %-11s %-9s %11.2f %11.2f %9.2f %9.1f %8s %-4s %s\n", r.size.c_str(), r.content.c_str(),
                  r.what.c_str(), r.mode.c_str(), r.median_us, r.min_us, r.gpix_s, r.gb_s,
                  r.ratio > 0 ? (std::to_string(std::lround(r.ratio * 100) / 100.0).substr(0, 4) + "x").c_str() : "",
                  r.verified.c_str(), r.config.c_str());
    }
  }

  const Row* find_row(const std::string& size, const std::string& content, const std::string& what,
                      const std::string& mode) const {
    for (const Row& r : rows_) {
      if (r.size == size && r.content == content && r.what == what && r.mode == mode) return &r;
    }
    return nullptr;
  }

  // vhist's fast strategy beside the CUDA anchors of the same size, content and mode.
  void print_anchor_table(const vhist::bench::Anchors& anchors) const {
    std::printf("\nvhist fast against the CUDA anchors (%s), median us:\n\n", options_.anchors_path.c_str());
    std::printf("| size | content | mode | vhist fast | vhist floor | fast/floor | hand CUDA best (variant) | "
                "fast/hand | CUB <4,4> | fast/CUB | CUDA read floor |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows_) {
      if (r.what != "fast") continue;
      const auto* a = anchors.find(r.size, r.content, r.mode);
      const Row* floor = find_row(r.size, r.content, "floor", r.mode);
      if (!a) continue;
      const double fl = floor ? floor->median_us : 0;
      std::printf("| %s | %s | %s | %.2f | %.2f | %.2fx | %.1f (%s) | %.2fx | %.1f | %.2fx | %.1f |\n", r.size.c_str(),
                  r.content.c_str(), r.mode.c_str(), r.median_us, fl, fl > 0 ? r.median_us / fl : 0, a->hand_us,
                  a->hand_variant.c_str(), a->hand_us > 0 ? r.median_us / a->hand_us : 0, a->cub_us,
                  a->cub_us > 0 ? r.median_us / a->cub_us : 0, a->read_us);
    }
  }

  void write_json() const {
    FILE* f = std::fopen(options_.json_path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + options_.json_path + ": " + std::strerror(errno));
    const auto& d = context_.description();
    std::fprintf(f, "{\n  \"device\": \"%s\",\n  \"driver\": \"%s\",\n  \"bins\": %u,\n  \"iterations\": %u,\n  \"results\": [\n",
                 json_escape(d.name).c_str(), json_escape(d.driver).c_str(), options_.bins, iterations());
    std::vector<Row> all = rows_;
    all.insert(all.end(), sweep_rows_.begin(), sweep_rows_.end());
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Row& r = all[i];
      std::fprintf(f,
                   "    {\"size\": \"%s\", \"content\": \"%s\", \"pass\": \"%s\", \"mode\": \"%s\", \"median_us\": %.3f, "
                   "\"min_us\": %.3f, \"gpixel_per_s\": %.3f, \"gb_per_s\": %.2f, \"ratio_to_floor\": %.3f, "
                   "\"verified\": %s, \"config\": \"%s\"}%s\n",
                   r.size.c_str(), r.content.c_str(), r.what.c_str(), r.mode.c_str(), r.median_us, r.min_us, r.gpix_s,
                   r.gb_s, r.ratio, r.verified.empty() ? "null" : (r.verified == "yes" ? "true" : "false"),
                   json_escape(r.config).c_str(), i + 1 < all.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }

  Context& context_;
  const Options& options_;
  vhist::HistogramEngine engine_;
  GpuTimer timer_;
  ComputePipeline floor_;
  ComputePipeline empty_;
  std::uint32_t floor_workgroup_size_ = 256;
  std::vector<Row> rows_;
  std::vector<Row> sweep_rows_;
};

std::string set_flag(bool& field) {
  field = true;
  return {};
}

std::string set_uint(std::uint32_t& field, std::string_view text, std::uint32_t max, const char* expected) {
  const auto v = vhist::cli::parse_uint(text, 1, max);
  if (!v) return expected;
  field = *v;
  return {};
}

const vhist::cli::CliRow<Options> kRows[] = {
    {"--device", "SEL", "Vulkan device: index from 'vhist --list-devices' or part of its name", "Device",
     [](Options& o, std::string_view v) {
       o.device = v;
       return std::string();
     }},
    {"--validation", "", "enable the Vulkan validation layer", "Device",
     [](Options& o, std::string_view) { return set_flag(o.validation); }},
    {"--list-devices", "", "list the Vulkan devices and exit (as vhist --list-devices)", "Device",
     [](Options& o, std::string_view) { return set_flag(o.list_devices); }},
    {"--sizes", "WxH,...", "frame sizes (default 1920x1080,3840x2160,7680x4320)", "Frames",
     [](Options& o, std::string_view v) {
       o.sizes.clear();
       for (const auto& s : vhist::cli::split_list(v)) {
         const auto size = vhist::cli::parse_size(s);
         if (!size) return std::string("sizes WxH separated by commas (e.g. 1920x1080)");
         o.sizes.push_back(*size);
       }
       o.sizes_given = !o.sizes.empty();
       return o.sizes.empty() ? std::string("at least one size WxH") : std::string();
     }},
    {"--contents", "LIST", "natural,random,solid,checker (default: all four)", "Frames",
     [](Options& o, std::string_view v) {
       o.contents.clear();
       for (const auto& s : vhist::cli::split_list(v)) {
         vhist::Content c;
         if (!vhist::parse_content(s, c)) return std::string("contents among natural, random, solid, checker");
         o.contents.push_back(c);
       }
       return std::string();
     }},
    {"--strategies", "LIST", "fast,baseline (default: both)", "Engine",
     [](Options& o, std::string_view v) {
       o.strategies.clear();
       for (const auto& s : vhist::cli::split_list(v)) {
         if (s == "fast") o.strategies.push_back(vhist::Strategy::fast);
         else if (s == "baseline") o.strategies.push_back(vhist::Strategy::baseline);
         else return std::string("strategies among fast, baseline");
       }
       return std::string();
     }},
    {"--bins", "N", "bins per channel, power of two 16..256 (default 256)", "Engine",
     [](Options& o, std::string_view v) {
       const auto n = vhist::cli::parse_uint(v, 1, 1u << 16);
       if (!n || !vhist::check_bins(*n, 8).empty()) return std::string("a power of two from 16 to 256");
       o.bins = *n;
       return std::string();
     }},
    {"--iterations", "N", "timed iterations per measurement (default 100 on a GPU, 5 on a CPU device)", "Timing",
     [](Options& o, std::string_view v) {
       o.iterations_given = true;
       return set_uint(o.iterations, v, 100000, "a number from 1 to 100000");
     }},
    {"--ring-mib", "N",
     "bytes of distinct frames read in turn for cold figures (default 256 MiB; must exceed the GPU's last-level "
     "cache: 60 MB on an H200)",
     "Timing",
     [](Options& o, std::string_view v) {
       std::uint32_t mib = 0;
       if (std::string e = set_uint(mib, v, 1u << 20, "a positive number of MiB"); !e.empty()) return e;
       o.ring_bytes = std::uint64_t{mib} << 20;
       return std::string();
     }},
    {"--quick", "", "1920x1080 only, 3 iterations: a smoke run of everything", "Timing",
     [](Options& o, std::string_view) { return set_flag(o.quick); }},
    {"--sweep", "",
     "also time the fast strategy over a grid of workgroup sizes and counts, unrolling and pipelined loads, copies "
     "and their layouts (16-bit packed too), and the table's choice unfused and merging (cold, every size and "
     "content)",
     "Figures", [](Options& o, std::string_view) { return set_flag(o.sweep); }},
    {"--video", "",
     "also time decoded 4:2:0 frames (8- and 10-bit) through the video pipeline: staging copy, upload, convert, "
     "histogram, readback",
     "Figures", [](Options& o, std::string_view) { return set_flag(o.video); }},
    {"--video-only", "", "only that", "Figures",
     [](Options& o, std::string_view) {
       o.video = true;
       return set_flag(o.video_only);
     }},
    {"--viewer", "",
     "also time the viewer's whole per-frame GPU work (upload, convert, histograms, drawing) into an offscreen "
     "image of each size",
     "Figures", [](Options& o, std::string_view) { return set_flag(o.viewer); }},
    {"--viewer-only", "", "only that", "Figures",
     [](Options& o, std::string_view) {
       o.viewer = true;
       return set_flag(o.viewer_only);
     }},
    {"--scopes", "",
     "also time the scope count passes (waveform luma, R'G'B', Y'CbCr; vectorscope) on 8- and 10-bit 4:2:0 frames",
     "Figures", [](Options& o, std::string_view) { return set_flag(o.scopes); }},
    {"--scopes-only", "", "only that", "Figures",
     [](Options& o, std::string_view) {
       o.scopes = true;
       return set_flag(o.scopes_only);
     }},
    {"--anchors", "FILE",
     "print the CUDA anchors' figures (hist_bench's stdout, or its results.csv) beside the fast strategy's, with the "
     "ratios",
     "Output", [](Options& o, std::string_view v) { return vhist::cli::set_text(o.anchors_path, v, "a file name"); }},
    {"--json", "FILE", "also write all results as JSON to FILE", "Output",
     [](Options& o, std::string_view v) { return vhist::cli::set_text(o.json_path, v, "a file name"); }},
    {"--version", "", "print the version", "Output",
     [](Options& o, std::string_view) { return set_flag(o.version); }},
};

// Parses the command line into `o`. Returns -1 to go on, else the exit status (help printed,
// or the error reported).
int parse_options(int argc, char** argv, Options& o) {
  CLI::App app(kDescription, "vhist-bench");
  vhist::cli::configure_app(app, "");
  vhist::cli::add_rows(app, std::span<const vhist::cli::CliRow<Options>>(kRows), o);
  vhist::cli::add_rows(app, vhist::cli::decode_rows(), o.decode);
  const vhist::cli::ParseEnd end = vhist::cli::parse_args(app, std::vector<std::string>(argv + 1, argv + argc));
  if (end.done && end.status == 0) std::fputs(end.help.c_str(), stdout);
  if (end.done && end.status != 0) std::fprintf(stderr, "vhist-bench: %s (see --help)\n", end.error.c_str());
  if (end.done) return end.status;
  // --quick is a default for what is not given (as before, an explicit --sizes wins).
  if (o.quick && !o.sizes_given) o.sizes = {{1920, 1080}};
  if (o.quick && !o.iterations_given) o.iterations = 3;
  return -1;
}

// --hwdec: NVDEC's importer for the --video table's hardware path, or why not, said on stderr
// (auto: a note; nvdec: a warning); the host path is measured either way.
vhist::hwdec::Hwdec open_bench_hwdec(vhist::hwdec::HwdecMode mode, const Context& context) {
  vhist::hwdec::Hwdec hw = vhist::hwdec::open_hwdec(mode, context);
  if (mode == vhist::hwdec::HwdecMode::no || hw.usable()) return hw;
  if (mode == vhist::hwdec::HwdecMode::nvdec) {
    std::fprintf(stderr, "vhist-bench: warning: --hwdec nvdec: NVDEC cannot be used (%s); the host path only\n",
                 hw.reason.c_str());
  } else {
    std::fprintf(stderr, "vhist-bench: --hwdec auto: the hardware path is not measured: %s; the host path only\n",
                 hw.reason.c_str());
  }
  return hw;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int status = parse_options(argc, argv, options); status >= 0) return status;
  if (options.version) {
    std::printf("vhist-bench %s\n", std::string(vhist::kVersion).c_str());
    return 0;
  }
  if (options.list_devices) return vhist::cli::print_device_list();
  try {
    vhist::render::ContextOptions co;
    co.device = options.device;
    co.validation = options.validation;
    const vhist::hwdec::HwdecMode hwdec_mode = options.decode.hwdec;
    if (hwdec_mode != vhist::hwdec::HwdecMode::no) co.optional_device_extensions = vhist::hwdec::device_extensions();
    Context context(co);
    const vhist::hwdec::Hwdec hw = open_bench_hwdec(hwdec_mode, context);
    Bench bench(context, options);
    if (!options.video_only && !options.viewer_only && !options.scopes_only) bench.run();
    if (options.viewer && !vhist::bench::run_viewer_bench(context, options.sizes, options.iterations, hw)) {
      std::fprintf(stderr, "vhist-bench: the viewer's nvdec path disagreed with the CPU reference (rows with ok NO)\n");
      return 1;
    }
    if (options.video && !vhist::bench::run_video_bench(context, options.sizes, options.iterations, hw)) {
      std::fprintf(stderr, "vhist-bench: the video pipeline disagreed with the CPU reference (rows with ok = NO)\n");
      return 1;
    }
    if (options.scopes && !vhist::bench::run_scope_bench(context, options.sizes, options.iterations)) {
      std::fprintf(stderr, "vhist-bench: a scope pass disagreed with the CPU engine (rows with ok = NO)\n");
      return 1;
    }
    if (context.validation_enabled() && context.validation_message_count() != 0) {
      std::fprintf(stderr, "vhist-bench: %u Vulkan validation messages\n", context.validation_message_count());
      return 1;
    }
    if (!bench.all_verified()) {
      std::fprintf(stderr, "vhist-bench: a strategy disagreed with the CPU reference (rows with ok = NO)\n");
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist-bench: %s\n", e.what());
    return 1;
  }
}
