#include "timeline_cells.h"

#include "vhist/qc/heat_scale.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

namespace vhist::viewer {

namespace {

std::uint32_t rgba(float r, float g, float b, float a = 1.0f) {
  const auto byte = [](float v) { return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return byte(r) | byte(g) << 8 | byte(b) << 16 | byte(a) << 24;
}

// `colour` over the opaque `background` by its alpha (0xAABBGGRR): opaque.
std::uint32_t blend_over(std::uint32_t colour, std::uint32_t background) {
  const std::uint32_t a = colour >> 24;
  std::uint32_t out = 0xFF000000u;
  for (int shift = 0; shift < 24; shift += 8) {
    const std::uint32_t c = (colour >> shift) & 0xFFu, b = (background >> shift) & 0xFFu;
    out |= ((c * a + b * (255 - a) + 127) / 255) << shift;
  }
  return out;
}

// The measures of frames [first, last] (indices into `frames`).
TimelineColumnMeasures measure_frames(const std::vector<qc::QcFrame>& frames, std::size_t first, std::size_t last) {
  TimelineColumnMeasures m;
  if (first >= frames.size()) return m;
  last = std::min(last, frames.size() - 1);
  static_cast<qc::ColumnMeasures&>(m) = qc::column_measures(std::span(frames).subspan(first, last - first + 1));
  m.first_frame = frames[first].frame;
  m.last_frame = frames[last].frame;
  m.start = frames[first].pts;
  m.limited = frames[first].limited;
  return m;
}

// One display column's colours from the summed counts of timeline columns [c0, c1).
void column_colours(const std::vector<qc::TimelineColumn>& columns, std::size_t c0, std::size_t c1,
                    TimelineChannel channel, bool log, std::uint32_t bands, std::uint32_t* out) {
  std::array<double, qc::kTimelineLevels> band{};
  const std::uint32_t per_band = qc::kTimelineLevels / bands;
  const auto ch = static_cast<std::uint32_t>(channel);
  for (std::size_t c = c0; c < c1; ++c) {
    for (std::uint32_t level = 0; level < qc::kTimelineLevels; ++level) {
      band[level / per_band] += columns[c].counts[level * 4 + ch];
    }
  }
  const double peak = *std::max_element(band.begin(), band.begin() + bands);
  double total = 0;
  for (std::uint32_t k = 0; k < bands; ++k) total += band[k];
  for (std::uint32_t k = 0; k < bands; ++k) {
    if (band[k] <= 0 || peak <= 0) {
      out[k] = 0;
      continue;
    }
    // Log: the report's rule (vhist qc --report), the share of the column's pixels over six
    // decades; linear: against the column's busiest band. The least-filled cell still shows.
    const double t = log ? qc::heat_position(band[k] / total) : 0.1 + 0.9 * band[k] / peak;
    out[k] = heat_colour(channel, static_cast<float>(t));
  }
}

}  // namespace

std::uint32_t heat_colour(TimelineChannel channel, float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  if (channel == TimelineChannel::luma) {
    // The report's colour map (qc/heat_scale.h).
    const std::array<std::uint8_t, 3> c = qc::inferno(t);
    const auto at = [&](std::size_t i) { return static_cast<float>(c[i]) / 255.0f; };
    return rgba(at(0), at(1), at(2));
  }
  // The channel's own colour, darkest to full, then towards white at the top.
  const float base = std::min(t * 1.5f, 1.0f), white = std::max(0.0f, t * 1.5f - 1.0f) * 1.4f;
  const float own = 0.12f + 0.88f * base;
  const float other = std::min(white * 0.7f, 0.7f);
  switch (channel) {
    case TimelineChannel::r: return rgba(own, other + 0.05f * base, other + 0.05f * base);
    case TimelineChannel::g: return rgba(other + 0.05f * base, own, other + 0.05f * base);
    default: return rgba(other + 0.1f * base, other + 0.25f * base, own);
  }
}

float percent_to_code(float percent, bool limited) {
  return limited ? 16.0f + percent / 100.0f * 219.0f : percent / 100.0f * 255.0f;
}

bool update_cells(TimelineCells& cells, const qc::TimelineFile& file, std::uint64_t version, TimelineChannel channel,
                  bool log, std::uint32_t bands, std::uint32_t columns) {
  const auto& source = file.timeline.columns();
  const auto shown = static_cast<std::uint32_t>(std::min<std::size_t>(source.size(), std::max(columns, 1u)));
  if (cells.version == version && cells.channel == channel && cells.log == log && cells.bands == bands &&
      cells.columns == shown) {
    return false;
  }
  cells = TimelineCells{};
  cells.version = version, cells.channel = channel, cells.log = log, cells.bands = bands, cells.columns = shown;
  const auto& frames = file.timeline.frames();
  cells.frames = static_cast<std::int64_t>(frames.size());
  cells.colours.assign(std::size_t{shown} * bands, 0);
  for (std::uint32_t d = 0; d < shown; ++d) {
    const std::size_t c0 = std::size_t{d} * source.size() / shown, c1 = std::size_t{d + 1} * source.size() / shown;
    column_colours(source, c0, c1, channel, log, bands, &cells.colours[std::size_t{d} * bands]);
    // The frames of those columns (frames are numbered from 0 in order: index = number).
    const auto first = static_cast<std::size_t>(std::max<std::int64_t>(source[c0].first_frame, 0));
    const auto last = static_cast<std::size_t>(std::max<std::int64_t>(source[c1 - 1].first_frame + source[c1 - 1].frames - 1, 0));
    cells.measures.push_back(measure_frames(frames, first, last));
    const TimelineColumnMeasures& m = cells.measures.back();
    cells.max_share = std::max({cells.max_share, m.clip_low, m.clip_high, m.r103_luma, m.r103_rgb});
    cells.max_light = std::max(cells.max_light, m.max_cll);
    cells.any_pq = cells.any_pq || m.pq;
    cells.any_hlg = cells.any_hlg || m.hlg;
  }
  return true;
}

float frame_x(float x0, float x1, std::int64_t frame, std::int64_t frames) {
  return x0 + (x1 - x0) * static_cast<float>(frame) / static_cast<float>(std::max<std::int64_t>(frames, 1));
}

std::vector<std::uint32_t> heat_image(const TimelineCells& cells, float x0, float x1, float y0, float y1,
                                      std::uint32_t background, std::uint32_t& width, std::uint32_t& height) {
  const float left_edge = std::round(x0), top_edge = std::round(y0);
  width = static_cast<std::uint32_t>(std::max(std::round(x1) - left_edge, 0.0f));
  height = static_cast<std::uint32_t>(std::max(std::round(y1) - top_edge, 0.0f));
  const std::uint32_t bands = cells.bands;
  if (width == 0 || height == 0 || bands == 0 || cells.measures.size() < cells.columns) {
    width = height = 0;
    return {};
  }
  // Each band's rows, as ImGui's rectangles round them.
  const float band_h = (y1 - y0) / static_cast<float>(bands);
  const auto row = [&](float y) {
    return static_cast<std::uint32_t>(std::clamp(std::round(y) - top_edge, 0.0f, static_cast<float>(height)));
  };
  std::vector<std::array<std::uint32_t, 2>> rows(bands);
  for (std::uint32_t k = 0; k < bands; ++k) {
    rows[k] = {row(y1 - band_h * static_cast<float>(k + 1)), row(y1 - band_h * static_cast<float>(k))};
  }
  std::vector<std::uint32_t> pixels(std::size_t{width} * height, background);
  for (std::uint32_t d = 0; d < cells.columns; ++d) {
    const TimelineColumnMeasures& m = cells.measures[d];
    const float left = std::round(frame_x(x0, x1, m.first_frame, cells.frames));
    const float right = std::max(std::round(frame_x(x0, x1, m.last_frame + 1, cells.frames)), left + 1.0f);
    const auto p0 = static_cast<std::uint32_t>(std::clamp(left - left_edge, 0.0f, static_cast<float>(width)));
    const auto p1 = static_cast<std::uint32_t>(std::clamp(right - left_edge, 0.0f, static_cast<float>(width)));
    const std::uint32_t* column = &cells.colours[std::size_t{d} * bands];
    for (std::uint32_t k = 0; k < bands; ++k) {
      const std::uint32_t colour = blend_over(column[k], background);
      for (std::uint32_t r = rows[k][0]; r < rows[k][1]; ++r) {
        std::fill(&pixels[std::size_t{r} * width + p0], &pixels[std::size_t{r} * width + p1], colour);
      }
    }
  }
  return pixels;
}

}  // namespace vhist::viewer
