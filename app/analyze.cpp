#include "analyze.h"

#include "cli.h"
#include "media/camera.h"
#include "media/media_source.h"
#include "record_writer.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/video_pipeline.h"
#include "vhist/render/context.h"
#include "vhist/render/vk_check.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace vhist::app {

namespace {

constexpr const char* kUsage = R"(usage: vhist analyze INPUT [options]

Decodes every video frame of INPUT (a local file, or a camera such as /dev/video0: then it runs
until --frames N or Ctrl-C), computes its R, G, B and luma histograms
and statistics with the GPU engine, and writes one record per frame.

Options:
  --bins N            bins per channel: a power of two from 16 to 256 for 8-bit sources,
                      up to 1024 for deeper ones (default 256)
  --cdf               add each channel's cumulative histogram (CDF) at the same bins: the
                      number of pixels at or below each bin
  --frames N          stop after N frames (default: all)
  --start T           begin at time T: seconds (12.5) or [HH:]MM:SS[.fff]
  --format F          jsonl (one JSON object per line, the default) or csv (one row per
                      frame and channel); default: csv when -o ends in .csv
  -o, --output FILE   write the records to FILE (default: standard output)
  --engine E          auto (default), gpu or cpu. auto uses the CPU engine when the Vulkan
                      device is itself a CPU (lavapipe), where it is several times faster.
                      none decodes only and writes no records: the decoder's own speed
  --device SEL        Vulkan device: an index from `vhist --list-devices` or part of its name
  --camera-format F   for a camera: its pixel format, a V4L2 fourcc (YUYV, NV12, MJPG ...)
  --camera-size WxH   for a camera: its frame size
  --camera-fps N      for a camera: its frame rate
  -q, --quiet         no progress bar
  -v, --verbose       report the engine, and a summary at the end (frames, fps, peak memory)
  -h, --help          this text

Statistics are in code values of the source's depth (0..255 for 8-bit video, 0..1023 for
10-bit): min, max, mean, median, p1, p99, and clip_low / clip_high, the fractions of pixels
at the lowest and highest code. The percentiles are read off the CDF at one level per code
(the GPU's prefix sum with the GPU engine). A progress bar is drawn on stderr when it is a terminal.

Exit status: 0 success; 1 no usable Vulkan device, or the output cannot be written;
2 bad usage or bad input (missing, unreadable, not a video, truncated, corrupt frames,
frames too large for the device); 130 interrupted (the records written so far are complete).
)";

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) { g_interrupted.store(true); }

struct Options {
  std::string input;
  std::string output = "-";
  std::optional<RecordFormat> format;
  std::uint32_t bins = 256;
  std::int64_t frames = -1;
  double start = 0;
  std::string engine = "auto";
  std::string device;
  bool quiet = false, verbose = false;
  bool cdf = false;
  media::CameraOptions camera;
};

// Parses argv into `o`; returns an error message, empty on success, "help" for --help.
std::string parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&](std::string_view name) -> std::optional<std::string_view> {
      if (i + 1 >= argc) return std::nullopt;
      (void)name;
      return std::string_view(argv[++i]);
    };
    if (arg == "-h" || arg == "--help") return "help";
    if (arg == "-q" || arg == "--quiet") {
      o.quiet = true;
    } else if (arg == "-v" || arg == "--verbose") {
      o.verbose = true;
    } else if (arg == "--cdf") {
      o.cdf = true;
    } else if (arg == "--bins") {
      const auto v = value(arg);
      const auto n = v ? cli::parse_uint(*v, 1, 1u << 20) : std::nullopt;
      if (!n || (*n & (*n - 1)) != 0 || *n < shader::kMinBins || *n > shader::kMaxBins) {
        return "--bins needs a power of two from 16 to 1024";
      }
      o.bins = *n;
    } else if (arg == "--frames") {
      const auto v = value(arg);
      const auto n = v ? cli::parse_uint(*v, 1, 0xffffffffu) : std::nullopt;
      if (!n) return "--frames needs a positive whole number";
      o.frames = *n;
    } else if (arg == "--start") {
      const auto v = value(arg);
      const auto t = v ? cli::parse_time(*v) : std::nullopt;
      if (!t) return "--start needs a time: seconds (12.5) or [HH:]MM:SS[.fff]";
      o.start = *t;
    } else if (arg == "--format") {
      const auto v = value(arg);
      if (v == "jsonl") o.format = RecordFormat::jsonl;
      else if (v == "csv") o.format = RecordFormat::csv;
      else return "--format needs jsonl or csv";
    } else if (arg == "-o" || arg == "--output") {
      const auto v = value(arg);
      if (!v || v->empty()) return std::string(arg) + " needs a file name (or - for standard output)";
      o.output = *v;
    } else if (arg == "--engine") {
      const auto v = value(arg);
      if (v != "auto" && v != "gpu" && v != "cpu" && v != "none") return "--engine needs auto, gpu, cpu or none";
      o.engine = *v;
    } else if (arg == "--device") {
      const auto v = value(arg);
      if (!v) return "--device needs a value (an index or part of a device name)";
      o.device = *v;
    } else if (arg == "--camera-format") {
      const auto v = value(arg);
      if (!v || v->empty()) return "--camera-format needs a pixel format (e.g. YUYV, NV12, MJPG)";
      o.camera.pixel_format = *v;
    } else if (arg == "--camera-size") {
      const auto v = value(arg);
      const auto size = v ? cli::parse_size(*v) : std::nullopt;
      if (!size) return "--camera-size needs WxH (e.g. 640x360)";
      o.camera.width = size->first;
      o.camera.height = size->second;
    } else if (arg == "--camera-fps") {
      const auto v = value(arg);
      const auto fps = v ? cli::parse_rate(*v) : std::nullopt;
      if (!fps) return "--camera-fps needs a frame rate (e.g. 30 or 12.5)";
      o.camera.frame_rate = *fps;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return "unknown option '" + std::string(arg) + "'";
    } else if (o.input.empty()) {
      o.input = arg;
    } else {
      return "more than one input given ('" + o.input + "' and '" + std::string(arg) + "')";
    }
  }
  if (o.input.empty()) return "no input file given";
  if (!o.format) {
    const bool csv = o.output.size() > 4 && o.output.compare(o.output.size() - 4, 4, ".csv") == 0;
    o.format = csv ? RecordFormat::csv : RecordFormat::jsonl;
  }
  return {};
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The progress line on stderr: drawn at most 10 times a second, only on a terminal.
class Progress {
 public:
  Progress(bool enabled, std::int64_t expected) : enabled_(enabled), expected_(expected) {}
  void update(std::int64_t done, bool force = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double fps = seconds > 0 ? static_cast<double>(done) / seconds : 0;
    if (expected_ > 0) {
      const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(expected_));
      char bar[31];
      const int filled = static_cast<int>(fraction * 30);
      for (int i = 0; i < 30; ++i) bar[i] = i < filled ? '#' : '.';
      bar[30] = '\0';
      std::fprintf(stderr, "\r[%s] %lld/%lld frames  %.1f fps ", bar, static_cast<long long>(done),
                   static_cast<long long>(expected_), fps);
    } else {
      std::fprintf(stderr, "\r%lld frames  %.1f fps ", static_cast<long long>(done), fps);
    }
  }
  void clear() {
    if (enabled_) std::fputs("\r\033[K", stderr);
  }

 private:
  bool enabled_;
  std::int64_t expected_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

// Bad input discovered while running: reported as one line, exit status 2.
struct InputError {
  std::string message;
};

class Analyzer {
 public:
  Analyzer(const Options& options, media::MediaSource& source, render::Context& context, std::FILE* out)
      : o_(options), source_(source), context_(context), out_(out) {}

  // Returns the exit status.
  int run();

 private:
  struct Pending {
    std::int64_t frame;
    double pts;
    std::uint32_t width, height, bits;
  };

  void check_frame(const media::DecodedFrame& frame) const;
  // `levels_cdf`: the GPU's prefix sum of `levels`; null to take it on the CPU.
  void emit(const Pending& meta, const Histogram& levels, const Cdf* levels_cdf);
  void flush_buffer();

  const Options& o_;
  media::MediaSource& source_;
  render::Context& context_;
  std::FILE* out_;
  std::string buffer_;
  std::int64_t written_ = 0;
  bool header_written_ = false;
};

void Analyzer::check_frame(const media::DecodedFrame& frame) const {
  const VideoFormat& f = frame.format;
  const std::uint32_t limit = context_.properties().max_image_dimension_2d;
  if (f.width > limit || f.height > limit) {
    throw InputError{"frame " + std::to_string(frame.index) + " is " + std::to_string(f.width) + "x" +
                     std::to_string(f.height) + ", larger than the " + std::to_string(limit) +
                     " pixels per side this Vulkan device (" + context_.description().name + ") supports"};
  }
  if (o_.bins > max_bins_for_bits(f.bits)) {
    throw InputError{"--bins " + std::to_string(o_.bins) + " needs a source deeper than 8 bits; '" + o_.input +
                     "' is " + std::to_string(f.bits) + "-bit (" + f.pixel_format + "): use --bins " +
                     std::to_string(max_bins_for_bits(f.bits)) + " or fewer"};
  }
}

void Analyzer::flush_buffer() {
  if (buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) {
    throw std::runtime_error("cannot write the output: " + std::string(std::strerror(errno)));
  }
  buffer_.clear();
}

void Analyzer::emit(const Pending& meta, const Histogram& levels, const Cdf* levels_cdf) {
  FrameRecord record;
  record.frame = meta.frame;
  record.pts = meta.pts;
  record.width = meta.width;
  record.height = meta.height;
  record.bits = meta.bits;
  record.histogram = coarsen(levels, o_.bins);
  const Cdf cdf = levels_cdf ? *levels_cdf : reference_cdf(levels);
  record.stats = channel_stats(cdf, meta.bits);
  if (o_.cdf) record.cdf = coarsen(cdf, o_.bins);
  const std::uint64_t pixels = std::uint64_t{meta.width} * meta.height;
  for (Channel c : kAllChannels) {
    if (record.histogram.total(c) != pixels || cdf.total(c) != pixels) {
      throw std::runtime_error("frame " + std::to_string(meta.frame) + ": the " + std::to_string(record.histogram.total(c)) +
                               " counts (cumulative " + std::to_string(cdf.total(c)) +
                               ") of a channel do not add up to the " + std::to_string(pixels) + " pixels");
    }
  }
  if (*o_.format == RecordFormat::jsonl) {
    append_jsonl(buffer_, record);
  } else {
    if (!header_written_) {
      append_csv_header(buffer_, o_.bins, o_.cdf);
      header_written_ = true;
    }
    append_csv(buffer_, record);
  }
  ++written_;
  if (buffer_.size() > (1u << 20)) flush_buffer();
}

int Analyzer::run() {
  const bool use_cpu =
      o_.engine == "cpu" || (o_.engine == "auto" && context_.description().kind == render::DeviceKind::cpu);
  const bool decode_only = o_.engine == "none";
  std::unique_ptr<CpuEngine> cpu;
  std::unique_ptr<HistogramEngine> gpu;
  std::unique_ptr<VideoPipeline> pipeline;
  if (decode_only) {
    // Nothing to set up: frames are decoded and dropped.
  } else if (use_cpu) {
    cpu = std::make_unique<CpuEngine>();
  } else {
    gpu = std::make_unique<HistogramEngine>(context_);
    pipeline = std::make_unique<VideoPipeline>(*gpu, 3);
  }
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (o_.verbose || (tty && !o_.quiet)) {
    if (decode_only) {
      std::fprintf(stderr, "vhist analyze: engine none: decoding only, no records\n");
    } else if (use_cpu) {
      std::fprintf(stderr, "vhist analyze: engine cpu (%u threads)%s\n", cpu->threads(),
                   o_.engine == "auto" ? (", because the Vulkan device " + context_.description().name +
                                          " is itself a CPU").c_str()
                                       : "");
    } else {
      std::fprintf(stderr, "vhist analyze: engine gpu on %s\n", context_.description().name.c_str());
    }
  }

  const media::MediaInfo& info = source_.info();
  std::int64_t expected = info.frame_count;
  if (expected < 0 && info.duration > 0 && info.frame_rate > 0) {
    expected = static_cast<std::int64_t>(std::llround((info.duration - o_.start) * info.frame_rate));
  }
  if (o_.frames > 0 && (expected < 0 || expected > o_.frames)) expected = o_.frames;
  Progress progress(tty && !o_.quiet, expected);

  const auto started = std::chrono::steady_clock::now();
  std::deque<Pending> pending;
  std::int64_t decoded = 0;
  double gpu_ms = 0;
  int status = 0;
  std::string failure;
  try {
    media::DecodedFrame frame;
    while (!g_interrupted.load() && (o_.frames < 0 || decoded < o_.frames)) {
      const auto st = source_.next(frame, std::chrono::milliseconds(100));
      if (st == media::MediaSource::Status::timeout) continue;
      if (st == media::MediaSource::Status::end) break;
      check_frame(frame);
      const Pending meta{frame.index, frame.pts, frame.format.width, frame.format.height, frame.format.bits};
      const std::uint32_t levels = stats_levels(frame.format.bits);
      ++decoded;
      if (decode_only) {
        ++written_;  // counted as processed; nothing is written
      } else if (cpu) {
        emit(meta, cpu->histogram(frame.format, frame.planes, levels), nullptr);
      } else {
        pending.push_back(meta);
        if (auto done = pipeline->submit(frame.format, frame.planes, levels, 0, true)) {
          gpu_ms += done->gpu_ms;
          emit(pending.front(), done->histogram, &done->cdf);
          pending.pop_front();
        }
      }
      frame = {};  // release the decoder's frame before waiting for the next
      progress.update(written_);
    }
    while (pipeline && pipeline->in_flight() > 0) {
      auto done = pipeline->finish_one();
      gpu_ms += done->gpu_ms;
      emit(pending.front(), done->histogram, &done->cdf);
      pending.pop_front();
    }
  } catch (const InputError& e) {
    failure = e.message;
    status = 2;
  } catch (const media::MediaError& e) {
    failure = e.what();
    status = 2;
  }
  // Whatever happened, the complete records so far reach the output.
  flush_buffer();
  if (std::fflush(out_) != 0) throw std::runtime_error("cannot write the output: " + std::string(std::strerror(errno)));
  progress.update(written_, true);
  progress.clear();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string where = o_.output == "-" ? "standard output" : "'" + o_.output + "'";

  if (status != 0) {
    std::fprintf(stderr, "vhist analyze: %s (%lld complete records written to %s)\n", failure.c_str(),
                 static_cast<long long>(written_), where.c_str());
    return status;
  }
  if (g_interrupted.load()) {
    std::fprintf(stderr, "vhist analyze: interrupted; %lld complete records written to %s\n",
                 static_cast<long long>(written_), where.c_str());
    return 130;
  }
  const media::DecodeReport report = source_.report();
  if (o_.verbose) {
    std::fprintf(stderr,
                 "vhist analyze: %lld frames in %.2f s (%.1f fps), engine %s, GPU time %.2f ms/frame, peak RSS %.1f MiB\n",
                 static_cast<long long>(written_), seconds, seconds > 0 ? static_cast<double>(written_) / seconds : 0.0,
                 decode_only ? "none" : cpu ? "cpu" : "gpu", written_ > 0 && pipeline ? gpu_ms / static_cast<double>(written_) : 0.0,
                 peak_rss_mib());
  }
  if (written_ == 0) {
    std::string why = report.first_error.empty() ? "" : " (" + report.first_error + ")";
    if (o_.start > 0) why += "; --start " + std::to_string(o_.start) + " s may be past the end";
    std::fprintf(stderr, "vhist analyze: '%s': no video frame could be decoded%s\n", o_.input.c_str(), why.c_str());
    return 2;
  }
  const bool stopped_early = o_.frames > 0 && decoded >= o_.frames;
  if (report.truncated && !stopped_early) {
    std::fprintf(stderr, "vhist analyze: '%s': %s; %lld records written to %s are all that could be read\n",
                 o_.input.c_str(), report.truncation_reason.c_str(), static_cast<long long>(written_), where.c_str());
    return 2;
  }
  if (report.lost > 0 || report.damaged > 0 || report.errors > 0) {
    std::fprintf(stderr,
                 "vhist analyze: '%s': corrupt data: %lld frames lost, %lld damaged, %lld decoder errors%s; %lld "
                 "records written to %s\n",
                 o_.input.c_str(), static_cast<long long>(report.lost), static_cast<long long>(report.damaged),
                 static_cast<long long>(report.errors),
                 report.first_error.empty() ? "" : (" (first: " + report.first_error + ")").c_str(),
                 static_cast<long long>(written_), where.c_str());
    return 2;
  }
  return 0;
}

}  // namespace

int run_analyze(int argc, char** argv) {
  Options options;
  if (const std::string err = parse(argc, argv, options); !err.empty()) {
    if (err == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::fprintf(stderr, "vhist analyze: %s (see vhist analyze --help)\n", err.c_str());
    return 2;
  }

  // Input first: bad input is reported before any device is started.
  media::SourceOptions source_options;
  source_options.start = options.start;
  std::unique_ptr<media::MediaSource> source;
  try {
    if (media::is_camera_path(options.input)) {
      // A camera: live frames until --frames N (or Ctrl-C).
      source = media::CameraSource::open(options.input, options.camera);
    } else {
      source = media::MediaSource::open(options.input, source_options);
    }
  } catch (const media::MediaError& e) {
    std::fprintf(stderr, "vhist analyze: %s\n", e.what());
    return 2;
  }

  std::unique_ptr<render::Context> context;
  try {
    render::ContextOptions context_options;
    context_options.device = options.device;
    context = std::make_unique<render::Context>(context_options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist analyze: no usable Vulkan device: %s\n", e.what());
    return 1;
  }

  std::FILE* out = stdout;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  if (options.output != "-") {
    file.reset(std::fopen(options.output.c_str(), "wb"));
    if (!file) {
      std::fprintf(stderr, "vhist analyze: cannot write '%s': %s\n", options.output.c_str(), std::strerror(errno));
      return 1;
    }
    out = file.get();
  }
  static char out_buffer[1 << 16];
  std::setvbuf(out, out_buffer, _IOFBF, sizeof out_buffer);

  // Ctrl-C and SIGTERM stop the loop; the records written so far are flushed. Writing to a
  // closed pipe is an output error, not a silent death.
  struct sigaction action{};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  try {
    Analyzer analyzer(options, *source, *context, out);
    int status = analyzer.run();
    if (file) {
      if (std::fclose(file.release()) != 0 && status == 0) {
        std::fprintf(stderr, "vhist analyze: cannot write '%s': %s\n", options.output.c_str(), std::strerror(errno));
        status = 1;
      }
    }
    if (context->validation_message_count() != 0) {
      std::fprintf(stderr, "vhist analyze: %u Vulkan validation messages\n", context->validation_message_count());
      if (status == 0) status = 1;
    }
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist analyze: %s\n", render::failure_message(e).c_str());
    return 1;
  }
}

}  // namespace vhist::app
