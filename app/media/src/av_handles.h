// Owners for FFmpeg objects and the small helpers every file of app/media uses (internal to
// app/media: it includes libav* headers).
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
}

#include "vhist/util/files.h"

#include <memory>
#include <string>

namespace vhist::media {

// FFmpeg's text for an error code ("Invalid data found when processing input").
inline std::string av_error(int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  if (av_strerror(err, buf, sizeof buf) < 0) return "error " + std::to_string(err);
  return buf;
}

// A path or name in single quotes, as the messages show them.
using util::quoted;

struct FormatClose {
  void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct CodecFree {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct DictFree {
  void operator()(AVDictionary* d) const { av_dict_free(&d); }
};
using FormatPtr = std::unique_ptr<AVFormatContext, FormatClose>;
using CodecPtr = std::unique_ptr<AVCodecContext, CodecFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using DictPtr = std::unique_ptr<AVDictionary, DictFree>;

}  // namespace vhist::media
