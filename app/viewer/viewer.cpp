#include "viewer/viewer.h"

#include "cli.h"
#include "media/camera.h"
#include "media/png.h"
#include "viewer/file_browser.h"
#include "viewer/player.h"
#include "viewer/presenter.h"
#include "viewer/settings.h"

#include "vhist/render/context.h"
#include "vhist/render/swapchain.h"
#include "vhist/render/vk_check.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace vhist::viewer {

namespace {

constexpr const char* kUsage = R"(usage: vhist [INPUT] [options]

Plays INPUT (a local video file; without one, the bundled demo clip) in a window with its R, G,
B and luma histograms drawn over the video.

Options:
  --size WxH          window size in screen coordinates (default: as last time, 1280x720)
  --channels SET      histogram channels drawn, any of r, g, b, l (e.g. rgb, l)
  --layout L          split (RGB bottom left, luma bottom right), overlay (one quad), stacked
  --cdf SPEC          draw the cumulative histogram: over (a curve over the histogram),
                      instead (its area instead of the histogram) or off, for all channels,
                      or per channel set as in "l:over,rgb:instead"
  --equalize MODE     equalize the picture shown: luma (hue kept), channels (each of R, G, B)
                      or off
  --split POS         show the equalized picture right of a divider at POS (0..1 of the width)
                      and the original left of it (implies --equalize luma unless given)
  --paused-at T       open paused at time T (seconds or [HH:]MM:SS[.fff])
  --no-vsync          present without waiting for the display (MAILBOX or IMMEDIATE if offered)
  --frames N          render N frames, then exit (for tests and scripts)
  --screenshot FILE   save the last rendered frame, exactly as shown, as PNG
  --device SEL        Vulkan device: an index from --list-devices or part of its name
  --camera            open the first camera (V4L2 capture device); or give its /dev/videoN as INPUT
  --camera-format F   the camera's pixel format: a V4L2 fourcc (YUYV, NV12, MJPG ...)
  --camera-size WxH   the camera's frame size
  --camera-fps N      the camera's frame rate
  --exercise-window   (tests) resize, minimize and restore the window while rendering
  --quit-after T      (tests) run for T seconds, then exit with the --frames summary
  --resize-storm N    (tests) N resize and minimize events while playing, one every 3 frames

Keys: space play/pause, left/right seek 5 s, comma/period step one frame, 1-4 toggle R G B L,
C cycle the cumulative histogram (off, over, instead), E cycle equalization (off, luma,
channels), S split view (drag the divider), Tab show/hide the panel, F fullscreen, Q or Esc
quit. Drop a file on the window to open it.
Settings are remembered in $XDG_CONFIG_HOME/vhist/settings.ini.
)";

struct Options {
  std::string input;
  int frames = -1;
  std::string screenshot;
  int width = 0, height = 0;
  std::optional<std::array<bool, 4>> channels;
  std::optional<Layout> layout;
  std::optional<std::array<CdfMode, 4>> cdf;
  std::optional<EqualizeMode> equalize;
  std::optional<float> split;
  std::optional<double> paused_at;
  bool no_vsync = false;
  bool exercise_window = false;
  double quit_after = 0;  // seconds; 0: not set
  int resize_storm = 0;   // events
  std::string device;
  bool camera = false;
  media::CameraOptions camera_options;
};

// Parses argv; returns an error message ("help" for --help), empty on success.
std::string parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&]() -> std::optional<std::string_view> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string_view(argv[++i]);
    };
    if (arg == "-h" || arg == "--help") return "help";
    if (arg == "--frames") {
      const auto v = value();
      const auto n = v ? cli::parse_uint(*v, 1, 1u << 30) : std::nullopt;
      if (!n) return "--frames needs a positive whole number";
      o.frames = static_cast<int>(*n);
    } else if (arg == "--screenshot") {
      const auto v = value();
      if (!v || v->empty()) return "--screenshot needs a file name";
      o.screenshot = *v;
    } else if (arg == "--size") {
      const auto v = value();
      const auto size = v ? cli::parse_size(*v) : std::nullopt;
      if (!size || size->first < 160 || size->second < 120 || size->first > 16384 || size->second > 16384) {
        return "--size needs WxH, from 160x120 to 16384x16384";
      }
      o.width = static_cast<int>(size->first);
      o.height = static_cast<int>(size->second);
    } else if (arg == "--channels") {
      const auto v = value();
      if (!v || v->empty()) return "--channels needs a set of r, g, b, l (e.g. rgb)";
      std::array<bool, 4> set{};
      for (char c : *v) {
        const std::size_t k = std::string_view("rgbl").find(c);
        if (k == std::string_view::npos) return "--channels takes only the letters r, g, b and l";
        set[k] = true;
      }
      o.channels = set;
    } else if (arg == "--layout") {
      const auto v = value();
      const auto l = v ? parse_layout(*v) : std::nullopt;
      if (!l) return "--layout needs split, overlay or stacked";
      o.layout = *l;
    } else if (arg == "--cdf") {
      const auto v = value();
      const std::string_view expected =
          "--cdf needs over, instead or off, or channel sets with a mode (e.g. l:over,rgb:instead)";
      if (!v || v->empty()) return std::string(expected);
      std::array<CdfMode, 4> modes{};
      std::string_view rest = *v;
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        const auto colon = item.find(':');
        const auto mode = parse_cdf_mode(colon == std::string_view::npos ? item : item.substr(colon + 1));
        if (!mode) return std::string(expected);
        const std::string_view set = colon == std::string_view::npos ? "rgbl" : item.substr(0, colon);
        if (set.empty()) return std::string(expected);
        for (char c : set) {
          const std::size_t k = std::string_view("rgbl").find(c);
          if (k == std::string_view::npos) return std::string(expected);
          modes[k] = *mode;
        }
      }
      o.cdf = modes;
    } else if (arg == "--equalize") {
      const auto v = value();
      if (v && *v == "luma") {
        o.equalize = EqualizeMode::luma;
      } else if (v && *v == "channels") {
        o.equalize = EqualizeMode::channels;
      } else if (v && *v == "off") {
        o.equalize = EqualizeMode::off;
      } else {
        return "--equalize needs luma, channels or off";
      }
    } else if (arg == "--split") {
      const auto v = value();
      const auto pos = v ? cli::parse_fraction(*v) : std::nullopt;
      if (!pos) return "--split needs the divider's position, a number from 0 to 1 (e.g. 0.5)";
      o.split = static_cast<float>(*pos);
    } else if (arg == "--paused-at") {
      const auto v = value();
      const auto t = v ? cli::parse_time(*v) : std::nullopt;
      if (!t) return "--paused-at needs a time: seconds (12.5) or [HH:]MM:SS[.fff]";
      o.paused_at = *t;
    } else if (arg == "--camera") {
      o.camera = true;
    } else if (arg == "--camera-format") {
      const auto v = value();
      if (!v || v->empty()) return "--camera-format needs a pixel format (e.g. YUYV, NV12, MJPG)";
      o.camera_options.pixel_format = *v;
    } else if (arg == "--camera-size") {
      const auto v = value();
      const auto size = v ? cli::parse_size(*v) : std::nullopt;
      if (!size) return "--camera-size needs WxH (e.g. 640x360)";
      o.camera_options.width = size->first;
      o.camera_options.height = size->second;
    } else if (arg == "--camera-fps") {
      const auto v = value();
      const auto fps = v ? cli::parse_rate(*v) : std::nullopt;
      if (!fps) return "--camera-fps needs a frame rate (e.g. 30 or 12.5)";
      o.camera_options.frame_rate = *fps;
    } else if (arg == "--exercise-window") {
      o.exercise_window = true;
    } else if (arg == "--quit-after") {
      const auto v = value();
      const auto t = v ? cli::parse_time(*v) : std::nullopt;
      if (!t || *t <= 0) return "--quit-after needs a time: seconds (90) or [HH:]MM:SS";
      o.quit_after = *t;
    } else if (arg == "--resize-storm") {
      const auto v = value();
      const auto n = v ? cli::parse_uint(*v, 1, 1000000) : std::nullopt;
      if (!n) return "--resize-storm needs a positive number of events";
      o.resize_storm = static_cast<int>(*n);
    } else if (arg == "--no-vsync") {
      o.no_vsync = true;
    } else if (arg == "--device") {
      const auto v = value();
      if (!v) return "--device needs a value (an index or part of a device name)";
      o.device = *v;
    } else if (!arg.empty() && arg[0] == '-') {
      return "unknown option '" + std::string(arg) + "'";
    } else if (o.input.empty()) {
      o.input = arg;
    } else {
      return "more than one input given ('" + o.input + "' and '" + std::string(arg) + "')";
    }
  }
  return {};
}

// The bundled demo clip: VHIST_ASSETS, else the source tree's assets/ (where the build ran),
// else assets/ next to the executable's parent folder.
std::string demo_clip_path() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("VHIST_ASSETS")) candidates.emplace_back(fs::path(env) / "demo.mp4");
  candidates.emplace_back(fs::path(VHIST_SOURCE_ASSETS) / "demo.mp4");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.emplace_back(exe.parent_path().parent_path() / "share" / "vhist" / "demo.mp4");
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c, ec)) return c.string();
  }
  return {};
}

std::string format_time(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  const auto total_ms = static_cast<long long>(std::llround(seconds * 1000));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld.%03lld", total_ms / 60000, (total_ms / 1000) % 60, total_ms % 1000);
  return buf;
}

void check_vk(VkResult r) {
  if (r != VK_SUCCESS) std::fprintf(stderr, "vhist: ImGui Vulkan backend: %s\n", std::string(render::result_name(r)).c_str());
}

// Everything the window's callbacks need.
struct App {
  Options options;
  Settings settings;
  std::filesystem::path settings_file;
  GLFWwindow* window = nullptr;
  Player player;
  FileBrowser browser;
  std::string open_path;       // the panel's path field
  std::string error;           // shown in the panel (and printed on stderr) until the next open
  std::string pending_open;    // a file to open at the next tick (drop, browser, recent)
  bool quit = false;
  bool fullscreen = false;
  int windowed_x = 0, windowed_y = 0, windowed_w = 0, windowed_h = 0;
  bool rehistogram = false;
  bool cli_input_failed = false;
  double fps = 0;
  const char* engine_name = "gpu";
  media::CameraListing cameras;
  std::vector<double> latencies_ms;  // capture to present of each new camera frame
  // Equalization is a way of looking at this session's video, not remembered in the settings.
  EqualizeMode equalize = EqualizeMode::off;
  EqualizeMode equalize_drawn = EqualizeMode::off;  // as of the last tick
  bool split_view = false;
  float split_position = 0.5f;
  bool dragging_divider = false;
};

void open_file(App& app, const std::string& path) {
  app.open_path = path;  // kept in the path field, to correct it when opening fails
  try {
    if (media::is_camera_path(path)) {
      app.player.open_camera(path, app.options.camera_options);
    } else {
      app.player.open(path);
    }
    app.player.set_loop(app.settings.loop);
    app.player.set_speed(app.settings.speed);
    app.player.set_paused(false);
    app.error.clear();
    app.open_path = path;
    if (!app.player.live()) remember_recent(app.settings, path);
    if (app.window) glfwSetWindowTitle(app.window, ("vhist - " + std::filesystem::path(path).filename().string()).c_str());
  } catch (const media::MediaError& e) {
    app.error = e.what();
    std::fprintf(stderr, "vhist: %s\n", e.what());
  }
}

void toggle_fullscreen(App& app) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!app.fullscreen && monitor) {
    glfwGetWindowPos(app.window, &app.windowed_x, &app.windowed_y);
    glfwGetWindowSize(app.window, &app.windowed_w, &app.windowed_h);
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    glfwSetWindowMonitor(app.window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    app.fullscreen = true;
  } else if (app.fullscreen) {
    glfwSetWindowMonitor(app.window, nullptr, app.windowed_x, app.windowed_y, app.windowed_w, app.windowed_h, 0);
    app.fullscreen = false;
  }
}

void on_key(GLFWwindow* window, int key, int, int action, int mods) {
  auto& app = *static_cast<App*>(glfwGetWindowUserPointer(window));
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  if (ImGui::GetIO().WantTextInput) return;  // typing in a text field
  Player& p = app.player;
  switch (key) {
    case GLFW_KEY_SPACE: p.set_paused(!p.paused()); break;
    case GLFW_KEY_LEFT: p.seek(p.clock() - 5); break;
    case GLFW_KEY_RIGHT: p.seek(p.clock() + 5); break;
    case GLFW_KEY_COMMA: p.step_back(); break;
    case GLFW_KEY_PERIOD: p.step_forward(); break;
    case GLFW_KEY_1: app.settings.channel_r = !app.settings.channel_r; break;
    case GLFW_KEY_2: app.settings.channel_g = !app.settings.channel_g; break;
    case GLFW_KEY_3: app.settings.channel_b = !app.settings.channel_b; break;
    case GLFW_KEY_4: app.settings.channel_l = !app.settings.channel_l; break;
    case GLFW_KEY_TAB: app.settings.show_panel = !app.settings.show_panel; break;
    case GLFW_KEY_C: {
      // All channels to the next mode after the first channel's.
      const auto next = static_cast<CdfMode>((static_cast<int>(app.settings.cdf[0]) + 1) % 3);
      app.settings.cdf = {next, next, next, next};
      break;
    }
    case GLFW_KEY_E: app.equalize = static_cast<EqualizeMode>((static_cast<int>(app.equalize) + 1) % 3); break;
    case GLFW_KEY_S:
      app.split_view = !app.split_view;
      if (app.split_view && app.equalize == EqualizeMode::off) app.equalize = EqualizeMode::luma;
      break;
    case GLFW_KEY_F:
      if (action == GLFW_PRESS && mods == 0) toggle_fullscreen(app);
      break;
    case GLFW_KEY_Q:
    case GLFW_KEY_ESCAPE: app.quit = true; break;
    default: break;
  }
}

void on_drop(GLFWwindow* window, int count, const char** paths) {
  auto& app = *static_cast<App*>(glfwGetWindowUserPointer(window));
  if (count > 0) app.pending_open = paths[0];
}

const char* channel_name(int c) { return c == 0 ? "R" : c == 1 ? "G" : c == 2 ? "B" : "L"; }

// The control panel (Tab hides it).
void draw_panel(App& app, const FrameStatistics& numbers) {
  Settings& s = app.settings;
  Player& p = app.player;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (!ImGui::Begin("vhist  (Tab hides)", &s.show_panel, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  // File.
  ImGui::SetNextItemWidth(-110);
  const bool enter = ImGui::InputText("##path", &app.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) app.pending_open = app.open_path;
  ImGui::SameLine();
  if (ImGui::Button("Browse")) {
    app.browser.open(app.open_path.empty() ? std::filesystem::current_path()
                                           : std::filesystem::path(app.open_path).parent_path());
  }
  if (!s.recent_files.empty()) {
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##recent", "Recent files")) {
      for (const auto& f : s.recent_files) {
        if (ImGui::Selectable(f.c_str())) app.pending_open = f;
      }
      ImGui::EndCombo();
    }
  }
  if (ImGui::Button("Cameras")) app.cameras = media::list_cameras();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##cameras", app.cameras.cameras.empty() ? "(press Cameras to look for cameras)" : "Open a camera")) {
    for (const auto& c : app.cameras.cameras) {
      if (ImGui::Selectable((c.path + "  " + c.name + "  (" + c.bus + ")").c_str())) app.pending_open = c.path;
    }
    for (const auto& e : app.cameras.errors) ImGui::TextDisabled("%s", e.c_str());
    ImGui::EndCombo();
  }
  if (!app.error.empty()) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", app.error.c_str());

  // A camera: live state instead of playback controls.
  if (p.is_open() && p.live()) {
    ImGui::Separator();
    const media::CameraStatus cs = p.camera_status();
    if (ImGui::Button(p.paused() ? "Resume" : "Freeze")) p.set_paused(!p.paused());
    ImGui::SameLine();
    if (cs.connected) {
      ImGui::Text("live  %lld captured  %lld dropped  latency %.1f ms", static_cast<long long>(cs.captured),
                  static_cast<long long>(cs.dropped), p.frame_age_ms());
    } else {
      ImGui::TextColored(ImVec4(1, 0.7f, 0.2f, 1), "%s", cs.message.c_str());
    }
  }

  // Playback.
  if (p.is_open() && !p.live()) {
    ImGui::Separator();
    if (ImGui::Button(p.paused() ? "Play" : "Pause")) p.set_paused(!p.paused());
    ImGui::SameLine();
    if (ImGui::Button("<")) p.step_back();
    ImGui::SameLine();
    if (ImGui::Button(">")) p.step_forward();
    ImGui::SameLine();
    if (ImGui::Checkbox("Loop", &s.loop)) p.set_loop(s.loop);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##speed", &s.speed, kMinSpeed, kMaxSpeed, "speed %.2fx")) p.set_speed(s.speed);
    float t = static_cast<float>(p.clock());
    const float duration = static_cast<float>(std::max(p.duration(), 0.001));
    ImGui::SetNextItemWidth(-1);
    const std::string label = format_time(p.clock()) + " / " + format_time(p.duration());
    if (ImGui::SliderFloat("##seek", &t, 0.0f, duration, label.c_str())) p.seek(t);
  }

  // Histogram.
  ImGui::Separator();
  bool* channels[4] = {&s.channel_r, &s.channel_g, &s.channel_b, &s.channel_l};
  for (int c = 0; c < 4; ++c) {
    if (c) ImGui::SameLine();
    ImGui::Checkbox(channel_name(c), channels[c]);
  }
  // The cumulative histogram, per channel.
  const char* cdf_names[] = {"off", "over", "instead"};
  ImGui::TextUnformatted("CDF");
  for (int c = 0; c < 4; ++c) {
    ImGui::SameLine();
    int mode = static_cast<int>(s.cdf[static_cast<std::size_t>(c)]);
    ImGui::SetNextItemWidth(80);
    const std::string label = std::string(channel_name(c)) + "##cdf";
    if (ImGui::Combo(label.c_str(), &mode, cdf_names, 3)) s.cdf[static_cast<std::size_t>(c)] = static_cast<CdfMode>(mode);
  }
  const char* equalize_names[] = {"off", "luma (hue kept)", "per channel"};
  int equalize = static_cast<int>(app.equalize);
  ImGui::SetNextItemWidth(150);
  if (ImGui::Combo("equalize", &equalize, equalize_names, 3)) app.equalize = static_cast<EqualizeMode>(equalize);
  if (app.equalize != EqualizeMode::off) {
    ImGui::SameLine();
    ImGui::Checkbox("split view", &app.split_view);
    if (app.split_view) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderFloat("##split", &app.split_position, 0.0f, 1.0f, "divider %.2f");
    }
  }
  const char* scale_names[] = {"auto", "log", "fixed"};
  int scale = static_cast<int>(s.scale);
  ImGui::SetNextItemWidth(120);
  if (ImGui::Combo("scale", &scale, scale_names, 3)) s.scale = static_cast<ScaleMode>(scale);
  ImGui::SameLine();
  const std::uint32_t max_bins = numbers.valid ? max_bins_for_bits(numbers.bits) : kMaxBins;
  ImGui::SetNextItemWidth(110);
  if (ImGui::BeginCombo("bins", std::to_string(s.bins).c_str())) {
    for (std::uint32_t b = kMinBins; b <= max_bins; b *= 2) {
      if (ImGui::Selectable(std::to_string(b).c_str(), b == s.bins)) {
        s.bins = b;
        app.rehistogram = true;
      }
    }
    ImGui::EndCombo();
  }
  const char* layout_names[] = {"split", "overlay", "stacked"};
  int layout = static_cast<int>(s.layout);
  ImGui::SetNextItemWidth(120);
  if (ImGui::Combo("layout", &layout, layout_names, 3)) s.layout = static_cast<Layout>(layout);
  ImGui::SameLine();
  const char* palette_names[] = {"classic", "colorblind", "mono"};
  int palette = static_cast<int>(s.palette);
  ImGui::SetNextItemWidth(110);
  if (ImGui::Combo("palette", &palette, palette_names, 3)) s.palette = static_cast<Palette>(palette);
  ImGui::SetNextItemWidth(-80);
  ImGui::SliderFloat("opacity", &s.opacity, 0.0f, 1.0f, "%.2f");

  // Status and numbers.
  ImGui::Separator();
  if (p.is_open() && p.frame()) {
    const VideoFormat& f = p.frame()->format;
    const media::DecodeReport report = p.report();
    ImGui::Text("%ux%u %s %s %s%s", f.width, f.height, f.pixel_format.c_str(),
                std::string(matrix_name(f.matrix)).c_str(), std::string(range_name(f.range)).c_str(),
                p.frame()->converted ? " (via swscale)" : "");
    ImGui::Text("%.1f fps  decode wait %.2f ms  GPU %.2f ms  dropped %lld  engine %s", app.fps, p.decode_wait_ms(),
                numbers.gpu_ms, static_cast<long long>(p.dropped()), app.engine_name);
    if (report.lost > 0 || report.damaged > 0 || report.errors > 0) {
      ImGui::TextColored(ImVec4(1, 0.7f, 0.2f, 1), "corrupt data: %lld lost, %lld damaged, %lld decoder errors",
                         static_cast<long long>(report.lost), static_cast<long long>(report.damaged),
                         static_cast<long long>(report.errors));
    }
  }
  if (numbers.valid && ImGui::BeginTable("stats", 9, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"", "min", "max", "mean", "median", "p1", "p99", "low %", "high %"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (int c = 0; c < 4; ++c) {
      const ChannelStats& st = numbers.stats[static_cast<std::size_t>(c)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(channel_name(c));
      ImGui::TableNextColumn();
      ImGui::Text("%u", st.min);
      ImGui::TableNextColumn();
      ImGui::Text("%u", st.max);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", st.mean);
      ImGui::TableNextColumn();
      ImGui::Text("%u", st.median);
      ImGui::TableNextColumn();
      ImGui::Text("%u", st.p1);
      ImGui::TableNextColumn();
      ImGui::Text("%u", st.p99);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", 100 * st.clip_low);
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", 100 * st.clip_high);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("space play  <- -> 5 s  , . frame  1-4 channels  C cdf  E equalize  S split  F full  Q quit");
  ImGui::End();

  if (auto chosen = app.browser.draw()) app.pending_open = chosen->string();
}

// With equalization on: the labels of the two halves, and the split view's divider, which the
// mouse drags (when not over the panel).
void draw_split(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  const float width = io.DisplaySize.x;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const char* name = app.equalize == EqualizeMode::luma ? "equalized (luma)" : "equalized (per channel)";
  const float top = io.DisplaySize.y * 0.02f;
  if (!app.split_view) {
    draw->AddText(ImVec2(width - ImGui::CalcTextSize(name).x - 12, top), IM_COL32(255, 255, 255, 220), name);
    return;
  }
  const float x = app.split_position * width;
  const bool near = std::abs(io.MousePos.x - x) <= 6.0f;
  if (!io.WantCaptureMouse && near && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) app.dragging_divider = true;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) app.dragging_divider = false;
  if (app.dragging_divider && width > 0) app.split_position = std::clamp(io.MousePos.x / width, 0.0f, 1.0f);
  if (app.dragging_divider || (near && !io.WantCaptureMouse)) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  draw->AddText(ImVec2(x - ImGui::CalcTextSize("original").x - 10, top), IM_COL32(255, 255, 255, 220), "original");
  draw->AddText(ImVec2(x + 10, top), IM_COL32(255, 255, 255, 220), name);
}

class GlfwSession {
 public:
  GlfwSession() {
    glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "vhist: GLFW error %d: %s\n", code, text); });
    if (!glfwInit()) {
      throw std::runtime_error("cannot open a window: no display could be reached (is DISPLAY or WAYLAND_DISPLAY set?)");
    }
  }
  ~GlfwSession() { glfwTerminate(); }
  GlfwSession(const GlfwSession&) = delete;
  GlfwSession& operator=(const GlfwSession&) = delete;
};

int run(App& app) {
  GlfwSession glfw;
  if (!glfwVulkanSupported()) throw std::runtime_error("GLFW found no Vulkan loader (install libvulkan1)");
  // --frames and --quit-after are test runs: a summary at the end, remembered settings untouched.
  const bool test_mode = app.options.frames > 0 || app.options.quit_after > 0;
  const auto run_started = std::chrono::steady_clock::now();
  std::int64_t dropped_at_one_second = -1;  // the player's dropped count one second in
  int drop_lines = 0;                        // drops reported as they happen (test runs)
  auto previous_tick = std::chrono::steady_clock::now();
  int storm_events = 0;
  int width = app.options.width ? app.options.width : app.settings.window_width;
  int height = app.options.height ? app.options.height : app.settings.window_height;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  struct WindowDeleter {
    void operator()(GLFWwindow* w) const { glfwDestroyWindow(w); }
  };
  std::unique_ptr<GLFWwindow, WindowDeleter> window(glfwCreateWindow(width, height, "vhist", nullptr, nullptr));
  if (!window) throw std::runtime_error("cannot create the window");
  app.window = window.get();
  glfwSetWindowUserPointer(app.window, &app);
  glfwSetWindowSizeLimits(app.window, 160, 120, GLFW_DONT_CARE, GLFW_DONT_CARE);

  render::ContextOptions context_options;
  context_options.device = app.options.device;
  std::uint32_t ext_count = 0;
  const char** exts = glfwGetRequiredInstanceExtensions(&ext_count);
  for (std::uint32_t i = 0; i < ext_count; ++i) context_options.instance_extensions.emplace_back(exts[i]);
  context_options.device_extensions.emplace_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  context_options.create_surface = [&](VkInstance instance) {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VHIST_VK_CHECK(glfwCreateWindowSurface(instance, app.window, nullptr, &surface));
    return surface;
  };
  render::Context context(context_options);

  const auto framebuffer_size = [&] {
    int w = 0, h = 0;
    glfwGetFramebufferSize(app.window, &w, &h);
    return VkExtent2D{static_cast<std::uint32_t>(std::max(w, 0)), static_cast<std::uint32_t>(std::max(h, 0))};
  };
  const bool vsync = app.settings.vsync && !app.options.no_vsync;
  int refresh_hz = 60;  // the primary monitor's, when it says
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
    if (const GLFWvidmode* mode = glfwGetVideoMode(monitor); mode && mode->refreshRate >= 24 && mode->refreshRate <= 1000) {
      refresh_hz = mode->refreshRate;
    }
  }
  render::Swapchain swapchain(context, framebuffer_size(), vsync);
  // On a CPU Vulkan device (lavapipe) the CPU engine converts and counts; VHIST_ENGINE=gpu|cpu
  // overrides the choice (the tests run both).
  bool cpu_engine = context.description().kind == render::DeviceKind::cpu;
  if (const char* engine = std::getenv("VHIST_ENGINE")) {
    if (std::string_view(engine) == "gpu") cpu_engine = false;
    if (std::string_view(engine) == "cpu") cpu_engine = true;
  }
  Presenter renderer(context, swapchain, cpu_engine ? Engine::cpu : Engine::gpu);
  app.engine_name = cpu_engine ? "cpu" : "gpu";

  // ImGui: its GLFW backend installs its callbacks and chains ours (set first).
  glfwSetKeyCallback(app.window, on_key);
  glfwSetDropCallback(app.window, on_drop);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  struct ImGuiContextEnd {
    ~ImGuiContextEnd() { ImGui::DestroyContext(); }
  } imgui_context_end;
  ImGui::GetIO().IniFilename = nullptr;  // the panel's place is not worth a file of its own
  ImGui::StyleColorsDark();
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(app.window, &xscale, &yscale);
  ImGui::GetIO().FontGlobalScale = std::max(1.0f, std::max(xscale, yscale));
  ImGui_ImplGlfw_InitForVulkan(app.window, true);
  struct GlfwBackendEnd {
    ~GlfwBackendEnd() { ImGui_ImplGlfw_Shutdown(); }
  } glfw_backend_end;
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = 8;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  VkDescriptorPool pool_handle = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorPool(context.device(), &pool_info, nullptr, &pool_handle));
  render::UniqueDescriptorPool descriptor_pool(context.device(), pool_handle);
  ImGui_ImplVulkan_InitInfo init{};
  init.Instance = context.instance();
  init.PhysicalDevice = context.physical_device();
  init.Device = context.device();
  init.QueueFamily = context.queue_family();
  init.Queue = context.queue();
  init.DescriptorPool = pool_handle;
  init.MinImageCount = 2;
  init.ImageCount = std::max(swapchain.image_count(), Presenter::kFramesInFlight);
  init.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  init.CheckVkResultFn = check_vk;
  ImGui_ImplVulkan_Init(&init, swapchain.render_pass());
  struct VulkanBackendEnd {
    render::Context& context;
    ~VulkanBackendEnd() {
      render::wait_idle_for_teardown(context.device());
      ImGui_ImplVulkan_Shutdown();
    }
  } vulkan_backend_end{context};
  context.submit_and_wait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();

  // The input: the one given, the first camera with --camera, else the demo clip.
  std::string input = app.options.input;
  if (input.empty() && app.options.camera) {
    app.cameras = media::list_cameras();
    if (app.cameras.cameras.empty()) {
      app.error = "no camera found (no /dev/video* capture device" +
                  (app.cameras.errors.empty() ? std::string(")") : "; " + app.cameras.errors.front() + ")");
      std::fprintf(stderr, "vhist: %s\n", app.error.c_str());
      app.cli_input_failed = true;
    } else {
      input = app.cameras.cameras.front().path;
      app.options.input = input;
    }
  } else if (input.empty()) {
    input = demo_clip_path();
    if (input.empty()) app.error = "The demo clip (assets/demo.mp4) was not found. Open a video file from the panel.";
  }
  if (!input.empty()) {
    open_file(app, input);
    if (!app.error.empty() && !app.options.input.empty()) app.cli_input_failed = true;
  }
  if (app.player.is_open() && app.options.paused_at) {
    app.player.seek(*app.options.paused_at);
    app.player.set_paused(true);
  }

  // A lost surface (the window system dropped it) is remade from the same window, up to three
  // times in a row without a frame presented in between; then the loss is reported and vhist ends.
  int surface_losses = 0;
  bool resend_frame = false;  // the frame due when the surface was lost was not drawn
  const auto recover_surface = [&](const render::VulkanError& error) {
    if (error.result() != VK_ERROR_SURFACE_LOST_KHR || ++surface_losses > 3) throw;
    std::fprintf(stderr, "vhist: lost the window's drawing surface (%s); making a new one (attempt %d of 3)\n",
                 error.what(), surface_losses);
    renderer.wait_idle();
    swapchain.release();
    context.recreate_surface();
    renderer.reset_semaphores();
    resend_frame = true;
  };

  int rendered = 0;
  bool swapchain_stale = false;
  auto last_frame_time = std::chrono::steady_clock::now();
  std::vector<std::uint8_t> screenshot;
  while (!glfwWindowShouldClose(app.window) && !app.quit) {
    glfwPollEvents();
    if (app.options.exercise_window) {
      // A scripted sequence of what people do to windows, for the tests: grow, shrink to a
      // sliver, minimize, restore, go back. Once: later frames have the size asked for.
      const int step = rendered;
      if (step == 5) glfwSetWindowSize(app.window, 900, 500);
      if (step == 15) glfwSetWindowSize(app.window, 200, 130);
      if (step == 25) {
        // Minimized windows render nothing (the loop below waits); restore after a moment.
        // Without a window manager (Xvfb) minimizing may do nothing at all.
        glfwIconifyWindow(app.window);
        for (int i = 0; i < 5; ++i) glfwWaitEventsTimeout(0.02);
        glfwRestoreWindow(app.window);
      }
      if (step == 35) glfwSetWindowSize(app.window, width, height);
    }
    if (storm_events < app.options.resize_storm && rendered > 0 && rendered % 3 == 0) {
      // Sizes cycling through small, large, odd and extreme aspect ratios, and every tenth
      // event a minimize and restore.
      static constexpr int kSizes[][2] = {{320, 180}, {1280, 720}, {641, 359}, {1600, 200}, {200, 900}, {960, 540}};
      if (storm_events % 10 == 9) {
        glfwIconifyWindow(app.window);
        for (int i = 0; i < 3; ++i) glfwWaitEventsTimeout(0.01);
        glfwRestoreWindow(app.window);
      } else {
        const auto& size = kSizes[static_cast<std::size_t>(storm_events) % std::size(kSizes)];
        glfwSetWindowSize(app.window, size[0], size[1]);
      }
      ++storm_events;
    }
    if (!app.pending_open.empty()) {
      const std::string path = std::exchange(app.pending_open, {});
      open_file(app, path);
    }
    // Minimized: nothing to draw into; wait for the window to come back.
    VkExtent2D fb = framebuffer_size();
    if (fb.width == 0 || fb.height == 0) {
      glfwWaitEventsTimeout(0.1);
      continue;
    }
    if (swapchain_stale || swapchain.get() == VK_NULL_HANDLE || fb.width != swapchain.extent().width ||
        fb.height != swapchain.extent().height) {
      renderer.wait_idle();
      try {
        swapchain.recreate(fb);
      } catch (const render::VulkanError& e) {
        recover_surface(e);
        continue;
      }
      ImGui_ImplVulkan_SetMinImageCount(2);
      swapchain_stale = false;
    }

    const auto now = std::chrono::steady_clock::now();
    bool new_frame = false;
    const std::int64_t dropped_before = app.player.dropped();
    try {
      new_frame = app.player.tick(now);
    } catch (const media::MediaError& e) {
      app.error = e.what();
      std::fprintf(stderr, "vhist: %s\n", e.what());
      app.player.close();
    }
    const media::DecodedFrame* frame = new_frame && app.player.frame() ? &*app.player.frame() : nullptr;
    // Equalization switched on or to another mode: the frame shown goes through the GPU again
    // (the CPU engine keeps no copy of it there), also when paused.
    if (app.equalize != app.equalize_drawn) {
      if (!frame && app.player.frame()) frame = &*app.player.frame();
      app.equalize_drawn = app.equalize;
    }
    if (std::exchange(resend_frame, false) && !frame && app.player.frame()) frame = &*app.player.frame();
    if (frame) {
      if (const std::string why = renderer.check(*frame, app.settings.bins); !why.empty()) {
        app.error = "cannot show '" + app.player.path() + "': " + why;
        std::fprintf(stderr, "vhist: %s\n", app.error.c_str());
        app.player.close();
        frame = nullptr;
      }
    }

    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    if (app.settings.show_panel) draw_panel(app, renderer.statistics());
    if (app.equalize != EqualizeMode::off && app.player.is_open()) draw_split(app);
    if (!app.player.is_open() && !app.settings.show_panel) {
      ImGui::SetNextWindowPos(ImVec2(10, 10));
      ImGui::Begin("##hint", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize);
      ImGui::TextUnformatted("Drop a video file here, or press Tab to open one.");
      ImGui::End();
    }
    ImGui::Render();

    DrawStyle style;
    style.channels = {app.settings.channel_r, app.settings.channel_g, app.settings.channel_b, app.settings.channel_l};
    style.scale = app.settings.scale;
    style.bins = app.settings.bins;
    style.layout = app.settings.layout;
    style.palette = app.settings.palette;
    style.opacity = app.settings.opacity;
    style.cdf = app.settings.cdf;
    style.equalize = app.equalize;
    style.split_view = app.split_view;
    style.split_position = app.split_position;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_started).count();
    if (dropped_at_one_second < 0 && elapsed >= 1.0) dropped_at_one_second = app.player.dropped();
    // Test runs say when each drop after the first second happened and how late the tick was, so
    // that a soak's drops can be laid beside what else the machine was doing (the first 50).
    if (test_mode && dropped_at_one_second >= 0 && app.player.dropped() > dropped_before && drop_lines < 50) {
      ++drop_lines;
      std::fprintf(stderr, "vhist: at %.1f s: %lld frame(s) dropped; %.1f ms since the tick before\n", elapsed,
                   static_cast<long long>(app.player.dropped() - dropped_before),
                   std::chrono::duration<double, std::milli>(now - previous_tick).count());
    }
    previous_tick = now;
    const bool last = (app.options.frames > 0 && rendered + 1 >= app.options.frames) ||
                      (app.options.quit_after > 0 && elapsed >= app.options.quit_after &&
                       (app.options.resize_storm == 0 || storm_events >= app.options.resize_storm));
    const bool want_shot = last && !app.options.screenshot.empty();
    bool drawn = false;
    try {
      drawn = renderer.draw(frame, std::exchange(app.rehistogram, false), style, ImGui::GetDrawData(),
                            want_shot ? &screenshot : nullptr);
    } catch (const render::VulkanError& e) {
      recover_surface(e);
      continue;
    }
    if (!drawn) {
      swapchain_stale = true;
      if (want_shot && screenshot.empty()) continue;  // not drawn: try again after the rebuild
    } else {
      surface_losses = 0;
    }
    ++rendered;
    if (frame && app.player.live()) app.latencies_ms.push_back(app.player.frame_age_ms());
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_frame_time).count();
    last_frame_time = std::chrono::steady_clock::now();
    app.fps = app.fps == 0 ? 1 / std::max(dt, 1e-6) : 0.9 * app.fps + 0.1 / std::max(dt, 1e-6);
    if (want_shot) {
      media::RgbaImage image;
      image.width = swapchain.extent().width;
      image.height = swapchain.extent().height;
      image.pixels = std::move(screenshot);
      for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;  // shown opaque
      if (const std::string err = media::write_png(app.options.screenshot, image); !err.empty()) {
        std::fprintf(stderr, "vhist: cannot save the screenshot: %s\n", err.c_str());
        return 1;
      }
    }
    if (last) break;
    // Where presenting does not wait for the display (Xvfb, some compositors), do not draw
    // faster than the monitor refreshes with vsync on (240 frames a second without): frames
    // nobody can see take CPU time the decoder needs.
    const auto frame_end = std::chrono::steady_clock::now();
    const auto min_frame = std::chrono::microseconds(1000000 / (vsync ? refresh_hz : 240));
    if (frame_end - now < min_frame) std::this_thread::sleep_for(min_frame - (frame_end - now));
  }
  renderer.wait_idle();
  if (test_mode && !app.latencies_ms.empty()) {
    auto l = app.latencies_ms;
    std::sort(l.begin(), l.end());
    const media::CameraStatus cs = app.player.camera_status();
    std::fprintf(stderr,
                 "vhist: camera: %zu frames shown, capture to present median %.1f ms (min %.1f, max %.1f), "
                 "%lld captured, %lld dropped by the camera source, %lld reconnects\n",
                 l.size(), l[l.size() / 2], l.front(), l.back(), static_cast<long long>(cs.captured),
                 static_cast<long long>(cs.dropped), static_cast<long long>(cs.reconnects));
  }
  if (test_mode) {
    // For scripts and benchmarks: what this run did.
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const std::int64_t dropped_later = dropped_at_one_second < 0 ? 0 : app.player.dropped() - dropped_at_one_second;
    std::fprintf(stderr,
                 "vhist: %d frames rendered at %.1f fps (engine %s), %lld video frames shown, %lld dropped "
                 "(%lld after the first second), peak RSS %.1f MiB, %d resize/minimize events\n",
                 rendered, app.fps, app.engine_name, static_cast<long long>(app.player.shown()),
                 static_cast<long long>(app.player.dropped()), static_cast<long long>(dropped_later),
                 static_cast<double>(usage.ru_maxrss) / 1024.0, storm_events);
  }

  if (!test_mode) {
    int w = 0, h = 0;
    if (!app.fullscreen) {
      glfwGetWindowSize(app.window, &w, &h);
      app.settings.window_width = w;
      app.settings.window_height = h;
    }
  }
  if (context.validation_message_count() != 0) {
    std::fprintf(stderr, "vhist: %u Vulkan validation messages\n", context.validation_message_count());
    return 1;
  }
  return app.cli_input_failed && test_mode ? 2 : 0;
}

}  // namespace

const char* viewer_usage() { return kUsage; }

int run_viewer(int argc, char** argv) {
  App app;
  if (const std::string err = parse(argc, argv, app.options); !err.empty()) {
    if (err == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::fprintf(stderr, "vhist: %s (see vhist --help)\n", err.c_str());
    return 2;
  }
  app.settings_file = settings_path();
  std::vector<std::string> warnings;
  if (!app.settings_file.empty()) app.settings = load_settings(app.settings_file, &warnings);
  for (const auto& w : warnings) std::fprintf(stderr, "vhist: settings: %s\n", w.c_str());
  if (app.options.channels) {
    const auto& c = *app.options.channels;
    app.settings.channel_r = c[0];
    app.settings.channel_g = c[1];
    app.settings.channel_b = c[2];
    app.settings.channel_l = c[3];
  }
  if (app.options.layout) app.settings.layout = *app.options.layout;
  if (app.options.cdf) app.settings.cdf = *app.options.cdf;
  if (app.options.split) {
    app.split_view = true;
    app.split_position = *app.options.split;
    app.equalize = EqualizeMode::luma;
  }
  if (app.options.equalize) app.equalize = *app.options.equalize;
  int status = 0;
  try {
    status = run(app);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist: %s\n", render::failure_message(e).c_str());
    return 1;
  }
  // Test runs (--frames, --quit-after) leave the remembered settings alone.
  if (app.options.frames <= 0 && app.options.quit_after <= 0 && !app.settings_file.empty()) {
    if (const std::string err = save_settings(app.settings, app.settings_file); !err.empty()) {
      std::fprintf(stderr, "vhist: cannot save the settings: %s\n", err.c_str());
    }
  }
  return status;
}

}  // namespace vhist::viewer
