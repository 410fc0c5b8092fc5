#include "scope_style.h"

#include "vhist/picture/light_scale.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_layout.h"
#include "vhist/viewer/settings_table.h"

namespace vhist::app {

viewer::DrawStyle scope_style(const ScopeOptions& o, const media::DecodedFrame& frame) {
  viewer::Settings settings;
  for (const auto& [row, text] : o.settings) viewer::set_from_command_line(*row, settings, text);
  viewer::PictureOptions& p = settings.picture;
  p.waveform = o.kind == ScopeKind::waveform;
  p.parade = o.kind == ScopeKind::parade;
  p.vectorscope = o.kind == ScopeKind::vectorscope;
  p.waveform_view = o.mode == ScopeMode::rgb ? viewer::WaveformView::rgb : viewer::WaveformView::luma;
  p.parade_view = o.mode == ScopeMode::ycbcr ? viewer::ParadeView::ycbcr : viewer::ParadeView::rgb;
  p.equalize = EqualizeMode::off;
  p.split_view = false;
  viewer::DrawStyle style(p);
  style.scopes_only = true;
  style.video = false;
  style.region = o.roi;
  // As the viewer sizes text for a picture area as tall as the PNG (a screen of content scale 1).
  style.ui_scale = viewer::picture_ui_scale(1.0f, static_cast<float>(o.height));
  const viewer::LightScale light = viewer::light_scale_of(frame.colour.transfer.value);
  const double mastering_peak = frame.colour.mastering ? frame.colour.mastering->max_luminance : 0.0;
  style.light = light;
  style.hdr = viewer::hdr_display_for(light, p.tone_map, mastering_peak);
  return style;
}

std::string region_text(const ScopeOptions& o, const VideoFormat& f) {
  if (!o.roi) return "the whole frame (" + std::to_string(f.width) + "x" + std::to_string(f.height) + ")";
  const PixelRect& r = *o.roi;
  return "--roi " + std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.width) + "," +
         std::to_string(r.height) + " (" + std::to_string(r.width) + "x" + std::to_string(r.height) +
         " stored pixels)";
}

}  // namespace vhist::app
