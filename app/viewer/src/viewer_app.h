// The viewer's state shared by its loop (viewer.cpp), its panel (viewer_panel.cpp) and the
// window's callbacks. Main thread only: GLFW, ImGui and the player are used from there alone.
#pragma once

#include "timeline_cells.h"
#include "timeline_scan.h"

#include "vhist/media/camera.h"
#include "vhist/viewer/file_browser.h"
#include "vhist/picture/frame_renderer.h"
#include "vhist/viewer/player.h"
#include "vhist/viewer/settings.h"
#include "vhist/command_line/viewer_options.h"

#include <array>
#include <optional>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace vhist::hwdec {
struct Hwdec;
}

namespace vhist::viewer {

struct App {
  ViewerOptions options;
  Settings settings;  // every setting: remembered ones and this run's (equalization, split view)
  std::filesystem::path settings_file;
  GLFWwindow* window = nullptr;
  Player player;
  FileBrowser browser;
  std::string open_path;     // the panel's path field
  std::string error;         // shown in the panel (and printed on stderr) until the next open
  std::string pending_open;  // a file to open at the next tick (drop, browser, recent)
  bool quit = false;
  bool fullscreen = false;
  int fullscreen_toggles = 0;  // this run's, for the test state line
  bool stats_page = false;     // i: the stats page over the picture
  // The stats page's numbers: the device, and each tick's times in ms (the last kTimeSamples).
  std::string gpu_name, gpu_driver;
  static constexpr std::size_t kTimeSamples = 60;
  struct TickTimes {
    double decode = 0, decode_wait = 0, cpu_draw = 0, gpu_upload = 0, gpu_histogram = 0, gpu_draw = 0;
  };
  std::vector<TickTimes> tick_times;  // a ring: the newest at tick_times_next - 1
  std::size_t tick_times_next = 0;
  int windowed_x = 0, windowed_y = 0, windowed_w = 0, windowed_h = 0;
  bool rehistogram = false;  // the bins changed: count the frame shown again
  // The histogram range under the pointer, highlighted in the picture (DrawStyle::range_*):
  // the channels (R 1, G 2, B 4, L 8; 0: none) and the codes; a drag's starting bin.
  std::uint32_t range_mask = 0, range_low = 0, range_high = 0;
  std::optional<std::uint32_t> range_drag_bin;
  std::optional<std::array<std::uint32_t, 3>> kept_range;  // a dragged range (mask, low, high), lit until cleared
  // Picture to histogram: the stored pixel under the pointer, and one pinned by a click.
  std::optional<std::array<std::uint32_t, 2>> hovered_pixel, pinned_pixel;
  // The region of interest, in stored pixels (DrawStyle::region); while the left button drags
  // across the video: the pixel it went down on and the rectangle so far.
  std::optional<PixelRect> region;
  std::optional<std::array<std::uint32_t, 2>> region_anchor;
  std::optional<PixelRect> region_drag;
  // The reference histogram (R, G, B, L at its bins): kept from a frame (K) or read from an
  // analyze record (--reference), with where it came from.
  struct Reference {
    std::shared_ptr<const Histogram> histogram;
    std::uint32_t bits = 8;
    std::string source;
  };
  std::optional<Reference> reference;
  bool keep_reference_requested = false;  // K: keep the next UI frame's histograms
  bool cli_input_failed = false;
  double fps = 0;        // redraws a second (the test summary)
  double video_fps = 0;  // video frames shown a second (the panel; 0 while paused)
  const char* engine_name = "gpu";
  // --hwdec (viewer_hwdec.h): what it came to for the device (the Viewer's, null before it
  // starts); why the open file is decoded on the CPU though --hwdec asked for NVDEC (empty:
  // it is not, or it was not asked), not yet said; NVDEC's check of the first frame awaited.
  const hwdec::Hwdec* hwdec = nullptr;
  std::string hwdec_note;
  bool hwdec_unsaid = false, hwdec_watch = false;
  media::CameraListing cameras;
  EqualizeMode equalize_drawn = EqualizeMode::off;  // as of the last tick
  bool dragging_divider = false;
  // The video's place in the picture (viewer_fit.cpp): with fit 1:1, how far a middle-button drag
  // has moved it (framebuffer pixels, held within the picture's overflow); what the fit hides,
  // in words (empty: nothing); the fit key was pressed (say the new mode on the OSD).
  std::array<float, 2> pan{};
  bool panning = false;
  std::string fit_note;
  // This frame's top of the labels at the picture's top (split view, equalization, fit note):
  // below the HDR label where there is one (hdr_label_bottom), else 0.
  float top_labels_from = 0;
  float stats_page_height = 0;  // the stats page's height as last drawn (it is placed to fit)
  bool announce_fit = false;
  // The layout of this tick (viewer_layout.cpp), in window coordinates: the rectangle beside the
  // panel (x0, y0, x1, y1) that the picture and the scopes share, the picture's part of it (the
  // video and histograms: all of it unless scopes sit beside or under them, scope_layout.h), and
  // the panel's width (0: collapsed).
  std::array<float, 4> scope_area{};
  std::array<float, 4> picture_area{};
  // Where the labels at the picture's top go (the OSD, the HDR label, the split view's names, the
  // fit note, the pinned readout, the collapsed panel's tab): the picture's part, below the scopes
  // when they sit over it.
  std::array<float, 4> label_area{};
  float panel_width = 0;
  std::array<float, 4> panel_tab{};  // the collapsed panel's tab as last drawn (window coordinates)
  bool compact = false;    // a small window: the panel shows fewer rows
  float ui_scale = 1.0f;   // the window's content scale (HiDPI)
  // The on-screen message (OSD): what, since when, and whether it reports a failure.
  std::string osd_text;
  std::chrono::steady_clock::time_point osd_since{};
  bool osd_error = false;
  std::vector<std::string> osd_log;  // the last 16 OSD lines, for the test state line
  bool screenshot_requested = false;  // the screenshot key: save the next frame drawn
  bool close_popups = false;          // Esc with the browser or a dropdown open: close it at the next UI frame
  bool camera_connected = true;       // as of the last tick, to report a camera lost or back
  std::string announce_frame;         // "Seek", "Step": say the next frame's time and number on the OSD
  double last_click_time = -1;        // glfwGetTime() of the last left click on the picture
  // Gestures (viewer_input.cpp): a click pins only once it is known not to be the first of a
  // double click (pending_pin waits kDoubleClickSeconds); the press that makes a double click,
  // and its release after the window changed mode, neither pin nor start a region or a range.
  std::optional<std::array<std::uint32_t, 2>> pending_pin;
  bool left_press_spent = false;
  double scroll_notches = 0;  // the wheel's movement not yet turned into seeks
  // The timeline (viewer_timeline.cpp): the background scan, what the strip draws and its
  // choices (this session's), the strip's place under the picture (window coordinates; empty:
  // not shown) and its heatmap's as last drawn, the frame a drag last sought and the frame an
  // event key or a click went to (the next key starts from there while it is on its way).
  TimelineScan timeline;
  TimelineCells timeline_cells;
  TimelineChannel timeline_channel = TimelineChannel::luma;
  bool timeline_log = true, timeline_curves = true, timeline_shares = true;
  std::array<float, 4> timeline_area{};
  std::array<float, 4> timeline_heat{};
  std::int64_t timeline_drag_frame = -1, timeline_target = -1;
  // The heatmap as pixels (heat_image(), one per pixel of the heatmap) that the presenter copies
  // under the UI, where it can (heat_by_image; else ImGui draws the cells): remade when the cells
  // or the heatmap's place (heat_place: x0, x1, top, bottom) change, heat_stamp counting the
  // remakes; heat_rect: where this tick draws them (window coordinates, whole pixels; empty: not
  // this tick).
  bool heat_by_image = false;
  std::vector<std::uint32_t> heat_pixels;
  std::uint32_t heat_width = 0, heat_height = 0;
  std::uint64_t heat_stamp = 0;
  std::array<float, 4> heat_place{};
  std::array<float, 4> heat_rect{};
};

// Shows `text` on the picture for about two seconds (and, when `error`, in the panel too).
// Main thread only.
void show_message(App& app, std::string text, bool error = false);
// Opens a file or camera; a failure goes to the OSD, the panel and stderr. `stream`: the video
// stream to read (the panel's stream list); by default --stream for the file given on the
// command line, else the best one.
void open_file(App& app, const std::string& path, std::optional<int> stream = std::nullopt);
// The window's callbacks (viewer_input.cpp): keys, a dropped file, a double click.
void install_callbacks(GLFWwindow* window);
// Once a tick, before the mouse is read: pins the pending pixel once the double click's time has
// passed without a second click, and ends the double click's spent press once it is released.
void settle_clicks(App& app);

// The panel's width in window coordinates for a window `width` wide at content scale `scale`:
// clamp(0.28 * width, 260 * scale, 420 * scale), but never more than half the window.
float panel_width_for(float width, float scale);
// Sets app.scope_area, picture_area, panel_width and compact for a window of `width` x `height` (window
// coordinates): the panel on the right when shown, the picture left of it.
void update_layout(App& app, float width, float height);
// The collapsed panel: a small button at the top right that shows it again.
void draw_panel_tab(App& app);
// The OSD line at the top of the picture area, fading out after about two seconds.
void draw_osd(App& app);
// What the picture of a PQ or HLG source shows (tone-mapped, or code values), at its top right.
void draw_hdr_label(const App& app, const DrawStyle& style);
// Where the HDR label's box ends (window y; 0 when there is none): the split view's labels and
// the fit note go below it (App::top_labels_from), so that no text is written over it.
float hdr_label_bottom(const App& app, const DrawStyle& style);
// Seconds until the OSD line has faded out (0: none shown).
double osd_seconds_left(const App& app);
// Saves the window's pixels (RGBA, top row first) as CLIP-00m12.345s.png in $XDG_PICTURES_DIR
// when that is a folder, else the current folder, and says where on the OSD (or why not).
// Hides this frame's tooltips (call before ImGui::Render): a screenshot shows the picture, the
// panel and what is pinned, not what happened to be under the pointer.
void hide_tooltips();
void save_window_screenshot(App& app, const std::vector<std::uint8_t>& pixels, std::uint32_t width,
                            std::uint32_t height);
// The tooltip over a histogram bin: its code range and each drawn channel's count and share.
void draw_hover_readout(const App& app, const DrawStyle& style, const FrameStatistics& numbers);
// The histogram range under the pointer (the hovered bin, or the bins a drag has crossed) for
// the picture to highlight; none away from the histograms or in the Y'CbCr domain.
void update_range_highlight(App& app, const DrawStyle& style, const FrameStatistics& numbers);
// After a drag across bins is released its range stays lit (kept_range) until a right click on a
// histogram; shown_range() is what the picture highlights: the range under the pointer, else the kept one.
void keep_or_clear_range(App& app, bool dragged);
std::array<std::uint32_t, 3> shown_range(const App& app);
// The stored pixel under the pointer (over the video, not a histogram), a left click pinning it
// and a right click unpinning; its codes read out, and marked on the histograms (DrawStyle::markers).
void update_pixel_readout(App& app, const DrawStyle& style, bool over_histogram);
std::array<std::int32_t, 4> pixel_markers(const App& app, bool ycbcr);
void draw_pixel_readout(const App& app);
// The region of interest (viewer_region.cpp): a left-button drag across the video sets it (a
// click without a drag is left to the pixel readout), R clears it; its outline, and the drag's.
void update_region(App& app, const DrawStyle& style, bool over_histogram);
void clear_region(App& app);
void draw_region(const App& app, const DrawStyle& style);
// The reference (viewer_reference.cpp): K keeps the histograms on screen (those of the frame
// drawn a tick ago, of the region when one is set), shift+K drops them; the panel's section with
// the distances per channel; what the split view's right half is called.
void keep_reference(App& app, const FrameStatistics& numbers);
void drop_reference(App& app);
void draw_reference_section(App& app, const FrameStatistics& numbers);
// Whether the picture is matched to the reference this tick (the setting, a reference, R'G'B').
bool matching(const App& app, bool ycbcr);
// The shown frame's shape (picture_geometry.h), or none without a frame.
std::optional<PictureShape> shown_shape(const App& app);

// The fit (viewer_fit.cpp): a middle-button drag pans a 1:1 picture; app.fit_note and the OSD
// line after the fit key, from the placement `style` draws (its pan replaced by app.pan).
void update_fit(App& app, DrawStyle style);
// The note on the picture (top right) when part of the frame is hidden.
void draw_fit_note(const App& app);
// The panel's row: the fit mode's choice and the note.
void draw_fit_line(App& app);
// The pinned pixel's mark on the picture: a box with four ticks at its place, in every fit mode;
// where the fit crops it away, an arrow at the picture's edge pointing towards it.
void draw_pinned_mark(const App& app, const DrawStyle& style);
// The stats page (viewer_stats.cpp): i shows it over the picture, as mpv's stats page: the
// decoder and its threads, hardware decoding, medians of the last ticks' times, drops, the queue,
// the device. record_tick_times() adds a tick's times (`cpu_draw_ms`: the draw call on the CPU).
void record_tick_times(App& app, double cpu_draw_ms, const FrameStatistics& numbers);
void draw_stats_page(App& app, const FrameStatistics& numbers);

// ImGui::SameLine() when an item `width` wide still fits on the line after the last item, so that
// a row of the panel breaks instead of being cut at its right edge.
void same_line_if_room(float width);

// The control panel (Tab hides it), with the statistics of the frame drawn a tick ago.
void draw_panel(App& app, const FrameStatistics& numbers);
// The panel's scopes section (viewer_panel_scopes.cpp).
void draw_scopes_section(App& app, const FrameStatistics& numbers);
// The panel's numbers (viewer_panel_numbers.cpp): the statistics table, one or two stacked so that
// no column is cut; then the frame's range verdict, its legal range and a PQ frame's light.
void draw_stats_table(const FrameStatistics& numbers);
void draw_source_measures(const App& app, const FrameStatistics& numbers);
// With equalization on: the labels of the two halves, and the split view's divider, which the
// mouse drags (when not over the panel).
void draw_split(App& app);
// "1:02.500".
std::string format_time(double seconds);
// A frame's number as shown: "37", or "~37" where it is an estimate (after a seek in a stream
// whose frame rate may vary: DecodedFrame::index_exact).
std::string frame_number_text(const media::DecodedFrame& frame);

}  // namespace vhist::viewer
