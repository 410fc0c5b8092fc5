// The window's layout (the panel on the right, the picture left of it), and what the UI draws on
// the picture itself: the collapsed panel's tab, the OSD line, the tooltip over a histogram bin,
// and the screenshot key's file.
//
// The panel sits on the right: the histograms' quads sit at the bottom of the picture, left (RGB)
// and right (luma), so either side would do for them; on the right the picture keeps its left
// edge (where reading and the OSD start) when the panel is shown or hidden, as in DaVinci
// Resolve's inspector and mpv's stats page.
#include "vhist/media/png.h"
#include "vhist/picture/light_scale.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_layout.h"
#include "vhist/util/text.h"
#include "viewer_app.h"
#include "viewer_timeline.h"

#include <imgui.h>
#include <imgui_internal.h>  // the tooltip windows, hidden from a screenshot

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace vhist::viewer {

namespace {

// Errors stay longer: they say what to do.
constexpr double kOsdSeconds = 2.0, kOsdErrorSeconds = 6.0, kOsdFadeSeconds = 0.5;

// A bin of a histogram quad under a point: which quad, which bin, and the channels it draws.
struct HoveredBin {
  std::uint32_t bin = 0;
  std::array<std::uint32_t, 4> channel_mult{};
};

// The bin under (x, y), in framebuffer pixels, from the quads layout_quads() places in the
// style's area; none when the point is on no quad. Kept small so that the picture code's own
// point-to-bin function can replace it.
std::optional<HoveredBin> bin_under(const DrawStyle& style, float fb_w, float fb_h, float x, float y) {
  for (const HistogramQuad& q : layout_quads(style, fb_w, fb_h)) {
    const auto& r = q.rect;
    if (x < r[0] || x >= r[2] || y < r[1] || y >= r[3] || r[2] <= r[0]) continue;
    const auto bin = static_cast<std::uint32_t>((x - r[0]) / (r[2] - r[0]) * static_cast<float>(style.bins));
    return HoveredBin{std::min(bin, style.bins - 1), q.channel_mult};
  }
  return std::nullopt;
}

}  // namespace

float panel_width_for(float width, float scale) {
  return std::min(std::clamp(0.28f * width, 260.0f * scale, 420.0f * scale), 0.5f * width);
}

void update_layout(App& app, float width, float height) {
  app.layout.compact = width <= 640.0f * app.window.ui_scale || height <= 360.0f * app.window.ui_scale;
  // Whole pixels: the picture's area is rounded to them (picture_area()), and the panel must start
  // where it ends, not cover its last column.
  app.layout.panel_width = app.settings.show_panel ? std::round(panel_width_for(width, app.window.ui_scale)) : 0.0f;
  // The timeline strip takes its height from the picture: the whole frame stays in view above it.
  const float strip = timeline_strip_height(app, height);
  app.layout.scope_area = {0.0f, 0.0f, std::max(width - app.layout.panel_width, 1.0f), height - strip};
  app.timeline.area = {0.0f, height - strip, app.layout.scope_area[2], strip > 0 ? height : height - strip};
  const ScopeLayout layout = scope_layout(DrawStyle(app.settings.picture), app.layout.scope_area);
  app.layout.picture_area = app.layout.label_area = layout.picture;
  if (app.settings.picture.scope_place == ScopePlace::over) {
    for (const ScopePanel& p : layout.panels) app.layout.label_area[1] = std::max(app.layout.label_area[1], std::ceil(p.rect[3]) + 2.0f);
  }
}

void draw_panel_tab(App& app) {
  // Its right edge 4 pixels inside the picture's (the pivot: whatever size ImGui gives the
  // window): placed by its left edge for a 22-pixel size, the wider window it gets covered the
  // first columns of the scopes beside the picture. Under the scopes over the picture's top.
  ImGui::SetNextWindowPos(ImVec2(app.layout.label_area[2] - 4.0f, app.layout.label_area[1] + 4.0f), ImGuiCond_Always,
                          ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.5f);
  ImGui::Begin("##panel_tab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::SmallButton("<")) app.settings.show_panel = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the panel (Tab)");
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  app.layout.panel_tab = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
  ImGui::End();
}

double osd_seconds_left(const App& app) {
  if ((!app.settings.osd && !app.osd.error) || app.osd.text.empty()) return 0;
  const double age = std::chrono::duration<double>(std::chrono::steady_clock::now() - app.osd.since).count();
  return std::max(0.0, (app.osd.error ? kOsdErrorSeconds : kOsdSeconds) + kOsdFadeSeconds - age);
}

void draw_osd(App& app) {
  if (!app.settings.osd && !app.osd.error) return;
  if (app.osd.text.empty()) return;
  const double age = std::chrono::duration<double>(std::chrono::steady_clock::now() - app.osd.since).count();
  const double shown = app.osd.error ? kOsdErrorSeconds : kOsdSeconds;
  if (age > shown + kOsdFadeSeconds) return;
  const float alpha = age <= shown ? 1.0f : static_cast<float>(1.0 - (age - shown) / kOsdFadeSeconds);
  const auto& a = app.layout.label_area;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float pad = 6.0f * app.window.ui_scale;
  const ImVec2 at(a[0] + 12.0f * app.window.ui_scale, a[1] + 10.0f * app.window.ui_scale);
  const ImVec2 text = ImGui::CalcTextSize(app.osd.text.c_str(), nullptr, false, a[2] - a[0] - 40.0f * app.window.ui_scale);
  draw->AddRectFilled(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + text.x + pad, at.y + text.y + pad),
                      IM_COL32(0, 0, 0, static_cast<int>(170 * alpha)), 4.0f * app.window.ui_scale);
  const ImU32 colour = app.osd.error ? IM_COL32(255, 110, 100, static_cast<int>(255 * alpha))
                                     : IM_COL32(255, 255, 255, static_cast<int>(255 * alpha));
  draw->AddText(nullptr, 0.0f, at, colour, app.osd.text.c_str(), nullptr, a[2] - a[0] - 40.0f * app.window.ui_scale);
}

void update_range_highlight(App& app, const DrawStyle& style, const FrameStatistics& numbers) {
  const ImGuiIO& io = ImGui::GetIO();
  app.pointer.range_mask = 0;
  std::optional<HoveredBin> hovered;
  if (!io.WantCaptureMouse && !app.transport.browser.is_open() && numbers.valid && !numbers.ycbcr && style.bins != 0) {
    hovered = bin_under(style, io.DisplaySize.x * io.DisplayFramebufferScale.x,
                        io.DisplaySize.y * io.DisplayFramebufferScale.y, io.MousePos.x * io.DisplayFramebufferScale.x,
                        io.MousePos.y * io.DisplayFramebufferScale.y);
  }
  if (!hovered) {
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) app.pointer.range_drag_bin.reset();
    return;
  }
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && !app.pointer.left_press_spent) app.pointer.range_drag_bin = hovered->bin;
  const std::uint32_t from = std::min(hovered->bin, app.pointer.range_drag_bin.value_or(hovered->bin));
  const std::uint32_t to = std::max(hovered->bin, app.pointer.range_drag_bin.value_or(hovered->bin));
  for (std::uint32_t c = 0; c < 4; ++c) app.pointer.range_mask |= hovered->channel_mult[c] != 0 ? 1u << c : 0u;
  const std::uint64_t codes = std::uint64_t{1} << numbers.bits;
  app.pointer.range_low = static_cast<std::uint32_t>(from * codes / style.bins);
  app.pointer.range_high = static_cast<std::uint32_t>((to + 1) * codes / style.bins - 1);
  keep_or_clear_range(app, from != to);
}

void keep_or_clear_range(App& app, bool dragged) {
  // A drag across bins keeps its range lit once the button is released, until a right click on
  // a histogram clears it (or another drag replaces it).
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    if (dragged && app.pointer.range_drag_bin) {
      app.pointer.kept_range = {app.pointer.range_mask, app.pointer.range_low, app.pointer.range_high};
      show_message(app, "Codes " + std::to_string(app.pointer.range_low) + "-" + std::to_string(app.pointer.range_high) +
                            " kept lit (right click on a histogram clears)");
    }
    app.pointer.range_drag_bin.reset();
  }
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) && app.pointer.kept_range) {
    app.pointer.kept_range.reset();
    show_message(app, "Kept range cleared");
  }
}

std::array<std::uint32_t, 3> shown_range(const Pointer& pointer) {
  const std::array<std::uint32_t, 3> hovered{pointer.range_mask, pointer.range_low, pointer.range_high};
  if (pointer.range_mask != 0 && (pointer.range_drag_bin || !pointer.kept_range)) return hovered;
  return pointer.kept_range ? *pointer.kept_range : hovered;
}

namespace {

// The HDR label's text (broken after its colon when too wide for the picture, rather than
// inside "BT.2390"), where it sits (the picture's top right, left of the panel's tab when the
// panel is hidden) and its wrap width; no text for an SDR source.
struct HdrLabel {
  std::string text;
  ImVec2 at, size;
  float wrap = 0;
};

HdrLabel hdr_label(const App& app, const DrawStyle& style) {
  HdrLabel l{hdr_display_text(style.light, style.hdr), {}, {}, 0};
  if (l.text.empty()) return l;
  const auto& a = app.layout.label_area;
  if (const auto colon = l.text.find(": ");
      colon != std::string::npos && ImGui::CalcTextSize(l.text.c_str()).x > 0.6f * (a[2] - a[0])) {
    l.text.replace(colon, 2, ":\n");
  }
  // Left of the collapsed panel's tab (32 pixels wide, 4 inside the picture's edge) by 8.
  const float pad = 4.0f * app.window.ui_scale, right = a[2] - (app.settings.show_panel ? 8.0f : 44.0f) * app.window.ui_scale;
  l.wrap = std::min(std::max(a[2] - a[0] - 24.0f * app.window.ui_scale, 40.0f), 0.6f * (a[2] - a[0]));
  l.size = ImGui::CalcTextSize(l.text.c_str(), nullptr, false, l.wrap);
  l.at = ImVec2(std::max(right - l.size.x, a[0] + pad), a[1] + 8.0f * app.window.ui_scale);
  return l;
}

}  // namespace

float hdr_label_bottom(const App& app, const DrawStyle& style) {
  const HdrLabel l = hdr_label(app, style);
  // Its box (4 past the text) and a gap of 6: the labels below start their boxes 2 above their text.
  return l.text.empty() ? 0.0f : l.at.y + l.size.y + 10.0f * app.window.ui_scale;
}

void draw_hdr_label(const App& app, const DrawStyle& style) {
  const HdrLabel l = hdr_label(app, style);
  if (l.text.empty()) return;
  const float pad = 4.0f * app.window.ui_scale;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(ImVec2(l.at.x - pad, l.at.y - pad), ImVec2(l.at.x + l.size.x + pad, l.at.y + l.size.y + pad),
                      IM_COL32(0, 0, 0, 150), 3.0f * app.window.ui_scale);
  draw->AddText(nullptr, 0.0f, l.at, style.hdr.mapped == LightScale::none ? IM_COL32(255, 200, 90, 255)
                                                                         : IM_COL32(220, 220, 220, 255),
                l.text.c_str(), nullptr, l.wrap);
}

void draw_hover_readout(const App& app, const DrawStyle& style, const FrameStatistics& numbers) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse || app.transport.browser.is_open() || !numbers.valid || style.bins == 0) return;
  const float fb_w = io.DisplaySize.x * io.DisplayFramebufferScale.x;
  const float fb_h = io.DisplaySize.y * io.DisplayFramebufferScale.y;
  const auto hovered = bin_under(style, fb_w, fb_h, io.MousePos.x * io.DisplayFramebufferScale.x,
                                 io.MousePos.y * io.DisplayFramebufferScale.y);
  if (!hovered) return;
  // Codes of the frame's depth in this bin, and the levels (one per code, or per group of codes
  // above 10 bits) that hold them.
  const std::uint64_t codes = std::uint64_t{1} << numbers.bits;
  const std::uint64_t first = hovered->bin * codes / style.bins, last = (hovered->bin + 1) * codes / style.bins - 1;
  const std::uint32_t per_bin = std::max<std::uint32_t>(numbers.levels.bins / style.bins, 1);
  const std::uint64_t pixels = std::max<std::uint64_t>(std::uint64_t{numbers.width} * numbers.height, 1);
  ImGui::BeginTooltip();
  if (first == last) {
    ImGui::Text("code %llu (bin %u of %u)", static_cast<unsigned long long>(first), hovered->bin, style.bins);
  } else {
    ImGui::Text("codes %llu-%llu (bin %u of %u)", static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(last), hovered->bin, style.bins);
  }
  if (numbers.levels.bins == 0) {  // the renderer did not read the levels back this tick
    ImGui::TextDisabled("counts not available");
    ImGui::EndTooltip();
    return;
  }
  for (std::uint32_t c = 0; c < 4; ++c) {
    if (hovered->channel_mult[c] == 0 || *channel_label(c, numbers.ycbcr) == '\0') continue;
    // A chroma plane's share is of its own samples (a quarter of the pixels in 4:2:0).
    const std::uint64_t samples = numbers.levels.total(static_cast<Channel>(c));
    std::uint64_t count = 0;
    for (std::uint32_t l = hovered->bin * per_bin; l < (hovered->bin + 1) * per_bin && l < numbers.levels.bins; ++l) {
      count += numbers.levels.at(static_cast<Channel>(c), l);
    }
    ImGui::Text("%s  %llu  (%.2f%%)", channel_label(c, numbers.ycbcr), static_cast<unsigned long long>(count),
                100.0 * static_cast<double>(count) / static_cast<double>(numbers.ycbcr ? std::max<std::uint64_t>(samples, 1) : pixels));
  }
  // Over an end bin or a clip marker's corner: the share at the end code (what the marker's size shows).
  const auto corner = clip_corner_at(style, fb_w, fb_h, io.MousePos.x * io.DisplayFramebufferScale.x,
                                     io.MousePos.y * io.DisplayFramebufferScale.y);
  if (!numbers.ycbcr && (corner || hovered->bin == 0 || hovered->bin + 1 == style.bins)) {
    ImGui::Separator();
    ImGui::TextUnformatted(
        clip_share_text(numbers.levels, pixels, hovered->channel_mult, corner ? *corner : hovered->bin != 0).c_str());
  }
  ImGui::EndTooltip();
}

void hide_tooltips() {
  for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    if (window->Flags & ImGuiWindowFlags_Tooltip) window->Hidden = true;
  }
}

void save_window_screenshot(App& app, const std::vector<std::uint8_t>& pixels, std::uint32_t width,
                            std::uint32_t height) {
  namespace fs = std::filesystem;
  fs::path folder = fs::current_path();
  std::error_code ec;
  if (const char* pictures = std::getenv("XDG_PICTURES_DIR"); pictures && fs::is_directory(pictures, ec)) {
    folder = pictures;
  }
  const std::string clip = app.transport.player.is_open() ? fs::path(app.transport.player.path()).stem().string() : "vhist";
  const double t = app.transport.player.is_open() ? app.transport.player.clock() : 0.0;
  char stamp[48];
  std::snprintf(stamp, sizeof stamp, "-%02dm%06.3fs", static_cast<int>(t / 60), std::fmod(t, 60.0));
  fs::path file = folder / (clip + stamp + ".png");
  for (int n = 2; fs::exists(file, ec) && n < 1000; ++n) file = folder / (clip + stamp + "-" + std::to_string(n) + ".png");
  media::RgbaImage image{width, height, pixels};
  for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;  // shown opaque
  if (const std::string err = media::write_png(file.string(), image); !err.empty()) {
    show_message(app, "Cannot save the screenshot " + file.string() + ": " + err, true);
    std::fprintf(stderr, "vhist: cannot save the screenshot %s: %s\n", util::printable(file.string()).c_str(),
                 util::printable(err).c_str());
    return;
  }
  show_message(app, "Screenshot saved: " + file.string());
}

}  // namespace vhist::viewer
