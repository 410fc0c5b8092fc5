#include "vhist/analyze/qc_command.h"

#include "analysis_run.h"
#include "decode_report_text.h"
#include "messages.h"
#include "output.h"
#include "qc_outputs.h"
#include "qc_row.h"

#include "vhist/compute/colour_names.h"
#include "vhist/media/timecode.h"
#include "vhist/qc/held_picture.h"
#include "vhist/qc/light_limits.h"
#include "vhist/qc/timeline_file.h"
#include "vhist/report/html_report.h"
#include "vhist/util/file_digest.h"
#include "vhist/util/files.h"
#include "vhist/util/text.h"
#include "vhist/version.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <functional>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>

namespace vhist::app {

namespace {

constexpr std::uint32_t kThumbnailWidth = 240;
constexpr std::size_t kMaxThumbnails = 64;  // events past these have none (each is a seek and a decode)

// Measures every frame into the timeline, and tells the viewer how far it got (--progress-fd).
class QcObserver : public AnalysisObserver {
 public:
  // `report`: where the progress goes instead of --progress-fd (a batch's worker thread).
  QcObserver(const QcOptions& o, ProgressReport report)
      : o_(o), report_(std::move(report)), started_(util::utc_now()),
        // A benchmark's hook (scripts/bench_qc.sh): VHIST_BENCH_NO_DIGEST=1 reads no SHA-256, to
        // measure what it costs.
        digest_(std::getenv("VHIST_BENCH_NO_DIGEST") != nullptr ? std::string() : o.scan.common.input) {}

  void start(std::int64_t expected) override { timeline_ = qc::Timeline(expected); }

  void frame(const FrameSample& s) override {
    qc::FrameCounts c;
    c.frame = s.frame;
    c.pts = s.pts;
    c.format = s.format;
    c.levels = s.levels;
    c.planes = s.planes;
    c.light = s.light;
    c.hlg = s.hlg;
    c.gamut = s.gamut;
    c.checksum = s.checksum;
    if (s.damaged) damaged_.push_back({s.frame, s.pts});
    last_ = {s.frame, s.pts};
    std::array<std::uint32_t, qc::kTimelineLevels * 4> histogram{};
    qc::QcFrame q = qc::measure(c, o_.thresholds.black_level, &histogram);
    if (s.cells != nullptr) {
      const qc::HeldPicture::Verdict held = held_.next(*s.cells, *s.format);
      q.held = held.held;
      q.held_change = held.change;
    }
    timeline_.add(q, histogram);
    if (!o_.row.empty()) totals_.add(*s.levels, s.format->bits);
  }

  void progress(std::int64_t done, std::int64_t expected) override {
    if (report_) return report_(done, expected);
    if (o_.progress_fd < 0 || progress_closed_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_progress_ < std::chrono::milliseconds(100)) return;
    last_progress_ = now;
    const std::string line = std::to_string(done) + " " + std::to_string(expected) + "\n";
    if (::write(o_.progress_fd, line.data(), line.size()) < 0 && errno != EAGAIN && errno != EINTR) {
      progress_closed_ = true;  // the viewer went away: the scan goes on to its file
    }
  }

  const qc::Timeline& timeline() const { return timeline_; }
  const qc::FileTotals& totals() const { return totals_; }
  // The frames the decoder concealed errors in, and the last frame seen.
  const std::vector<qc::DecodeDamage::Frame>& damaged() const { return damaged_; }
  qc::DecodeDamage::Frame last() const { return last_; }
  // When the run started (UTC), and the input's SHA-256 read beside the decoder (waits for it).
  const std::string& started() const { return started_; }
  std::string sha256(std::string& error) const { return digest_.sha256(error); }

 private:
  const QcOptions& o_;
  ProgressReport report_;
  qc::Timeline timeline_;
  qc::HeldPicture held_{o_.thresholds.frozen_change};
  qc::FileTotals totals_;  // --row's exposure columns
  std::vector<qc::DecodeDamage::Frame> damaged_;
  qc::DecodeDamage::Frame last_;
  std::string started_;
  mutable util::FileDigest digest_;
  bool progress_closed_ = false;
  std::chrono::steady_clock::time_point last_progress_{};
};

// "0 video h264 1920x1080 4.000 s; 1 audio aac 48000 Hz, 2 channels 4.000 s eng": every stream.
std::string streams_text(const std::vector<media::StreamFact>& streams) {
  std::string out;
  for (const media::StreamFact& s : streams) {
    out += (out.empty() ? "" : "; ") + std::to_string(s.index) + " " + s.type + " " + s.codec;
    if (!s.detail.empty()) out += " " + s.detail;
    if (s.duration >= 0) {
      char d[32];
      std::snprintf(d, sizeof d, " %.3f s", s.duration);
      out += d;
    }
    if (!s.language.empty()) out += " " + s.language;
  }
  return out.empty() ? "none listed" : out;
}

// The input file's identity (size, modification time and SHA-256, or why not) and how the run
// was made, into `facts`, and the same for a person appended to `provenance`.
void file_provenance(const QcOptions& o, const std::string& sha256, const std::string& sha_error,
                     const std::string& started, InputFacts& facts,
                     std::vector<std::pair<std::string, std::string>>& provenance) {
  if (util::file_facts(o.scan.common.input, facts.size, facts.modified)) {
    facts.sha256 = sha256.empty() ? "not computed (" + sha_error + ")" : sha256;
    provenance.push_back({"size", std::to_string(facts.size) + " bytes"});
    provenance.push_back({"modified", facts.modified});
    provenance.push_back({"sha256", facts.sha256});
  } else {
    facts.size = -1;
    provenance.push_back({"file", "not a file (" + sha_error + ")"});
  }
  facts.run = started + " on " + util::host_name();
  facts.command = o.invocation.empty() ? "vhist qc (called from another program)" : o.invocation;
  facts.profile = o.profile.empty() ? "none (the defaults and the command line)" : absolute_input(o.profile);
  provenance.push_back({"run", facts.run});
  provenance.push_back({"command", facts.command});
  provenance.push_back({"profile", facts.profile});
}

std::vector<std::pair<std::string, std::string>> provenance(const SourceHeader& h, const media::MediaInfo& info,
                                                            const std::string& engine) {
  char size[96];
  std::snprintf(size, sizeof size, "%ux%u stored, %ux%u shown, %u-bit %s", h.width, h.height, h.display_width,
                h.display_height, h.bits, h.pixel_format.c_str());
  char rate[48];
  std::snprintf(rate, sizeof rate, "%.3f fps%s", h.frame_rate, h.constant_rate ? " (constant)" : "");
  return {{"input", absolute_input(h.input)},
          {"container", h.container},
          {"codec", h.codec + " (decoder " + h.decoder + ")"},
          {"picture", size},
          {"frame_rate", rate},
          {"colour", spoken_colour_summary(h.colour)},
          {"timecode", info.timecode.start.empty() ? "none (times from timestamps)" : info.timecode.start},
          {"streams", streams_text(info.streams)},
          {"vhist", std::string(kVersion) + " (" + std::string(kBuild) + "), engine " + engine}};
}

}  // namespace

namespace {

// The checks that could not be made on this input, said in the summary.
std::vector<std::string> notes_for(const qc::Timeline& t, const SourceHeader& h) {
  std::vector<std::string> notes;
  const bool planes = h.colour.matrix.applies();
  if (!planes) notes.push_back("R 103 luma and gamut: not checked, the input is stored as R'G'B' (no Y'CbCr matrix)");
  if (planes && h.colour.range.value == ColourRange::full) {
    notes.push_back("R 103 luma: not checked, the input is full range (R 103 sets limits on narrow-range signals)");
  }
  bool pq = false, hlg = false;
  for (const qc::QcFrame& q : t.frames()) pq = pq || q.pq, hlg = hlg || q.hlg;
  if (hlg) {
    notes.push_back("PQ light: not checked, the input is HLG (no static light metadata to check against); its "
                    "MaxCLL and FALL are measured for the curves, as shown on BT.2100's reference display "
                    "(1000 cd/m2, system gamma 1.2)");
  } else if (!pq) {
    notes.push_back("PQ light: not checked, the input is not PQ");
  }
  // What the light is not checked against, in the words of analyze's summary (light_limits.h).
  if (const std::string light = qc::light_limits_note(h.colour); pq && !hlg && !light.empty()) {
    notes.push_back("PQ light: " + light);
  }
  return notes;
}

// The time of frame number `frame` in the run (its pts), or 0 when it is not there.
double pts_of(const QcRun& run, std::int64_t frame) {
  const auto& frames = run.timeline->frames();
  const auto at = std::lower_bound(frames.begin(), frames.end(), frame,
                                   [](const qc::QcFrame& q, std::int64_t f) { return q.frame < f; });
  return at != frames.end() && at->frame == frame ? at->pts : 0.0;
}

// The timecode of a frame: the stream's own, else from the time at the nominal rate.
std::function<std::string(std::int64_t, double)> timecodes(const media::MediaInfo& info) {
  return [tc = info.timecode, rate = info.frame_rate](std::int64_t frame, double pts) {
    std::string s = media::timecode_of_frame(tc, frame);
    return s.empty() ? qc::timecode_from_time(pts, rate) : s;
  };
}

class QcFinish {
 public:
  QcFinish(const QcOptions& o, const QcObserver& observer) : o_(o), observer_(observer) {}

  int operator()(const Analyzer& analyzer, media::MediaSource& source, int status) {
    if (analyzer.frames_written() == 0 || (status != 0 && status != 2)) return status;  // nothing to judge
    const media::MediaInfo& info = source.info();
    const qc::Timeline& timeline = observer_.timeline();
    qc::RunFacts facts;
    facts.frame_rate = info.frame_rate;
    facts.colour = analyzer.source_header().colour;
    facts.range_warning = analyzer.warnings().range;
    facts.timecode = timecodes(info);
    QcRun run;
    run.header = analyzer.source_header();
    run.provenance = provenance(run.header, info, analyzer.engine_used());
    run.facts.streams = streams_text(info.streams);
    std::string sha_error;
    const std::string sha256 = observer_.sha256(sha_error);
    file_provenance(o_, sha256, sha_error, observer_.started(), run.facts, run.provenance);
    run.timeline = &timeline;
    run.events = qc::find_events(timeline.frames(), o_.thresholds, facts);
    // A damaged input (status 2 with frames) is judged as far as it decodes, its damage an event.
    qc::DecodeDamage damage = decode_damage(source.report());
    damage.damaged = observer_.damaged();
    damage.last = observer_.last();
    damage.duration = info.duration;
    damage.frames = analyzer.frames_written();
    for (qc::Event& e : qc::decode_events(damage, o_.thresholds, facts)) run.events.push_back(std::move(e));
    run.thresholds = o_.thresholds;
    run.notes = notes_for(timeline, run.header);
    run.whole_input = analyzer.whole_input();
    run.partial = status == 2;
    for (const qc::Event& e : run.events) run.passed = run.passed && !e.fails;
    const int written = write_outputs(run, info);
    if (written != 0) return written;
    if (const int row = write_row(run, analyzer, info); row != 0) return row;
    if (status != 0) return status;
    report_verdict(run);
    return run.passed ? 0 : kFailedChecksStatus;
  }

 private:
  int write_outputs(const QcRun& run, const media::MediaInfo& info) const;
  int write_report(const QcRun& run) const;
  // --row: the file's summary row, written last (vhist batch takes it as the sign the file is done).
  int write_row(const QcRun& run, const Analyzer& analyzer, const media::MediaInfo& info) const;
  void report_verdict(const QcRun& run) const;

  const QcOptions& o_;
  const QcObserver& observer_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

int QcFinish::write_row(const QcRun& run, const Analyzer& analyzer, const media::MediaInfo& info) const {
  if (o_.row.empty()) return 0;
  RowFacts facts;
  facts.key = o_.row_key.empty() ? std::filesystem::path(o_.scan.common.input).filename().string() : o_.row_key;
  facts.duration = info.duration;
  facts.frames = analyzer.frames_written();
  facts.engine = analyzer.engine_used();
  facts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const std::string text = row_line(ok_row(run, analyzer.run_summary(), observer_.totals(), facts));

  if (const std::string error = util::write_file_atomically(o_.row, text); !error.empty()) {
    say("vhist qc: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

int QcFinish::write_outputs(const QcRun& run, const media::MediaInfo& info) const {
  const std::string text = events_text(run, *o_.format);
  if (o_.events == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      say("vhist qc: cannot write the events to standard output: %s\n", std::strerror(errno));
      return 1;
    }
  } else if (const std::string error = util::write_file_atomically(o_.events, text); !error.empty()) {
    say("vhist qc: %s\n", error.c_str());
    return 1;
  }
  if (!o_.timeline.empty()) {
    qc::TimelineFile file;
    if (auto identity = qc::identify_input(o_.scan.common.input)) file.input = *identity;
    file.frame_rate = info.frame_rate;
    file.duration = std::max(0.0, info.duration);
    file.complete = run.whole_input;
    file.timeline = *run.timeline;
    file.events = run.events;
    if (const std::string error = qc::save_timeline(o_.timeline, file); !error.empty()) {
      say("vhist qc: cannot write the timeline: %s\n", error.c_str());
      return 1;
    }
  }
  return write_report(run);
}

int QcFinish::write_report(const QcRun& run) const {
  if (o_.report.empty()) return 0;
  report::ReportInput in;
  in.title = std::filesystem::path(o_.scan.common.input).filename().string();
  in.provenance = run.provenance;
  in.timeline = run.timeline;
  in.frame_rate = run.header.frame_rate;
  in.events = run.events;
  in.thresholds = run.thresholds;
  in.passed = run.passed;
  in.notes = run.notes;
  // A thumbnail of each event's worst frame, read again from the input (the first ones only:
  // each is a seek and a decode).
  for (std::size_t k = 0; k < run.events.size(); ++k) {
    const qc::Event& e = run.events[k];
    std::string png, error;
    if (k < kMaxThumbnails) {
      png = thumbnail_png(o_.scan.common.input, o_.scan.common.stream, e.worst_frame, pts_of(run, e.worst_frame),
                          kThumbnailWidth, error);
    }
    in.thumbnails.push_back(std::move(png));
  }
  if (run.events.size() > kMaxThumbnails) {
    in.notes.push_back("thumbnails for the first " + std::to_string(kMaxThumbnails) + " events only");
  }
  try {
    const std::string html = report::html_report(in);
    if (const std::string error = util::write_file_atomically(o_.report, html); !error.empty()) {
      say("vhist qc: %s\n", error.c_str());
      return 1;
    }
  } catch (const std::exception& e) {
    say("vhist qc: cannot make the report: %s\n", e.what());
    return 1;
  }
  return 0;
}

void QcFinish::report_verdict(const QcRun& run) const {
  if (o_.scan.quiet) return;
  std::size_t failing = 0;
  for (const qc::Event& e : run.events) failing += e.fails ? 1 : 0;
  say("vhist qc: %s: %s: %zu frames, %zu events (%zu of failing checks)\n",
               util::quoted(o_.scan.common.input).c_str(), run.passed ? "passed" : "FAILED",
               run.timeline->frames().size(), run.events.size(), failing);
}

}  // namespace

namespace {

// run_qc's body, on a device of its own (`shared` null) or a batch's shared one.
int run_qc_on(const QcOptions& options, render::Context* shared, const ProgressReport& report) {
  // An output that is the input would destroy it: refused before anything is opened.
  for (const std::string* output : {&options.events, &options.report, &options.timeline, &options.row}) {
    if (output->empty()) continue;
    if (const std::string conflict = output_conflict(options.scan.common.input, *output); !conflict.empty()) {
      say("vhist qc: %s\n", conflict.c_str());
      return 2;
    }
  }
  QcObserver observer(options, report);
  QcFinish finish(options, observer);
  return run_analysis(options.scan, &observer, std::ref(finish), shared);
}

}  // namespace

int run_qc(const QcOptions& options) {
  // The viewer's background scan (--progress-fd): ends with the viewer, however it ends.
  if (options.progress_fd >= 0) ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  return run_qc_on(options, nullptr, {});
}

int run_qc_shared(const QcOptions& options, render::Context& shared, const ProgressReport& progress) {
  return run_qc_on(options, &shared, progress);
}

}  // namespace vhist::app
