// The viewer's state shared by its loop (viewer.cpp), its panel (viewer_panel.cpp) and the
// window's callbacks, and the functions that draw and change it.
#pragma once

#include "state_messages.h"
#include "state_picture.h"
#include "state_pointer.h"
#include "state_timeline.h"
#include "state_transport.h"
#include "state_window.h"

#include "vhist/picture/frame_renderer.h"
#include "vhist/viewer/settings.h"
#include "vhist/command_line/viewer_options.h"

#include <array>
#include <optional>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace vhist::viewer {

// The viewer's state, in parts that each own one concern (state_*.h says which file changes a
// part and from which thread); a function takes the part it needs, App where it needs several.
// Main thread only: GLFW, ImGui and the player are used from there alone.
struct App {
  ViewerOptions options;
  Settings settings;  // every setting: remembered ones and this run's (equalization, split view)
  std::filesystem::path settings_file;
  Transport transport;
  Decoding decoding;
  WindowState window;
  WindowLayout layout;
  Pointer pointer;
  PictureView picture;
  ReferenceState reference;
  Osd osd;
  StatsPage stats;
  TimelineView timeline;
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
void settle_clicks(Pointer& pointer);

// The panel's width in window coordinates for a window `width` wide at content scale `scale`:
// clamp(0.28 * width, 260 * scale, 420 * scale), but never more than half the window.
float panel_width_for(float width, float scale);
// Sets app.layout.scope_area, picture_area, panel_width and compact for a window of `width` x `height` (window
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
std::array<std::uint32_t, 3> shown_range(const Pointer& pointer);
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

// The fit (viewer_fit.cpp): a middle-button drag pans a 1:1 picture; app.picture.fit_note and the OSD
// line after the fit key, from the placement `style` draws (its pan replaced by app.picture.pan).
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
