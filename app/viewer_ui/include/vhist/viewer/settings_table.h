// Every viewer setting, one row each: its name (the settings.ini key when it is remembered), the
// field of Settings it lives in, its range or choices, its help, its command-line spelling, its
// panel widget and its key. The settings file (settings.cpp), the command line
// (viewer_options.cpp), the panel's widgets (panel_widgets.cpp), the keys and the help are all
// generated from these rows.
//
// Adding a setting: a field with its default, in PictureOptions (picture_options.h) when it is
// about how the picture is drawn (the renderer reads it there, through DrawStyle: nothing to
// copy) or else in Settings (settings.h); a row in settings_table.cpp and its id at the same place
// in VHIST_SETTING_IDS below (the build checks that the two agree); then the code that uses the
// value. Nothing else.
#pragma once

#include "vhist/viewer/settings.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace vhist::viewer {

// The field a row sets, by type.
using FieldRef = std::variant<bool*, std::uint32_t*, int*, float*, ScaleMode*, Layout*, Palette*, CdfMode*,
                              EqualizeMode*, LightAxis*, Domain*, ZebraMode*, ZebraStyle*, FitMode*, ScopePlace*,
                              WaveformView*, ParadeView*, ScopeZoom*, ScopeMapping*, ScopeColour*, LevelUnits*,
                              std::vector<std::string>*>;

// How a number's range is enforced.
enum class RangeRule {
  reject,        // out of range: an error (the setting keeps its value)
  clamp,         // out of range: the nearest end, with a warning
  power_of_two,  // a power of two in range, else an error
};

// Key codes as GLFW numbers them: printable keys are their upper-case ASCII code.
inline constexpr int kKeyTab = 258;  // GLFW_KEY_TAB

struct SettingRow {
  std::string_view name;    // the settings.ini key when remembered; else the name in code and tests
  bool remembered = true;   // written to and read from settings.ini
  std::string_view section;  // the help's group: "Histogram", "Playback", "Window"
  std::string_view help;
  FieldRef (*field)(Settings&) = nullptr;  // null: a command-line spelling of other rows' fields
  double min = 0, max = 0;                 // numbers: the range, inclusive
  RangeRule rule = RangeRule::reject;
  // The command line: the spelling ("--layout") and value name; empty: none.
  std::string_view flag = {}, value_name = {};
  // A command-line value other than the field's own text (--channels rgb, --cdf l:over, --split
  // 0.5): sets what it names; returns "" or what was expected. Null: the field's own text.
  std::string (*parse_flag)(Settings&, std::string_view) = nullptr;
  // The panel: label (ImGui, "##x" hides it) and, for sliders, the printf format; empty label: the
  // panel draws this setting by hand, if at all.
  std::string_view label = {}, format = {};
  std::span<const char* const> choice_labels = {};  // combos: shown instead of the names
  // A key that changes the setting (0: none): a bool toggles, a choice moves to the next one,
  // unless `on_key` says otherwise.
  int key = 0;
  void (*on_key)(Settings&) = nullptr;
  // What the key does, for `vhist --help` and the man page ("red histogram on/off").
  std::string_view key_help = {};
};

// The rows' ids, one for each row of settings_table.cpp in its order and spelt as its name:
// SettingId::zebra is the row called "zebra". Code names a row by its id, so that a misspelt one
// does not compile; settings_table.cpp checks at compile time that the ids and the rows agree.
#define VHIST_SETTING_IDS(X)                                                                                     \
  X(channel_r) X(channel_g) X(channel_b) X(channel_l) X(channels) X(scale) X(bins) X(layout) X(palette) X(cdf_r) \
  X(cdf_g) X(cdf_b) X(cdf_l) X(cdf) X(opacity) X(guides) X(end_scale) X(light_axis) X(tone_map) X(domain)        \
  X(zebra) X(zebra_high) X(zebra_low) X(zebra_style) X(zebra_rgb) X(false_colour) X(loop) X(speed) X(speed_down) \
  X(speed_up) X(fit) X(show_panel) X(osd) X(vsync) X(screenshot_tooltips) X(timeline) X(window_width) X(window_height)       \
  X(recent) X(split_view) X(split_position) X(equalize) X(match) X(waveform) X(parade) X(vectorscope) X(scopes)    \
  X(scope_place) X(waveform_view) X(parade_view) X(scope_zoom) X(scope_gain) X(scope_mapping) X(scope_colour)       \
  X(scope_legal) X(scope_units)

enum class SettingId : std::uint8_t {
#define VHIST_SETTING_ID(name) name,
  VHIST_SETTING_IDS(VHIST_SETTING_ID)
#undef VHIST_SETTING_ID
};

std::span<const SettingRow> setting_rows();
// The row of `id`.
const SettingRow& setting_row(SettingId id);
// The id of `row`, which is one of setting_rows().
SettingId setting_id(const SettingRow& row);
// The row called `name`; null when there is none. For names from outside the code (the settings
// file, the command line); code names a row by its SettingId.
const SettingRow* find_setting(std::string_view name);

// The names a choice row accepts ("auto", "log", "fixed"), in the enum's order; empty for others.
std::vector<std::string_view> choice_names(const SettingRow& row, const Settings& settings);
// The value as settings.ini writes it ("true", "log", "0.75"); recent files: one per line, unquoted.
std::string setting_text(const SettingRow& row, const Settings& settings);
// Sets the row's field from text as settings.ini writes it. Returns "" or what the value must
// be ("a power of two from 16 to 1024"); a value out of a clamped range is set to the nearest end
// and still reported. A list (recent files) gains the value at its end.
std::string set_setting(const SettingRow& row, Settings& settings, std::string_view text);
// Sets what the row's command-line option names: parse_flag when the row has one, else as
// set_setting. Returns "" or what the value must be.
std::string set_from_command_line(const SettingRow& row, Settings& settings, std::string_view text);
// What a key does to the row's setting.
void press_key(const SettingRow& row, Settings& settings);
// "Tab", "1", "C".
std::string key_name(int key);

}  // namespace vhist::viewer
