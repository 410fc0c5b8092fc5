#include "ffmpeg_log.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
}

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <set>

namespace vhist::media {
namespace {

// The sinks alive now: a context's opaque is used only when it is one of them.
std::mutex g_sinks_mutex;
std::set<const LogSink*>& live_sinks() {
  static std::set<const LogSink*> sinks;
  return sinks;
}

thread_local LogSink* t_sink = nullptr;

// The sink a line from `avcl` belongs to; `registry` holds the registry's lock while a sink found
// through a context's opaque is used (it could be destroyed otherwise).
LogSink* sink_for(void* avcl, const AVClass* cls, std::unique_lock<std::mutex>& registry) {
  if (t_sink) return t_sink;
  if (!cls || std::strcmp(cls->class_name, "AVCodecContext") != 0) return nullptr;
  // The decoder's own threads: their context copies keep the main context's opaque.
  auto* candidate = static_cast<LogSink*>(static_cast<AVCodecContext*>(avcl)->opaque);
  registry = std::unique_lock(g_sinks_mutex);
  return candidate && live_sinks().count(candidate) ? candidate : nullptr;
}

// One log line as text without trailing blanks, prefixed with the item's name ("h264: ...").
std::string format_line(void* avcl, const AVClass* cls, int level, const char* fmt, va_list args) {
  char line[512];
  int print_prefix = 0;
  va_list copy;
  va_copy(copy, args);
  av_log_format_line2(avcl, level, fmt, copy, line, sizeof line, &print_prefix);
  va_end(copy);
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return text;
  if (cls && cls->item_name) {
    const char* item = cls->item_name(avcl);
    if (item && *item && std::strcmp(item, "NULL") != 0) text = std::string(item) + ": " + text;
  }
  return text;
}

void log_callback(void* avcl, int level, const char* fmt, va_list args) {
  if (level > AV_LOG_ERROR) return;
  const AVClass* cls = avcl ? *static_cast<const AVClass* const*>(avcl) : nullptr;
  std::unique_lock<std::mutex> registry;
  LogSink* sink = sink_for(avcl, cls, registry);
  if (!sink) return;
  std::string text = format_line(avcl, cls, level, fmt, args);
  if (text.empty()) return;
  // The demuxer probed is not one vhist allows (input_rules.h): its name, not the whole list.
  std::string refused;
  if (cls && std::strcmp(cls->class_name, "AVFormatContext") == 0 &&
      text.find("Format not on whitelist") != std::string::npos) {
    const AVInputFormat* f = static_cast<AVFormatContext*>(avcl)->iformat;
    refused = f && f->name ? f->name : "?";
    text = "format " + refused + " not allowed";
  }
  const std::lock_guard lock(sink->mutex);
  if (!refused.empty() && sink->refused_format.empty()) sink->refused_format = refused;
  ++sink->errors;
  if (sink->first_error.empty()) sink->first_error = text;
  sink->last_error = text;
  if (refused.empty() && sink->not_allowed.empty() && text.find("not on whitelist") != std::string::npos) sink->not_allowed = text;
}

}  // namespace

void install_ffmpeg_logging() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* keep = std::getenv("VHIST_FFMPEG_LOG");
    if (keep && *keep && std::strcmp(keep, "0") != 0) return;
    // The level matters only to FFmpeg's default callback, which is replaced; set it anyway so
    // that code asking av_log_get_level() skips formatting what nobody reads.
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(log_callback);
  });
}

LogSink::LogSink() {
  const std::lock_guard lock(g_sinks_mutex);
  live_sinks().insert(this);
}

LogSink::~LogSink() {
  const std::lock_guard lock(g_sinks_mutex);
  live_sinks().erase(this);
}

ScopedSink::ScopedSink(LogSink* sink) : previous_(t_sink) { t_sink = sink; }
ScopedSink::~ScopedSink() { t_sink = previous_; }

LogSink* current_log_sink() { return t_sink; }

}  // namespace vhist::media
