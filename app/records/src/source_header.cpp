#include "vhist/records/source_header.h"

#include "json_text.h"

#include "vhist/compute/colour_names.h"

#include <cstdio>

namespace vhist::app {

namespace {

template <typename E>
std::string tag_json(const ColourTag<E>& t) {
  std::string out = "{\"value\":" + quoted_json(std::string(colour_id(t))) + ",\"source\":" + quoted_json(std::string(colour_id(t.source)));
  if (!t.tag.empty()) out += ",\"tag\":" + quoted_json(t.tag);
  return out + "}";
}

std::string xy_json(const std::array<double, 2>& xy) { return "[" + number(xy[0], 5) + "," + number(xy[1], 5) + "]"; }

std::string hdr_json(const SourceColour& c) {
  std::string out;
  if (c.mastering) {
    const MasteringDisplay& m = *c.mastering;
    out += ",\"mastering_display\":{\"primaries\":[" + xy_json(m.primaries[0]) + "," + xy_json(m.primaries[1]) + "," +
           xy_json(m.primaries[2]) + "],\"white\":" + xy_json(m.white) +
           ",\"min_luminance\":" + number(m.min_luminance, 4) + ",\"max_luminance\":" + number(m.max_luminance, 4) + "}";
  }
  if (c.content_light) {
    out += ",\"content_light\":{\"max_cll\":" + std::to_string(c.content_light->max_cll) +
           ",\"max_fall\":" + std::to_string(c.content_light->max_fall) + "}";
  }
  return out;
}

std::string region_json(const std::optional<PixelRect>& r) {
  if (!r) return {};
  return ",\"region\":[" + std::to_string(r->x) + "," + std::to_string(r->y) + "," + std::to_string(r->width) + "," +
         std::to_string(r->height) + "]";
}

template <typename E>
std::string tag_text(const ColourTag<E>& t) {
  std::string out = std::string(colour_id(t)) + " (" + std::string(colour_id(t.source));
  if (!t.tag.empty() && t.source == ColourSource::assumed) out += ", the stream says " + t.tag + ", not followed";
  return comment_text(out + ")");
}

}  // namespace

void append_jsonl_header(std::string& out, const SourceHeader& h) {
  const SourceColour& c = h.colour;
  out += "{\"type\":\"header\",\"input\":" + quoted_json(h.input) + ",\"container\":" + quoted_json(h.container) +
         ",\"stream\":" + std::to_string(h.stream) + (h.attached_picture ? ",\"attached_picture\":true" : "") +
         ",\"codec\":" + quoted_json(h.codec) + ",\"decoder\":" + quoted_json(h.decoder) +
         ",\"alpha\":" + (h.alpha ? "true" : "false") +
         ",\"width\":" + std::to_string(h.width) + ",\"height\":" + std::to_string(h.height) +
         ",\"display_width\":" + std::to_string(h.display_width) + ",\"display_height\":" + std::to_string(h.display_height) +
         ",\"rotation\":" + std::to_string(h.rotation) + ",\"sample_aspect\":\"" + std::to_string(h.sar_num) + ":" +
         std::to_string(h.sar_den) + "\",\"bits\":" + std::to_string(h.bits) +
         ",\"pixel_format\":" + quoted_json(h.pixel_format) + ",\"frame_rate\":" + number(h.frame_rate, 6) +
         ",\"frame_rate_constant\":" + (h.constant_rate ? "true" : "false") + ",\"domain\":" + quoted_json(h.domain) + region_json(h.region) +
         ",\"matrix\":" + tag_json(c.matrix) + ",\"range\":" + tag_json(c.range) + ",\"primaries\":" + tag_json(c.primaries) +
         ",\"transfer\":" + tag_json(c.transfer) + ",\"chroma_location\":" + tag_json(c.chroma_location) + hdr_json(c) +
         "}\n";
}

void append_csv_comments(std::string& out, const SourceHeader& h) {
  const SourceColour& c = h.colour;
  // The input as a CSV field on one line (csv_field): a newline, comma or quote in its name
  // cannot break the table.
  out += "# vhist analyze: " + csv_field(h.input) + "\n";
  out += "# stream " + std::to_string(h.stream) + ": " + comment_text(h.codec) + " (decoder " + comment_text(h.decoder) +
         ") in " + comment_text(h.container) + ", " + comment_text(h.pixel_format) + (h.alpha ? " with alpha (not used)" : "") + ", " +
         std::to_string(h.bits) + "-bit, " + std::to_string(h.width) + "x" + std::to_string(h.height) + " stored, " +
         std::to_string(h.display_width) + "x" + std::to_string(h.display_height) + " shown (rotation " +
         std::to_string(h.rotation) + ", sample aspect " + std::to_string(h.sar_num) + ":" + std::to_string(h.sar_den) +
         "), " + number(h.frame_rate, 3) + " fps" + (h.constant_rate ? "" : " (average; the rate may vary)") + "\n";
  if (h.attached_picture) out += "# the stream is the file's cover art: one picture\n";
  if (h.region) {
    out += "# region: " + std::to_string(h.region->width) + "x" + std::to_string(h.region->height) + " stored pixels from (" +
           std::to_string(h.region->x) + ", " + std::to_string(h.region->y) + "): the histograms count these only\n";
  }
  out += "# histograms: " + std::string(h.domain == "rgb" ? "R', G', B' and luma after conversion" : "the Y'CbCr planes as decoded") + "\n";
  out += "# matrix: " + tag_text(c.matrix) + "\n";
  out += "# range: " + tag_text(c.range) + "\n";
  out += "# primaries: " + tag_text(c.primaries) + "\n";
  out += "# transfer: " + tag_text(c.transfer) + "\n";
  out += "# chroma location: " + tag_text(c.chroma_location) + "\n";
  if (c.mastering) {
    const MasteringDisplay& m = *c.mastering;
    const auto xy = [](const std::array<double, 2>& p) { return number(p[0], 5) + " " + number(p[1], 5); };
    out += "# mastering display: luminance " + number(m.min_luminance, 4) + " to " + number(m.max_luminance, 4) +
           " cd/m2; primaries (xy) R " + xy(m.primaries[0]) + ", G " + xy(m.primaries[1]) + ", B " + xy(m.primaries[2]) +
           "; white " + xy(m.white) + "\n";
  }
  if (c.content_light) {
    out += "# content light: MaxCLL " + std::to_string(c.content_light->max_cll) + " cd/m2, MaxFALL " +
           std::to_string(c.content_light->max_fall) + " cd/m2\n";
  }
}

}  // namespace vhist::app
