#include "qc_outputs.h"

#include "vhist/compute/colour.h"
#include "vhist/media/media_source.h"
#include "vhist/media/png.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace vhist::app {

namespace {

using nlohmann::json;

json event_json(const qc::Event& e) {
  return json{{"type", "event"},
              {"check", qc::check_name(e.check)},
              {"fails", e.fails},
              {"first_frame", e.first_frame},
              {"last_frame", e.last_frame},
              {"start", e.start},
              {"end", e.end},
              {"start_timecode", e.start_timecode},
              {"end_timecode", e.end_timecode},
              {"worst", e.worst},
              {"unit", e.unit},
              {"worst_frame", e.worst_frame},
              {"frame_share", e.frame_share},
              {"detail", e.detail}};
}

json summary_json(const QcRun& run) {
  json counts = json::object();
  for (qc::Check c : qc::kAllChecks) counts[std::string(qc::check_name(c))] = 0;
  for (const qc::Event& e : run.events) counts[std::string(qc::check_name(e.check))] = counts[std::string(qc::check_name(e.check))].get<int>() + 1;
  json failing = json::array();
  for (qc::Check c : run.thresholds.failing) failing.push_back(qc::check_name(c));
  const std::size_t frames = run.timeline ? run.timeline->frames().size() : 0;
  return json{{"type", "qc_summary"}, {"passed", run.passed},      {"frames", frames},
              {"whole_input", run.whole_input}, {"events", counts}, {"failing_checks", failing},
              {"notes", run.notes}};
}

// CSV: a field in quotes when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string csv_text(const QcRun& run) {
  std::string out;
  for (const auto& [label, value] : run.provenance) out += "# " + label + ": " + value + "\n";
  out += "check,fails,first_frame,last_frame,start,end,start_timecode,end_timecode,worst,unit,worst_frame,frame_share,"
         "detail\n";
  for (const qc::Event& e : run.events) {
    out += std::string(qc::check_name(e.check)) + "," + (e.fails ? "true" : "false") + "," +
           std::to_string(e.first_frame) + "," + std::to_string(e.last_frame) + "," + number(e.start) + "," +
           number(e.end) + "," + e.start_timecode + "," + e.end_timecode + "," + number(e.worst) + "," +
           csv_field(e.unit) + "," + std::to_string(e.worst_frame) + "," + number(e.frame_share) + "," +
           csv_field(e.detail) + "\n";
  }
  out += "# summary: " + summary_json(run).dump() + "\n";
  return out;
}

}  // namespace

std::string events_text(const QcRun& run, RecordFormat format) {
  if (format == RecordFormat::csv) return csv_text(run);
  json header{{"type", "qc"}};
  for (const auto& [label, value] : run.provenance) header[label] = value;
  std::string out = header.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  for (const qc::Event& e : run.events) out += event_json(e).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  out += summary_json(run).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  return out;
}

namespace {

// The stored pixel under display pixel (x, y) of a picture turned `rotation` degrees clockwise.
void stored_xy(std::uint32_t rotation, double u, double v, double& sx, double& sy) {
  switch (rotation) {
    case 90: sx = v, sy = 1.0 - u; break;
    case 180: sx = 1.0 - u, sy = 1.0 - v; break;
    case 270: sx = 1.0 - v, sy = u; break;
    default: sx = u, sy = v; break;
  }
}

// The converted frame (converted_format) scaled to `w` x `h` display pixels: the average of a
// 3 x 3 grid of samples per pixel, upright.
media::RgbaImage scale_down(const std::vector<std::byte>& rgb, const FrameFormat& f, std::uint32_t rotation,
                            std::uint32_t w, std::uint32_t h) {
  media::RgbaImage out{w, h, std::vector<std::uint8_t>(std::size_t{w} * h * 4, 255)};
  const auto sample = [&](std::uint32_t x, std::uint32_t y, int c) -> double {
    const std::size_t i = (std::size_t{y} * f.width + x) * 4 + static_cast<std::size_t>(c);
    if (f.packing == PixelPacking::rgba8) return static_cast<double>(std::to_integer<std::uint8_t>(rgb[i]));
    std::uint16_t v = 0;
    std::memcpy(&v, rgb.data() + i * 2, 2);
    return v * 255.0 / static_cast<double>((1u << f.bits) - 1u);
  };
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      double acc[3] = {0, 0, 0};
      for (int j = 0; j < 3; ++j) {
        for (int i = 0; i < 3; ++i) {
          double sx = 0, sy = 0;
          stored_xy(rotation, (x + (i + 0.5) / 3.0) / w, (y + (j + 0.5) / 3.0) / h, sx, sy);
          const auto px = std::min(f.width - 1, static_cast<std::uint32_t>(sx * f.width));
          const auto py = std::min(f.height - 1, static_cast<std::uint32_t>(sy * f.height));
          for (int c = 0; c < 3; ++c) acc[c] += sample(px, py, c);
        }
      }
      for (int c = 0; c < 3; ++c) out.pixels[(std::size_t{y} * w + x) * 4 + c] = static_cast<std::uint8_t>(std::lround(acc[c] / 9.0));
    }
  }
  return out;
}

}  // namespace

std::string thumbnail_png(const std::string& input, int stream, std::int64_t frame, double pts, std::uint32_t width,
                          std::string& error) {
  media::SourceOptions options;
  options.start = pts;
  options.stream = stream;
  options.queue_frames = 1;
  try {
    const std::unique_ptr<media::MediaSource> source = media::MediaSource::open(input, options);
    media::DecodedFrame decoded;
    for (;;) {
      const auto status = source->next(decoded, std::chrono::milliseconds(250));
      if (status == media::MediaSource::Status::end) {
        error = "frame " + std::to_string(frame) + " could not be read again";
        return {};
      }
      if (status == media::MediaSource::Status::frame) break;
    }
    const VideoFormat& f = decoded.format;
    const std::vector<std::byte> rgb = reference_convert(f, decoded.planes);
    const std::uint32_t dw = std::max(1u, f.display_width()), dh = std::max(1u, f.display_height());
    const std::uint32_t w = std::min(width, dw);
    const std::uint32_t h = std::max(1u, static_cast<std::uint32_t>(std::lround(static_cast<double>(w) * dh / dw)));
    return media::encode_png(scale_down(rgb, converted_format(f), f.rotation, w, h), error);
  } catch (const std::exception& e) {
    error = e.what();
    return {};
  }
}

}  // namespace vhist::app
