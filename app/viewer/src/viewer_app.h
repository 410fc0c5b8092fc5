// The viewer's state shared by its loop (viewer.cpp), its panel (viewer_panel.cpp) and the
// window's callbacks. Main thread only: GLFW, ImGui and the player are used from there alone.
#pragma once

#include "vhist/media/camera.h"
#include "vhist/viewer/file_browser.h"
#include "vhist/picture/frame_renderer.h"
#include "vhist/viewer/player.h"
#include "vhist/viewer/settings.h"
#include "vhist/command_line/viewer_options.h"

#include <filesystem>
#include <string>

struct GLFWwindow;

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
  int windowed_x = 0, windowed_y = 0, windowed_w = 0, windowed_h = 0;
  bool rehistogram = false;  // the bins changed: count the frame shown again
  bool cli_input_failed = false;
  double fps = 0;
  const char* engine_name = "gpu";
  media::CameraListing cameras;
  EqualizeMode equalize_drawn = EqualizeMode::off;  // as of the last tick
  bool dragging_divider = false;
};

// The control panel (Tab hides it), with the statistics of the frame drawn a tick ago.
void draw_panel(App& app, const FrameStatistics& numbers);
// With equalization on: the labels of the two halves, and the split view's divider, which the
// mouse drags (when not over the panel).
void draw_split(App& app);
// "1:02.500".
std::string format_time(double seconds);

}  // namespace vhist::viewer
