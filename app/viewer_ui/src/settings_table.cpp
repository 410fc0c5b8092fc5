#include "vhist/viewer/settings_table.h"

#include "vhist/cli/cli.h"
#include "vhist/picture/video_fit.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>

namespace vhist::viewer {

namespace {

template <typename T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  // from_chars rejects a leading '+', which people write by hand; accept it for unsigned too.
  const char* begin = text.data();
  if (begin != end && *begin == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc{} || ptr != end || begin == end) return std::nullopt;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value)) return std::nullopt;
  }
  return value;
}

std::optional<bool> parse_bool(std::string_view text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  return std::nullopt;
}

std::string format_float(float value) {
  // Shortest text that reads back as the same float, independent of the C locale.
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

std::string format_bound(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

template <typename E>
constexpr auto kValues = std::array<E, 0>{};
template <>
constexpr auto kValues<ScaleMode> = std::array{ScaleMode::automatic, ScaleMode::logarithmic, ScaleMode::fixed};
template <>
constexpr auto kValues<Layout> = std::array{Layout::split, Layout::overlay, Layout::stacked};
template <>
constexpr auto kValues<Palette> = std::array{Palette::classic, Palette::colorblind, Palette::mono};
template <>
constexpr auto kValues<CdfMode> = std::array{CdfMode::off, CdfMode::over, CdfMode::instead};
template <>
constexpr auto kValues<EqualizeMode> = std::array{EqualizeMode::off, EqualizeMode::luma, EqualizeMode::channels};
template <>
constexpr auto kValues<LightAxis> = std::array{LightAxis::nits, LightAxis::stops, LightAxis::codes};
template <>
constexpr auto kValues<Domain> = std::array{Domain::rgb, Domain::ycbcr};
template <>
constexpr auto kValues<ZebraMode> = std::array{ZebraMode::off, ZebraMode::high, ZebraMode::low, ZebraMode::both};
template <>
constexpr auto kValues<ZebraStyle> = std::array{ZebraStyle::stripes, ZebraStyle::solid};
template <>
constexpr auto kValues<FitMode> = std::array{FitMode::automatic, FitMode::fit, FitMode::cover, FitMode::actual};
template <>
constexpr auto kValues<ScopePlace> = std::array{ScopePlace::beside, ScopePlace::under, ScopePlace::over};
template <>
constexpr auto kValues<WaveformView> = std::array{WaveformView::luma, WaveformView::rgb};
template <>
constexpr auto kValues<ParadeView> = std::array{ParadeView::rgb, ParadeView::ycbcr};
template <>
constexpr auto kValues<ScopeZoom> = std::array{ScopeZoom::x1, ScopeZoom::x2, ScopeZoom::x5};
template <>
constexpr auto kValues<ScopeMapping> = std::array{ScopeMapping::log, ScopeMapping::linear};
template <>
constexpr auto kValues<ScopeColour> = std::array{ScopeColour::channels, ScopeColour::mono};
template <>
constexpr auto kValues<LevelUnits> = std::array{LevelUnits::codes, LevelUnits::percent, LevelUnits::nits};

// "auto, log or fixed".
template <typename E>
std::string either(const char* last_word = " or ") {
  std::string out;
  for (std::size_t i = 0; i < kValues<E>.size(); ++i) {
    if (i > 0) out += i + 1 == kValues<E>.size() ? last_word : ", ";
    out += to_string(kValues<E>[i]);
  }
  return out;
}

template <typename E>
std::optional<E> parse_name(std::string_view name) {
  for (const E value : kValues<E>) {
    if (name == to_string(value)) return value;
  }
  return std::nullopt;
}

constexpr std::string_view kRgbl = "rgbl";

// --channels rgb: the channels drawn.
std::string parse_channels(Settings& s, std::string_view text) {
  std::array<bool, 4> set{};
  for (char c : text) {
    const std::size_t k = kRgbl.find(c);
    if (k == std::string_view::npos) return "a set of the letters r, g, b and l (e.g. rgb)";
    set[k] = true;
  }
  if (text.empty()) return "a set of the letters r, g, b and l (e.g. rgb)";
  s.picture.channels = set;
  return {};
}

// --cdf over, or per channel set: l:over,rgb:instead.
std::string parse_cdf(Settings& s, std::string_view text) {
  const std::string expected = "over, instead or off, or channel sets with a mode (e.g. l:over,rgb:instead)";
  if (text.empty()) return expected;
  std::array<CdfMode, 4> modes{};
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto colon = item.find(':');
    const auto mode = parse_cdf_mode(colon == std::string_view::npos ? item : item.substr(colon + 1));
    const std::string_view set = colon == std::string_view::npos ? kRgbl : item.substr(0, colon);
    if (!mode || set.empty()) return expected;
    for (char c : set) {
      const std::size_t k = kRgbl.find(c);
      if (k == std::string_view::npos) return expected;
      modes[k] = *mode;
    }
  }
  s.picture.cdf = modes;
  return {};
}

// --split 0.5: the split view at that divider, equalizing by luma (--equalize, applied after
// this row, may choose another mode).
std::string parse_split(Settings& s, std::string_view text) {
  const auto position = cli::parse_fraction(text);
  if (!position) return "the divider's position, a number from 0 to 1 (e.g. 0.5)";
  s.picture.split_view = true;
  s.picture.split_position = static_cast<float>(*position);
  s.picture.equalize = EqualizeMode::luma;
  return {};
}

// C: every channel to the mode after the red channel's.
void cycle_cdf(Settings& s) {
  const auto next = static_cast<CdfMode>((static_cast<int>(s.picture.cdf[0]) + 1) % 3);
  s.picture.cdf = {next, next, next, next};
}

// V: the split view on or off (S is the screenshot, as in mpv); on, it needs an equalized side.
void toggle_split(Settings& s) {
  s.picture.split_view = !s.picture.split_view;
  if (s.picture.split_view && s.picture.equalize == EqualizeMode::off) s.picture.equalize = EqualizeMode::luma;
}

// --scopes waveform,parade,vectorscope (or all, none): the scopes shown.
std::string parse_scopes(Settings& s, std::string_view text) {
  const std::string expected = "all, none, or a comma-separated set of waveform, parade and vectorscope";
  bool w = false, p = false, v = false;
  if (text == "all") {
    w = p = v = true;
  } else if (text != "none") {
    if (text.empty()) return expected;
    while (!text.empty()) {
      const auto comma = text.find(',');
      const std::string_view item = text.substr(0, comma);
      text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
      bool& flag = item == "waveform" ? w : item == "parade" ? p : v;
      if (item != "waveform" && item != "parade" && item != "vectorscope") return expected;
      flag = true;
    }
  }
  s.picture.waveform = w;
  s.picture.parade = p;
  s.picture.vectorscope = v;
  return {};
}

void speed_down(Settings& s) { s.speed = slower(s.speed); }
void speed_up(Settings& s) { s.speed = faster(s.speed); }

static_assert(kAutoCoverMaxHidden == 0.05f, "the fit row's help says 5%");

constexpr const char* kEqualizeLabels[] = {"off", "luma (hue kept)", "per channel"};
constexpr const char* kZoomLabels[] = {"x1", "x2", "x5"};
constexpr const char* kParadeLabels[] = {"R'G'B'", "Y'CbCr planes"};
constexpr const char* kWaveformLabels[] = {"luma", "R'G'B' overlay"};

#define VHIST_FIELD(member) [](Settings& s) -> FieldRef { return &s.member; }

constexpr SettingRow kRows[] = {
    {.name = "channel_r", .section = "Histogram", .help = "draw the red channel",
     .field = VHIST_FIELD(picture.channels[0]), .label = "R", .key = '1', .key_help = "red histogram on/off"},
    {.name = "channel_g", .section = "Histogram", .help = "draw the green channel",
     .field = VHIST_FIELD(picture.channels[1]), .label = "G", .key = '2', .key_help = "green histogram on/off"},
    {.name = "channel_b", .section = "Histogram", .help = "draw the blue channel",
     .field = VHIST_FIELD(picture.channels[2]), .label = "B", .key = '3', .key_help = "blue histogram on/off"},
    {.name = "channel_l", .section = "Histogram", .help = "draw the luma histogram",
     .field = VHIST_FIELD(picture.channels[3]), .label = "L", .key = '4', .key_help = "luma histogram on/off"},
    {.name = "channels", .remembered = false, .section = "Histogram",
     .help = "histogram channels drawn, any of r, g, b, l (e.g. rgb, l)", .flag = "--channels", .value_name = "SET",
     .parse_flag = parse_channels},
    {.name = "scale", .section = "Histogram", .help = "bar heights: auto (to the tallest bin), log or fixed",
     .field = VHIST_FIELD(picture.scale), .flag = "--scale", .value_name = "MODE", .label = "scale"},
    {.name = "bins", .section = "Histogram",
     .help = "bins per channel: a power of two from 16 to 1024 (256 at most for 8-bit video)",
     .field = VHIST_FIELD(picture.bins), .min = kMinBins, .max = kMaxBins, .rule = RangeRule::power_of_two, .flag = "--bins",
     .value_name = "N"},
    {.name = "layout", .section = "Histogram",
     .help = "split (RGB bottom left, luma bottom right), overlay (one quad) or stacked", .field = VHIST_FIELD(picture.layout),
     .flag = "--layout", .value_name = "L", .label = "layout"},
    {.name = "palette", .section = "Histogram", .help = "the bars' colours: classic, colorblind or mono",
     .field = VHIST_FIELD(picture.palette), .flag = "--palette", .value_name = "P", .label = "palette"},
    {.name = "cdf_r", .section = "Histogram", .help = "the red channel's cumulative histogram: off, over or instead",
     .field = VHIST_FIELD(picture.cdf[0]), .label = "R##cdf"},
    {.name = "cdf_g", .section = "Histogram", .help = "the green channel's cumulative histogram",
     .field = VHIST_FIELD(picture.cdf[1]), .label = "G##cdf"},
    {.name = "cdf_b", .section = "Histogram", .help = "the blue channel's cumulative histogram",
     .field = VHIST_FIELD(picture.cdf[2]), .label = "B##cdf"},
    {.name = "cdf_l", .section = "Histogram", .help = "the luma cumulative histogram", .field = VHIST_FIELD(picture.cdf[3]),
     .label = "L##cdf"},
    {.name = "cdf", .remembered = false, .section = "Histogram",
     .help = "draw the cumulative histogram: over (a curve over the histogram), instead (its area instead of the "
             "histogram) or off, for all channels, or per channel set as in \"l:over,rgb:instead\"",
     .flag = "--cdf", .value_name = "SPEC", .parse_flag = parse_cdf, .key = 'C', .on_key = cycle_cdf,
     .key_help = "cumulative histogram: off, over, instead"},
    {.name = "opacity", .section = "Histogram", .help = "the histograms' background opacity, 0 to 1",
     .field = VHIST_FIELD(picture.opacity), .min = 0, .max = 1, .rule = RangeRule::clamp, .flag = "--opacity",
     .value_name = "A", .label = "opacity", .format = "%.2f"},
    {.name = "guides", .section = "Histogram",
     .help = "legal-range guides on the histograms (16 and 235 at 8 bits, 64 and 940 at 10, and the ends): on or off",
     .field = VHIST_FIELD(picture.guides), .flag = "--guides", .value_name = "on|off", .label = "guides", .key = 'G',
     .key_help = "legal-range guides on/off"},
    {.name = "end_scale", .section = "Histogram",
     .help = "the end bins (codes 0 and the top) drawn to a scale of their own, a full-height end bar being every "
             "pixel, and the other bins scaled without them, so a spike of clipped pixels does not flatten the rest: "
             "on or off",
     .field = VHIST_FIELD(picture.end_scale), .flag = "--end-scale", .value_name = "on|off", .label = "ends own scale"},
    {.name = "light_axis", .section = "Histogram",
     .help = "a PQ or HLG source's axis: nits (cd/m2, a decade apart), stops (from HDR reference white, 203 cd/m2) "
             "or codes (code values, as for SDR)",
     .field = VHIST_FIELD(picture.light_axis), .flag = "--light-axis", .value_name = "A", .label = "light axis", .key = 'N',
     .key_help = "a PQ or HLG source's axis: nits, stops, codes"},
    {.name = "tone_map", .section = "Histogram",
     .help = "a PQ or HLG picture tone-mapped to SDR for display (BT.2390 EETF, 203 cd/m2 shown as white; "
             "docs/colour.md), or off: its code values shown as they are; the histograms count code values either way: "
             "on or off",
     .field = VHIST_FIELD(picture.tone_map), .flag = "--tone-map", .value_name = "on|off", .label = "tone-map HDR"},
    {.name = "domain", .section = "Histogram",
     .help = "what the histograms count: rgb (R', G', B' and luma after conversion) or ycbcr (the Y', Cb and Cr "
             "planes as decoded: Y' drawn as luma, Cb blue, Cr red)",
     .field = VHIST_FIELD(picture.domain), .flag = "--domain", .value_name = "D", .label = "domain", .key = 'Y',
     .key_help = "count R'G'B' or the Y'CbCr planes"},
    {.name = "zebra", .section = "Exposure",
     .help = "zebras over the video where luma is at or above --zebra-high (high), at or below --zebra-low (low), "
             "both, or off",
     .field = VHIST_FIELD(picture.zebra), .flag = "--zebra", .value_name = "Z", .label = "zebra", .key = 'Z',
     .key_help = "zebras: off, high, low, both"},
    {.name = "zebra_high", .section = "Exposure",
     .help = "the high zebra's threshold, percent of the code range", .field = VHIST_FIELD(picture.zebra_high),
     .min = 0, .max = 100, .rule = RangeRule::clamp, .flag = "--zebra-high", .value_name = "PCT",
     .label = "##zebra_high", .format = "high %.1f%%"},
    {.name = "zebra_low", .section = "Exposure",
     .help = "the low zebra's threshold, percent of the code range", .field = VHIST_FIELD(picture.zebra_low),
     .min = 0, .max = 100, .rule = RangeRule::clamp, .flag = "--zebra-low", .value_name = "PCT",
     .label = "##zebra_low", .format = "low %.1f%%"},
    {.name = "zebra_style", .section = "Exposure",
     .help = "zebras as moving diagonal stripes or a solid colour (magenta high, blue low)",
     .field = VHIST_FIELD(picture.zebra_style), .flag = "--zebra-style", .value_name = "S", .label = "##zebra_style"},
    {.name = "zebra_rgb", .section = "Exposure",
     .help = "zebras test R'G'B' instead of luma: high where any of R', G', B' is at or above its threshold (a "
             "channel clipping), low where any is at or below: on or off",
     .field = VHIST_FIELD(picture.zebra_rgb), .flag = "--zebra-rgb", .value_name = "on|off", .label = "R'G'B'"},
    {.name = "false_colour", .section = "Exposure",
     .help = "false colour: luma bands in colour (the user guide's table), the rest in grey: on or off",
     .field = VHIST_FIELD(picture.false_colour), .flag = "--false-colour", .value_name = "on|off", .label = "false colour",
     .key = 'X', .key_help = "false colour on/off"},
    {.name = "loop", .section = "Playback", .help = "play the file again from its start at its end",
     .field = VHIST_FIELD(loop), .label = "Loop"},
    {.name = "speed", .section = "Playback", .help = "playback speed, 0.25 to 4", .field = VHIST_FIELD(speed),
     .min = kMinSpeed, .max = kMaxSpeed, .flag = "--speed", .value_name = "X", .label = "##speed",
     .format = "speed %.2fx"},
    {.name = "speed_down", .remembered = false, .section = "Playback", .help = "slower: speed / 1.1 (as mpv)",
     .key = '[', .on_key = speed_down, .key_help = "slower"},
    {.name = "speed_up", .remembered = false, .section = "Playback", .help = "faster: speed x 1.1 (as mpv)",
     .key = ']', .on_key = speed_up, .key_help = "faster"},
    {.name = "fit", .section = "Window",
     .help = "how the video sits in the picture: fit (all of it, letterboxed), cover (fills the picture, crops), 1:1 "
             "(one frame pixel per screen pixel; drag with the middle button to pan) or auto (cover where that hides "
             "at most 5% of the width or height, else fit)",
     .field = VHIST_FIELD(picture.fit), .flag = "--fit", .value_name = "auto|fit|cover|1:1", .label = "fit", .key = 'A',
     .key_help = "fit mode: auto, fit, cover, 1:1"},
    {.name = "show_panel", .section = "Window", .help = "show the control panel", .field = VHIST_FIELD(show_panel),
     .key = kKeyTab, .key_help = "show/collapse the panel"},
    {.name = "osd", .section = "Window",
     .help = "on-screen messages over the picture (pause, seek, toggles, screenshots; errors show even when off)",
     .field = VHIST_FIELD(osd), .label = "messages"},
    {.name = "vsync", .section = "Window", .help = "present in step with the display (see --no-vsync)",
     .field = VHIST_FIELD(vsync)},
    {.name = "screenshot_tooltips", .section = "Window",
     .help = "S screenshots keep the tooltip under the pointer (left out by default: a screenshot shows the "
             "picture, the panel and what is pinned)",
     .field = VHIST_FIELD(screenshot_tooltips), .flag = "--screenshot-tooltips", .value_name = "on|off"},
    {.name = "timeline", .section = "Window",
     .help = "the timeline of the whole file under the picture (a heatmap of its histograms, its QC events), made "
             "by a background scan at low priority and kept in the cache: on or off (off: no scan)",
     .field = VHIST_FIELD(timeline), .flag = "--timeline", .value_name = "on|off", .label = "timeline", .key = 'T',
     .key_help = "timeline on/off"},
    {.name = "window_width", .section = "Window", .help = "the window's width as last closed",
     .field = VHIST_FIELD(window_width), .min = kMinWindowSize, .max = kMaxWindowSize},
    {.name = "window_height", .section = "Window", .help = "the window's height as last closed",
     .field = VHIST_FIELD(window_height), .min = kMinWindowSize, .max = kMaxWindowSize},
    {.name = "recent", .section = "Window", .help = "a recently opened file, the most recent first (up to 10 lines)",
     .field = VHIST_FIELD(recent_files)},
    {.name = "split_view", .remembered = false, .section = "Equalization",
     .help = "the equalized picture right of a divider, the original left of it (drag the divider)",
     .field = VHIST_FIELD(picture.split_view), .label = "split view", .key = 'V', .on_key = toggle_split,
     .key_help = "split view on/off"},
    {.name = "split_position", .remembered = false, .section = "Equalization",
     .help = "show the equalized picture right of a divider at POS (0..1 of the width) and the original left of "
             "it (implies --equalize luma unless given)",
     .field = VHIST_FIELD(picture.split_position), .min = 0, .max = 1, .flag = "--split", .value_name = "POS",
     .parse_flag = parse_split, .label = "##split", .format = "divider %.2f"},
    // After --split: an --equalize given wins over the luma that --split implies.
    {.name = "equalize", .remembered = false, .section = "Equalization",
     .help = "equalize the picture shown: luma (hue kept), channels (each of R, G, B) or off",
     .field = VHIST_FIELD(picture.equalize), .flag = "--equalize", .value_name = "MODE", .label = "equalize",
     .choice_labels = kEqualizeLabels, .key = 'E',
     .key_help = "equalization: off, luma, per channel"},
    {.name = "match", .remembered = false, .section = "Reference",
     .help = "match the picture's histogram to the reference's, per channel (in place of equalization; the split "
             "view shows both): on or off",
     .field = VHIST_FIELD(match), .flag = "--match", .value_name = "on|off", .label = "match reference", .key = 'M',
     .key_help = "match the picture to the reference on/off"},
    {.name = "waveform", .section = "Scopes",
     .help = "the waveform: picture columns across, levels up, brightness = how many pixels of the column have "
             "the level (luma or R'G'B' over each other: --waveform-view): on or off",
     .field = VHIST_FIELD(picture.waveform), .flag = "--waveform", .value_name = "on|off", .label = "waveform", .key = 'W',
     .key_help = "waveform on/off"},
    {.name = "parade", .section = "Scopes",
     .help = "the parade: R', G', B' (or the stored Y', Cb, Cr planes: --parade-view) as waveforms side by side: "
             "on or off",
     .field = VHIST_FIELD(picture.parade), .flag = "--parade", .value_name = "on|off", .label = "parade", .key = 'P',
     .key_help = "parade on/off"},
    {.name = "vectorscope", .section = "Scopes",
     .help = "the vectorscope: Cb right, Cr up, with the colour bars' targets of the source's matrix: on or off",
     .field = VHIST_FIELD(picture.vectorscope), .flag = "--vectorscope", .value_name = "on|off", .label = "vectorscope",
     .key = 'O', .key_help = "vectorscope on/off"},
    {.name = "scopes", .remembered = false, .section = "Scopes",
     .help = "the scopes shown: all, none, or a set of waveform, parade and vectorscope (e.g. waveform,vectorscope)",
     .flag = "--scopes", .value_name = "SET", .parse_flag = parse_scopes},
    {.name = "scope_place", .section = "Scopes",
     .help = "where the scopes go: beside the video (a column at the right), under it (a row at the bottom), both "
             "taking their room from the video and histograms, or over it like the histograms",
     .field = VHIST_FIELD(picture.scope_place), .flag = "--scope-place", .value_name = "PLACE", .label = "place",
     .key = 'B', .key_help = "scopes beside, under or over the video"},
    {.name = "waveform_view", .section = "Scopes",
     .help = "what the waveform shows: luma (Y') or rgb (R', G' and B' over each other in their colours)",
     .field = VHIST_FIELD(picture.waveform_view), .flag = "--waveform-view", .value_name = "V", .label = "waveform##view",
     .choice_labels = kWaveformLabels},
    {.name = "parade_view", .section = "Scopes",
     .help = "what the parade shows: rgb (R', G', B') or ycbcr (the Y', Cb and Cr planes as decoded; frames without "
             "planes, R'G'B' and gray sources, show R'G'B')",
     .field = VHIST_FIELD(picture.parade_view), .flag = "--parade-view", .value_name = "V", .label = "parade##view",
     .choice_labels = kParadeLabels},
    {.name = "scope_zoom", .section = "Scopes", .help = "the vectorscope's zoom: 1, 2 or 5 (times)",
     .field = VHIST_FIELD(picture.scope_zoom), .flag = "--scope-zoom", .value_name = "Z", .label = "zoom",
     .choice_labels = kZoomLabels},
    {.name = "scope_gain", .section = "Scopes",
     .help = "the scopes' brightness: the mapped count times this gain, 0.25 to 16",
     .field = VHIST_FIELD(picture.scope_gain), .min = kMinScopeGain, .max = kMaxScopeGain, .rule = RangeRule::clamp,
     .flag = "--scope-gain", .value_name = "G", .label = "##scope_gain", .format = "gain %.2f"},
    {.name = "scope_mapping", .section = "Scopes",
     .help = "how a scope's counts become brightness: log (faint traces show) or linear",
     .field = VHIST_FIELD(picture.scope_mapping), .flag = "--scope-mapping", .value_name = "M", .label = "mapping"},
    {.name = "scope_colour", .section = "Scopes",
     .help = "the scopes' traces in their channels' colours (R', G', B'; Y' white; Cb blue, Cr red) or mono (white)",
     .field = VHIST_FIELD(picture.scope_colour), .flag = "--scope-colour", .value_name = "C", .label = "colour"},
    {.name = "scope_legal", .section = "Scopes",
     .help = "the EBU R 103 legal-range lines (-5 % and 105 % of the nominal range) on the waveform and parade: "
             "on or off",
     .field = VHIST_FIELD(picture.scope_legal), .flag = "--scope-legal", .value_name = "on|off", .label = "legal lines"},
    {.name = "scope_units", .section = "Scopes",
     .help = "the waveform's level scale: codes (code values), percent (of the nominal range) or nits (PQ and HLG "
             "sources; others show percent)",
     .field = VHIST_FIELD(picture.scope_units), .flag = "--scope-units", .value_name = "U", .label = "scale##scope"},
};

#undef VHIST_FIELD

// SettingId (settings_table.h) names the rows in this order: each id is its row's index.
constexpr std::string_view kIdNames[] = {
#define VHIST_SETTING_NAME(name) #name,
    VHIST_SETTING_IDS(VHIST_SETTING_NAME)
#undef VHIST_SETTING_NAME
};

consteval bool ids_match_rows() {
  if (std::size(kIdNames) != std::size(kRows)) return false;
  for (std::size_t i = 0; i < std::size(kRows); ++i) {
    if (kRows[i].name != kIdNames[i]) return false;
  }
  return true;
}
static_assert(ids_match_rows(), "VHIST_SETTING_IDS must list kRows' names, in kRows' order");

template <typename T>
std::string set_number(const SettingRow& row, T& field, std::string_view text) {
  const bool pow2 = row.rule == RangeRule::power_of_two;
  const std::string expected = std::string(pow2                                 ? "a power of two from "
                                           : std::is_floating_point_v<T> ? "a number from "
                                                                         : "a whole number from ") +
                               format_bound(row.min) + " to " + format_bound(row.max);
  const auto value = parse_number<T>(text);
  if (!value) return expected;
  const double v = static_cast<double>(*value);
  if (!std::isfinite(v)) return expected;  // nan and inf: nothing to clamp to, no whole number
  if (row.rule == RangeRule::clamp) {
    field = static_cast<T>(std::clamp(v, row.min, row.max));
    return field == *value ? std::string() : expected;
  }
  if (v < row.min || v > row.max) return expected;  // checked first: v then fits the cast below
  const bool is_pow2 = v >= 1 && (static_cast<std::uint64_t>(v) & (static_cast<std::uint64_t>(v) - 1)) == 0;
  if (pow2 && !is_pow2) return expected;
  field = *value;
  return {};
}

}  // namespace

std::span<const SettingRow> setting_rows() { return kRows; }

const SettingRow& setting_row(SettingId id) { return kRows[static_cast<std::size_t>(id)]; }

SettingId setting_id(const SettingRow& row) { return static_cast<SettingId>(&row - kRows); }

const SettingRow* find_setting(std::string_view name) {
  for (const SettingRow& row : kRows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

std::vector<std::string_view> choice_names(const SettingRow& row, const Settings& settings) {
  if (!row.field) return {};
  Settings copy = settings;
  return std::visit(
      [](auto* field) {
        std::vector<std::string_view> names;
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_enum_v<T>) {
          for (const T value : kValues<T>) names.push_back(to_string(value));
        }
        return names;
      },
      row.field(copy));
}

std::string setting_text(const SettingRow& row, const Settings& settings) {
  if (!row.field) return {};
  Settings copy = settings;
  return std::visit(
      [](auto* field) -> std::string {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
          return *field ? "true" : "false";
        } else if constexpr (std::is_same_v<T, float>) {
          return format_float(*field);
        } else if constexpr (std::is_enum_v<T>) {
          return std::string(to_string(*field));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          std::string out;
          for (const auto& item : *field) out += item + "\n";
          return out;
        } else {
          return std::to_string(*field);
        }
      },
      row.field(copy));
}

std::string set_setting(const SettingRow& row, Settings& settings, std::string_view text) {
  if (!row.field) return row.parse_flag ? row.parse_flag(settings, text) : "nothing (no field)";
  return std::visit(
      [&](auto* field) -> std::string {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
          const auto value = parse_bool(text);
          if (!value) return "on or off (or true or false)";
          *field = *value;
          return {};
        } else if constexpr (std::is_enum_v<T>) {
          const auto value = parse_name<T>(text);
          if (!value) return either<T>();
          *field = *value;
          return {};
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          if (text.empty()) return "a file path";
          // The file lists the most recent first: later lines go behind, and a copy or an 11th
          // entry (a hand edit) is dropped rather than reordering the list.
          if (field->size() < kMaxRecentFiles && std::find(field->begin(), field->end(), text) == field->end()) {
            field->emplace_back(text);
          }
          return {};
        } else {
          return set_number(row, *field, text);
        }
      },
      row.field(settings));
}

std::string set_from_command_line(const SettingRow& row, Settings& settings, std::string_view text) {
  return row.parse_flag ? row.parse_flag(settings, text) : set_setting(row, settings, text);
}

void press_key(const SettingRow& row, Settings& settings) {
  if (row.on_key) return row.on_key(settings);
  if (!row.field) return;
  std::visit(
      [](auto* field) {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, bool>) {
          *field = !*field;
        } else if constexpr (std::is_enum_v<T>) {
          const auto next = (static_cast<std::size_t>(*field) + 1) % kValues<T>.size();
          *field = kValues<T>[next];
        }
      },
      row.field(settings));
}

std::string key_name(int key) {
  if (key == kKeyTab) return "Tab";
  return std::string(1, static_cast<char>(key));
}

std::string_view to_string(EqualizeMode mode) {
  switch (mode) {
    case EqualizeMode::off: return "off";
    case EqualizeMode::luma: return "luma";
    case EqualizeMode::channels: return "channels";
  }
  return "off";
}

std::optional<EqualizeMode> parse_equalize_mode(std::string_view name) { return parse_name<EqualizeMode>(name); }

std::string_view to_string(Domain domain) { return domain == Domain::ycbcr ? "ycbcr" : "rgb"; }

std::string_view to_string(ZebraMode mode) {
  switch (mode) {
    case ZebraMode::off: return "off";
    case ZebraMode::high: return "high";
    case ZebraMode::low: return "low";
    case ZebraMode::both: return "both";
  }
  return "off";
}

std::string_view to_string(ZebraStyle style) { return style == ZebraStyle::solid ? "solid" : "stripes"; }

std::string_view to_string(FitMode mode) { return fit_name(mode); }

std::string_view to_string(ScopePlace place) {
  return place == ScopePlace::under ? "under" : place == ScopePlace::over ? "over" : "beside";
}
std::string_view to_string(WaveformView view) { return view == WaveformView::rgb ? "rgb" : "luma"; }
std::string_view to_string(ParadeView view) { return view == ParadeView::ycbcr ? "ycbcr" : "rgb"; }
std::string_view to_string(ScopeZoom zoom) { return zoom == ScopeZoom::x5 ? "5" : zoom == ScopeZoom::x2 ? "2" : "1"; }
std::string_view to_string(ScopeMapping m) { return m == ScopeMapping::linear ? "linear" : "log"; }
std::string_view to_string(ScopeColour c) { return c == ScopeColour::mono ? "mono" : "channels"; }
std::string_view to_string(LevelUnits units) {
  return units == LevelUnits::codes ? "codes" : units == LevelUnits::nits ? "nits" : "percent";
}

std::string_view to_string(LightAxis axis) {
  switch (axis) {
    case LightAxis::nits: return "nits";
    case LightAxis::stops: return "stops";
    case LightAxis::codes: return "codes";
  }
  return "nits";
}

}  // namespace vhist::viewer
