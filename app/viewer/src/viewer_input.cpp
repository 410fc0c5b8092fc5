// What the person does to the window: keys (mpv's where mpv has one), a dropped file, a double
// click; and opening a file, whose failure is shown in the window (OSD and panel), not only on
// stderr. Each action that changes what is seen says so on the OSD, so the panel may stay hidden.
#include "vhist/camera_options/camera_options.h"
#include "vhist/compute/colour_names.h"
#include "vhist/compute/source_measures.h"
#include "vhist/picture/light_scale.h"
#include "vhist/viewer/settings_table.h"
#include "viewer_app.h"
#include "viewer_hwdec.h"
#include "viewer_timeline.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

namespace vhist::viewer {

namespace {

// A double click: two presses of the left button within this many seconds.
constexpr double kDoubleClickSeconds = 0.4;

void toggle_fullscreen(App& app) {
  ++app.window.fullscreen_toggles;
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!app.window.fullscreen && monitor) {
    glfwGetWindowPos(app.window.handle, &app.window.windowed[0], &app.window.windowed[1]);
    glfwGetWindowSize(app.window.handle, &app.window.windowed[2], &app.window.windowed[3]);
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    glfwSetWindowMonitor(app.window.handle, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    app.window.fullscreen = true;
  } else if (app.window.fullscreen) {
    glfwSetWindowMonitor(app.window.handle, nullptr, app.window.windowed[0], app.window.windowed[1], app.window.windowed[2], app.window.windowed[3], 0);
    app.window.fullscreen = false;
  }
}

// Seeks as mpv's default input.conf does: Left/Right 5 s, Up/Down 60 s, the wheel 10 s a notch.
constexpr double kSeekShort = 5, kSeekLong = 60, kSeekWheel = 10;

void seek_by(App& app, double seconds) {
  Player& p = app.transport.player;
  if (!p.is_open()) return;
  if (p.live()) {
    show_message(app, "A camera cannot seek");
    return;
  }
  p.seek(std::max(0.0, p.clock() + seconds));
  app.transport.announce_frame = seconds < 0 ? "Seek back" : "Seek";
}

// The wheel over the picture (histograms included) seeks, 10 s a notch as in mpv; over the panel
// it scrolls the panel (ImGui's). A touchpad's fractions add up to whole notches.
void on_scroll(GLFWwindow* window, double, double y) {
  auto& app = *static_cast<App*>(glfwGetWindowUserPointer(window));
  if (ImGui::GetIO().WantCaptureMouse || app.transport.browser.is_open()) return;
  app.pointer.scroll_notches += y;
  while (app.pointer.scroll_notches >= 1 || app.pointer.scroll_notches <= -1) {
    const double step = app.pointer.scroll_notches > 0 ? 1 : -1;
    app.pointer.scroll_notches -= step;
    seek_by(app, step * kSeekWheel);
  }
}

// Esc, as in mpv and ImGui apps: closes what is open first (the file browser or a dropdown), then
// leaves fullscreen. It never quits: q does. Done here rather than left to ImGui, whose 1.86
// misses a key pressed and released between two frames (a quick tap at a low frame rate).
void on_escape(App& app) {
  if (app.transport.browser.is_open() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
    app.window.close_popups = true;
    return;
  }
  if (app.window.fullscreen) toggle_fullscreen(app);
}

std::string on_off(bool on) { return on ? "on" : "off"; }

// The OSD line for a setting's key, after the key changed it.
std::string key_message(const SettingRow& row, const Settings& s) {
  const PictureOptions& o = s.picture;
  switch (const SettingId id = setting_id(row)) {
    case SettingId::channel_r:
    case SettingId::channel_g:
    case SettingId::channel_b:
    case SettingId::channel_l: {
      const char* names[] = {"red", "green", "blue", "luma"};
      const auto c = static_cast<std::size_t>(id) - static_cast<std::size_t>(SettingId::channel_r);
      return std::string("Channel ") + names[c] + " " + on_off(o.channels[c]);
    }
    case SettingId::cdf: return "Cumulative histogram: " + std::string(to_string(o.cdf[0]));
    case SettingId::equalize: return "Equalize: " + std::string(to_string(o.equalize));
    case SettingId::guides: return "Legal-range guides " + on_off(o.guides);
    case SettingId::light_axis: return "HDR axis in " + std::string(to_string(o.light_axis));
    case SettingId::zebra: return "Zebra " + std::string(to_string(o.zebra));
    case SettingId::false_colour: return "False colour " + on_off(o.false_colour);
    case SettingId::domain: return o.domain == Domain::ycbcr ? "Histograms of the Y'CbCr planes" : "Histograms of R'G'B'";
    case SettingId::split_view: return "Split view " + on_off(o.split_view);
    case SettingId::show_panel: return {};  // the panel itself shows or goes
    // With a frame shown, update_fit says it again with what it hides.
    case SettingId::fit: return "Fit: " + std::string(to_string(o.fit));
    case SettingId::match: return s.match ? "Matching on" : "Matching off";
    case SettingId::speed:
    case SettingId::speed_down:
    case SettingId::speed_up: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "Speed %.2fx", static_cast<double>(s.speed));
      return buf;
    }
    default: break;
  }
  // Any other row: its label (or name) in words, and on/off rather than true/false.
  std::string what(row.label.empty() || row.label.starts_with("##") ? row.name : row.label);
  std::replace(what.begin(), what.end(), '_', ' ');
  std::string value = setting_text(row, s);
  if (value == "true" || value == "false") value = value == "true" ? "on" : "off";
  return what + " " + value;
}

// Why a setting's key does not apply to what is shown (and so changes nothing); empty: it applies.
std::string key_not_applicable(const App& app, const SettingRow& row) {
  const media::DecodedFrame* frame = app.transport.player.is_open() && app.transport.player.frame() ? &*app.transport.player.frame() : nullptr;
  const SettingId id = setting_id(row);
  if (id == SettingId::light_axis && frame && light_scale_of(frame->colour.transfer.value) == LightScale::none) {
    // The transfer as people say it (BT.709), not FFmpeg's identifier (bt709).
    return "HDR axis: only for PQ or HLG video (this one's transfer is " +
           std::string(spoken_colour(frame->colour.transfer)) + "); nothing changed";
  }
  if (id == SettingId::domain && app.settings.picture.domain == Domain::rgb && frame && !has_planes(frame->format)) {
    return "Y'CbCr histograms: this video is stored as " + frame->format.pixel_format +
           ", without Y'CbCr planes; nothing changed";
  }
  if (id == SettingId::match && !app.settings.match && !app.reference.kept) {
    return "Matching needs a reference: keep one first (K); nothing changed";
  }
  return {};
}

// Keys that act on playback and the window; returns false for the others.
bool action_key(App& app, int key, int mods, int action) {
  Player& p = app.transport.player;
  switch (key) {
    case GLFW_KEY_SPACE:
      p.set_paused(!p.paused());
      show_message(app, p.paused() ? "Paused" : "Playing");
      return true;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT: seek_by(app, key == GLFW_KEY_LEFT ? -kSeekShort : kSeekShort); return true;
    case GLFW_KEY_UP:
    case GLFW_KEY_DOWN: seek_by(app, key == GLFW_KEY_DOWN ? -kSeekLong : kSeekLong); return true;
    case GLFW_KEY_I:
      if (action != GLFW_PRESS) return true;
      app.stats.shown = !app.stats.shown;
      show_message(app, app.stats.shown ? "Stats page on (i hides it)" : "Stats page off");
      return true;
    case GLFW_KEY_COMMA:
    case GLFW_KEY_PERIOD:
      key == GLFW_KEY_COMMA ? p.step_back() : p.step_forward();
      app.transport.announce_frame = key == GLFW_KEY_COMMA ? "Step back" : "Step";
      return true;
    case GLFW_KEY_BACKSPACE:
      app.settings.speed = 1.0f;
      show_message(app, "Speed 1.00x");
      return true;
    case GLFW_KEY_F:
      if (action == GLFW_PRESS && mods == 0) toggle_fullscreen(app);
      return true;
    case GLFW_KEY_S:
      if (action == GLFW_PRESS) app.window.screenshot_requested = true;
      return true;
    case GLFW_KEY_K:
      if (action != GLFW_PRESS) return true;
      if (mods & GLFW_MOD_SHIFT) {
        drop_reference(app);
      } else {
        app.reference.keep_requested = true;
      }
      return true;
    case GLFW_KEY_R:
      if (action == GLFW_PRESS) clear_region(app);
      return true;
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_PAGE_DOWN: jump_to_event(app, key == GLFW_KEY_PAGE_DOWN ? 1 : -1); return true;
    case GLFW_KEY_Q: app.window.quit = true; return true;
    case GLFW_KEY_ESCAPE:
      if (action == GLFW_PRESS) on_escape(app);
      return true;
    default: return false;
  }
}

void on_key(GLFWwindow* window, int key, int, int action, int mods) {
  auto& app = *static_cast<App*>(glfwGetWindowUserPointer(window));
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  if (ImGui::GetIO().WantTextInput) return;  // typing in a text field
  // The dialog has the keys, but for Esc (which it handles) and the screenshot.
  if (app.transport.browser.is_open() && key != GLFW_KEY_ESCAPE && key != GLFW_KEY_S) return;
  if (action_key(app, key, mods, action)) return;
  for (const SettingRow& row : setting_rows()) {
    if (row.key != key) continue;
    if (std::string why = key_not_applicable(app, row); !why.empty()) {
      show_message(app, std::move(why));
      continue;
    }
    press_key(row, app.settings);
    if (setting_id(row) == SettingId::fit) app.picture.announce_fit = true;
    std::string text = key_message(row, app.settings);
    if (!text.empty()) show_message(app, std::move(text));
  }
}

void on_drop(GLFWwindow* window, int count, const char** paths) {
  auto& app = *static_cast<App*>(glfwGetWindowUserPointer(window));
  if (count > 0) app.transport.pending_open = paths[0];
}

// A double click on the picture (not on the panel or a dialog) toggles fullscreen, as in mpv.
void on_mouse_button(GLFWwindow* window, int button, int action, int) {
  auto& app = *static_cast<App*>(glfwGetWindowUserPointer(window));
  if (button != GLFW_MOUSE_BUTTON_LEFT || action != GLFW_PRESS) return;
  const double now = glfwGetTime();
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  const auto& a = app.layout.picture_area;
  const bool on_picture = x >= a[0] && x < a[2] && y >= a[1] && y < a[3] && !ImGui::GetIO().WantCaptureMouse;
  if (on_picture && now - app.pointer.last_click_time <= kDoubleClickSeconds) {
    toggle_fullscreen(app);
    app.pointer.last_click_time = -1;
    // A double click is a fullscreen toggle and nothing else: its first click's pin is dropped,
    // and this press (held while the window changes size under the pointer) drags nothing.
    // At a low frame rate ImGui may see both clicks as one press: what the first began ends here.
    app.pointer.pending_pin.reset();
    app.pointer.region_anchor.reset();
    app.pointer.region_drag.reset();
    app.pointer.range_drag_bin.reset();
    app.pointer.left_press_spent = true;
    return;
  }
  app.pointer.last_click_time = on_picture ? now : -1;
}

}  // namespace

void settle_clicks(Pointer& pointer) {
  if (pointer.pending_pin && glfwGetTime() - pointer.last_click_time > kDoubleClickSeconds) {
    pointer.pinned_pixel = std::exchange(pointer.pending_pin, std::nullopt);
  }
  if (pointer.left_press_spent && !ImGui::IsMouseDown(ImGuiMouseButton_Left) &&
      !ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    pointer.left_press_spent = false;
  }
}

void show_message(App& app, std::string text, bool error) {
  app.osd.text = std::move(text);
  app.osd.since = std::chrono::steady_clock::now();
  app.osd.error = error;
  if (app.osd.log.size() >= 16) app.osd.log.erase(app.osd.log.begin());
  app.osd.log.push_back(app.osd.text);
  if (error) app.transport.error = app.osd.text;
}

void open_file(App& app, const std::string& path, std::optional<int> stream) {
  app.transport.open_path = path;
  try {
    if (media::is_camera_path(path)) {
      app.transport.player.open_camera(path, cli::camera_options(app.options.common));
      note_camera_decoding(app);
    } else {
      // --stream names a stream of the file given on the command line only.
      open_player(app, path, stream.value_or(path == app.options.common.input ? app.options.common.stream : -1));
    }
    app.transport.player.set_loop(app.settings.loop);
    app.transport.player.set_speed(app.settings.speed);
    app.transport.player.set_paused(false);
    app.transport.error.clear();
    app.transport.camera_connected = true;
    app.pointer.region.reset();  // a region of the last file's pixels
    app.pointer.pinned_pixel.reset();
    app.timeline.scan.stop();  // poll_timeline() starts it for this file: from the cache when it is there
    if (!app.transport.player.live()) remember_recent(app.settings, path);
    const std::string name = std::filesystem::path(path).filename().string();
    const std::string title = "vhist - " + name;
    if (app.window.handle) glfwSetWindowTitle(app.window.handle, title.c_str());
    show_message(app, "Opened " + name);
    announce_decoder(app);  // --hwdec: why the CPU decodes it, when it does
  } catch (const media::MediaError& e) {
    show_message(app, e.what(), true);
    std::fprintf(stderr, "vhist: %s\n", e.what());
    // The file still playing (the error names the one that failed); with none, what was asked
    // for stays in the field to be corrected.
    if (app.transport.player.is_open()) app.transport.open_path = app.transport.player.path();
  }
}

void install_callbacks(GLFWwindow* window) {
  glfwSetKeyCallback(window, on_key);
  glfwSetDropCallback(window, on_drop);
  glfwSetMouseButtonCallback(window, on_mouse_button);
  glfwSetScrollCallback(window, on_scroll);
}

}  // namespace vhist::viewer
