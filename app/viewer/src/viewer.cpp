// The viewer's loop. One frame, in order:
//   decode thread -> bounded frame queue (a file blocks when full; a camera drops the oldest)
//   handle_input:    window events, keys (settings_table.h rows), a file to open
//   handle_window:   minimized: wait; resized: rebuild the swapchain
//   handle_playback: the player's clock picks the frame due; a new one is checked against the device
//   handle_ui:       the ImGui panel and the split view's divider
//   handle_present:  upload, convert, histograms, CDF and equalization, draw (Presenter, FrameRenderer), present
//   pace:            no faster than the display where presenting does not wait for it
// Numbers shown as text are read back one frame late, never by stalling the GPU. What test runs
// add (scripted window events, the end of the run, the screenshot, the summary) is in
// test_drivers.cpp, called through LoopHooks.
#include "vhist/viewer/viewer.h"

#include "vhist/camera_options/camera_options.h"
#include "imgui_backend.h"
#include "vhist/viewer/presenter.h"
#include "vhist/viewer/settings_table.h"
#include "test_drivers.h"
#include "viewer_app.h"
#include "viewer_hwdec.h"
#include "viewer_idle.h"
#include "viewer_timeline.h"
#include "vhist/records/record_reader.h"

#include "vhist/picture/scope_layout.h"
#include "vhist/picture/light_scale.h"

#include "vhist/compute/engine_choice.h"
#include "vhist/compute/source_measures.h"
#include "vhist/render/context.h"
#include "vhist/render/swapchain.h"
#include "vhist/render/vk_check.h"
#include "vhist/util/text.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // ClosePopupsOverWindow: Esc closes a dropdown

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace vhist::viewer {

static_assert(kKeyTab == GLFW_KEY_TAB && '1' == GLFW_KEY_1 && 'C' == GLFW_KEY_C, "settings_table.h's key codes");

namespace {

// The bundled demo clip: VHIST_ASSETS, else the source tree's assets/ (where the build ran),
// else assets/ next to the executable's parent folder.
std::string demo_clip_path() {
  namespace fs = std::filesystem;
  // In order: the user's VHIST_ASSETS; an installed tree found from the executable itself
  // (PREFIX/bin/vhist -> PREFIX/share/vhist/demo.mp4), so a copied or relocated install works;
  // the data folder this build installs into; the source tree, for running from the build folder.
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("VHIST_ASSETS")) candidates.emplace_back(fs::path(env) / "demo.mp4");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.emplace_back(exe.parent_path().parent_path() / "share" / "vhist" / "demo.mp4");
#ifdef VHIST_INSTALL_DATADIR
  candidates.emplace_back(fs::path(VHIST_INSTALL_DATADIR) / "demo.mp4");
#endif
  candidates.emplace_back(fs::path(VHIST_SOURCE_ASSETS) / "demo.mp4");
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c, ec)) return c.string();
  }
  return {};
}

// The zebra stripes move 16 pixels a second, one period: the phase in pixels.
float zebra_phase() {
  const auto t = std::chrono::steady_clock::now().time_since_epoch();
  return static_cast<float>(std::chrono::duration_cast<std::chrono::milliseconds>(t).count() % 1000) * 0.016f;
}

// What the frame renderer draws: the picture's options as set, and this tick's layout, frame and
// pointer.
DrawStyle frame_style(const App& app) {
  const PictureOptions& o = app.settings.picture;
  const ImVec2 fb_scale = ImGui::GetIO().DisplayFramebufferScale;  // window to framebuffer pixels
  const auto& a = app.layout.scope_area;  // the picture's and the scopes' (with_scope_layout() below)
  // The planes only of a frame that has them; equalization maps R'G'B', so it stays off then.
  const bool ycbcr = o.domain == Domain::ycbcr && app.transport.player.is_open() && app.transport.player.frame() &&
                     has_planes(app.transport.player.frame()->format);
  const media::DecodedFrame* frame = app.transport.player.is_open() && app.transport.player.frame() ? &*app.transport.player.frame() : nullptr;
  const LightScale light = frame ? light_scale_of(frame->colour.transfer.value) : LightScale::none;
  const double mastering_peak = frame && frame->colour.mastering ? frame->colour.mastering->max_luminance : 0.0;
  DrawStyle style(o);
  if (frame) style.bins = bins_for_frame(o.bins, converted_format(frame->format).bits);  // as counted and drawn
  style.match = matching(app, ycbcr);
  if (style.match) {
    style.equalize = EqualizeMode::channels;
  } else if (ycbcr) {
    style.equalize = EqualizeMode::off;
  }
  style.area = {a[0] * fb_scale.x, a[1] * fb_scale.y, a[2] * fb_scale.x, a[3] * fb_scale.y};
  style.pan = app.picture.pan;
  style.ui_scale = picture_ui_scale(app.window.ui_scale, (a[3] - a[1]) * fb_scale.y);
  style.light = light;
  style.hdr = hdr_display_for(light, o.tone_map, mastering_peak);
  style.ycbcr = ycbcr;
  style.zebra_phase = zebra_phase();
  const auto range = shown_range(app.pointer);
  style.range_mask = range[0];
  style.range_low = range[1];
  style.range_high = range[2];
  style.markers = pixel_markers(app, ycbcr);
  style.region = app.pointer.region;
  style.reference = app.reference.kept && !ycbcr ? app.reference.kept->histogram : nullptr;
  // The scopes' panels take their room (beside, under) from the video and histograms: what reads
  // style.area (hit tests, the region, the hover) sees the picture's part.
  return with_scope_layout(style, style.area[2], style.area[3]);
}

class GlfwSession {
 public:
  GlfwSession() {
    glfwSetErrorCallback(
        [](int code, const char* text) { std::fprintf(stderr, "vhist: GLFW error %d: %s\n", code, text); });
    if (!glfwInit()) {
      throw std::runtime_error(
          "cannot open a window: no display could be reached (is DISPLAY or WAYLAND_DISPLAY set?)");
    }
    if (!glfwVulkanSupported()) {
      glfwTerminate();
      const std::string note = render::address_space_note();
      throw std::runtime_error("GLFW found no Vulkan loader (install libvulkan1)" +
                               (note.empty() ? std::string() : "; or, as likely: " + note));
    }
  }
  ~GlfwSession() { glfwTerminate(); }
  GlfwSession(const GlfwSession&) = delete;
  GlfwSession& operator=(const GlfwSession&) = delete;
};

struct WindowDeleter {
  void operator()(GLFWwindow* w) const { glfwDestroyWindow(w); }
};
using UniqueWindow = std::unique_ptr<GLFWwindow, WindowDeleter>;

// The window, with the viewer's callbacks installed (before ImGui's, which chain them).
UniqueWindow make_window(App& app, int width, int height) {
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  UniqueWindow window(glfwCreateWindow(width, height, "vhist", nullptr, nullptr));
  if (!window) throw std::runtime_error("cannot create the window");
  app.window.handle = window.get();
  glfwSetWindowUserPointer(app.window.handle, &app);
  glfwSetWindowSizeLimits(app.window.handle, 160, 120, GLFW_DONT_CARE, GLFW_DONT_CARE);
  install_callbacks(app.window.handle);
  return window;
}

render::ContextOptions context_options(App& app) {
  render::ContextOptions options;
  options.device = app.options.common.device;
  std::uint32_t ext_count = 0;
  const char** exts = glfwGetRequiredInstanceExtensions(&ext_count);
  for (std::uint32_t i = 0; i < ext_count; ++i) options.instance_extensions.emplace_back(exts[i]);
  options.device_extensions.emplace_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  if (app.options.common.hwdec != hwdec::HwdecMode::no) options.optional_device_extensions = hwdec::device_extensions();
  options.create_surface = [window = app.window.handle](VkInstance instance) {
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VHIST_VK_CHECK(glfwCreateWindowSurface(instance, window, nullptr, &surface));
    return surface;
  };
  return options;
}

VkExtent2D framebuffer_size(GLFWwindow* window) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  return VkExtent2D{static_cast<std::uint32_t>(std::max(w, 0)), static_cast<std::uint32_t>(std::max(h, 0))};
}

// The primary monitor's refresh rate, when it says; else 60.
int refresh_rate() {
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    if (mode && mode->refreshRate >= 24 && mode->refreshRate <= 1000) return mode->refreshRate;
  }
  return 60;
}

// How the picture gets into the window's images (render::PictureWriteChoice): the swapchain
// decides; VHIST_PRESENT=store (where the surface allows it, CPU devices too) or copy overrides it,
// for the tests, which compare both on lavapipe. Any other value is ignored.
render::PictureWriteChoice picture_write() {
  const char* env = std::getenv("VHIST_PRESENT");
  if (env && std::string_view(env) == "store") return render::PictureWriteChoice::store_where_supported;
  if (env && std::string_view(env) == "copy") return render::PictureWriteChoice::copy;
  return render::PictureWriteChoice::automatic;
}

// The window and everything drawn into it, and the loop that runs them.
class Viewer {
 public:
  explicit Viewer(App& app);
  ~Viewer();
  int run();

 private:
  void open_first_input();
  void handle_input();
  bool handle_window();
  const media::DecodedFrame* handle_playback(std::chrono::steady_clock::time_point now);
  void announce(bool new_frame);
  void handle_ui();
  enum class Presented { yes, retry, failed };
  Presented handle_present(const media::DecodedFrame* frame, bool last);
  void pace(std::chrono::steady_clock::time_point tick_start) const;
  int finish();
  // A lost surface (the window system dropped it) is remade from the same window, up to three
  // times in a row without a frame presented in between; then the loss is reported (rethrown).
  // Call only from a catch block.
  void recover_surface(const render::VulkanError& error);

  App& app_;
  int width_, height_;  // the window's first size
  std::unique_ptr<LoopHooks> hooks_;
  GlfwSession glfw_;
  UniqueWindow window_;
  render::Context context_;
  const bool vsync_;
  const int refresh_hz_;
  render::Swapchain swapchain_;
  Presenter renderer_;
  hwdec::Hwdec hwdec_;  // --hwdec: NVDEC's importer, or why not (viewer_hwdec.h)
  ImGuiBackend imgui_;
  int rendered_ = 0;
  int surface_losses_ = 0;
  Domain drawn_domain_ = Domain::rgb;  // the domain the current frame was counted in
  std::optional<PixelRect> drawn_region_;  // and its region of interest
  bool resend_frame_ = false;  // the frame due when the surface was lost was not drawn
  bool swapchain_stale_ = false;
  IdleWait idle_;          // paused with nothing changing: wait for events
  VideoRate video_rate_;   // the panel's fps: video frames shown, not redraws
  std::chrono::steady_clock::time_point last_frame_time_ = std::chrono::steady_clock::now();
};

Viewer::Viewer(App& app)
    : app_(app),
      width_(app.options.width ? app.options.width : app.settings.window_width),
      height_(app.options.height ? app.options.height : app.settings.window_height),
      hooks_(make_loop_hooks(app.options, width_, height_)),
      window_(make_window(app, width_, height_)),
      context_(context_options(app)),
      vsync_(app.settings.vsync && !app.options.no_vsync),
      refresh_hz_(refresh_rate()),
      swapchain_(context_, framebuffer_size(app.window.handle), vsync_, picture_write()),
      renderer_(context_, swapchain_, viewer_engine(context_)),
      hwdec_(open_viewer_hwdec(app.options.common.hwdec, context_, renderer_.engine())),
      imgui_(app.window.handle, context_, swapchain_, std::max(swapchain_.image_count(), Presenter::kFramesInFlight)) {
  app_.decoding.engine_name = renderer_.engine() == Engine::cpu ? "cpu" : "gpu";
  renderer_.set_import(hwdec_.import());
  app_.decoding.hwdec = &hwdec_;
  app_.timeline.heat.by_image = renderer_.draws_underlays();
  app_.stats.gpu_name = context_.description().name;
  app_.stats.gpu_driver = context_.description().driver;
}

// The decoder on NVDEC (its CUDA context and stream are hwdec_'s) and the frames in flight (they
// may read the importer's buffers) go before the importer.
Viewer::~Viewer() {
  renderer_.wait_idle();
  app_.transport.player.close();
  app_.decoding.hwdec = nullptr;
}

// The input: the one given, the first camera with --camera, else the demo clip.
void Viewer::open_first_input() {
  std::string input = app_.options.common.input;
  if (input.empty() && app_.options.camera) {
    app_.transport.cameras = media::list_cameras();
    if (app_.transport.cameras.cameras.empty()) {
      show_message(app_, "no camera found (no /dev/video* capture device" +
                             (app_.transport.cameras.errors.empty() ? std::string(")") : "; " + app_.transport.cameras.errors.front() + ")"),
                   true);
      std::fprintf(stderr, "vhist: %s\n", util::printable(app_.transport.error).c_str());
      app_.transport.cli_input_failed = true;
    } else {
      input = app_.transport.cameras.cameras.front().path;
      app_.options.common.input = input;
    }
  } else if (input.empty()) {
    input = demo_clip_path();
    if (input.empty()) {
      show_message(app_, "The demo clip (assets/demo.mp4) was not found. Open a video file from the panel.", true);
    }
  }
  if (!input.empty()) {
    open_file(app_, input);
    if (!app_.transport.error.empty() && !app_.options.common.input.empty()) app_.transport.cli_input_failed = true;
  }
  if (app_.transport.player.is_open() && app_.options.common.start) {
    app_.transport.player.seek(*app_.options.common.start);
    app_.transport.player.set_paused(true);
  }
}

void Viewer::recover_surface(const render::VulkanError& error) {
  if (error.result() != VK_ERROR_SURFACE_LOST_KHR || ++surface_losses_ > 3) throw;
  std::fprintf(stderr, "vhist: lost the window's drawing surface (%s); making a new one (attempt %d of 3)\n",
               error.what(), surface_losses_);
  renderer_.wait_idle();
  swapchain_.release();
  context_.recreate_surface();
  renderer_.reset_semaphores();
  resend_frame_ = true;
}

void Viewer::handle_input() {
  glfwPollEvents();
  hooks_->before_tick(app_.window.handle, rendered_);
  if (!app_.transport.pending_open.empty()) open_file(app_, std::exchange(app_.transport.pending_open, {}));
}

// Returns false when there is nothing to draw into this tick.
bool Viewer::handle_window() {
  // Minimized: nothing to draw into; wait for the window to come back.
  const VkExtent2D fb = framebuffer_size(app_.window.handle);
  if (fb.width == 0 || fb.height == 0) {
    glfwWaitEventsTimeout(0.1);
    return false;
  }
  if (swapchain_stale_ || swapchain_.get() == VK_NULL_HANDLE || fb.width != swapchain_.extent().width ||
      fb.height != swapchain_.extent().height) {
    renderer_.wait_idle();
    try {
      swapchain_.recreate(fb);
    } catch (const render::VulkanError& e) {
      recover_surface(e);
      return false;
    }
    imgui_.swapchain_recreated();
    swapchain_stale_ = false;
  }
  return true;
}

// The frame to upload this tick (null: draw the last one again).
const media::DecodedFrame* Viewer::handle_playback(std::chrono::steady_clock::time_point now) {
  Player& player = app_.transport.player;
  player.set_loop(app_.settings.loop);
  player.set_speed(app_.settings.speed);
  bool new_frame = false;
  try {
    new_frame = player.tick(now);
  } catch (const media::MediaError& e) {
    show_message(app_, e.what(), true);
    std::fprintf(stderr, "vhist: %s\n", util::printable(e.what()).c_str());
    player.close();
    if (!app_.options.common.input.empty()) app_.transport.cli_input_failed = true;  // exit status 2 with --frames
  }
  announce(new_frame);
  const media::DecodedFrame* current = player.frame() ? &*player.frame() : nullptr;
  const media::DecodedFrame* frame = new_frame ? current : nullptr;
  // Equalization switched on or to another mode: the frame shown goes through the GPU again
  // (the CPU engine keeps no copy of it there), also when paused.
  if (app_.settings.picture.equalize != app_.picture.equalize_drawn) {
    if (!frame) frame = current;
    app_.picture.equalize_drawn = app_.settings.picture.equalize;
  }
  if (std::exchange(resend_frame_, false) && !frame) frame = current;
  if (frame) {
    if (const std::string why = renderer_.check(*frame, app_.settings.picture.bins); !why.empty()) {
      show_message(app_, "cannot show '" + player.path() + "': " + why, true);
      std::fprintf(stderr, "vhist: %s\n", util::printable(app_.transport.error).c_str());
      player.close();
      frame = nullptr;
      if (!app_.options.common.input.empty()) app_.transport.cli_input_failed = true;
    }
  }
  return frame;
}

// The OSD after a seek or a step names the frame it landed on, and a camera lost or back is
// reported once, when its state changes.
void Viewer::announce(bool new_frame) {
  const Player& player = app_.transport.player;
  if (new_frame && player.frame()) watch_decode_path(app_, *player.frame());
  if (new_frame && !app_.transport.announce_frame.empty() && player.frame()) {
    show_message(app_, std::exchange(app_.transport.announce_frame, {}) + "  " + format_time(player.frame()->pts) + "  frame " +
                           frame_number_text(*player.frame()));
  }
  if (!player.is_open() || !player.live()) return;
  const media::CameraStatus status = player.camera_status();
  if (status.connected != app_.transport.camera_connected) {
    app_.transport.camera_connected = status.connected;
    show_message(app_, status.connected ? "Camera reconnected" : status.message.empty() ? "Camera lost" : status.message,
                 !status.connected);
    if (status.connected) app_.transport.error.clear();
  }
}

void Viewer::handle_ui() {
  imgui_.new_frame();
  const ImGuiIO& io = ImGui::GetIO();
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(app_.window.handle, &xscale, &yscale);
  app_.window.ui_scale = std::max(1.0f, std::max(xscale, yscale));
  poll_timeline(app_);
  update_layout(app_, io.DisplaySize.x, io.DisplaySize.y);
  if (std::exchange(app_.window.close_popups, false)) ImGui::ClosePopupsOverWindow(nullptr, false);
  if (app_.settings.show_panel) {
    draw_panel(app_, renderer_.statistics());
    app_.layout.panel_tab = {};
  } else {
    draw_panel_tab(app_);
  }
  draw_timeline(app_);
  if (auto chosen = app_.transport.browser.draw()) app_.transport.pending_open = chosen->string();
  if (std::exchange(app_.reference.keep_requested, false)) keep_reference(app_, renderer_.statistics());
  app_.layout.top_labels_from = hdr_label_bottom(app_, frame_style(app_));
  if ((app_.settings.picture.equalize != EqualizeMode::off || matching(app_, false)) && app_.transport.player.is_open()) {
    draw_split(app_);
  }
  update_fit(app_, frame_style(app_));  // without a frame: no note, and the key's plain OSD line
  draw_fit_note(app_);
  settle_clicks(app_.pointer);
  if (app_.transport.player.is_open()) {
    update_range_highlight(app_, frame_style(app_), renderer_.statistics());
    update_pixel_readout(app_, frame_style(app_), app_.pointer.range_mask != 0);
    update_region(app_, frame_style(app_), app_.pointer.range_mask != 0);
    draw_region(app_, frame_style(app_));
    draw_pinned_mark(app_, frame_style(app_));
    draw_hover_readout(app_, frame_style(app_), renderer_.statistics());
    draw_pixel_readout(app_);
  }
  draw_osd(app_);
  draw_hdr_label(app_, frame_style(app_));
  if (!app_.transport.player.is_open() && !app_.settings.show_panel) {
    ImGui::SetNextWindowPos(ImVec2(10, 60 * app_.window.ui_scale));
    ImGui::Begin("##hint", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::TextUnformatted("Drop a video file here, or press Tab to open one.");
    if (!app_.transport.error.empty()) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", app_.transport.error.c_str());
    ImGui::End();
  }
  draw_stats_page(app_, renderer_.statistics());
  if (app_.window.screenshot_requested && !app_.settings.screenshot_tooltips) hide_tooltips();
  ImGui::Render();
}

Viewer::Presented Viewer::handle_present(const media::DecodedFrame* frame, bool last) {
  const bool key_shot = app_.window.screenshot_requested;
  const bool want_shot = hooks_->wants_screenshot(last) || key_shot;
  std::vector<std::uint8_t> screenshot;
  bool drawn = false;
  const DrawStyle style = frame_style(app_);
  if (!frame && app_.transport.player.frame() && renderer_.wants_frame_again(style)) frame = &*app_.transport.player.frame();  // M while paused
  const auto draw_start = std::chrono::steady_clock::now();
  try {
    const std::optional<Underlay> heat = timeline_underlay(app_.timeline);
    drawn = renderer_.draw(frame, std::exchange(app_.picture.rehistogram, false), style, ImGui::GetDrawData(),
                           heat ? &*heat : nullptr, want_shot ? &screenshot : nullptr);
    record_tick_times(app_, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - draw_start).count(),
                      renderer_.statistics());
  } catch (const render::VulkanError& e) {
    recover_surface(e);
    return Presented::retry;
  }
  if (!drawn) {
    swapchain_stale_ = true;
    if (want_shot && screenshot.empty()) return Presented::retry;  // not drawn: try again after the rebuild
  } else {
    surface_losses_ = 0;
  }
  ++rendered_;
  hooks_->presented(frame && app_.transport.player.live() ? app_.transport.player.frame_age_ms() : -1.0);
  const auto now = std::chrono::steady_clock::now();
  const double dt = std::chrono::duration<double>(now - last_frame_time_).count();
  last_frame_time_ = now;
  app_.transport.fps = app_.transport.fps == 0 ? 1 / std::max(dt, 1e-6) : 0.9 * app_.transport.fps + 0.1 / std::max(dt, 1e-6);
  if (key_shot && !screenshot.empty()) {
    app_.window.screenshot_requested = false;
    const VkExtent2D extent = swapchain_.extent();
    save_window_screenshot(app_, screenshot, extent.width, extent.height);
  }
  if (want_shot && hooks_->wants_screenshot(last)) {
    const VkExtent2D extent = swapchain_.extent();
    if (const std::string err = hooks_->save_screenshot(std::move(screenshot), extent.width, extent.height);
        !err.empty()) {
      std::fprintf(stderr, "vhist: cannot save the screenshot: %s\n", util::printable(err).c_str());
      return Presented::failed;
    }
  }
  return Presented::yes;
}

// Where presenting does not wait for the display (Xvfb, some compositors), do not draw faster
// than the monitor refreshes with vsync on (240 frames a second without): frames nobody can see
// take CPU time the decoder needs.
void Viewer::pace(std::chrono::steady_clock::time_point tick_start) const {
  const auto frame_end = std::chrono::steady_clock::now();
  const auto min_frame = std::chrono::microseconds(1000000 / (vsync_ ? refresh_hz_ : 240));
  if (frame_end - tick_start < min_frame) std::this_thread::sleep_for(min_frame - (frame_end - tick_start));
}

int Viewer::run() {
  open_first_input();
  while (!glfwWindowShouldClose(app_.window.handle) && !app_.window.quit) {
    handle_input();
    if (!handle_window()) continue;
    const auto now = std::chrono::steady_clock::now();
    const std::int64_t dropped_before = app_.transport.player.dropped();
    const media::DecodedFrame* frame = handle_playback(now);
    video_rate_.update(app_.transport.player.shown(), !app_.transport.player.is_open() || app_.transport.player.paused(), now);
    app_.transport.video_fps = video_rate_.fps();
    handle_ui();
    // A new domain or region counts the frame on screen again, as if it had just come.
    if (app_.settings.picture.domain != drawn_domain_ || app_.pointer.region != drawn_region_) {
      drawn_domain_ = app_.settings.picture.domain;
      drawn_region_ = app_.pointer.region;
      if (!frame && app_.transport.player.is_open() && app_.transport.player.frame()) frame = &*app_.transport.player.frame();
    }
    hooks_->after_tick({now, dropped_before}, app_.transport.player);
    const bool last = hooks_->last_frame(rendered_);
    const Presented presented = handle_present(frame, last);
    if (presented == Presented::failed) return 1;
    if (presented == Presented::retry) continue;
    hooks_->drawn(rendered_, [&] { return test_state_line(app_, idle_.waits()); });
    if (last) break;
    pace(now);
    idle_.after_tick(app_, hooks_->max_idle_wait());
  }
  return finish();
}

int Viewer::finish() {
  renderer_.wait_idle();
  const std::string how = std::string(app_.decoding.engine_name) +
                         (swapchain_.stores_picture() ? ", picture stored by the present pass" : ", picture copied");
  hooks_->summary(rendered_, app_.transport.fps, how.c_str(), app_.transport.player);
  if (app_.options.test_mode()) print_test_state(app_, idle_.waits());
  if (!app_.options.test_mode() && !app_.window.fullscreen) {
    int w = 0, h = 0;
    glfwGetWindowSize(app_.window.handle, &w, &h);
    app_.settings.window_width = w;
    app_.settings.window_height = h;
  }
  if (context_.validation_message_count() != 0) {
    std::fprintf(stderr, "vhist: %u Vulkan validation messages\n", context_.validation_message_count());
    return 1;
  }
  return app_.transport.cli_input_failed && app_.options.test_mode() ? 2 : 0;
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  App app;
  app.options = options;
  app.settings_file = settings_path();
  std::vector<std::string> warnings;
  if (!app.settings_file.empty()) app.settings = load_settings(app.settings_file, &warnings);
  for (const auto& w : warnings) std::fprintf(stderr, "vhist: settings: %s\n", util::printable(w).c_str());
  absolutize_recent(app.settings);
  apply_settings(app.options, app.settings);
  if (!app.options.reference.empty()) {
    try {
      ReferenceRecord r = read_reference_record(app.options.reference, app.options.reference_frame);
      app.reference.kept = Reference{std::make_shared<const Histogram>(std::move(r.histogram)), r.bits, r.description};
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "vhist: %s\n", util::printable(e.what()).c_str());
      return 2;
    }
  }
  int status = 0;
  try {
    Viewer viewer(app);
    status = viewer.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist: %s\n", render::failure_message(e).c_str());
    return 1;
  }
  // Test runs (--frames, --quit-after) leave the remembered settings alone.
  if (!app.options.test_mode() && !app.settings_file.empty()) {
    std::vector<std::string> notes;
    const std::string err = save_settings(app.settings, app.settings_file, &notes);
    for (const auto& note : notes) std::fprintf(stderr, "vhist: settings: %s\n", note.c_str());
    if (!err.empty()) {
      std::fprintf(stderr, "vhist: cannot save the settings: %s\n", err.c_str());
    }
  }
  return status;
}

}  // namespace vhist::viewer
