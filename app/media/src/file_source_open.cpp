// Opening a file (or bytes in memory) for FfmpegSource: open_input() and its steps.
#include "concat_list.h"
#include "file_source.h"
#include "hw_decode.h"
#include "image_sequence.h"
#include "input_rules.h"

#include <unistd.h>

#include "vhist/util/files.h"
#include "vhist/util/scope_guard.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/dict.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
}

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

namespace vhist::media {
namespace {

std::string stream_summary(const AVFormatContext& fmt) {
  std::map<std::string, int> counts;
  for (unsigned i = 0; i < fmt.nb_streams; ++i) {
    const char* type = av_get_media_type_string(fmt.streams[i]->codecpar->codec_type);
    ++counts[type ? type : "unknown"];
  }
  if (counts.empty()) return "none";
  std::string s;
  for (const auto& [type, n] : counts) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + type;
  return s;
}

// The input in memory refers to another file or URL (a playlist, a data reference): refused.
int refuse_io_open(AVFormatContext*, AVIOContext**, const char* url, int, AVDictionary**) {
  if (LogSink* sink = current_log_sink()) {
    const std::lock_guard lock(sink->mutex);
    if (sink->not_allowed.empty()) {
      sink->not_allowed = "opening '" + std::string(url ? url : "") + "' refused: not on whitelist";
    }
  }
  return AVERROR(EPERM);
}

// A stream's "DURATION" tag ("00:00:01.000000000", as Matroska muxers write it) in seconds; -1
// when there is none.
double duration_tag(const AVDictionary* metadata) {
  const AVDictionaryEntry* e = av_dict_get(metadata, "DURATION", nullptr, 0);
  if (!e || !e->value) return -1;
  unsigned h = 0, m = 0;
  double s = 0;
  char extra = 0;
  if (std::sscanf(e->value, "%u:%u:%lf%c", &h, &m, &s, &extra) != 3 || m >= 60 || s < 0 || s >= 60) return -1;
  return h * 3600.0 + m * 60.0 + s;
}

// Why no decoder was found for `par`, as a MediaError.
[[noreturn]] void throw_no_decoder(const std::string& q, const AVCodecParameters& par) {
  std::string name = avcodec_get_name(par.codec_id);
  if (par.codec_id == AV_CODEC_ID_NONE && !par.codec_tag) {
    throw MediaError(q + ": the video stream's codec is not identified (the file's header is incomplete or "
                     "damaged: truncated?)");
  }
  if (par.codec_id == AV_CODEC_ID_NONE) {
    char tag[AV_FOURCC_MAX_STRING_SIZE] = {};
    av_fourcc_make_string(tag, par.codec_tag);
    name = par.codec_tag ? std::string("'") + tag + "'" : "(unknown)";
  }
  throw MediaError(q + ": video codec " + name + " is not supported by this FFmpeg build");
}

}  // namespace

int MemoryInput::read(void* opaque, std::uint8_t* buf, int size) {
  auto* m = static_cast<MemoryInput*>(opaque);
  if (size <= 0) return 0;
  const std::size_t left = m->bytes.size() - std::min(m->pos, m->bytes.size());
  if (left == 0) return AVERROR_EOF;
  const std::size_t n = std::min(left, static_cast<std::size_t>(size));
  std::memcpy(buf, m->bytes.data() + m->pos, n);
  m->pos += n;
  return static_cast<int>(n);
}

std::int64_t MemoryInput::seek(void* opaque, std::int64_t offset, int whence) {
  auto* m = static_cast<MemoryInput*>(opaque);
  const auto size = static_cast<std::int64_t>(m->bytes.size());
  if (whence & AVSEEK_SIZE) return size;
  std::int64_t base = 0;
  switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = static_cast<std::int64_t>(m->pos); break;
    case SEEK_END: base = size; break;
    default: return AVERROR(EINVAL);
  }
  if (offset < -base || offset > size - base) return AVERROR(EINVAL);  // outside the bytes
  m->pos = static_cast<std::size_t>(base + offset);
  return base + offset;
}

void AvioFree::operator()(AVIOContext* c) const {
  av_freep(&c->buffer);
  avio_context_free(&c);
}

namespace {
std::atomic<bool> g_interrupt_all{false};
static_assert(std::atomic<bool>::is_always_lock_free);
}  // namespace

void interrupt_all_inputs() noexcept { g_interrupt_all.store(true); }

int FfmpegSource::interrupt(void* opaque) {
  return static_cast<std::atomic<bool>*>(opaque)->load() || g_interrupt_all.load() ? 1 : 0;
}

// Every other file or URL the input asks to open (a playlist's entries, a data reference) goes
// through here: refused for input from memory; counted while opening, so that a playlist that
// lists itself (HLS keeps adding variants for ever) ends with an error instead of a hang.
int FfmpegSource::nested_open(AVFormatContext* s, AVIOContext** pb, const char* url, int flags,
                              AVDictionary** options) {
  auto* self = static_cast<FfmpegSource*>(s->opaque);
  if (!self || self->memory_ || !self->default_io_open_) return refuse_io_open(s, pb, url, flags, options);
  if (self->opening_ && ++self->nested_opens_ > kMaxNestedOpens) {
    self->too_many_opens_ = true;
    return AVERROR(ELOOP);
  }
  if (std::string problem = self->nested_problem(url); !problem.empty()) {
    {
      const std::lock_guard lock(self->sink_.mutex);
      if (self->sink_.outside.empty()) self->sink_.outside = std::move(problem);
    }
    self->refused_open_ = true;
    return AVERROR(EPERM);
  }
  return self->default_io_open_(s, pb, url, flags, options);
}

// Standard input may open nothing but itself; a file on disk only files below its own folder
// (input_rules.h); an image sequence the images its pattern (typed by the user) names.
std::string FfmpegSource::nested_problem(const char* url) const {
  const std::string u = url ? url : "";
  if (reads_stdin()) return u == "pipe:0" ? std::string() : quoted(u) + " is named by standard input";
  return confined_ ? confined_problem(u, roots_) : std::string();
}

void FfmpegSource::open_input() {
  check_input();
  const ScopedSink scoped(&sink_);
  opening_ = true;
  const util::ScopeGuard opened([this] { opening_ = false; });
  confined_ = !memory_ && !reads_stdin() && sequence_kind(info_.path) == SequenceKind::none;
  if (confined_) roots_ = input_roots(info_.path);
  if (confined_) check_concat_list();
  open_container(new_format_context());
  read_stream_info();
  AVStream* st = choose_video_stream();
  open_decoder(*st);
  read_timing(*st);
  fill_info(*st);
}

// The checks libavformat would answer vaguely: what the path is, before opening it.
void FfmpegSource::check_input() const {
  if (memory_) {
    if (memory_->bytes.empty()) throw MediaError(quoted(info_.path) + " is empty (0 bytes)");
    return;
  }
  if (reads_stdin()) {
    if (isatty(STDIN_FILENO)) {
      throw MediaError("'-' reads the video from standard input, which is a terminal: pipe a file in "
                       "(cat clip.mp4 | vhist analyze -) or give its path");
    }
    return;
  }
  if (const SequenceKind kind = sequence_kind(info_.path); kind != SequenceKind::none) {
    if (std::string problem = check_sequence(info_.path, kind); !problem.empty()) throw MediaError(problem);
    return;
  }
  if (std::string problem = util::check_local_file(info_.path, "a video file"); !problem.empty()) {
    throw MediaError(problem);
  }
}

// A concat list is read by vhist first: every line checked (concat_list.h), its bytes kept for
// FFmpeg to parse, so what FFmpeg reads is what was checked.
void FfmpegSource::check_concat_list() {
  ConcatCheck check = media::check_concat_list(info_.path, roots_);
  if (!check.problem.empty()) throw MediaError(quoted(info_.path) + " " + check.problem);
  if (!check.is_list) return;
  concat_list_ = std::make_unique<MemoryInput>();
  concat_list_->bytes = std::move(check.bytes);
}

// A format context that can be interrupted, reads memory_ (or concat_list_) when there is
// one, and sends every nested open through nested_open().
AVFormatContext* FfmpegSource::new_format_context() {
  AVFormatContext* raw = avformat_alloc_context();
  if (!raw) throw std::bad_alloc();
  raw->interrupt_callback.callback = &FfmpegSource::interrupt;
  raw->interrupt_callback.opaque = &abort_io_;
  if (MemoryInput* in = memory_ ? memory_.get() : concat_list_.get()) {
    constexpr int kBufferBytes = 1 << 16;
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferBytes));
    if (buffer) {
      io_.reset(avio_alloc_context(buffer, kBufferBytes, 0, in, &MemoryInput::read, nullptr,
                                   &MemoryInput::seek));
    }
    if (!io_) {
      av_free(buffer);
      avformat_free_context(raw);
      throw std::bad_alloc();
    }
    raw->pb = io_.get();
    raw->flags |= AVFMT_FLAG_CUSTOM_IO;
  }
  default_io_open_ = raw->io_open;
  raw->opaque = this;
  raw->io_open = &FfmpegSource::nested_open;
  return raw;
}

// avformat_open_input through the `file` protocol only (or memory_, or standard input for
// "-": the `pipe` protocol, not seekable); takes `raw` over. A checked concat list is read from
// concat_list_ by the concat demuxer in its safe mode, under the URL its entries are resolved
// against (concat_list_url); its entries' contexts inherit both white lists.
void FfmpegSource::open_container(AVFormatContext* raw) {
  AVDictionary* dict = nullptr;
  av_dict_set(&dict, "protocol_whitelist", reads_stdin() ? "pipe" : "file", 0);
  av_dict_set(&dict, "format_whitelist", concat_list_ ? concat_list_formats().c_str() : allowed_formats().c_str(), 0);
  std::string url = memory_ ? std::string() : reads_stdin() ? "pipe:0" : "file:" + info_.path;
  const AVInputFormat* forced = nullptr;
  if (concat_list_) {
    forced = av_find_input_format("concat");
    av_dict_set(&dict, "safe", "1", 0);
    url = concat_list_url(info_.path);
  }
  if (const SequenceKind kind = memory_ ? SequenceKind::none : sequence_kind(info_.path); kind != SequenceKind::none) {
    // image2 expands the pattern itself and opens each image (through the file protocol).
    forced = av_find_input_format("image2");
    av_dict_set(&dict, "pattern_type", kind == SequenceKind::glob ? "glob" : "sequence", 0);
    url = info_.path;
  }
  const int ret = avformat_open_input(&raw, url.c_str(), forced, &dict);
  const DictPtr leftover(dict);
  if (ret < 0) throw_open_failure(ret);  // avformat_open_input has freed the context
  format_.reset(raw);
  if (concat_list_) {
    // The entries opened from now on (the second one on, or one a seek reopens) inherit this:
    // no concat list among them, even one swapped in after check_concat_list. Best effort: the
    // check stands without it.
    av_opt_set(format_.get(), "format_whitelist", concat_entry_formats().c_str(), 0);
  }
  info_.container = format_->iformat && format_->iformat->name ? format_->iformat->name : "";
}

void FfmpegSource::throw_open_failure(int ret) const {
  const std::string q = reads_stdin() ? "standard input" : quoted(info_.path);
  throw_refused_input();
  // The input itself was readable (check_input): these come from a file it refers to (a concat
  // list's "Unsafe file name", an unreadable segment).
  if ((ret == AVERROR(ENOENT) || ret == AVERROR(EACCES) || ret == AVERROR(EPERM)) && !first_log().empty()) {
    throw MediaError(q + " refers to a file that cannot or may not be opened (" + first_log() +
                     "); vhist opens playlist entries only below the playlist's folder");
  }
  if (ret == AVERROR(EMFILE)) {  // a concat list that lists itself: one open file per level
    throw MediaError(q + " opens too many files (" + first_log() + "; a playlist that refers to itself?)");
  }
  if (ret == AVERROR(ENOENT)) throw MediaError("cannot open " + q + ": no such file");
  if (ret == AVERROR(EACCES) || ret == AVERROR(EPERM)) throw MediaError("cannot open " + q + ": permission denied");
  if (ret == AVERROR(EISDIR)) throw MediaError(q + " is a directory, not a video file");
  std::string detail = av_error(ret);
  if (const std::string log = first_log(); !log.empty()) detail += "; " + log;
  throw MediaError(q + " is not a video file FFmpeg recognises (" + detail + ")");
}

void FfmpegSource::read_stream_info() {
  const int ret = avformat_find_stream_info(format_.get(), nullptr);
  throw_refused_input();
  if (ret < 0) {
    std::string detail = av_error(ret);
    if (const std::string log = first_log(); !log.empty()) detail += ": " + log;
    throw MediaError(quoted(info_.path) + ": cannot read the stream information (" + detail + ")");
  }
}

// The best video stream; every other stream is discarded.
namespace {

// "0 (h264 1920x1080), 2 (mjpeg 64x64, cover art)": the file's video streams by index.
std::vector<std::string> video_streams(const AVFormatContext& fmt) {
  std::vector<std::string> out;
  for (unsigned i = 0; i < fmt.nb_streams; ++i) {
    const AVStream& st = *fmt.streams[i];
    if (st.codecpar->codec_type != AVMEDIA_TYPE_VIDEO) continue;
    std::string d = std::to_string(i) + " (" + avcodec_get_name(st.codecpar->codec_id) + " " +
                    std::to_string(st.codecpar->width) + "x" + std::to_string(st.codecpar->height);
    if (st.disposition & AV_DISPOSITION_ATTACHED_PIC) d += ", cover art";
    out.push_back(d + ")");
  }
  return out;
}

// Every stream, as the container declares it.
std::vector<StreamFact> stream_facts(const AVFormatContext& fmt) {
  std::vector<StreamFact> out;
  for (unsigned i = 0; i < fmt.nb_streams; ++i) {
    const AVStream& st = *fmt.streams[i];
    const AVCodecParameters& par = *st.codecpar;
    StreamFact f;
    f.index = static_cast<int>(i);
    const char* type = av_get_media_type_string(par.codec_type);
    f.type = type != nullptr ? type : "unknown";
    f.codec = avcodec_get_name(par.codec_id);
    if (par.codec_type == AVMEDIA_TYPE_VIDEO) f.detail = std::to_string(par.width) + "x" + std::to_string(par.height);
    if (par.codec_type == AVMEDIA_TYPE_AUDIO) {
      f.detail = std::to_string(par.sample_rate) + " Hz, " + std::to_string(par.ch_layout.nb_channels) + " channels";
    }
    if (st.duration != AV_NOPTS_VALUE && st.time_base.den > 0) f.duration = static_cast<double>(st.duration) * av_q2d(st.time_base);
    if (const AVDictionaryEntry* lang = av_dict_get(st.metadata, "language", nullptr, 0)) f.language = lang->value;
    out.push_back(std::move(f));
  }
  return out;
}

// Whether frame numbers follow from time (frame = time x rate) after a seek: the rate is known
// constant. Only a demuxer that times every frame is trusted: MP4/MOV's sample table gives
// the base rate from its single time-to-sample entry and the average from the frame count and
// duration, so a variable-rate MP4 has a base rate above its average; an image sequence is timed
// by its frame rate. Matroska, WebM, MPEG-TS and raw streams only declare a rate (Matroska's
// DefaultDuration, the codec's timing) that a variable-rate file need not keep: for them the
// numbers after a seek are estimates. The rate must also be broadcast-style (a whole number or a
// multiple of 1000/1001).
bool is_constant_rate(const AVStream& st, const AVInputFormat* format) {
  const std::string name = format && format->name ? format->name : "";
  if (name.rfind("mov,", 0) != 0 && name != "image2") return false;
  const AVRational r = st.r_frame_rate, avg = st.avg_frame_rate;
  if (r.num <= 0 || r.den <= 0 || avg.num <= 0 || avg.den <= 0 || av_cmp_q(r, avg) != 0) return false;
  const double v = av_q2d(r);
  const double ntsc = v * 1001.0 / 1000.0;
  return std::abs(v - std::round(v)) < 1e-6 || std::abs(ntsc - std::round(ntsc)) < 1e-6;
}

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + item;
  return s;
}

}  // namespace

// The stream asked for (--stream: its index in the file, as ffprobe numbers them), else the
// best video stream; every other stream is discarded.
AVStream* FfmpegSource::choose_video_stream() {
  info_.video_streams = video_streams(*format_);
  info_.streams = stream_facts(*format_);
  if (options_.stream >= 0) {
    const auto n = static_cast<int>(format_->nb_streams);
    if (options_.stream >= n || format_->streams[options_.stream]->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) {
      const char* type = options_.stream < n ? av_get_media_type_string(format_->streams[options_.stream]->codecpar->codec_type)
                                             : nullptr;
      const std::string what = options_.stream < n ? "stream " + std::to_string(options_.stream) + " of " + quoted(info_.path) +
                                                         " is " + (type ? type : "data")
                                                   : quoted(info_.path) + " has only " + std::to_string(n) + " streams";
      throw MediaError("--stream " + std::to_string(options_.stream) + ": " + what + "; its video streams: " +
                       (info_.video_streams.empty() ? "none" : joined(info_.video_streams)));
    }
    stream_ = options_.stream;
  } else {
    stream_ = av_find_best_stream(format_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  }
  if (stream_ < 0) {
    throw MediaError(quoted(info_.path) + " has no video stream (streams: " + stream_summary(*format_) + ")");
  }
  for (unsigned i = 0; i < format_->nb_streams; ++i) {
    if (static_cast<int>(i) != stream_) format_->streams[i]->discard = AVDISCARD_ALL;
  }
  return format_->streams[stream_];
}

void FfmpegSource::open_decoder(const AVStream& st) {
  const std::string q = quoted(info_.path);
  const AVCodecParameters* par = st.codecpar;
  const AVCodec* decoder = par->codec_id == AV_CODEC_ID_NONE ? nullptr : avcodec_find_decoder(par->codec_id);
  // On NVDEC, AV1 goes to FFmpeg's own av1 (hwaccel only) where the GPU takes it, not libdav1d.
  std::string hw_refused;  // why NVDEC does not take a stream that only such a decoder would decode
  if (decoder && options_.cuda_context) decoder = &decoder_for_nvdec(*decoder, *par, options_.cuda_context, hw_refused);
  // FFmpeg's own VP9 decoder drops the alpha that WebM carries beside the picture (the track's
  // alpha_mode); libvpx decodes it, so VP9 with alpha goes to libvpx where FFmpeg has it.
  const AVDictionaryEntry* alpha_mode = av_dict_get(st.metadata, "alpha_mode", nullptr, 0);
  if (par->codec_id == AV_CODEC_ID_VP9 && alpha_mode && std::string(alpha_mode->value) == "1") {
    if (const AVCodec* libvpx = avcodec_find_decoder_by_name("libvpx-vp9")) decoder = libvpx;
  }
  if (!decoder) throw_no_decoder(q, *par);
  info_.decoder = decoder->name;
  codec_.reset(avcodec_alloc_context3(decoder));
  if (!codec_) throw std::bad_alloc();
  int ret = avcodec_parameters_to_context(codec_.get(), par);
  if (ret < 0) {
    throw MediaError(q + ": cannot set up the " + std::string(decoder->name) + " decoder (" + av_error(ret) + ")");
  }
  codec_->pkt_timebase = st.time_base;
  codec_->thread_count = std::max(0, options_.decoder_threads);
  codec_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
  // Damaged frames come out (flagged) instead of being dropped silently; checksums are checked
  // where the codec has them.
  codec_->flags |= AV_CODEC_FLAG_OUTPUT_CORRUPT;
  codec_->err_recognition |= AV_EF_CRCCHECK;
  codec_->opaque = &sink_;
  if (options_.max_pixels > 0) codec_->max_pixels = options_.max_pixels;
  if (!hw_refused.empty()) {
    const std::lock_guard lock(sink_.mutex);
    sink_.hw_fallback = std::move(hw_refused);
  } else if (options_.cuda_context) {
    if (std::string why = attach_cuda(*codec_, options_.cuda_context, options_.cuda_stream); why.empty()) {
      info_.hwaccel = "nvdec";
    } else {
      const std::lock_guard lock(sink_.mutex);
      sink_.hw_fallback = std::move(why);
    }
  }
  ret = avcodec_open2(codec_.get(), decoder, nullptr);
  if (ret < 0) {
    std::string detail = av_error(ret);
    if (const std::string log = first_log(); !log.empty()) detail += ": " + log;
    throw MediaError(q + ": cannot open the " + std::string(decoder->name) + " decoder (" + detail + ")");
  }
  info_.decoder_threads = codec_->thread_count;
  info_.thread_type = codec_->active_thread_type & FF_THREAD_FRAME   ? "frame"
                      : codec_->active_thread_type & FF_THREAD_SLICE ? "slice"
                                                                     : "none";
}

// The stream's SMPTE timecode: the video stream's "timecode" tag (QuickTime/MP4 tmcd tracks
// are read into it), else a data stream's (a tmcd track FFmpeg lists as its own stream), else
// the container's (MXF, Matroska); at the stream's frame rate.
static StreamTimecode stream_timecode(const AVFormatContext& format, const AVStream& st) {
  const AVDictionaryEntry* tag = av_dict_get(st.metadata, "timecode", nullptr, 0);
  for (unsigned k = 0; tag == nullptr && k < format.nb_streams; ++k) {
    if (format.streams[k]->codecpar->codec_type == AVMEDIA_TYPE_DATA) {
      tag = av_dict_get(format.streams[k]->metadata, "timecode", nullptr, 0);
    }
  }
  if (tag == nullptr) tag = av_dict_get(format.metadata, "timecode", nullptr, 0);
  StreamTimecode tc;
  AVRational rate = st.r_frame_rate.num > 0 ? st.r_frame_rate : st.avg_frame_rate;
  if (tag == nullptr || tag->value == nullptr || rate.num <= 0 || rate.den <= 0) return tc;
  tc.start = tag->value;
  tc.rate_num = static_cast<std::uint32_t>(rate.num);
  tc.rate_den = static_cast<std::uint32_t>(rate.den);
  return tc;
}

// Time base, start, frame rate and what the container promises (frames, duration).
void FfmpegSource::read_timing(AVStream& st) {
  time_base_ = st.time_base;
  start_ts_ = st.start_time != AV_NOPTS_VALUE ? st.start_time : 0;
  AVRational rate = st.avg_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) rate = av_guess_frame_rate(format_.get(), &st, nullptr);
  frame_rate_ = rate.num > 0 && rate.den > 0 ? q2d(rate) : 0;
  constant_rate_ = is_constant_rate(st, format_->iformat);
  promised_frames_ = st.nb_frames > 0 ? st.nb_frames : -1;
  if (st.disposition & AV_DISPOSITION_ATTACHED_PIC) {
    // Cover art (an MP3's or M4A's picture): one frame, whatever the audio's duration says.
    frame_rate_ = 0;
    promised_frames_ = 1;
    return;
  }
  if (format_->duration_estimation_method == AVFMT_DURATION_FROM_BITRATE) return;
  if (st.duration != AV_NOPTS_VALUE && st.duration > 0) {
    promised_duration_ = static_cast<double>(st.duration) * q2d(time_base_);
  } else if (const double tagged = duration_tag(st.metadata); tagged > 0) {
    promised_duration_ = tagged;  // Matroska: the track's DURATION tag
  } else if (format_->nb_streams == 1 && format_->duration != AV_NOPTS_VALUE && format_->duration > 0) {
    promised_duration_ = static_cast<double>(format_->duration) / AV_TIME_BASE;
  }
  // Matroska's durations are end times: from a stream that starts late (-output_ts_offset), the
  // frames' times (counted from the start) cover only the part after the start.
  const double start_seconds = static_cast<double>(start_ts_) * q2d(time_base_);
  if (promised_duration_ > 0 && start_seconds > 1.0 && st.duration == AV_NOPTS_VALUE) {
    promised_duration_ = std::max(0.0, promised_duration_ - start_seconds);
  }
}

void FfmpegSource::fill_info(const AVStream& st) {
  const AVCodecParameters* par = st.codecpar;
  info_.codec = avcodec_get_name(par->codec_id);
  info_.width = static_cast<std::uint32_t>(std::max(0, par->width));
  info_.height = static_cast<std::uint32_t>(std::max(0, par->height));
  const char* pix = av_get_pix_fmt_name(static_cast<AVPixelFormat>(par->format));
  info_.pixel_format = pix ? pix : "";
  info_.frame_rate = frame_rate_;
  if (st.duration != AV_NOPTS_VALUE && st.duration > 0) {
    info_.duration = static_cast<double>(st.duration) * q2d(time_base_);
  } else if (format_->duration != AV_NOPTS_VALUE && format_->duration > 0) {
    info_.duration = static_cast<double>(format_->duration) / AV_TIME_BASE;
  }
  info_.frame_count = promised_frames_;
  info_.video_stream = stream_;
  info_.attached_picture = (st.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0;
  info_.constant_rate = constant_rate_;
  if (info_.attached_picture) info_.duration = -1;  // the audio's, not the picture's
  const StreamGeometry geometry = read_stream_geometry(st);
  info_.rotation = geometry.rotation.degrees;
  read_sample_aspect(geometry.sar, info_.sar_num, info_.sar_den);
  geometry_.set_stream(geometry, quoted(info_.path));
  info_.timecode = stream_timecode(*format_, st);
}

std::string FfmpegSource::refusal() const {
  const std::lock_guard lock(sink_.mutex);
  if (!sink_.refused_format.empty()) {
    const std::string& f = sink_.refused_format;
    return "is read by FFmpeg's " + f + " demuxer, which vhist does not use: it " +
           (f == "concat" ? "opens the files a list names past vhist's checks unless vhist has read the list "
                            "itself, which it does only for a regular file given by its path (not standard input, "
                            "a FIFO or a list inside another list)"
                          : "opens other files, the network or runs code; convert it with ffmpeg first");
  }
  if (!sink_.outside.empty()) {
    return "names a file vhist may not open: " + sink_.outside +
           ". A playlist may name only files below its own folder (after following links and '..'): move or "
           "copy the files there";
  }
  return {};
}

void FfmpegSource::throw_refused_input() const {
  const std::string q = quoted(info_.path);
  if (std::string why = refusal(); !why.empty()) throw MediaError(q + " " + why);
  {
    const std::lock_guard lock(sink_.mutex);
    if (!sink_.not_allowed.empty()) {
      throw MediaError(q + " refers to input through a network or other protocol that is not allowed (" +
                       sink_.not_allowed + "); vhist reads local files only");
    }
  }
  if (too_many_opens_) {
    throw MediaError(q + " asks to open more than " + std::to_string(kMaxNestedOpens) +
                     " other files while being opened (a playlist that refers to itself?)");
  }
}

std::string FfmpegSource::first_log() const {
  const std::lock_guard lock(sink_.mutex);
  return sink_.first_error;
}

}  // namespace vhist::media
