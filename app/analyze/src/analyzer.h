// The analysis behind `vhist analyze` and `vhist qc`: decoded frames through the engine (the GPU
// video pipeline or the CPU engine) into per-frame records and the run's summary, and to an
// observer (qc's measures). Internal to the analyze module.
#pragma once

#include "output.h"
#include "progress.h"

#include "vhist/command_line/analyze_options.h"
#include "vhist/compute/cdf.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/frame_import.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/video_pipeline.h"
#include "vhist/media/media_source.h"
#include "vhist/records/record_writer.h"
#include "vhist/records/run_summary.h"
#include "vhist/records/source_header.h"
#include "vhist/render/context.h"

#include <csignal>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vhist::app {

// The reader of standard output went away (OutputClosed, output.h): the status a tool killed by
// SIGPIPE would give.
constexpr int kOutputClosedStatus = 128 + SIGPIPE;  // 141, what the shell reports for SIGPIPE


// Bad input discovered while running: reported as one line, exit status 2.
struct InputError {
  std::string message;
};

// What one frame's engines counted, for an AnalysisObserver (`vhist qc`): the histograms at
// stats_levels(bits) (less --alpha skip's transparent pixels), and the source measures taken.
struct FrameSample {
  std::int64_t frame = 0;
  double pts = 0;
  const VideoFormat* format = nullptr;
  const Histogram* levels = nullptr;
  const PlaneCounts* planes = nullptr;  // frames with Y'CbCr or gray planes
  const LightLevel* light = nullptr;    // PQ and HLG frames (HLG's on BT.2100's reference display)
  bool hlg = false;                     // the light is HLG's (LightSignal::hlg)
  const GamutCounts* gamut = nullptr;   // frames with planes
  std::uint64_t checksum = 0;           // the engine's (compared within one run only)
  const CellSums* cells = nullptr;      // the picture's cell sums (frame_checksum.h)
  bool damaged = false;                 // the decoder concealed errors in the frame
};

// Sees every frame of an analysis in order, beside (or instead of) the records.
class AnalysisObserver {
 public:
  virtual ~AnalysisObserver() = default;
  // Before the first frame: how many frames the input is expected to have (-1: unknown).
  virtual void start(std::int64_t /*expected*/) {}
  virtual void frame(const FrameSample& sample) = 0;
  // Frames written so far and expected (-1: unknown), after each frame.
  virtual void progress(std::int64_t /*done*/, std::int64_t /*expected*/) {}
};

class Analyzer {
 public:
  // `import`: brings NVDEC's frames into the video pipeline (--hwdec); null for CPU decoding.
  // `out`: where the records go; null for none (`vhist qc`: the observer takes the frames).
  Analyzer(const AnalyzeOptions& options, media::MediaSource& source, render::Context& context, Output* out,
           FrameImport* import, AnalysisObserver* observer = nullptr)
      : o_(options), source_(source), context_(context), out_(out), import_(import), observer_(observer) {}

  // Returns the exit status.
  int run();

  // After run(): what the run found, for `vhist qc`'s outputs.
  const RunSummary& run_summary() const { return run_summary_; }
  const SummaryWarnings& warnings() const { return warnings_; }
  const SourceHeader& source_header() const { return header_; }
  std::int64_t frames_written() const { return written_; }
  // "cpu", "gpu on DEVICE" or "none", and the decoder ("nvdec" or "cpu").
  std::string engine_used() const { return engine_used_ + (first_on_gpu_ ? ", decoder nvdec" : ", decoder cpu"); }
  // The run read every frame of the input (not interrupted, cut short by --frames or an error).
  bool whole_input() const { return whole_input_; }

 private:
  struct Pending {
    std::int64_t frame;
    bool frame_known;
    double pts;
    std::uint32_t width, height, bits;
    std::uint32_t rotation, display_width, display_height;  // how it is shown (VideoFormat)
    ColourRange range;      // the range the frame was read with: the range check's nominal range
    std::uint32_t chroma_samples;  // per chroma plane (0 for gray)
    std::optional<TransparentCounts> transparent;  // --alpha skip, frames with alpha
    std::uint64_t counted;  // pixels the histograms count: the frame's or --roi's, less transparent
    VideoFormat format;     // the decoded frame's
    LightSignal light_signal = LightSignal::pq;  // what its light levels count (PQ and HLG frames)
    bool damaged = false;   // the decoder concealed errors in it
  };
  // A frame's source measures (source_measures.h), when it has planes / is PQ or HLG.
  struct Measures {
    std::optional<PlaneCounts> planes;  // at stats_levels(bits)
    std::vector<std::uint32_t> light;
    // With an observer (`vhist qc`): R 103's gamut counts (frames with planes), the checksum
    // and the cell sums.
    std::optional<GamutCounts> gamut;
    std::optional<std::uint64_t> checksum;
    std::optional<CellSums> cells;
  };

  struct Engines {
    bool decode_only = false;
    std::unique_ptr<CpuEngine> cpu;
    std::unique_ptr<HistogramEngine> gpu;
    std::unique_ptr<VideoPipeline> pipeline;
  };
  struct Tally {
    std::int64_t decoded = 0;
    double gpu_ms = 0, copy_ms = 0, source_ms = 0, convert_ms = 0, histogram_ms = 0;  // sums over the GPU's frames
    void add(const FrameResult& r) {
      gpu_ms += r.gpu_ms, copy_ms += r.upload_ms, source_ms += r.source_ms, convert_ms += r.convert_ms,
          histogram_ms += r.histogram_ms;
    }
    double seconds = 0;
  };

  Engines make_engines() const;
  void announce(const Engines& engines) const;
  std::int64_t expected_frames() const;
  // Decodes and histograms until the end, --frames or an interrupt; throws InputError or
  // media::MediaError for bad input.
  void process(Engines& engines, Progress& progress, Tally& tally);
  void summary(const Engines& engines, const Tally& tally) const;
  int finish(const Tally& tally) const;
  // "N complete records written to WHERE", or that a file was not written for want of records.
  std::string written_to() const;
  void check_frame(const media::DecodedFrame& frame) const;
  // The provenance header (source_header.h), into the buffer before the first record.
  void write_source_header(const media::DecodedFrame& frame);
  // `levels_cdf`: the GPU's prefix sum of `levels`; null to take it on the CPU.
  void emit(const Pending& meta, const Histogram& levels, const Cdf* levels_cdf, const Measures& measures);
  void observe(const Pending& meta, const Histogram& levels, const Measures& measures,
               const std::optional<LightLevel>& light);
  void write_record(const Pending& meta, const Histogram& levels, const Cdf* levels_cdf, const Measures& measures,
                    const std::optional<LightLevel>& light);
  // Where the records go, for messages: the output, or that none are written.
  // The record's histograms, CDF and statistics: of `levels` (R'G'B') or of the planes (ycbcr).
  void fill_histograms(FrameRecord& record, const Pending& meta, const Histogram& levels, const Cdf* levels_cdf,
                       const Measures& measures) const;
  // CPU engine: the frame's (or --roi's) histogram at `levels`, and its source measures.
  Histogram cpu_counts(Engines& e, const media::DecodedFrame& frame, std::uint32_t levels, Measures& measures);
  SourceRequest source_request(const media::DecodedFrame& frame) const;
  // --alpha skip: the frame's fully transparent pixels (none without alpha). Throws InputError
  // when the frame has alpha that did not reach vhist.
  std::optional<TransparentCounts> transparent(const media::DecodedFrame& frame, std::uint32_t levels) const;
  // The summary (run_summary.h) as the output's last object, and the range verdict on stderr.
  void write_summary(bool whole_input);
  void flush_buffer();

  const AnalyzeOptions& o_;
  media::MediaSource& source_;
  render::Context& context_;
  Output* out_;
  FrameImport* import_;
  AnalysisObserver* observer_;
  SourceHeader header_;
  bool whole_input_ = false;
  std::string name_ = observer_ != nullptr ? "vhist qc" : "vhist analyze";  // messages' prefix
  std::int64_t progress_expected_ = -1;
  std::string engine_used_;
  bool first_on_gpu_ = false;  // the first frame came from NVDEC
  std::string buffer_;
  std::int64_t written_ = 0;
  bool header_written_ = false;
  bool source_written_ = false;
  SourceColour colour_;   // the first frame's, for the summary
  RunSummary run_summary_;
  SummaryWarnings warnings_;  // the summary's verdicts on the range tag and the light, when it has them
  std::vector<std::byte> rgb_scratch_;  // the CPU engine's converted frame, cut for --roi
};

}  // namespace vhist::app
