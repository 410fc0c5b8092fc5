// The timeline's behaviour beside its drawing (viewer_timeline.cpp): starting and stopping the
// background scan with the file open, the pointer over the strip (tooltip, seek), the panel's
// section with the events, and the keys that jump between events.
#include "viewer_app.h"
#include "viewer_timeline.h"

#include "vhist/viewer/panel_widgets.h"
#include "vhist/viewer/settings_table.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace vhist::viewer {

namespace {

// Seeks to frame `frame` of the timeline (its time as the scan read it) and names it on the OSD.
void seek_to_frame(App& app, std::int64_t frame, const std::string& why) {
  const qc::TimelineFile* file = app.timeline.scan.file();
  if (!file || frame < 0 || frame >= static_cast<std::int64_t>(file->timeline.frames().size())) return;
  const double pts = file->timeline.frames()[static_cast<std::size_t>(frame)].pts;
  // Just before the frame's time: the player shows the first frame at or after it.
  const double early = file->frame_rate > 0 ? 0.25 / file->frame_rate : 0.001;
  app.transport.player.seek(std::max(pts - early, 0.0));
  app.transport.announce_frame = why;
  app.timeline.target = frame;
}

std::string level_text(float percent) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%.1f %%", static_cast<double>(percent));
  return buf;
}

std::string share_text(float share) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%.3g %%", static_cast<double>(share) * 100);
  return buf;
}

// The display column holding `frame`.
const TimelineColumnMeasures* column_of(const TimelineCells& cells, std::int64_t frame) {
  const auto it = std::upper_bound(cells.measures.begin(), cells.measures.end(), frame,
                                   [](std::int64_t f, const TimelineColumnMeasures& m) { return f < m.first_frame; });
  return it == cells.measures.begin() ? nullptr : &*(it - 1);
}

void draw_column_tooltip(const App& app, std::int64_t frame) {
  const qc::TimelineFile& file = *app.timeline.scan.file();
  const TimelineColumnMeasures* m = column_of(app.timeline.cells, frame);
  if (!m) return;
  const double pts = file.timeline.frames()[static_cast<std::size_t>(frame)].pts;
  ImGui::PushStyleColor(ImGuiCol_PopupBg, IM_COL32(24, 25, 30, 250));  // opaque: over the panel's text too
  ImGui::BeginTooltip();
  ImGui::Text("%s   %s   frame %lld", format_time(pts).c_str(), qc::timecode_from_time(pts, file.frame_rate).c_str(),
              static_cast<long long>(frame));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (m->last_frame > m->first_frame) {
    ImGui::Text("column: frames %lld to %lld", static_cast<long long>(m->first_frame), static_cast<long long>(m->last_frame));
  }
  ImGui::PopStyleColor();
  ImGui::Text("Y'  min %s  p10 %s  mean %s  p90 %s  max %s", level_text(m->y_min).c_str(), level_text(m->y_p10).c_str(),
              level_text(m->y_mean).c_str(), level_text(m->y_p90).c_str(), level_text(m->y_max).c_str());
  ImGui::Text("clipped  low %s  high %s", share_text(m->clip_low).c_str(), share_text(m->clip_high).c_str());
  ImGui::Text("outside R 103  Y' %s  R'G'B' %s", share_text(m->r103_luma).c_str(), share_text(m->r103_rgb).c_str());
  if (m->pq) ImGui::Text("light  MaxCLL %.0f cd/m2  FALL %.0f cd/m2", static_cast<double>(m->max_cll), static_cast<double>(m->fall));
  if (m->hlg) {
    ImGui::Text("light (HLG on BT.2100's 1000 cd/m2 reference display)  MaxCLL %.0f cd/m2  FALL %.0f cd/m2",
                static_cast<double>(m->max_cll), static_cast<double>(m->fall));
  }
  for (const qc::Event& e : file.events) {
    if (e.last_frame < m->first_frame || e.first_frame > m->last_frame) continue;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(event_colour(e.check)), "%s: %s",
                       std::string(qc::check_title(e.check)).c_str(), e.detail.c_str());
  }
  ImGui::EndTooltip();
  ImGui::PopStyleColor();
}

// The events in order of their first frame.
std::vector<const qc::Event*> events_in_order(const qc::TimelineFile& file) {
  std::vector<const qc::Event*> events;
  for (const qc::Event& e : file.events) events.push_back(&e);
  std::stable_sort(events.begin(), events.end(),
                   [](const qc::Event* a, const qc::Event* b) { return a->first_frame < b->first_frame; });
  return events;
}

void draw_event_list(App& app, const qc::TimelineFile& file) {
  const std::vector<const qc::Event*> events = events_in_order(file);
  if (events.empty()) {
    ImGui::TextDisabled("No QC events in this file");
    return;
  }
  ImGui::Text("%zu event%s (PgUp / PgDn: previous / next)", events.size(), events.size() == 1 ? "" : "s");
  const float row = ImGui::GetTextLineHeightWithSpacing();
  const float height = row * static_cast<float>(std::min<std::size_t>(events.size(), app.layout.compact ? 3 : 8)) + 4;
  ImGui::BeginChild("##timeline_events", ImVec2(0, height), true);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const qc::Event& e = *events[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(event_colour(e.check)), "%s", e.fails ? "FAIL" : "note");
    ImGui::SameLine();
    char label[256];
    std::snprintf(label, sizeof label, "%s  %s-%s  worst %.3g %s", std::string(qc::check_title(e.check)).c_str(),
                  e.start_timecode.c_str(), e.end_timecode.c_str(), e.worst, e.unit.c_str());
    const std::int64_t shown = timeline_frame_shown(app);
    const bool here = shown >= e.first_frame && shown <= e.last_frame;
    if (ImGui::Selectable(label, here)) seek_to_frame(app, e.first_frame, std::string(qc::check_title(e.check)));
    if (ImGui::IsItemHovered() && !e.detail.empty()) ImGui::SetTooltip("%s", e.detail.c_str());
    ImGui::PopID();
  }
  ImGui::EndChild();
}

void draw_timeline_choices(TimelineView& timeline) {
  static const char* const kChannels[] = {"R'", "G'", "B'", "luma"};
  int channel = static_cast<int>(timeline.channel);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("luma").x + ImGui::GetFrameHeight() * 2);
  if (ImGui::Combo("##timeline_channel", &channel, kChannels, 4)) timeline.channel = static_cast<TimelineChannel>(channel);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The heatmap's channel");
  ImGui::SameLine();
  ImGui::Checkbox("log##timeline", &timeline.log);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Log: log(1 + count) in each column; off: linear. Each column is scaled to its busiest level");
  same_line_if_room(ImGui::CalcTextSize("curves").x + ImGui::GetFrameHeight() * 1.5f);
  ImGui::Checkbox("curves", &timeline.curves);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Y' over the heatmap: mean (white), 10th and 90th percentiles (green), min and max (blue)");
  same_line_if_room(ImGui::CalcTextSize("shares").x + ImGui::GetFrameHeight() * 1.5f);
  ImGui::Checkbox("shares", &timeline.shares);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("The lane under the heatmap: pixels clipped low (blue) and high (red), outside R 103 in Y' "
                      "(orange) and in R'G'B' (magenta); a PQ or HLG file's MaxCLL and FALL in a lane of their own "
                      "(HLG's as shown on BT.2100's 1000 cd/m2 reference display)");
  }
}

}  // namespace

std::int64_t timeline_frame_shown(const App& app) {
  const qc::TimelineFile* file = app.timeline.scan.file();
  if (!file || !app.transport.player.frame() || file->timeline.frames().empty()) return -1;
  const auto& frames = file->timeline.frames();
  // Half a frame of slack: the player's and the scan's times of one frame are the same stream's.
  const double slack = file->frame_rate > 0 ? 0.5 / file->frame_rate : 0.001;
  const double pts = app.transport.player.frame()->pts + slack;
  const auto it = std::upper_bound(frames.begin(), frames.end(), pts,
                                   [](double t, const qc::QcFrame& f) { return t < f.pts; });
  return it == frames.begin() ? 0 : (it - 1)->frame;
}

void poll_timeline(App& app) {
  const bool wanted = app.settings.timeline && app.transport.player.is_open();
  if (!wanted) {
    if (app.timeline.scan.state() != TimelineScan::State::none) app.timeline.scan.stop();
    return;
  }
  if (app.timeline.scan.state() == TimelineScan::State::none || app.timeline.scan.input() != app.transport.player.path()) {
    app.timeline.scan.start(app.transport.player.path(), app.transport.player.live());
  }
  app.timeline.scan.poll();
}

void timeline_pointer(App& app, float x0, float x1) {
  const auto& a = app.timeline.area;
  const std::int64_t frames = app.timeline.cells.frames;
  if (frames <= 0 || x1 <= x0) return;
  ImGui::SetCursorScreenPos(ImVec2(x0, a[1]));
  ImGui::InvisibleButton("##timeline_strip", ImVec2(x1 - x0, a[3] - a[1]));
  const float share = (ImGui::GetIO().MousePos.x - x0) / (x1 - x0);
  const auto frame = std::clamp(static_cast<std::int64_t>(std::floor(share * static_cast<float>(frames))),
                                std::int64_t{0}, frames - 1);
  if (ImGui::IsItemActive()) {
    if (frame != app.timeline.drag_frame) seek_to_frame(app, frame, "Timeline");
    app.timeline.drag_frame = frame;
    return;
  }
  app.timeline.drag_frame = -1;
  if (ImGui::IsItemHovered()) draw_column_tooltip(app, frame);
}

void jump_to_event(App& app, int direction) {
  const qc::TimelineFile* file = app.timeline.scan.file();
  if (!file || !app.transport.player.is_open()) {
    show_message(app, app.timeline.scan.state() == TimelineScan::State::scanning ? "No events yet: the timeline is being scanned"
                                                                           : "No events: no timeline");
    return;
  }
  // Where we are: the frame shown, or the one a jump is still on its way to.
  std::int64_t here = std::max<std::int64_t>(timeline_frame_shown(app), 0);
  if (app.transport.player.awaiting_frame() && app.timeline.target >= 0) here = app.timeline.target;
  const std::vector<const qc::Event*> events = events_in_order(*file);
  const qc::Event* to = nullptr;
  if (direction > 0) {
    for (const qc::Event* e : events) {
      if (e->first_frame > here) {
        to = e;
        break;
      }
    }
  } else {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if ((*it)->first_frame < here) {
        to = *it;
        break;
      }
    }
  }
  if (!to) {
    show_message(app, events.empty() ? "No QC events in this file" : direction > 0 ? "No event after this frame" : "No event before this frame");
    return;
  }
  seek_to_frame(app, to->first_frame, std::string(qc::check_title(to->check)));
}

void draw_timeline_section(App& app) {
  if (!app.transport.player.is_open()) return;
  ImGui::Separator();
  setting_widget(SettingId::timeline, app.settings);
  ImGui::SameLine();
  const TimelineScan& scan = app.timeline.scan;
  switch (scan.state()) {
    case TimelineScan::State::none: ImGui::TextDisabled("off"); return;
    case TimelineScan::State::live: ImGui::TextDisabled("none for live input"); return;
    case TimelineScan::State::scanning:
      if (scan.frames_expected() > 0) {  // before the scan's first report the count is unknown
        ImGui::TextDisabled("scanning: %lld of %lld frames", static_cast<long long>(scan.frames_done()),
                            static_cast<long long>(scan.frames_expected()));
      } else {
        ImGui::TextDisabled("scanning: %lld frames", static_cast<long long>(scan.frames_done()));
      }
      return;
    case TimelineScan::State::failed:
      ImGui::NewLine();
      ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", scan.message().c_str());
      return;
    case TimelineScan::State::ready: break;
  }
  const qc::TimelineFile& file = *scan.file();
  ImGui::TextDisabled("%zu frames%s", file.timeline.frames().size(), scan.from_cache() ? ", from the cache" : "");
  draw_timeline_choices(app.timeline);
  if (!app.layout.compact || !file.events.empty()) draw_event_list(app, file);
}

}  // namespace vhist::viewer
