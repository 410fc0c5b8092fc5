// The picture's options: what the person chose about how the histograms and the video are drawn,
// with their defaults, declared here once. The renderer owns them (DrawStyle, draw_style.h, is
// these options plus what one tick adds); the viewer's Settings holds one PictureOptions, and the
// settings table (settings_table.h) points its rows into it for the settings file, the command
// line, the panel and the keys. Plain values, no Vulkan.
#pragma once

#include "vhist/picture/picture_modes.h"
#include "vhist/picture/scope_scale.h"  // LevelUnits

#include "vhist/compute/cdf.h"  // EqualizeMode

#include <array>
#include <cstdint>

namespace vhist::viewer {

inline constexpr float kMinScopeGain = 0.25f, kMaxScopeGain = 16.0f;

struct PictureOptions {
  std::array<bool, 4> channels{true, true, true, true};  // R, G, B, L drawn
  ScaleMode scale = ScaleMode::automatic;
  std::uint32_t bins = 256;  // per channel: a power of two, kMinBins..kMaxBins (settings.h)
  Layout layout = Layout::split;
  Palette palette = Palette::classic;
  std::array<CdfMode, 4> cdf{};  // per channel (R, G, B, L): the cumulative histogram off, over or instead
  float opacity = 0.75f;         // the histograms' background opacity, 0..1
  bool guides = false;           // legal-range guides on the histograms (16/235 at 8 bits, scaled; the ends)
  // The end bins (the lowest and highest codes) drawn to their own scale (full height = every
  // pixel counted), the bins between them scaled as if the end bins were empty.
  bool end_scale = false;
  LightAxis light_axis = LightAxis::nits;  // how a PQ or HLG source's light scale labels the axis
  bool tone_map = true;                    // a PQ or HLG picture tone-mapped to SDR for display
  Domain domain = Domain::rgb;             // R'G'B' after conversion, or the Y'CbCr planes
  // Exposure marks over the video (exposure_shared.h): zebras at thresholds in percent of the
  // code range, false colour.
  ZebraMode zebra = ZebraMode::off;
  ZebraStyle zebra_style = ZebraStyle::stripes;
  bool zebra_rgb = false;  // the zebras test R'G'B' (kMarkZebraRgb, any channel), else luma
  float zebra_high = 95.0f, zebra_low = 2.0f;
  bool false_colour = false;
  FitMode fit = FitMode::automatic;  // how the video sits in the picture (video_fit.h)
  EqualizeMode equalize = EqualizeMode::off;
  // Equalize only right of a divider at this fraction of the width (0..1); otherwise all of it.
  bool split_view = false;
  float split_position = 0.5f;
  // The scopes (issue 26; scope_layout.h places them, docs/user-guide.md "Scopes"): which are
  // shown (any combination), where, and how their counts are drawn.
  bool waveform = false, parade = false, vectorscope = false;
  ScopePlace scope_place = ScopePlace::beside;
  WaveformView waveform_view = WaveformView::luma;
  ParadeView parade_view = ParadeView::rgb;
  ScopeZoom scope_zoom = ScopeZoom::x1;
  float scope_gain = 1.0f;  // brightness = gain x the mapped count (kMinScopeGain..kMaxScopeGain)
  ScopeMapping scope_mapping = ScopeMapping::log;
  ScopeColour scope_colour = ScopeColour::channels;
  bool scope_legal = true;  // the EBU R 103 lines on the waveform and parade
  LevelUnits scope_units = LevelUnits::percent;
  bool operator==(const PictureOptions&) const = default;
};

}  // namespace vhist::viewer
