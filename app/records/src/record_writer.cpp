#include "vhist/records/record_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace vhist::app {

namespace {

constexpr NamedChannel kRgbChannels[] = {{Channel::r, "r"}, {Channel::g, "g"}, {Channel::b, "b"}, {Channel::l, "l"}};
constexpr NamedChannel kYcbcrChannels[] = {{kPlaneY, "y"}, {kPlaneCb, "cb"}, {kPlaneCr, "cr"}};

void append_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// Fixed-point decimal with `digits` fraction digits; JSON has no NaN or infinity, and none can
// occur here (counts are finite and totals non-zero), but guard anyway.
void append_fixed(std::string& out, double v, int digits) {
  if (!std::isfinite(v)) v = 0;
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  out.append(buf, static_cast<std::size_t>(n));
}

// The statistics fields, in output order, with their formatting: one list for JSON and CSV.
struct StatField {
  const char* name;
  int digits;  // -1: an integer code value; else fraction digits of a decimal
  double (*get)(const ChannelStats&);
};
constexpr StatField kStatFields[] = {
    {"min", -1, [](const ChannelStats& s) { return double(s.min); }},
    {"max", -1, [](const ChannelStats& s) { return double(s.max); }},
    {"mean", 4, [](const ChannelStats& s) { return s.mean; }},
    {"median", -1, [](const ChannelStats& s) { return double(s.median); }},
    {"p1", -1, [](const ChannelStats& s) { return double(s.p1); }},
    {"p99", -1, [](const ChannelStats& s) { return double(s.p99); }},
    {"clip_low", 8, [](const ChannelStats& s) { return s.clip_low; }},
    {"clip_high", 8, [](const ChannelStats& s) { return s.clip_high; }},
};

void append_field(std::string& out, const StatField& field, const ChannelStats& s) {
  if (field.digits < 0) {
    append_uint(out, static_cast<std::uint64_t>(field.get(s)));
  } else {
    append_fixed(out, field.get(s), field.digits);
  }
}

void append_stats_json(std::string& out, const ChannelStats& s) {
  char sep = '{';
  for (const StatField& field : kStatFields) {
    out += sep;
    out += '"';
    out += field.name;
    out += "\":";
    append_field(out, field, s);
    sep = ',';
  }
  out += '}';
}

// "r":[...],"g":[...],"b":[...],"l":[...] (or the domain's names) with count(channel, bin) for
// bins 0..bins-1.
template <typename Count>
void append_channel_arrays(std::string& out, RecordDomain domain, std::uint32_t bins, Count count) {
  for (const NamedChannel& named : record_channels(domain)) {
    const Channel c = named.slot;
    if (&named != record_channels(domain).data()) out += ',';
    out += '"';
    out += named.name;
    out += "\":[";
    for (std::uint32_t b = 0; b < bins; ++b) {
      if (b != 0) out += ',';
      append_uint(out, count(c, b));
    }
    out += ']';
  }
}

// The fields every record starts with (frame, pts, size, depth, bins, the shape it is shown
// at), in both formats: JSON as "name":value pairs after '{', CSV as values each followed by ','.
// One list, so the two formats and the CSV header cannot disagree.
struct HeadField {
  const char* name;
  void (*append)(std::string&, const FrameRecord&);
  // Null: always there. Else whether the record has a value: JSON leaves the field out, CSV leaves it empty.
  bool (*present)(const FrameRecord&) = nullptr;
};
constexpr HeadField kHeadFields[] = {
    {"frame", [](std::string& out, const FrameRecord& r) { append_int(out, r.frame); },
     [](const FrameRecord& r) { return r.frame_known; }},
    {"pts", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.pts, 6); }},
    {"width", [](std::string& out, const FrameRecord& r) { append_uint(out, r.width); }},
    {"height", [](std::string& out, const FrameRecord& r) { append_uint(out, r.height); }},
    {"bits", [](std::string& out, const FrameRecord& r) { append_uint(out, r.bits); }},
    {"bins", [](std::string& out, const FrameRecord& r) { append_uint(out, r.histogram.bins); }},
    {"rotation", [](std::string& out, const FrameRecord& r) { append_uint(out, r.rotation); }},
    {"display_width", [](std::string& out, const FrameRecord& r) { append_uint(out, r.display_width); }},
    {"display_height", [](std::string& out, const FrameRecord& r) { append_uint(out, r.display_height); }},
    {"counted", [](std::string& out, const FrameRecord& r) { append_uint(out, *r.counted); },
     [](const FrameRecord& r) { return r.counted.has_value(); }},
    {"y_below", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.range->luma.below, 8); },
     [](const FrameRecord& r) { return r.range.has_value(); }},
    {"y_above", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.range->luma.above, 8); },
     [](const FrameRecord& r) { return r.range.has_value(); }},
    {"c_below", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.range->chroma.below, 8); },
     [](const FrameRecord& r) { return r.range && r.range->has_chroma; }},
    {"c_above", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.range->chroma.above, 8); },
     [](const FrameRecord& r) { return r.range && r.range->has_chroma; }},
    {"max_cll", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.light->max_cll, 4); },
     [](const FrameRecord& r) { return r.light.has_value(); }},
    {"fall", [](std::string& out, const FrameRecord& r) { append_fixed(out, r.light->fall, 4); },
     [](const FrameRecord& r) { return r.light.has_value(); }},
};

void append_head(std::string& out, const FrameRecord& r, bool json) {
  for (const HeadField& field : kHeadFields) {
    const bool present = !field.present || field.present(r);
    if (json && !present) continue;
    if (json) {
      out += out.back() == '{' ? "\"" : ",\"";
      out += field.name;
      out += "\":";
    }
    if (present) field.append(out, r);
    if (!json) out += ',';
  }
}

}  // namespace

std::span<const NamedChannel> record_channels(RecordDomain domain) {
  if (domain == RecordDomain::rgb) return kRgbChannels;
  return std::span(kYcbcrChannels, domain == RecordDomain::ycbcr ? 3 : 1);
}

void append_jsonl(std::string& out, const FrameRecord& r) {
  out += "{\"type\":\"frame\"";  // the output's first object is the header (source_header.h)
  append_head(out, r, true);
  out += ',';
  append_channel_arrays(out, r.domain, r.histogram.bins,
                        [&](Channel c, std::uint32_t b) { return r.histogram.at(c, b); });
  if (r.cdf.bins != 0) {
    out += ",\"cdf\":{";
    append_channel_arrays(out, r.domain, r.cdf.bins, [&](Channel c, std::uint32_t b) { return r.cdf.at(c, b); });
    out += '}';
  }
  out += ",\"stats\":{";
  for (const NamedChannel& named : record_channels(r.domain)) {
    if (out.back() != '{') out += ',';
    out += '"';
    out += named.name;
    out += "\":";
    append_stats_json(out, r.stats[static_cast<std::uint32_t>(named.slot)]);
  }
  out += "}}\n";
}

void append_csv_header(std::string& out, std::uint32_t bins, bool cdf) {
  for (const HeadField& field : kHeadFields) {
    out += field.name;
    out += ',';
  }
  out += "channel";
  for (const StatField& field : kStatFields) {
    out += ',';
    out += field.name;
  }
  for (std::uint32_t b = 0; b < bins; ++b) {
    out += ",c";
    append_uint(out, b);
  }
  for (std::uint32_t b = 0; cdf && b < bins; ++b) {
    out += ",cdf";
    append_uint(out, b);
  }
  out += '\n';
}

void append_csv(std::string& out, const FrameRecord& r) {
  for (const NamedChannel& named : record_channels(r.domain)) {
    const Channel c = named.slot;
    const ChannelStats& s = r.stats[static_cast<std::uint32_t>(c)];
    append_head(out, r, false);
    out += named.name;
    for (const StatField& field : kStatFields) {
      out += ',';
      append_field(out, field, s);
    }
    for (std::uint32_t b = 0; b < r.histogram.bins; ++b) {
      out += ',';
      append_uint(out, r.histogram.at(c, b));
    }
    for (std::uint32_t b = 0; b < r.cdf.bins; ++b) {
      out += ',';
      append_uint(out, r.cdf.at(c, b));
    }
    out += '\n';
  }
}

}  // namespace vhist::app
