// How the video sits in the picture, as the viewer shows it: the fit mode's note when part of the
// frame is hidden (on the picture and in the panel), the OSD line when the key changes the mode,
// 1:1's pan by a middle-button drag, and the pinned pixel's mark on the picture. The placement
// itself is video_fit.h's, the one the composite draws with.
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/video_fit.h"
#include "vhist/viewer/panel_widgets.h"
#include "viewer_app.h"

#include <imgui.h>

#include <algorithm>

namespace vhist::viewer {

namespace {

// The placement drawn this tick, in framebuffer pixels; none without a frame.
std::optional<VideoPlacement> placement_of(const App& app, const DrawStyle& style) {
  const auto shape = shown_shape(app);
  if (!shape) return std::nullopt;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 s = io.DisplayFramebufferScale;
  return place_video(style, io.DisplaySize.x * s.x, io.DisplaySize.y * s.y, shape->shown_w, shape->shown_h);
}

// A middle-button drag that started on the picture moves a 1:1 picture with the pointer.
void update_pan(App& app, const DrawStyle& style) {
  const ImGuiIO& io = ImGui::GetIO();
  const auto& a = app.layout.picture_area;
  const ImVec2 m = io.MousePos;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) {
    // The press's own tick moves nothing: its delta is the pointer's way to where it pressed.
    app.pointer.panning = style.fit == FitMode::actual && !io.WantCaptureMouse && !app.transport.browser.is_open() && m.x >= a[0] &&
                  m.x < a[2] && m.y >= a[1] && m.y < a[3];
    return;
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Middle)) app.pointer.panning = false;
  if (!app.pointer.panning) return;
  app.picture.pan[0] += io.MouseDelta.x * io.DisplayFramebufferScale.x;
  app.picture.pan[1] += io.MouseDelta.y * io.DisplayFramebufferScale.y;
  ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
}

}  // namespace

void update_fit(App& app, DrawStyle style) {
  update_pan(app, style);
  style.pan = app.picture.pan;
  const auto placement = placement_of(app, style);
  if (!placement) {
    app.picture.fit_note.clear();
    app.picture.announce_fit = false;
    return;
  }
  // Held where the picture ends, so that dragging past an edge does not store a pan that must be
  // dragged back first.
  if (placement->mode == FitMode::actual) app.picture.pan = placement->pan;
  const bool region = app.pointer.region.has_value() && !style.ycbcr;
  app.picture.fit_note = hidden_note(*placement, region);
  if (std::exchange(app.picture.announce_fit, false)) show_message(app, fit_message(style.fit, *placement, region));
}

void draw_fit_note(const App& app) {
  if (app.picture.fit_note.empty()) return;
  const auto& a = app.layout.label_area;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const float t = app.window.ui_scale, wrap = (a[2] - a[0]) * 0.6f;
  const ImVec2 size = ImGui::CalcTextSize(app.picture.fit_note.c_str(), nullptr, false, wrap);
  // Top right, below the collapsed panel's tab, the HDR label and the split view's labels.
  const float labels = std::max(a[1] + (a[3] - a[1]) * 0.02f, app.layout.top_labels_from);
  const float top = std::max(a[1] + 32.0f * t, labels + ImGui::GetTextLineHeight() + 10.0f * t);
  const ImVec2 at(std::max(a[0] + 4.0f * t, a[2] - size.x - 12.0f * t), top);
  draw->AddRectFilled(ImVec2(at.x - 5 * t, at.y - 3 * t), ImVec2(at.x + size.x + 5 * t, at.y + size.y + 3 * t),
                      IM_COL32(0, 0, 0, 170), 3 * t);
  draw->AddText(nullptr, 0.0f, at, IM_COL32(255, 200, 80, 255), app.picture.fit_note.c_str(), nullptr, wrap);
}

void draw_fit_line(App& app) {
  setting_widget(SettingId::fit, app.settings, ImGui::GetFontSize() * 6);
  ImGui::SameLine();
  if (app.picture.fit_note.empty()) {
    ImGui::TextDisabled("all shown (A)");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.35f, 1));
  ImGui::NewLine();
  text_wrapped_at_spaces("%s", app.picture.fit_note.c_str());
  ImGui::PopStyleColor();
}

void draw_pinned_mark(const App& app, const DrawStyle& style) {
  const auto shape = shown_shape(app);
  if (!shape || !app.pointer.pinned_pixel) return;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 s = io.DisplayFramebufferScale;
  const PixelRect pixel{(*app.pointer.pinned_pixel)[0], (*app.pointer.pinned_pixel)[1], 1, 1};
  const auto r = target_rect_of(style, io.DisplaySize.x * s.x, io.DisplaySize.y * s.y, *shape, pixel);
  const ImVec2 c((r[0] + r[2]) / 2 / s.x, (r[1] + r[3]) / 2 / s.y);
  const auto& a = app.layout.picture_area;
  const float t = std::max(1.0f, app.window.ui_scale);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  if (c.x < a[0] || c.x >= a[2] || c.y < a[1] || c.y >= a[3]) {
    // Cropped away (cover, or 1:1 panned): an arrow at the picture's edge points where it is.
    const float m = 10.0f * t;
    const ImVec2 at(std::clamp(c.x, a[0] + m, a[2] - m), std::clamp(c.y, a[1] + m, a[3] - m));
    const ImVec2 d(c.x < a[0] ? -1.0f : c.x >= a[2] ? 1.0f : 0.0f, c.y < a[1] ? -1.0f : c.y >= a[3] ? 1.0f : 0.0f);
    const ImVec2 tip(at.x + d.x * 6 * t, at.y + d.y * 6 * t);
    const ImVec2 side(-d.y * 5 * t, d.x * 5 * t), back(-d.x * 4 * t, -d.y * 4 * t);  // across and behind the tip
    const ImVec2 p1(at.x + back.x + side.x, at.y + back.y + side.y), p2(at.x + back.x - side.x, at.y + back.y - side.y);
    draw->AddTriangleFilled(tip, p1, p2, IM_COL32(255, 220, 0, 255));
    draw->AddTriangle(tip, p1, p2, IM_COL32(0, 0, 0, 220), t);
    return;
  }
  draw->PushClipRect(ImVec2(a[0], a[1]), ImVec2(a[2], a[3]), true);
  // A box around the pixel (at least 7 screen pixels across) and four ticks pointing at it, in
  // yellow over a black outline, so it reads over any colour.
  const float half = std::max({3.5f * t, (r[2] - r[0]) / 2 / s.x + t, (r[3] - r[1]) / 2 / s.y + t});
  const float tick = 6.0f * t;
  for (const auto& [colour, width] : {std::pair{IM_COL32(0, 0, 0, 220), 3 * t}, std::pair{IM_COL32(255, 220, 0, 255), t}}) {
    draw->AddRect(ImVec2(c.x - half, c.y - half), ImVec2(c.x + half, c.y + half), colour, 0, 0, width);
    draw->AddLine(ImVec2(c.x - half - tick, c.y), ImVec2(c.x - half, c.y), colour, width);
    draw->AddLine(ImVec2(c.x + half, c.y), ImVec2(c.x + half + tick, c.y), colour, width);
    draw->AddLine(ImVec2(c.x, c.y - half - tick), ImVec2(c.x, c.y - half), colour, width);
    draw->AddLine(ImVec2(c.x, c.y + half), ImVec2(c.x, c.y + half + tick), colour, width);
  }
  draw->PopClipRect();
}

}  // namespace vhist::viewer
