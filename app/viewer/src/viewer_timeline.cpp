// The timeline strip under the picture (issue 28): the whole file's histograms as a heatmap (time
// across, levels up), the Y' curves over it, the QC events in a lane under it, the clipped and
// R 103 shares (and a PQ or HLG file's light) in a lane of their own, a time ruler, and the playing
// position. Hover reads a column; a click or a drag seeks. While the background scan runs
// (timeline_scan.h) the strip shows its progress.
#include "viewer_app.h"
#include "viewer_timeline.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace vhist::viewer {

namespace {

constexpr ImU32 kStripBackground = IM_COL32(16, 17, 20, 255);
constexpr ImU32 kLaneBackground = IM_COL32(8, 8, 10, 255);
constexpr ImU32 kLabel = IM_COL32(170, 174, 184, 255);

// The strip's parts, window coordinates.
struct StripLayout {
  float x0 = 0, x1 = 0;               // the columns' left and right
  float heat_top = 0, heat_bottom = 0;
  float events_top = 0, events_bottom = 0;
  float shares_top = 0, shares_bottom = 0;  // empty: no lane
  float light_top = 0, light_bottom = 0;    // PQ and HLG files only
  float ruler_top = 0;
};

StripLayout strip_layout(const App& app, bool light_lane, int event_rows) {
  const auto& a = app.timeline.area;
  const float s = app.window.ui_scale, text = ImGui::GetTextLineHeight();
  StripLayout l;
  l.x0 = a[0] + 8 * s, l.x1 = a[2] - 8 * s;
  l.ruler_top = a[3] - text - 3 * s;
  const float top = a[1] + 5 * s, room = l.ruler_top - top;
  const float lane = room >= 96 * s ? std::round(room * 0.16f) : room >= 60 * s ? std::round(room * 0.2f) : 0.0f;
  const float events = std::round(std::clamp(4.0f * static_cast<float>(event_rows), 7.0f, 16.0f) * s), gap = std::round(2 * s);
  float bottom = l.ruler_top - gap;
  if (lane > 0 && app.timeline.shares) {
    if (light_lane) {
      l.light_top = bottom - lane, l.light_bottom = bottom;
      bottom = l.light_top - gap;
    }
    l.shares_top = bottom - lane, l.shares_bottom = bottom;
    bottom = l.shares_top - gap;
  }
  l.events_top = bottom - events, l.events_bottom = bottom;
  l.heat_top = top, l.heat_bottom = l.events_top - gap;
  return l;
}

// How many checks have events.
int event_rows(const qc::TimelineFile& file) {
  int rows = 0;
  for (const qc::Check check : qc::kAllChecks) {
    rows += std::any_of(file.events.begin(), file.events.end(), [&](const qc::Event& e) { return e.check == check; });
  }
  return rows;
}

float strip_x(const StripLayout& l, std::int64_t frame, std::int64_t frames) {
  return frame_x(l.x0, l.x1, frame, frames);
}

// The heatmap's cells: runs of equal colour in a column drawn as one rectangle. Only where the
// presenter cannot copy the heatmap's pixels under the UI (app.timeline.heat.by_image).
void draw_heat(ImDrawList* draw, const TimelineCells& cells, const StripLayout& l) {
  draw->AddRectFilled(ImVec2(l.x0, l.heat_top), ImVec2(l.x1, l.heat_bottom), kLaneBackground);
  const float band_h = (l.heat_bottom - l.heat_top) / static_cast<float>(cells.bands);
  for (std::uint32_t d = 0; d < cells.columns; ++d) {
    const TimelineColumnMeasures& m = cells.measures[d];
    const float left = std::round(strip_x(l, m.first_frame, cells.frames));
    const float right = std::max(std::round(strip_x(l, m.last_frame + 1, cells.frames)), left + 1.0f);
    const std::uint32_t* column = &cells.colours[std::size_t{d} * cells.bands];
    for (std::uint32_t k = 0; k < cells.bands;) {
      std::uint32_t end = k + 1;
      while (end < cells.bands && column[end] == column[k]) ++end;
      if (column[k] != 0) {
        draw->AddRectFilled(ImVec2(left, std::round(l.heat_bottom - band_h * static_cast<float>(end))),
                            ImVec2(right, std::round(l.heat_bottom - band_h * static_cast<float>(k))), column[k]);
      }
      k = end;
    }
  }
}

// The heatmap's pixels for the presenter (heat_image()), remade when the cells were or the
// heatmap moved, and their place this tick: the heatmap's whole pixels.
void place_heat_image(App& app, const StripLayout& l, bool cells_changed) {
  const std::array<float, 4> place{l.x0, l.x1, l.heat_top, l.heat_bottom};
  if (cells_changed || app.timeline.heat.place != place || app.timeline.heat.pixels.empty()) {
    app.timeline.heat.pixels = heat_image(app.timeline.cells, l.x0, l.x1, l.heat_top, l.heat_bottom, kLaneBackground,
                                 app.timeline.heat.width, app.timeline.heat.height);
    app.timeline.heat.place = place;
    ++app.timeline.heat.stamp;
  }
  app.timeline.heat.rect = {std::round(l.x0), std::round(l.heat_top), std::round(l.x1), std::round(l.heat_bottom)};
}

// The strip's background where ImGui's window has none (app.timeline.heat.by_image): around `hole`, the
// heatmap's pixels under the UI (all of it when `hole` is empty); then its top edge.
void draw_strip_frame(const App& app, ImDrawList* draw, const std::array<float, 4>& hole) {
  const auto& a = app.timeline.area;
  if (app.timeline.heat.by_image) {
    if (hole[2] > hole[0] && hole[3] > hole[1]) {
      draw->AddRectFilled(ImVec2(a[0], a[1]), ImVec2(a[2], hole[1]), kStripBackground);
      draw->AddRectFilled(ImVec2(a[0], hole[3]), ImVec2(a[2], a[3]), kStripBackground);
      draw->AddRectFilled(ImVec2(a[0], hole[1]), ImVec2(hole[0], hole[3]), kStripBackground);
      draw->AddRectFilled(ImVec2(hole[2], hole[1]), ImVec2(a[2], hole[3]), kStripBackground);
    } else {
      draw->AddRectFilled(ImVec2(a[0], a[1]), ImVec2(a[2], a[3]), kStripBackground);
    }
  }
  draw->AddLine(ImVec2(a[0], a[1] + 0.5f), ImVec2(a[2], a[1] + 0.5f), IM_COL32(60, 62, 70, 255));
}

// A curve through the columns' centres; `value` gives a column's y.
template <typename F>
void draw_curve(ImDrawList* draw, const TimelineCells& cells, const StripLayout& l, ImU32 colour, float thickness,
                F value) {
  std::vector<ImVec2> points;
  points.reserve(cells.measures.size() * 2);
  for (const TimelineColumnMeasures& m : cells.measures) {
    const float y = value(m);
    points.emplace_back(strip_x(l, m.first_frame, cells.frames), y);
    points.emplace_back(strip_x(l, m.last_frame + 1, cells.frames), y);
  }
  // A dark edge under the line: it reads over the heatmap's brightest cells too.
  draw->AddPolyline(points.data(), static_cast<int>(points.size()), IM_COL32(0, 0, 0, 150), 0, thickness + 2.0f);
  draw->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness);
}

void draw_level_curves(ImDrawList* draw, const TimelineCells& cells, const StripLayout& l, float s) {
  const float h = l.heat_bottom - l.heat_top;
  const auto at = [&](float percent, bool limited) {
    return std::clamp(l.heat_bottom - percent_to_code(percent, limited) / 256.0f * h, l.heat_top, l.heat_bottom);
  };
  draw->PushClipRect(ImVec2(l.x0, l.heat_top), ImVec2(l.x1, l.heat_bottom), true);
  const ImU32 extreme = IM_COL32(120, 200, 255, 200), decile = IM_COL32(150, 255, 170, 220);
  draw_curve(draw, cells, l, extreme, 1.0f * s, [&](const auto& m) { return at(m.y_min, m.limited); });
  draw_curve(draw, cells, l, extreme, 1.0f * s, [&](const auto& m) { return at(m.y_max, m.limited); });
  draw_curve(draw, cells, l, decile, 1.0f * s, [&](const auto& m) { return at(m.y_p10, m.limited); });
  draw_curve(draw, cells, l, decile, 1.0f * s, [&](const auto& m) { return at(m.y_p90, m.limited); });
  draw_curve(draw, cells, l, IM_COL32(255, 255, 255, 240), 1.5f * s, [&](const auto& m) { return at(m.y_mean, m.limited); });
  draw->PopClipRect();
}

// A lane of curves on a scale from 0 to `top`, its scale written at its left.
template <typename... Curves>
void draw_lane(ImDrawList* draw, const TimelineCells& cells, const StripLayout& l, float y0, float y1, float top,
               const std::string& scale, float s, Curves... curves) {
  draw->AddRectFilled(ImVec2(l.x0, y0), ImVec2(l.x1, y1), kLaneBackground);
  draw->PushClipRect(ImVec2(l.x0, y0), ImVec2(l.x1, y1), true);
  const auto y_of = [&](float v) { return y1 - 1.0f - std::clamp(v / top, 0.0f, 1.0f) * (y1 - y0 - 2.0f); };
  // A curve that is 0 throughout is left out: nothing to see, and it would hide the others' baseline.
  const auto any = [&](auto measure) {
    return std::any_of(cells.measures.begin(), cells.measures.end(), [&](const auto& m) { return measure(m) > 0; });
  };
  ((any(curves.second) ? draw_curve(draw, cells, l, curves.first, 1.25f * s, [&](const auto& m) { return y_of(curves.second(m)); })
                       : void()),
   ...);
  draw->AddText(ImVec2(l.x0 + 3 * s, y0), IM_COL32(150, 150, 160, 220), scale.c_str());
  draw->PopClipRect();
}

std::string percent_text(float share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, share * 100 >= 10 ? "%.0f %%" : "%.2g %%", static_cast<double>(share * 100));
  return buf;
}

void draw_lanes(ImDrawList* draw, const TimelineCells& cells, const StripLayout& l, float s) {
  using Measure = float (*)(const TimelineColumnMeasures&);
  if (l.shares_bottom > l.shares_top) {
    const float top = std::max(cells.max_share, 0.01f);
    draw_lane(draw, cells, l, l.shares_top, l.shares_bottom, top, "shares 0-" + percent_text(top), s,
              std::pair{IM_COL32(110, 150, 255, 255), Measure([](const auto& m) { return m.clip_low; })},
              std::pair{IM_COL32(255, 80, 80, 255), Measure([](const auto& m) { return m.clip_high; })},
              std::pair{IM_COL32(255, 170, 40, 255), Measure([](const auto& m) { return m.r103_luma; })},
              std::pair{IM_COL32(230, 90, 230, 255), Measure([](const auto& m) { return m.r103_rgb; })});
  }
  if (l.light_bottom > l.light_top) {
    const float top = std::max(cells.max_light, 1.0f);
    char label[64];
    // HLG's light is that of BT.2100's reference display (1000 cd/m2, system gamma 1.2).
    std::snprintf(label, sizeof label, "%slight 0-%.0f cd/m2", cells.any_hlg ? "HLG ref. display " : "",
                  static_cast<double>(top));
    draw_lane(draw, cells, l, l.light_top, l.light_bottom, top, label, s,
              std::pair{IM_COL32(255, 230, 120, 255), Measure([](const auto& m) { return m.max_cll; })},
              std::pair{IM_COL32(200, 160, 90, 255), Measure([](const auto& m) { return m.fall; })});
  }
}

// One row per check that has events (in kAllChecks' order), so that events of two checks over the
// same frames are both seen.
void draw_events(ImDrawList* draw, const qc::TimelineFile& file, const StripLayout& l, std::int64_t frames) {
  draw->AddRectFilled(ImVec2(l.x0, l.events_top), ImVec2(l.x1, l.events_bottom), kLaneBackground);
  std::array<int, qc::kAllChecks.size()> row{};
  int rows = 0;
  for (const qc::Check check : qc::kAllChecks) {
    const bool any = std::any_of(file.events.begin(), file.events.end(), [&](const qc::Event& e) { return e.check == check; });
    row[static_cast<std::size_t>(check)] = any ? rows++ : -1;
  }
  const float row_h = (l.events_bottom - l.events_top) / static_cast<float>(std::max(rows, 1));
  for (const qc::Event& e : file.events) {
    const float left = std::floor(strip_x(l, e.first_frame, frames));
    const float right = std::max(std::ceil(strip_x(l, e.last_frame + 1, frames)), left + 2.0f);
    const float top = l.events_top + row_h * static_cast<float>(row[static_cast<std::size_t>(e.check)]);
    draw->AddRectFilled(ImVec2(left, std::round(top)), ImVec2(right, std::round(top + row_h)), event_colour(e.check));
    // A faint band over the heatmap too, so that the event's frames can be read there.
    draw->AddRectFilled(ImVec2(left, l.heat_top), ImVec2(right, l.heat_bottom), event_colour(e.check) & 0x30FFFFFFu);
  }
}

std::string ruler_label(double seconds, double step) {
  const auto t = static_cast<long long>(std::llround(seconds));
  char buf[32];
  if (step >= 1) {
    if (t >= 3600) {
      std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", t / 3600, (t / 60) % 60, t % 60);
    } else {
      std::snprintf(buf, sizeof buf, "%lld:%02lld", t / 60, t % 60);
    }
  } else {
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  }
  return buf;
}

void draw_ruler(ImDrawList* draw, const App& app, const StripLayout& l, double duration) {
  if (duration <= 0) return;
  const float s = app.window.ui_scale, width = l.x1 - l.x0;
  static constexpr double kSteps[] = {0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200};
  double step = kSteps[std::size(kSteps) - 1];
  for (const double candidate : kSteps) {
    if (width * static_cast<float>(candidate / duration) >= 64 * s) {
      step = candidate;
      break;
    }
  }
  for (double t = 0; t <= duration + 1e-9; t += step) {
    const float x = l.x0 + width * static_cast<float>(t / duration);
    draw->AddLine(ImVec2(x, l.ruler_top), ImVec2(x, l.ruler_top + 3 * s), kLabel);
    const std::string text = ruler_label(t, step);
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    draw->AddText(ImVec2(std::clamp(x - w / 2, l.x0, l.x1 - w), l.ruler_top + 2 * s), kLabel, text.c_str());
  }
}

// What the heatmap shows, at its top left: the channel and the scale.
void draw_heat_label(ImDrawList* draw, const App& app, const StripLayout& l) {
  static constexpr const char* kNames[] = {"R'", "G'", "B'", "luma"};
  const std::string text = std::string(kNames[static_cast<int>(app.timeline.channel)]) +
                           (app.timeline.log ? "  log" : "  linear") + (app.timeline.curves ? "  Y' curves" : "");
  const float s = app.window.ui_scale;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 at(l.x0 + 4 * s, l.heat_top + 2 * s);
  if (size.y + 4 * s > l.heat_bottom - l.heat_top) return;
  draw->AddRectFilled(ImVec2(at.x - 3 * s, at.y), ImVec2(at.x + size.x + 3 * s, at.y + size.y), IM_COL32(0, 0, 0, 150),
                      2 * s);
  draw->AddText(at, IM_COL32(220, 222, 230, 255), text.c_str());
}

void draw_playhead(ImDrawList* draw, const App& app, const StripLayout& l, std::int64_t frames) {
  const std::int64_t shown = timeline_frame_shown(app);
  if (shown < 0) return;
  const float x = std::round(strip_x(l, shown, frames) +
                             0.5f * (l.x1 - l.x0) / static_cast<float>(std::max<std::int64_t>(frames, 1)));
  const float s = app.window.ui_scale;
  draw->AddLine(ImVec2(x, l.heat_top), ImVec2(x, l.ruler_top), IM_COL32(0, 0, 0, 200), 3.0f * s);
  draw->AddLine(ImVec2(x, l.heat_top), ImVec2(x, l.ruler_top), IM_COL32(255, 255, 255, 255), 1.0f * s);
  draw->AddTriangleFilled(ImVec2(x - 5 * s, l.heat_top - 4 * s), ImVec2(x + 5 * s, l.heat_top - 4 * s),
                          ImVec2(x, l.heat_top + 3 * s), IM_COL32(255, 255, 255, 255));
}

}  // namespace

ImU32 event_colour(qc::Check check) {
  switch (check) {
    case qc::Check::r103_luma: return IM_COL32(255, 160, 30, 255);
    case qc::Check::r103_rgb: return IM_COL32(235, 80, 235, 255);
    case qc::Check::clipped: return IM_COL32(255, 60, 60, 255);
    case qc::Check::black: return IM_COL32(90, 120, 255, 255);
    case qc::Check::frozen: return IM_COL32(60, 220, 230, 255);
    case qc::Check::light: return IM_COL32(255, 240, 90, 255);
    case qc::Check::range: return IM_COL32(80, 220, 100, 255);
    case qc::Check::decode_error: return IM_COL32(255, 255, 255, 255);
  }
  return IM_COL32(200, 200, 200, 255);
}

float timeline_strip_height(const App& app, float height) {
  if (!app.settings.timeline || !app.transport.player.is_open() || app.transport.player.live()) return 0;
  if (height < 220 * app.window.ui_scale) return 0;  // a sliver of a window: the picture keeps it all
  return std::round(std::min(std::clamp(0.2f * height, 64 * app.window.ui_scale, 170 * app.window.ui_scale), 0.35f * height));
}

void draw_timeline(App& app) {
  const auto& a = app.timeline.area;
  app.timeline.heat_area = {};
  app.timeline.heat.rect = {};
  if (a[3] <= a[1]) return;
  ImGui::SetNextWindowPos(ImVec2(a[0], a[1]));
  ImGui::SetNextWindowSize(ImVec2(a[2] - a[0], a[3] - a[1]));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, kStripBackground);
  // Where the heatmap is copied under the UI, the window's background would hide it:
  // draw_strip_frame() draws the background around it.
  ImGui::Begin("##timeline", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoScrollWithMouse |
                   (app.timeline.heat.by_image ? ImGuiWindowFlags_NoBackground : 0));
  ImGui::PopStyleVar(3);
  ImGui::PopStyleColor();
  if (app.timeline.scan.state() == TimelineScan::State::ready) {
    draw_timeline_ready(app);
  } else {
    draw_strip_frame(app, ImGui::GetWindowDrawList(), {});
    draw_timeline_status(app);
  }
  ImGui::End();
}

void draw_timeline_ready(App& app) {
  const qc::TimelineFile& file = *app.timeline.scan.file();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const TimelineCells& cells = app.timeline.cells;
  // A PQ or HLG file has a lane for its light (known once its cells are made: from the next tick).
  const StripLayout l =
      strip_layout(app, cells.version == app.timeline.scan.version() && (cells.any_pq || cells.any_hlg), event_rows(file));
  if (file.timeline.columns().empty() || l.heat_bottom - l.heat_top < 4) {
    draw_strip_frame(app, draw, {});
    draw_timeline_status(app);
    return;
  }
  // As many bands as the heatmap has pixel rows, in powers of two from 32 to 256.
  std::uint32_t bands = 256;
  while (bands > 32 && static_cast<float>(bands) > (l.heat_bottom - l.heat_top) * ImGui::GetIO().DisplayFramebufferScale.y) bands /= 2;
  const bool changed = update_cells(app.timeline.cells, file, app.timeline.scan.version(), app.timeline.channel,
                                    app.timeline.log, bands, static_cast<std::uint32_t>(std::max(l.x1 - l.x0, 1.0f)));
  if (app.timeline.heat.by_image) {
    place_heat_image(app, l, changed);
    draw_strip_frame(app, draw, app.timeline.heat.rect);
  } else {
    draw_strip_frame(app, draw, {});
    draw_heat(draw, cells, l);
  }
  if (app.timeline.curves) draw_level_curves(draw, cells, l, app.window.ui_scale);
  draw_events(draw, file, l, cells.frames);
  draw_lanes(draw, cells, l, app.window.ui_scale);
  const double duration = file.duration > 0 ? file.duration
                          : file.frame_rate > 0 ? static_cast<double>(cells.frames) / file.frame_rate
                                                : 0.0;
  draw_ruler(draw, app, l, duration);
  draw_heat_label(draw, app, l);
  draw_playhead(draw, app, l, cells.frames);
  app.timeline.heat_area = {l.x0, l.heat_top, l.x1, l.heat_bottom};
  timeline_pointer(app, l.x0, l.x1);
}

std::optional<Underlay> timeline_underlay(const TimelineView& timeline) {
  const auto& r = timeline.heat.rect;
  if (!timeline.heat.by_image || r[2] <= r[0] || r[3] <= r[1] || timeline.heat.pixels.empty()) {
    return std::nullopt;
  }
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  Underlay u;
  u.stamp = timeline.heat.stamp;
  u.width = timeline.heat.width;
  u.height = timeline.heat.height;
  u.pixels = timeline.heat.pixels.data();
  u.rect = {static_cast<std::int32_t>(std::lround(r[0] * scale.x)), static_cast<std::int32_t>(std::lround(r[1] * scale.y)),
            static_cast<std::int32_t>(std::lround(r[2] * scale.x)), static_cast<std::int32_t>(std::lround(r[3] * scale.y))};
  return u;
}

// While scanning: a progress bar and what it is; else the reason there is no timeline.
void draw_timeline_status(App& app) {
  const auto& a = app.timeline.area;
  const float s = app.window.ui_scale;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at(a[0] + 12 * s, a[1] + 10 * s);
  if (app.timeline.scan.state() == TimelineScan::State::scanning) {
    const std::int64_t done = app.timeline.scan.frames_done(), expected = app.timeline.scan.frames_expected();
    const float share = expected > 0 ? std::clamp(static_cast<float>(done) / static_cast<float>(expected), 0.0f, 1.0f) : 0.0f;
    char text[160];
    if (expected > 0) {
      std::snprintf(text, sizeof text, "Scanning the file for its timeline: %.0f %% (%lld of %lld frames)",
                    static_cast<double>(share * 100), static_cast<long long>(done), static_cast<long long>(expected));
    } else {
      std::snprintf(text, sizeof text, "Scanning the file for its timeline: %lld frames", static_cast<long long>(done));
    }
    draw->AddText(at, kLabel, text);
    const float bar_y = at.y + ImGui::GetTextLineHeight() + 6 * s;
    draw->AddRectFilled(ImVec2(at.x, bar_y), ImVec2(a[2] - 12 * s, bar_y + 6 * s), kLaneBackground, 3 * s);
    draw->AddRectFilled(ImVec2(at.x, bar_y), ImVec2(at.x + (a[2] - 12 * s - at.x) * share, bar_y + 6 * s),
                        IM_COL32(90, 150, 255, 255), 3 * s);
    return;
  }
  const std::string& message = app.timeline.scan.state() == TimelineScan::State::ready
                                    ? std::string("The scan found no frames in this file")
                                    : app.timeline.scan.message();
  draw->AddText(nullptr, 0, at, app.timeline.scan.state() == TimelineScan::State::failed ? IM_COL32(255, 130, 110, 255) : kLabel,
                message.empty() ? "No timeline" : message.c_str(), nullptr, a[2] - at.x - 12 * s);
}

}  // namespace vhist::viewer
