// The timeline strip and its panel section (viewer_timeline.cpp, viewer_timeline_panel.cpp).
// Main thread only.
#pragma once

#include "vhist/qc/checks.h"
#include "vhist/viewer/presenter.h"

#include <imgui.h>

#include <cstdint>
#include <optional>

namespace vhist::viewer {

struct App;
struct TimelineView;

// The strip's height for a window `height` tall (window coordinates): 0 when it is not shown (the
// setting off, no file, a camera, a very small window). update_layout() takes it from the picture.
float timeline_strip_height(const App& app, float height);
// Once a tick, before the UI: starts the scan or loads the cache for the file open (and stops it
// when the file is closed or the setting turned off), and reads the scan's progress.
void poll_timeline(App& app);
// The strip in app.timeline.area: the timeline, or the scan's progress, or why there is none.
// Where app.timeline.heat.by_image, the heatmap's cells are left to the presenter (timeline_underlay()).
void draw_timeline(App& app);
// The heatmap's pixels where this tick's strip has them (after draw_timeline()), in framebuffer
// pixels; none where the strip has no heatmap or ImGui draws its cells.
std::optional<Underlay> timeline_underlay(const TimelineView& timeline);
void draw_timeline_ready(App& app);
void draw_timeline_status(App& app);
// Hover (a tooltip with the column's time, frames and values) and click or drag (seek) over the
// strip's columns, which run from x0 to x1.
void timeline_pointer(App& app, float x0, float x1);
// The panel's section: the scan's state, the heatmap's channel and scale, the curves, the events.
void draw_timeline_section(App& app);
// Seeks to the first frame of the next (direction > 0) or previous event; says so on the OSD.
void jump_to_event(App& app, int direction);
// The timeline's number of the frame on screen: the last scanned frame at or before its time (the
// player's own number is an estimate after a seek in some streams); -1 without a frame.
std::int64_t timeline_frame_shown(const App& app);
// A check's colour in the strip and the panel.
ImU32 event_colour(qc::Check check);

}  // namespace vhist::viewer
