#include "scope_style.h"

#include "vhist/picture/light_scale.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_scale.h"
#include "vhist/viewer/settings_table.h"

#include "vhist/compute/scope_counts.h"

namespace vhist::app {

namespace {

std::string region_text(const ScopeOptions& o, const VideoFormat& f) {
  if (!o.roi) return "the whole frame (" + std::to_string(f.width) + "x" + std::to_string(f.height) + ")";
  const PixelRect& r = *o.roi;
  return "--roi " + std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.width) + "," +
         std::to_string(r.height) + " (" + std::to_string(r.width) + "x" + std::to_string(r.height) +
         " stored pixels)";
}

}  // namespace

viewer::DrawStyle scope_style(const ScopeOptions& o, const media::DecodedFrame& frame) {
  viewer::Settings settings;
  for (const auto& [row, text] : o.settings) viewer::set_from_command_line(*row, settings, text);
  viewer::DrawStyle style(settings.picture);
  style.video = false;
  style.channels = {false, false, false, false};
  style.equalize = EqualizeMode::off;
  style.split_view = false;
  style.region = o.roi;
  style.ui_scale = viewer::picture_ui_scale(1.0f, static_cast<float>(o.height));
  const viewer::LightScale light = viewer::light_scale_of(frame.colour.transfer.value);
  const double mastering_peak = frame.colour.mastering ? frame.colour.mastering->max_luminance : 0.0;
  style.light = light;
  style.hdr = viewer::hdr_display_for(light, settings.picture.tone_map, mastering_peak);
  return style;
}

ScopeDescription describe_scope(const ScopeOptions& o, const media::DecodedFrame& frame) {
  const VideoFormat& f = frame.format;
  std::string text = std::string(scope_kind_name(o.kind));
  if (o.mode) text += " (" + std::string(scope_mode_name(*o.mode)) + ")";
  text += " of " + region_text(o, f);
  if (o.kind != ScopeKind::vectorscope) {
    const std::uint32_t plots = o.kind == ScopeKind::parade ? 3 : 1;
    const std::uint32_t columns = display_columns(f, scope_region(f, o.roi));
    text += "; " + viewer::column_binning_text(viewer::waveform_column_run(columns, o.width / plots));
  }
  return {text};
}

}  // namespace vhist::app
