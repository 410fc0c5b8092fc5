#include "colour_tags.h"

#include "vhist/media/colour_codes.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
}

#include <cstring>

namespace vhist::media {

namespace {

// FFmpeg copies some codes from the bitstream unchecked (mpeg2video: matrix 255): anything
// outside its enum is unspecified. Read through the field's bytes: loading such a value as the
// enum type is undefined behaviour (UBSan reports it).
template <typename E>
E checked(const E* field, int count, E unspecified) {
  static_assert(sizeof(E) == sizeof(int));
  int raw = 0;
  std::memcpy(&raw, field, sizeof raw);
  return raw >= 0 && raw < count ? static_cast<E>(raw) : unspecified;
}

MasteringDisplay mastering_of(const AVMasteringDisplayMetadata& m) {
  MasteringDisplay d;
  for (int c = 0; c < 3; ++c) {
    d.primaries[static_cast<std::size_t>(c)] = {av_q2d(m.display_primaries[c][0]), av_q2d(m.display_primaries[c][1])};
  }
  d.white = {av_q2d(m.white_point[0]), av_q2d(m.white_point[1])};
  d.min_luminance = av_q2d(m.min_luminance);
  d.max_luminance = av_q2d(m.max_luminance);
  return d;
}

void read_side_data(const AVFrame& frame, const AVStream* stream, ColourTags& t) {
  if (const AVFrameSideData* sd = av_frame_get_side_data(&frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)) {
    const auto* m = reinterpret_cast<const AVMasteringDisplayMetadata*>(sd->data);
    if (m->has_primaries || m->has_luminance) t.mastering = mastering_of(*m);
  } else if (stream) {
    if (const auto* m = reinterpret_cast<const AVMasteringDisplayMetadata*>(
            av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nullptr))) {
      if (m->has_primaries || m->has_luminance) t.mastering = mastering_of(*m);
    }
  }
  const AVContentLightMetadata* cll = nullptr;
  if (const AVFrameSideData* sd = av_frame_get_side_data(&frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)) {
    cll = reinterpret_cast<const AVContentLightMetadata*>(sd->data);
  } else if (stream) {
    cll = reinterpret_cast<const AVContentLightMetadata*>(
        av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nullptr));
  }
  if (cll) t.content_light = ContentLight{cll->MaxCLL, cll->MaxFALL};
}

using Source = ColourSource;

ColourTag<ColourMatrix> matrix_tag(const ColourTags& t, const VideoFormat& f) {
  if (f.model != ColourModel::yuv) return {ColourMatrix::bt709, Source::not_applicable, {}};
  const bool known = t.space == AVCOL_SPC_BT709 || t.space == AVCOL_SPC_SMPTE240M || t.space == AVCOL_SPC_BT470BG ||
                     t.space == AVCOL_SPC_SMPTE170M || t.space == AVCOL_SPC_FCC || t.space == AVCOL_SPC_BT2020_NCL ||
                     t.space == AVCOL_SPC_BT2020_CL;
  const char* name = t.space != AVCOL_SPC_UNSPECIFIED ? av_color_space_name(t.space) : nullptr;
  return {f.matrix, known ? Source::stream : Source::assumed, name ? name : ""};
}

ColourTag<ColourRange> range_tag(const ColourTags& t, const VideoFormat& f) {
  const bool tagged = t.range == AVCOL_RANGE_MPEG || t.range == AVCOL_RANGE_JPEG;
  const std::string tag = tagged ? (t.range == AVCOL_RANGE_MPEG ? "tv" : "pc") : "";
  if (f.model == ColourModel::rgb) return {f.range, Source::format, tag};
  if (tagged) return {f.range, Source::stream, tag};
  // Untagged: yuvj* formats (and grey) are full range by definition, other Y'CbCr limited.
  const bool by_format = f.range == ColourRange::full;
  return {f.range, by_format ? Source::format : Source::assumed, {}};
}

ColourTag<ColourPrimaries> primaries_tag(const ColourTags& t, const VideoFormat& f) {
  if (t.primaries != AVCOL_PRI_UNSPECIFIED && t.primaries != AVCOL_PRI_RESERVED && t.primaries != AVCOL_PRI_RESERVED0) {
    const char* name = av_color_primaries_name(t.primaries);
    return {primaries_of(t.primaries), Source::stream, name ? name : ""};
  }
  // As players guess: BT.2020 with its matrix, BT.709 for HD, PAL's for 576 lines, NTSC's below.
  using P = ColourPrimaries;
  if (f.model == ColourModel::yuv && f.matrix == ColourMatrix::bt2020) return {P::bt2020, Source::assumed, {}};
  if (f.model != ColourModel::yuv || f.height >= 720) return {P::bt709, Source::assumed, {}};
  return {f.height >= 576 ? P::bt470bg : P::smpte170m, Source::assumed, {}};
}

ColourTag<ColourTransfer> transfer_tag(const ColourTags& t, const VideoFormat& f) {
  if (t.transfer != AVCOL_TRC_UNSPECIFIED && t.transfer != AVCOL_TRC_RESERVED && t.transfer != AVCOL_TRC_RESERVED0) {
    const char* name = av_color_transfer_name(t.transfer);
    return {transfer_of(t.transfer), Source::stream, name ? name : ""};
  }
  // Untagged video is SDR: BT.709's curve for Y'CbCr, sRGB's for R'G'B' and grey pictures.
  return {f.model == ColourModel::yuv ? ColourTransfer::bt709 : ColourTransfer::iec61966_2_1, Source::assumed, {}};
}

ColourTag<ChromaSiting> siting_tag(const ColourTags& t, const VideoFormat& f) {
  if (f.model != ColourModel::yuv || (f.chroma_shift_x == 0 && f.chroma_shift_y == 0)) {
    return {ChromaSiting::left, Source::not_applicable, {}};
  }
  // The converter always places chroma as MPEG-2/H.264 do ("left": co-sited with even luma
  // columns, between rows); a stream that says so is followed, another tag is shown beside.
  const char* name = t.chroma_location != AVCHROMA_LOC_UNSPECIFIED ? av_chroma_location_name(t.chroma_location) : nullptr;
  const bool followed = siting_of(t.chroma_location) == ChromaSiting::left;
  return {ChromaSiting::left, followed ? Source::stream : Source::assumed, name ? name : ""};
}

}  // namespace

ColourPrimaries primaries_of(AVColorPrimaries code) {
  using P = ColourPrimaries;
  switch (code) {
    case AVCOL_PRI_BT709: return P::bt709;
    case AVCOL_PRI_BT470M: return P::bt470m;
    case AVCOL_PRI_BT470BG: return P::bt470bg;
    case AVCOL_PRI_SMPTE170M: return P::smpte170m;
    case AVCOL_PRI_SMPTE240M: return P::smpte240m;
    case AVCOL_PRI_FILM: return P::film;
    case AVCOL_PRI_BT2020: return P::bt2020;
    case AVCOL_PRI_SMPTE428: return P::smpte428;
    case AVCOL_PRI_SMPTE431: return P::smpte431;
    case AVCOL_PRI_SMPTE432: return P::smpte432;
    case AVCOL_PRI_EBU3213: return P::ebu3213;
    default: return P::other;
  }
}

ColourTransfer transfer_of(AVColorTransferCharacteristic code) {
  using T = ColourTransfer;
  switch (code) {
    case AVCOL_TRC_BT709: return T::bt709;
    case AVCOL_TRC_GAMMA22: return T::gamma22;
    case AVCOL_TRC_GAMMA28: return T::gamma28;
    case AVCOL_TRC_SMPTE170M: return T::smpte170m;
    case AVCOL_TRC_SMPTE240M: return T::smpte240m;
    case AVCOL_TRC_LINEAR: return T::linear;
    case AVCOL_TRC_LOG: return T::log100;
    case AVCOL_TRC_LOG_SQRT: return T::log316;
    case AVCOL_TRC_IEC61966_2_4: return T::iec61966_2_4;
    case AVCOL_TRC_BT1361_ECG: return T::bt1361e;
    case AVCOL_TRC_IEC61966_2_1: return T::iec61966_2_1;
    case AVCOL_TRC_BT2020_10: return T::bt2020_10;
    case AVCOL_TRC_BT2020_12: return T::bt2020_12;
    case AVCOL_TRC_SMPTE2084: return T::smpte2084;
    case AVCOL_TRC_SMPTE428: return T::smpte428;
    case AVCOL_TRC_ARIB_STD_B67: return T::arib_std_b67;
    default: return T::other;
  }
}

std::optional<ChromaSiting> siting_of(AVChromaLocation code) {
  switch (code) {
    case AVCHROMA_LOC_LEFT: return ChromaSiting::left;
    case AVCHROMA_LOC_CENTER: return ChromaSiting::center;
    case AVCHROMA_LOC_TOPLEFT: return ChromaSiting::topleft;
    case AVCHROMA_LOC_TOP: return ChromaSiting::top;
    case AVCHROMA_LOC_BOTTOMLEFT: return ChromaSiting::bottomleft;
    case AVCHROMA_LOC_BOTTOM: return ChromaSiting::bottom;
    default: return std::nullopt;
  }
}

ColourTags read_colour_tags(const AVFrame& frame, const AVStream* stream) {
  ColourTags t;
  t.space = checked(&frame.colorspace, AVCOL_SPC_NB, AVCOL_SPC_UNSPECIFIED);
  t.range = checked(&frame.color_range, AVCOL_RANGE_NB, AVCOL_RANGE_UNSPECIFIED);
  t.primaries = checked(&frame.color_primaries, AVCOL_PRI_NB, AVCOL_PRI_UNSPECIFIED);
  t.transfer = checked(&frame.color_trc, AVCOL_TRC_NB, AVCOL_TRC_UNSPECIFIED);
  t.chroma_location = checked(&frame.chroma_location, AVCHROMA_LOC_NB, AVCHROMA_LOC_UNSPECIFIED);
  read_side_data(frame, stream, t);
  return t;
}

SourceColour source_colour(const ColourTags& tags, const VideoFormat& used) {
  SourceColour c;
  c.matrix = matrix_tag(tags, used);
  c.range = range_tag(tags, used);
  c.primaries = primaries_tag(tags, used);
  c.transfer = transfer_tag(tags, used);
  c.chroma_location = siting_tag(tags, used);
  c.mastering = tags.mastering;
  c.content_light = tags.content_light;
  return c;
}

}  // namespace vhist::media
