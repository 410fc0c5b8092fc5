// The window and this tick's layout. WindowState is changed by the window's callbacks
// (viewer_input.cpp: fullscreen, quit, screenshot, Esc) and the loop; WindowLayout by update_layout()
// (viewer_overlay.cpp) once a tick, and by the panel and the stats page where they are drawn.
// Main thread only: GLFW is used from there alone.
#pragma once

#include <array>

struct GLFWwindow;

namespace vhist::viewer {

struct WindowState {
  GLFWwindow* handle = nullptr;
  bool quit = false;
  bool fullscreen = false;
  int fullscreen_toggles = 0;      // this run's, for the test state line
  std::array<int, 4> windowed{};   // the window's place before fullscreen: x, y, width, height
  float ui_scale = 1.0f;           // the window's content scale (HiDPI)
  bool screenshot_requested = false;  // the screenshot key: save the next frame drawn
  bool close_popups = false;          // Esc with the browser or a dropdown open: close it at the next UI frame
};

// In window coordinates: the rectangle beside the panel (x0, y0, x1, y1) that the picture and the
// scopes share, the picture's part of it (the video and histograms: all of it unless scopes sit
// beside or under them, scope_layout.h), where the labels at the picture's top go (the OSD, the
// HDR label, the split view's names, the fit note, the pinned readout, the collapsed panel's tab:
// the picture's part, below the scopes when they sit over it), and the panel's width (0: collapsed).
struct WindowLayout {
  std::array<float, 4> scope_area{};
  std::array<float, 4> picture_area{};
  std::array<float, 4> label_area{};
  float panel_width = 0;
  std::array<float, 4> panel_tab{};  // the collapsed panel's tab as last drawn
  bool compact = false;              // a small window: the panel shows fewer rows
  // This frame's top of the labels at the picture's top (split view, equalization, fit note):
  // below the HDR label where there is one (hdr_label_bottom), else 0.
  float top_labels_from = 0;
  float stats_page_height = 0;  // the stats page's height as last drawn (it is placed to fit)
};

}  // namespace vhist::viewer
