// Picture to histogram: the stored pixel under the pointer (or pinned by a click) read out with
// its R', G', B', Y' codes and the samples it is stored as, and marked on the histograms.
#include "vhist/compute/colour.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/shader_shared.h"
#include "viewer_app.h"

#include <imgui.h>

#include <string>

namespace vhist::viewer {

namespace {

struct PixelCodes {
  std::uint32_t r = 0, g = 0, b = 0, luma = 0;
  std::array<std::uint32_t, 3> stored{};  // Y', Cb, Cr (yuv); Y' (gray); R', G', B' (rgb)
};

PixelCodes codes_at(const media::DecodedFrame& frame, std::uint32_t x, std::uint32_t y) {
  const VideoFormat& f = frame.format;
  const Rgb c = reference_pixel(f, frame.planes, conversion_coefficients(f.matrix, f.range, f.bits), x, y);
  PixelCodes out{c.r, c.g, c.b, shader::vhist_luma(c.r, c.g, c.b), {}};
  out.stored[0] = read_sample(f, frame.planes, 0, x, y);
  if (f.model == ColourModel::yuv) {
    out.stored[1] = read_sample(f, frame.planes, 1, x >> f.chroma_shift_x, y >> f.chroma_shift_y);
    out.stored[2] = read_sample(f, frame.planes, 2, x >> f.chroma_shift_x, y >> f.chroma_shift_y);
  } else if (f.model == ColourModel::rgb) {
    out.stored = {c.r, c.g, c.b};
  }
  return out;
}

// The frame whose samples the readout reads on the host: none for a frame left in GPU memory by
// NVDEC (--hwdec), which never comes to host memory.
const media::DecodedFrame* shown_frame(const App& app) {
  const bool on_host = app.transport.player.is_open() && app.transport.player.frame() && app.transport.player.frame()->device.memory == FrameMemory::host;
  return on_host ? &*app.transport.player.frame() : nullptr;
}

std::optional<std::array<std::uint32_t, 2>> readout_pixel(const App& app) {
  return app.pointer.pinned_pixel ? app.pointer.pinned_pixel : app.pointer.hovered_pixel;
}

std::string readout_text(const media::DecodedFrame& frame, std::uint32_t x, std::uint32_t y) {
  const PixelCodes p = codes_at(frame, x, y);
  char line[160];
  std::snprintf(line, sizeof line, "pixel %u, %u   R' %u  G' %u  B' %u  Y' %u", x, y, p.r, p.g, p.b, p.luma);
  std::string text = line;
  if (frame.format.model == ColourModel::yuv) {
    std::snprintf(line, sizeof line, "\nstored Y' %u  Cb %u  Cr %u (%s)", p.stored[0], p.stored[1], p.stored[2],
                  frame.format.pixel_format.c_str());
    text += line;
  }
  return text;
}

}  // namespace

void update_pixel_readout(App& app, const DrawStyle& style, bool over_histogram) {
  const ImGuiIO& io = ImGui::GetIO();
  app.pointer.hovered_pixel.reset();
  const media::DecodedFrame* frame = shown_frame(app);
  if (!frame) {
    app.pointer.pinned_pixel.reset();
    return;
  }
  const VideoFormat& f = frame->format;
  if (app.pointer.pinned_pixel && ((*app.pointer.pinned_pixel)[0] >= f.width || (*app.pointer.pinned_pixel)[1] >= f.height)) {
    app.pointer.pinned_pixel.reset();  // a new file or size
  }
  if (io.WantCaptureMouse || app.transport.browser.is_open() || over_histogram || app.pointer.dragging_divider) return;
  app.pointer.hovered_pixel = stored_pixel_at(style, io.DisplaySize.x * io.DisplayFramebufferScale.x,
                                      io.DisplaySize.y * io.DisplayFramebufferScale.y, *shown_shape(app),
                                      io.MousePos.x * io.DisplayFramebufferScale.x,
                                      io.MousePos.y * io.DisplayFramebufferScale.y);
  // A click pins (on release, so that a drag across the video draws a region instead; and once
  // no second click made it a double click: settle_clicks).
  if (app.pointer.hovered_pixel && app.pointer.region_anchor && !app.pointer.region_drag && !app.pointer.left_press_spent &&
      ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    app.pointer.pending_pin = app.pointer.hovered_pixel;
  }
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) app.pointer.pinned_pixel.reset();
}

std::optional<PictureShape> shown_shape(const App& app) {
  const media::DecodedFrame* frame = shown_frame(app);
  if (!frame) return std::nullopt;
  const VideoFormat& f = frame->format;
  return PictureShape{f.rotation, static_cast<float>(f.display_width()), static_cast<float>(f.display_height()),
                      f.width, f.height};
}

std::array<std::int32_t, 4> pixel_markers(const App& app, bool ycbcr) {
  const media::DecodedFrame* frame = shown_frame(app);
  const auto pixel = readout_pixel(app);
  if (!frame || !pixel) return {-1, -1, -1, -1};
  const PixelCodes p = codes_at(*frame, (*pixel)[0], (*pixel)[1]);
  const auto i = [](std::uint32_t v) { return static_cast<std::int32_t>(v); };
  if (!ycbcr) return {i(p.r), i(p.g), i(p.b), i(p.luma)};
  // The planes' slots (source_measures.h): Cr in R's, Cb in B's, Y' in L's.
  return {i(p.stored[2]), -1, i(p.stored[1]), i(p.stored[0])};
}

void draw_pixel_readout(const App& app) {
  const media::DecodedFrame* frame = shown_frame(app);
  const auto pixel = readout_pixel(app);
  if (!frame || !pixel) return;
  const std::string text = readout_text(*frame, (*pixel)[0], (*pixel)[1]);
  if (!app.pointer.pinned_pixel) {
    ImGui::SetTooltip("%s", text.c_str());
    return;
  }
  const auto& a = app.layout.label_area;
  ImGui::SetNextWindowPos(ImVec2(a[0] + 10.0f * app.window.ui_scale, a[1] + 48.0f * app.window.ui_scale));
  ImGui::SetNextWindowBgAlpha(0.7f);
  ImGui::Begin("##pinned", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoInputs);
  ImGui::TextUnformatted(("pinned " + text + "\n(right click unpins)").c_str());
  ImGui::End();
}

}  // namespace vhist::viewer
