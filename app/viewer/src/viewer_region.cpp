// The region of interest: a rectangle of stored pixels dragged out on the video, which the
// histograms, statistics, CDF and equalization then describe (DrawStyle::region); kept in
// stored pixels, so it follows the picture through resizes, rotation and the fit modes.
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/video_fit.h"
#include "viewer_app.h"

#include <imgui.h>

#include <algorithm>

namespace vhist::viewer {

namespace {

// The rectangle spanned by two stored pixels, both included.
PixelRect span(const std::array<std::uint32_t, 2>& a, const std::array<std::uint32_t, 2>& b) {
  const std::uint32_t x0 = std::min(a[0], b[0]), y0 = std::min(a[1], b[1]);
  return {x0, y0, std::max(a[0], b[0]) - x0 + 1, std::max(a[1], b[1]) - y0 + 1};
}

// The stored pixel under window point (x, y), the point held inside the shown video first (the
// picture area, less a fit's letterbox bars), so a drag past an edge takes the edge's pixels.
std::optional<std::array<std::uint32_t, 2>> pixel_under(const App& app, const DrawStyle& style, ImVec2 point) {
  const auto shape = shown_shape(app);
  if (!shape) return std::nullopt;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 s = io.DisplayFramebufferScale;
  const float fb_w = io.DisplaySize.x * s.x, fb_h = io.DisplaySize.y * s.y;
  const auto& a = app.layout.picture_area;
  const auto r = place_video(style, fb_w, fb_h, shape->shown_w, shape->shown_h).rect;
  const float x0 = std::max(a[0], r[0] / s.x), x1 = std::min(a[2], r[2] / s.x);
  const float y0 = std::max(a[1], r[1] / s.y), y1 = std::min(a[3], r[3] / s.y);
  const float x = std::clamp(point.x, x0, std::max(x0, x1 - 0.5f));
  const float y = std::clamp(point.y, y0, std::max(y0, y1 - 0.5f));
  return stored_pixel_at(style, fb_w, fb_h, *shape, x * s.x, y * s.y);
}

// The stored pixel right under window point (x, y); none off the video.
std::optional<std::array<std::uint32_t, 2>> pixel_at(const App& app, const DrawStyle& style, ImVec2 point) {
  const auto shape = shown_shape(app);
  if (!shape) return std::nullopt;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 s = io.DisplayFramebufferScale;
  return stored_pixel_at(style, io.DisplaySize.x * s.x, io.DisplaySize.y * s.y, *shape, point.x * s.x, point.y * s.y);
}

std::string region_text(const PixelRect& r) {
  return std::to_string(r.x) + "," + std::to_string(r.y) + " " + std::to_string(r.width) + "x" +
         std::to_string(r.height);
}

}  // namespace

void update_region(App& app, const DrawStyle& style, bool over_histogram) {
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    app.pointer.region_anchor.reset();
    app.pointer.region_drag.reset();
    const bool free = !io.WantCaptureMouse && !app.transport.browser.is_open() && !over_histogram && !app.pointer.dragging_divider &&
                      !app.pointer.left_press_spent;
    const auto& a = app.layout.picture_area;
    const ImVec2 m = io.MousePos;
    // On the video only: a press on a letterbox bar starts no region.
    if (free && m.x >= a[0] && m.x < a[2] && m.y >= a[1] && m.y < a[3]) app.pointer.region_anchor = pixel_at(app, style, m);
  }
  if (!app.pointer.region_anchor) return;
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 6.0f * app.window.ui_scale)) {
    if (const auto p = pixel_under(app, style, io.MousePos)) app.pointer.region_drag = span(*app.pointer.region_anchor, *p);
  }
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    if (app.pointer.region_drag) {
      app.pointer.region = app.pointer.region_drag;
      show_message(app, "Region " + region_text(*app.pointer.region) + " (R clears)");
    }
    app.pointer.region_anchor.reset();
    app.pointer.region_drag.reset();
  }
}

void clear_region(App& app) {
  if (!app.pointer.region) return;
  app.pointer.region.reset();
  show_message(app, "Region cleared: the whole frame");
}

void draw_region(const App& app, const DrawStyle& style) {
  const auto shape = shown_shape(app);
  const std::optional<PixelRect> rect = app.pointer.region_drag ? app.pointer.region_drag : app.pointer.region;
  if (!shape || !rect) return;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 s = io.DisplayFramebufferScale;
  const auto r = target_rect_of(style, io.DisplaySize.x * s.x, io.DisplaySize.y * s.y, *shape, *rect);
  const auto& a = app.layout.picture_area;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(a[0], a[1]), ImVec2(a[2], a[3]), true);
  const ImVec2 p0(r[0] / s.x, r[1] / s.y), p1(r[2] / s.x, r[3] / s.y);
  const float t = std::max(1.0f, app.window.ui_scale);
  draw->AddRect(ImVec2(p0.x - t, p0.y - t), ImVec2(p1.x + t, p1.y + t), IM_COL32(0, 0, 0, 200), 0, 0, t);
  draw->AddRect(p0, p1, app.pointer.region_drag ? IM_COL32(255, 255, 255, 160) : IM_COL32(255, 220, 0, 255), 0, 0, t);
  const std::string label = "region " + region_text(*rect);
  const ImVec2 at(p0.x + 4 * t, p0.y + 3 * t), size = ImGui::CalcTextSize(label.c_str());
  draw->AddRectFilled(ImVec2(at.x - 2 * t, at.y - t), ImVec2(at.x + size.x + 2 * t, at.y + size.y + t),
                      IM_COL32(0, 0, 0, 170));
  draw->AddText(at, IM_COL32(255, 220, 0, 255), label.c_str());
  draw->PopClipRect();
}

}  // namespace vhist::viewer
