#include "vhist/command_line/analyze_options.h"

#include "vhist/cli/cli.h"

#include "vhist/shader_shared.h"

#include <CLI/CLI.hpp>

namespace vhist::app {

namespace {

constexpr cli::CliRow<AnalyzeOptions> kAnalyzeRows[] = {
    {"--bins", "N",
     "bins per channel: a power of two from 16 to 256 for 8-bit sources, up to 1024 for deeper ones (default 256)",
     "Histogram",
     [](AnalyzeOptions& o, std::string_view v) {
       const auto n = cli::parse_uint(v, 1, 1u << 20);
       if (!n || (*n & (*n - 1)) != 0 || *n < shader::kMinBins || *n > shader::kMaxBins) {
         return std::string("a power of two from 16 to 1024");
       }
       o.bins = *n;
       return std::string();
     }},
    {"--cdf", "",
     "add each channel's cumulative histogram (CDF) at the same bins: the number of pixels at or below each bin",
     "Histogram", [](AnalyzeOptions& o, std::string_view) { return cli::set_flag(o.cdf); }},
    {"--domain", "D",
     "rgb (default): the R', G', B' and luma histograms after conversion (arrays r, g, b, l); ycbcr: the Y', Cb "
     "and Cr planes' code values as decoded, each at its own depth and on its own grid (arrays y, cb, cr)",
     "Histogram",
     [](AnalyzeOptions& o, std::string_view v) {
       if (v != "rgb" && v != "ycbcr") return std::string("rgb or ycbcr");
       o.ycbcr = v == "ycbcr";
       return std::string();
     }},
    {"--alpha", "A",
     "count (default): every pixel is counted whatever its alpha; skip: pixels whose alpha is 0 (fully "
     "transparent) are left out of the R', G', B' and luma histograms, their statistics and the light",
     "Histogram",
     [](AnalyzeOptions& o, std::string_view v) {
       if (v != "count" && v != "skip") return std::string("count or skip");
       o.skip_transparent = v == "skip";
       return std::string();
     }},
    {"--roi", "X,Y,W,H",
     "count only the rectangle of W x H stored pixels whose top left pixel is (X, Y) (the picture as stored, "
     "before rotation or sample aspect); it must lie inside every frame",
     "Histogram",
     [](AnalyzeOptions& o, std::string_view v) {
       const auto n = cli::parse_rect(v);
       if (!n) return std::string(cli::kRectExpected);
       o.roi = PixelRect{(*n)[0], (*n)[1], (*n)[2], (*n)[3]};
       return std::string();
     }},
    {"--frames", "N", "stop after N frames (default: all)", "Input",
     [](AnalyzeOptions& o, std::string_view v) { return cli::set_positive(o.frames, v, 0xffffffffu); }},
    {"--format", "F",
     "jsonl (one JSON object per line, the default) or csv (one row per frame and channel); default: csv when -o "
     "ends in .csv",
     "Output",
     [](AnalyzeOptions& o, std::string_view v) {
       if (v == "jsonl") o.format = RecordFormat::jsonl;
       else if (v == "csv") o.format = RecordFormat::csv;
       else return std::string("jsonl or csv");
       return std::string();
     }},
    {"-o,--output", "FILE", "write the records to FILE (default: standard output)", "Output",
     [](AnalyzeOptions& o, std::string_view v) {
       return cli::set_text(o.output, v, "a file name (or - for standard output)");
     }},
    {"--engine", "E",
     "auto (default), gpu or cpu. auto uses the CPU engine when the Vulkan device is itself a CPU (lavapipe), where "
     "it is several times faster. none decodes only and writes no records: the decoder's own speed",
     "Engine",
     [](AnalyzeOptions& o, std::string_view v) {
       if (v != "auto" && v != "gpu" && v != "cpu" && v != "none") return std::string("auto, gpu, cpu or none");
       o.engine = v;
       return std::string();
     }},
    {"--threads", "N",
     "threads for decoding and for the CPU engine, each (default 0: one per core); vhist batch gives each file its "
     "share of the cores",
     "Engine",
     [](AnalyzeOptions& o, std::string_view v) {
       const auto n = cli::parse_uint(v, 0, 1024);
       if (!n) return std::string("a whole number from 0 to 1024");
       o.threads = *n;
       return std::string();
     }},
    {"-q,--quiet", "", "no progress bar", "Output", [](AnalyzeOptions& o, std::string_view) { return cli::set_flag(o.quiet); }},
    {"-v,--verbose", "", "report the engine, and a summary at the end (frames, fps, peak memory)", "Output",
     [](AnalyzeOptions& o, std::string_view) { return cli::set_flag(o.verbose); }},
};

}  // namespace

std::span<const cli::CliRow<AnalyzeOptions>> analyze_rows() { return kAnalyzeRows; }

void add_analyze_options(CLI::App& app, AnalyzeOptions& options) {
  cli::add_rows(app, cli::input_rows(), options.common);
  cli::add_rows(app, analyze_rows(), options);
  cli::add_rows(app, cli::time_rows(), options.common);
  cli::add_rows(app, cli::device_rows(), options.common);
  cli::add_rows(app, cli::decode_rows(), options.common);
  cli::add_rows(app, cli::camera_rows(), options.common);
}

std::string finish_analyze_options(AnalyzeOptions& o) {
  if (o.common.input.empty()) return "no input file given";
  if (o.ycbcr && o.roi) {
    return "--roi counts a rectangle of R'G'B' pixels; the Y'CbCr planes (--domain ycbcr) are counted whole";
  }
  if (o.ycbcr && o.skip_transparent) {
    return "--alpha skip leaves pixels out of the R'G'B' histograms; the Y'CbCr planes (--domain ycbcr) are counted "
           "per sample, whatever the alpha";
  }
  if (!o.format) {
    const bool csv = o.output.size() > 4 && o.output.compare(o.output.size() - 4, 4, ".csv") == 0;
    o.format = csv ? RecordFormat::csv : RecordFormat::jsonl;
  }
  return {};
}

const char* analyze_help_footer() {
  return R"(Decodes every video frame of INPUT (a local file; - for standard input; an image sequence as
img%03d.png or a quoted glob 'img*.png'; an audio file's cover art; or a camera such as /dev/video0:
then it runs until --frames N or Ctrl-C), computes its R, G, B and luma histograms and statistics
with the GPU engine, and writes a header, one record per frame and a summary.

Statistics are in code values of the source's depth (0..255 for 8-bit video, 0..1023 for
10-bit): min, max, mean, median, p1, p99, and clip_low / clip_high, the fractions of pixels
at the lowest and highest code. The percentiles are read off the CDF at one level per code
(the GPU's prefix sum with the GPU engine). A progress bar is drawn on stderr when it is a terminal.

Exit status: 0 success; 1 no usable Vulkan device, or the output cannot be written;
2 bad usage or bad input (missing, unreadable, not a video, truncated, corrupt frames,
frames too large for the device); 130, 143, 129 interrupted by Ctrl-C, SIGTERM or a hangup
(the records written so far are complete); 141 the output was closed (e.g. | head).
)";
}

}  // namespace vhist::app
