#include "analyzer.h"

#include "decode_report_text.h"
#include "hwdec_choice.h"
#include "messages.h"
#include "output.h"
#include "progress.h"
#include "stop_signals.h"

#include "vhist/camera_options/camera_options.h"
#include "vhist/cli/peak_rss.h"
#include "vhist/media/camera.h"
#include "vhist/media/media_source.h"
#include "vhist/records/record_writer.h"
#include "vhist/records/run_summary.h"
#include "vhist/records/source_header.h"
#include "vhist/util/files.h"
#include "vhist/util/text.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/region.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/colour_names.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/engine_choice.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/video_pipeline.h"
#include "vhist/render/context.h"
#include "vhist/render/vk_check.h"

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

using util::quoted;

void Analyzer::write_source_header(const media::DecodedFrame& frame) {
  const media::MediaInfo& info = source_.info();
  const VideoFormat& f = frame.format;
  SourceHeader h;
  h.input = o_.common.input;
  h.container = info.container;
  h.codec = info.codec;
  h.decoder = decoder_name(info, frame);
  h.alpha = frame.has_alpha;
  h.stream = info.video_stream;
  h.attached_picture = info.attached_picture;
  h.width = f.width;
  h.height = f.height;
  h.display_width = f.display_width();
  h.display_height = f.display_height();
  h.rotation = f.rotation;
  h.sar_num = f.sar_num;
  h.sar_den = f.sar_den;
  h.bits = f.bits;
  h.pixel_format = f.pixel_format;
  h.frame_rate = info.frame_rate;
  h.constant_rate = info.constant_rate;
  h.colour = frame.colour;
  h.domain = o_.ycbcr ? "ycbcr" : "rgb";
  h.region = o_.roi;
  colour_ = frame.colour;
  header_ = h;
  // In words for the person reading; the records keep the identifiers (smpte2084, bt2020nc).
  if (o_.verbose) say("%s: colour %s\n", name_.c_str(), spoken_colour_summary(frame.colour).c_str());
  if (out_ == nullptr) {
    // No records: the header is kept for the observer's outputs only.
  } else if (*o_.format == RecordFormat::jsonl) {
    append_jsonl_header(buffer_, h);
  } else {
    append_csv_comments(buffer_, h);
  }
  source_written_ = true;
}

void Analyzer::check_frame(const media::DecodedFrame& frame) const {
  const VideoFormat& f = frame.format;
  const std::uint32_t limit = context_.properties().max_image_dimension_2d;
  if (f.width > limit || f.height > limit) {
    throw InputError{"frame " + std::to_string(frame.index) + " is " + std::to_string(f.width) + "x" +
                     std::to_string(f.height) + ", larger than the " + std::to_string(limit) +
                     " pixels per side this Vulkan device (" + context_.description().name + ") supports"};
  }
  if (o_.roi) {
    if (auto err = check_rect(*o_.roi, f.width, f.height); !err.empty()) {
      throw InputError{"--roi: " + err + " " + std::to_string(frame.index) + " of " + quoted(o_.common.input) +
                       " (stored pixels, before any rotation): give a rectangle inside it"};
    }
  }
  if (o_.ycbcr && !has_planes(f)) {
    throw InputError{quoted(o_.common.input) + " is stored as R'G'B' (" + f.pixel_format +
                     "): it has no Y'CbCr planes to count; use --domain rgb"};
  }
  if (o_.bins > max_bins_for_bits(f.bits)) {
    throw InputError{"--bins " + std::to_string(o_.bins) + " needs a source deeper than 8 bits; " + quoted(o_.common.input) +
                     " is " + std::to_string(f.bits) + "-bit (" + f.pixel_format + "): use --bins " +
                     std::to_string(max_bins_for_bits(f.bits)) + " or fewer"};
  }
}

void Analyzer::flush_buffer() {
  if (buffer_.empty()) return;
  if (out_ != nullptr) out_->write(buffer_);
  buffer_.clear();
}

std::string Analyzer::written_to() const {
  if (out_ == nullptr) return std::to_string(written_) + " frames measured";
  if (written_ == 0 && out_->to_file()) return "no records, so " + out_->where() + " was not written";
  return std::to_string(written_) + " complete records written to " + out_->where();
}

void Analyzer::fill_histograms(FrameRecord& record, const Pending& meta, const Histogram& levels, const Cdf* levels_cdf,
                               const Measures& measures) const {
  const bool planes = o_.ycbcr;
  Histogram opaque;  // --alpha skip: the frame's counts less its transparent pixels'
  if (meta.transparent) {
    opaque = levels;
    for (std::size_t k = 0; k < opaque.counts.size(); ++k) opaque.counts[k] -= meta.transparent->levels.counts[k];
    levels_cdf = nullptr;  // the GPU's prefix sum counted every pixel
  }
  if (meta.transparent || o_.roi) record.counted = meta.counted;
  const Histogram& counted = planes ? measures.planes->histogram : meta.transparent ? opaque : levels;
  record.domain = !planes ? RecordDomain::rgb : meta.chroma_samples != 0 ? RecordDomain::ycbcr : RecordDomain::y;
  record.histogram = coarsen(counted, o_.bins);
  const Cdf cdf = levels_cdf && !planes ? *levels_cdf : reference_cdf(counted);
  record.stats = channel_stats(cdf, meta.bits);
  if (o_.cdf) record.cdf = coarsen(cdf, o_.bins);
  const std::uint64_t pixels = meta.counted;
  for (const NamedChannel& named : record_channels(record.domain)) {
    const bool chroma = planes && (named.slot == kPlaneCb || named.slot == kPlaneCr);
    const std::uint64_t want = chroma ? meta.chroma_samples : pixels;
    const std::uint64_t got = record.histogram.total(named.slot);
    if (got != want || cdf.total(named.slot) != want) {
      throw std::runtime_error("frame " + std::to_string(meta.frame) + ": the " + std::to_string(got) +
                               " counts (cumulative " + std::to_string(cdf.total(named.slot)) + ") of histogram " +
                               named.name + " do not add up to its " + std::to_string(want) + " samples");
    }
  }
}

void Analyzer::emit(const Pending& meta, const Histogram& levels, const Cdf* levels_cdf, const Measures& measures) {
  std::optional<LightLevel> light;
  if (!measures.light.empty()) {
    std::vector<std::uint32_t> counts = measures.light;
    for (std::size_t k = 0; meta.transparent && k < counts.size(); ++k) counts[k] -= meta.transparent->light[k];
    light = pq_light_level(counts, meta.bits);
    run_summary_.add_light(*light, meta.frame, meta.light_signal == LightSignal::hlg);
  }
  if (measures.planes) run_summary_.add_planes(*measures.planes, meta.bits);
  ++run_summary_.frames;
  if (observer_ != nullptr) observe(meta, levels, measures, light);
  if (out_ != nullptr) write_record(meta, levels, levels_cdf, measures, light);
  ++written_;
  if (buffer_.size() > (1u << 20)) flush_buffer();
}

void Analyzer::observe(const Pending& meta, const Histogram& levels, const Measures& measures,
                       const std::optional<LightLevel>& light) {
  Histogram opaque;  // --alpha skip: the frame's counts less its transparent pixels'
  if (meta.transparent) {
    opaque = levels;
    for (std::size_t k = 0; k < opaque.counts.size(); ++k) opaque.counts[k] -= meta.transparent->levels.counts[k];
  }
  FrameSample s;
  s.frame = meta.frame;
  s.pts = meta.pts;
  s.format = &meta.format;
  s.levels = meta.transparent ? &opaque : &levels;
  s.planes = measures.planes ? &*measures.planes : nullptr;
  s.light = light ? &*light : nullptr;
  s.hlg = meta.light_signal == LightSignal::hlg;
  s.gamut = measures.gamut ? &*measures.gamut : nullptr;
  s.checksum = measures.checksum.value_or(0);
  s.cells = measures.cells ? &*measures.cells : nullptr;
  s.damaged = meta.damaged;
  observer_->frame(s);
}

void Analyzer::write_record(const Pending& meta, const Histogram& levels, const Cdf* levels_cdf,
                            const Measures& measures, const std::optional<LightLevel>& light) {
  FrameRecord record;
  record.frame = meta.frame;
  record.frame_known = meta.frame_known;
  record.pts = meta.pts;
  record.width = meta.width;
  record.height = meta.height;
  record.bits = meta.bits;
  record.rotation = meta.rotation;
  record.display_width = meta.display_width;
  record.display_height = meta.display_height;
  fill_histograms(record, meta, levels, levels_cdf, measures);
  if (measures.planes) record.range = range_check(*measures.planes, meta.range);
  record.light = light;
  if (*o_.format == RecordFormat::jsonl) {
    append_jsonl(buffer_, record);
  } else {
    if (!header_written_) {
      append_csv_header(buffer_, o_.bins, o_.cdf);
      header_written_ = true;
    }
    append_csv(buffer_, record);
  }
}

void Analyzer::write_summary(bool whole_input) {
  warnings_ = {range_warning(run_summary_, colour_.range, whole_input), light_warning(run_summary_, colour_)};
  set_lost_frames(run_summary_, source_.report());
  if (out_ == nullptr) return;
  if (*o_.format == RecordFormat::jsonl) {
    append_jsonl_summary(buffer_, run_summary_, colour_, warnings_);
  } else {
    append_csv_summary(buffer_, run_summary_, colour_, warnings_);
  }
}

std::optional<TransparentCounts> Analyzer::transparent(const media::DecodedFrame& frame, std::uint32_t levels) const {
  if (!o_.skip_transparent || !frame.has_alpha) return std::nullopt;
  if (frame.alpha.data == nullptr) {
    throw InputError{quoted(o_.common.input) + ": the alpha of its " + frame.format.pixel_format +
                     " frames does not reach vhist (their format is converted by libswscale, which drops it), so "
                     "--alpha skip cannot leave transparent pixels out; use --alpha count"};
  }
  return transparent_counts(frame.format, frame.planes, frame.alpha, levels, o_.roi,
                            light_signal_of(frame.colour.transfer.value).value_or(LightSignal::pq));
}

SourceRequest Analyzer::source_request(const media::DecodedFrame& frame) const {
  // The light of PQ frames, and of HLG frames as shown on BT.2100's reference display.
  const std::optional<LightSignal> light = light_signal_of(frame.colour.transfer.value);
  SourceRequest want{has_planes(frame.format), light.has_value(), o_.roi};
  want.hlg = light == LightSignal::hlg;
  // `vhist qc`'s measures: the gamut check, the checksum and the cell sums, over the whole frame.
  want.gamut = observer_ != nullptr && want.planes;
  want.checksum = observer_ != nullptr;
  return want;
}

Histogram Analyzer::cpu_counts(Engines& e, const media::DecodedFrame& frame, std::uint32_t levels, Measures& m) {
  const SourceRequest want = source_request(frame);
  if (!want.region) {
    // One pass over the frame's rows: histograms, planes and light together. The Cb and Cr
    // histograms are read by --domain ycbcr's records and by qc's frame hash; the range check
    // and the summary need only their samples outside the limited range and their totals.
    const bool chroma_bins = o_.ycbcr || observer_ != nullptr;
    CpuEngine::Counts counts =
        e.cpu->count(frame.format, frame.planes, levels,
                     {true, want.planes, want.light, want.gamut, want.checksum, want.hlg, chroma_bins});
    m.planes = std::move(counts.planes);
    m.light = std::move(counts.light);
    m.gamut = counts.gamut;
    m.checksum = counts.checksum;
    m.cells = counts.cells;
    return std::move(counts.levels);
  }
  if (want.planes) m.planes = e.cpu->planes(frame.format, frame.planes, levels);
  const FrameFormat rgb = converted_format(frame.format);
  rgb_scratch_.resize(rgb.byte_size());
  e.cpu->convert_and_histogram(frame.format, frame.planes, levels, rgb_scratch_.data());
  // The region's pixels as converted in the whole frame, counted by the reference.
  const std::vector<std::byte> region = crop_frame(rgb_scratch_, rgb, *want.region);
  const FrameFormat counted = region_format(rgb, *want.region);
  if (want.light) m.light = reference_max_rgb(region, counted, want.hlg ? LightSignal::hlg : LightSignal::pq);
  return reference_histogram(region, counted, levels);
}

Analyzer::Engines Analyzer::make_engines() const {
  Engines e;
  e.decode_only = o_.engine == "none";
  // "none" is analyze's own (decode only); the rest is the one engine rule.
  const bool use_cpu = !e.decode_only && choose_engine(context_.description().kind,
                                                       parse_engine_choice(o_.engine).value_or(EngineChoice::automatic)) ==
                                             Engine::cpu;
  if (e.decode_only) {
    // Nothing to set up: frames are decoded and dropped.
  } else if (use_cpu) {
    e.cpu = std::make_unique<CpuEngine>(o_.threads);
  } else {
    e.gpu = std::make_unique<HistogramEngine>(context_);
    e.pipeline = std::make_unique<VideoPipeline>(*e.gpu, 3, Strategy::fast, 0, import_);
  }
  return e;
}

void Analyzer::announce(const Engines& e) const {
  if (e.decode_only) {
    say("%s: engine none: decoding only, no records\n", name_.c_str());
  } else if (e.cpu) {
    say("%s: engine cpu (%u threads)%s\n", name_.c_str(), e.cpu->threads(),
                 o_.engine == "auto" ? (", because the Vulkan device " + context_.description().name +
                                        " is itself a CPU").c_str()
                                     : "");
  } else {
    say("%s: engine gpu on %s\n", name_.c_str(), context_.description().name.c_str());
  }
  if (!o_.verbose) return;
  const media::MediaInfo& info = source_.info();
  std::string streams;
  for (const auto& s : info.video_streams) streams += (streams.empty() ? "" : ", ") + s;
  say("%s: video streams %s; reading stream %d%s\n", name_.c_str(), util::printable(streams).c_str(),
               info.video_stream, o_.common.stream >= 0 ? " (--stream)" : "");
}

std::int64_t Analyzer::expected_frames() const {
  const media::MediaInfo& info = source_.info();
  std::int64_t expected = info.frame_count;
  if (expected < 0 && info.duration > 0 && info.frame_rate > 0) {
    expected = static_cast<std::int64_t>(std::llround((info.duration - o_.start()) * info.frame_rate));
  }
  if (o_.frames > 0 && (expected < 0 || expected > o_.frames)) expected = o_.frames;
  return expected;
}

void Analyzer::process(Engines& e, Progress& progress, Tally& tally) {
  std::deque<Pending> pending;
  media::DecodedFrame frame;
  while (!stop_requested() && (o_.frames < 0 || tally.decoded < o_.frames)) {
    const auto st = source_.next(frame, std::chrono::milliseconds(100));
    if (st == media::MediaSource::Status::timeout) continue;
    if (st == media::MediaSource::Status::end) break;
    check_frame(frame);
    if (const std::string said = path_change(source_.info(), source_.report(), frame, tally.decoded == 0, first_on_gpu_);
        !said.empty()) {
      say("%s: %s\n", name_.c_str(), util::printable(said).c_str());
    }
    if (tally.decoded == 0) first_on_gpu_ = frame.device.memory != FrameMemory::host;
    const VideoFormat& f = frame.format;
    const std::uint32_t levels = stats_levels(frame.format.bits);
    std::optional<TransparentCounts> clear = transparent(frame, levels);
    const std::uint64_t area = o_.roi ? o_.roi->pixel_count() : std::uint64_t{f.width} * f.height;
    const std::uint64_t counted = area - (clear ? clear->pixels : 0);
    const Pending meta{frame.index,    frame.index_exact, frame.pts,
                       f.width,        f.height,          f.bits,
                       f.rotation,     f.display_width(), f.display_height(),
                       f.range,        f.model == ColourModel::yuv ? f.chroma_width() * f.chroma_height() : 0,
                       std::move(clear), counted,         f,
                       light_signal_of(frame.colour.transfer.value).value_or(LightSignal::pq),
                       frame.damaged};
    ++tally.decoded;
    if (!e.decode_only && !source_written_) write_source_header(frame);
    if (e.decode_only) {
      ++written_;  // counted as processed; nothing is written
    } else if (e.cpu) {
      Measures measures;
      const Histogram counts = cpu_counts(e, frame, levels, measures);
      emit(meta, counts, nullptr, measures);
    } else {
      pending.push_back(meta);
      if (auto done =
              e.pipeline->submit(frame.format, frame.planes, levels, 0, true, source_request(frame), frame.device)) {
        tally.add(*done);
        emit(pending.front(), done->histogram, &done->cdf, Measures{done->planes, done->light, done->gamut, done->checksum, done->cells});
        pending.pop_front();
      }
    }
    frame = {};  // release the decoder's frame before waiting for the next
    progress.update(written_);
    if (observer_ != nullptr) observer_->progress(written_, progress_expected_);
  }
  while (e.pipeline && e.pipeline->in_flight() > 0) {
    auto done = e.pipeline->finish_one();
    tally.add(*done);
    emit(pending.front(), done->histogram, &done->cdf, Measures{done->planes, done->light, done->gamut, done->checksum, done->cells});
    pending.pop_front();
  }
}

int Analyzer::run() {
  Engines engines = make_engines();
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (o_.verbose || (tty && !o_.quiet)) announce(engines);
  progress_expected_ = expected_frames();
  engine_used_ = engines.decode_only ? "none" : engines.cpu ? "cpu" : "gpu on " + context_.description().name;
  if (observer_ != nullptr) observer_->start(progress_expected_);
  Progress progress(tty && !o_.quiet, progress_expected_);

  const auto started = std::chrono::steady_clock::now();
  Tally tally;
  int status = 0;
  std::string failure;
  try {
    process(engines, progress, tally);
  } catch (const InputError& e) {
    failure = e.message;
    status = 2;
  } catch (const media::MediaError& e) {
    failure = e.what();
    status = 2;
  }
  // Whatever happened, the complete records so far reach the output, then the summary of them.
  if (written_ > 0 && !engines.decode_only) {
    // Whole: every frame read, and read intact (nothing truncated, lost or damaged).
    whole_input_ = status == 0 && !stop_requested() && (o_.frames < 0 || tally.decoded < o_.frames) &&
                   !input_damaged(source_.report());
    write_summary(whole_input_);
  }
  flush_buffer();
  if (out_ != nullptr) out_->flush();
  // A file is put in place when it is whole: records, then their summary (a signal included);
  // without a record, an existing file stays as it was.
  if (out_ != nullptr) out_->finish(written_ > 0);
  progress.update(written_, true);
  progress.clear();
  tally.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (status != 0) {
    say("%s: %s (%s)\n", name_.c_str(), util::printable(failure).c_str(), written_to().c_str());
    return status;
  }
  if (stop_requested()) {
    const int sig = stop_signal();
    say("%s: interrupted (%s); %s\n", name_.c_str(), std::string(signal_name(sig)).c_str(),
                 written_to().c_str());
    return 128 + sig;  // 130 for Ctrl-C, 143 for SIGTERM, 129 for a hangup: the shell's convention
  }
  if (o_.verbose) summary(engines, tally);
  const int status_at_end = finish(tally);
  // The verdicts on the range tag and the light, on stderr too when the run went well (a failed
  // run's one line is its failure; the summary object has the warnings either way).
  for (const std::string* warning : {&warnings_.range, &warnings_.light}) {
    if (status_at_end != 0 || warning->empty()) continue;
    say("%s: warning: %s: %s\n", name_.c_str(), quoted(o_.common.input).c_str(), util::printable(*warning).c_str());
  }
  return status_at_end;
}

void Analyzer::summary(const Engines& e, const Tally& tally) const {
  const double seconds = tally.seconds;
  const double per = written_ > 0 && e.pipeline ? 1.0 / static_cast<double>(written_) : 0.0;
  say("%s: %lld frames in %.2f s (%.1f fps), engine %s, decoder %s, GPU time %.3f ms/frame (copy %.3f, planes "
      "%.3f, convert %.3f, histograms %.3f), peak RSS %.1f MiB\n", name_.c_str(), static_cast<long long>(written_),
      seconds, seconds > 0 ? static_cast<double>(written_) / seconds : 0.0,
      e.decode_only ? "none" : e.cpu ? "cpu" : "gpu", first_on_gpu_ ? "nvdec" : "cpu", tally.gpu_ms * per,
      tally.copy_ms * per, tally.source_ms * per, tally.convert_ms * per, tally.histogram_ms * per, peak_rss_mib());
}

// The exit status once every frame is through: the input's troubles, if any, as one line.
int Analyzer::finish(const Tally& tally) const {
  const media::DecodeReport report = source_.report();
  if (written_ == 0) {
    std::string why = report.first_error.empty() ? "" : " (" + report.first_error + ")";
    if (o_.start() > 0) why += "; --start " + std::to_string(o_.start()) + " s may be past the end";
    if (out_ == nullptr || out_->to_file()) why += "; " + written_to();
    say("%s: %s: no video frame could be decoded%s\n", name_.c_str(), quoted(o_.common.input).c_str(),
                 why.c_str());
    return 2;
  }
  // Lost at the end (truncated) and lost in the middle (corrupt) are told apart, and both said.
  const bool stopped_early = o_.frames > 0 && tally.decoded >= o_.frames;
  const std::string corrupt = corruption_text(report);
  // What the run kept: the records written, or without records (vhist qc) the frames measured.
  const std::string kept = out_ != nullptr ? std::to_string(written_) + " records written to " + out_->where()
                                           : std::to_string(tally.decoded) + " frames decoded and measured";
  if (report.truncated && !stopped_early) {
    say("%s: %s: %s%s; the %s are all that could be read\n", name_.c_str(), quoted(o_.common.input).c_str(),
        util::printable(report.truncation_reason).c_str(),
        corrupt.empty() ? "" : ("; before that, " + util::printable(corrupt)).c_str(), kept.c_str());
    return 2;
  }
  if (!corrupt.empty()) {
    say("%s: %s: %s; %s\n", name_.c_str(), quoted(o_.common.input).c_str(), util::printable(corrupt).c_str(),
        kept.c_str());
    return 2;
  }
  return 0;
}

}  // namespace vhist::app
