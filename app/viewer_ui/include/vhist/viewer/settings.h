// The viewer's settings: which channels are drawn, the histogram scale and layout, playback,
// equalization, the window size and the recently opened files. settings_table.h lists each one
// (its name, range, help, command-line spelling, panel widget, key); most are remembered across
// runs in a small `key = value` text file that people may edit by hand, so loading is forgiving:
// unknown keys are skipped (a newer vhist may have written them) and a bad value only resets that
// one setting.
#pragma once

#include "vhist/picture/picture_options.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::viewer {

inline constexpr std::uint32_t kMinBins = 16, kMaxBins = 1024;
inline constexpr float kMinSpeed = 0.25f, kMaxSpeed = 4.0f;
inline constexpr int kMinWindowSize = 160, kMaxWindowSize = 16384;
inline constexpr std::size_t kMaxRecentFiles = 10;

struct Settings {
  // How the picture is drawn (picture_options.h): the renderer's options and their defaults. Of
  // these, equalize, split_view and split_position are for this session only (not in the file).
  PictureOptions picture;
  bool osd = true;  // on-screen messages over the picture (errors show even when off)
  bool loop = true;
  float speed = 1.0f;  // playback speed, kMinSpeed..kMaxSpeed
  bool show_panel = true;
  bool vsync = true;
  bool screenshot_tooltips = false;  // S screenshots keep the tooltip under the pointer
  bool timeline = true;  // the timeline strip under the picture, and the background scan it needs
  int window_width = 1280, window_height = 720;  // kMinWindowSize..kMaxWindowSize
  std::vector<std::string> recent_files;         // most recent first, at most kMaxRecentFiles, no duplicates
  // This session only (not in the settings file).
  bool match = false;  // the picture matched to the reference histogram (with one)
  bool operator==(const Settings&) const = default;
};

// The names used in the settings file (and wherever the UI shows them); parse_* return
// std::nullopt for names they do not know (case matters: the file is written in lower case).
std::string_view to_string(ScaleMode mode);
std::string_view to_string(Layout layout);
std::string_view to_string(Palette palette);
std::string_view to_string(CdfMode mode);
std::string_view to_string(EqualizeMode mode);  // "off", "luma", "channels"
std::string_view to_string(LightAxis axis);     // "nits", "stops", "codes"
std::string_view to_string(Domain domain);      // "rgb", "ycbcr"
std::string_view to_string(ZebraMode mode);     // "off", "high", "low", "both"
std::string_view to_string(ZebraStyle style);   // "stripes", "solid"
std::string_view to_string(FitMode mode);       // "auto", "fit", "cover", "1:1"
std::string_view to_string(ScopePlace place);   // "beside", "under", "over"
std::string_view to_string(WaveformView view);  // "luma", "rgb"
std::string_view to_string(ParadeView view);    // "rgb", "ycbcr"
std::string_view to_string(ScopeZoom zoom);     // "1", "2", "5"
std::string_view to_string(ScopeMapping m);     // "log", "linear"
std::string_view to_string(ScopeColour c);      // "channels", "mono"
std::string_view to_string(LevelUnits units);   // "codes", "percent", "nits"
std::optional<ScaleMode> parse_scale_mode(std::string_view name);
std::optional<Layout> parse_layout(std::string_view name);
std::optional<Palette> parse_palette(std::string_view name);
std::optional<CdfMode> parse_cdf_mode(std::string_view name);
std::optional<EqualizeMode> parse_equalize_mode(std::string_view name);

// $XDG_CONFIG_HOME/vhist/settings.ini, or $HOME/.config/vhist/settings.ini when XDG_CONFIG_HOME
// is unset, empty or not absolute (the XDG base directory spec says to ignore relative ones);
// an empty path when HOME is not usable either (then the viewer runs without remembering).
std::filesystem::path settings_path();

// Reads `file`. A missing file gives the defaults silently. Unknown keys are ignored. A bad value
// (wrong type, unknown name, out of range) keeps that key's default and appends a line to
// `warnings` naming the line, key, value and what was expected; opacity out of 0..1 is clamped
// (also with a warning). A file that exists but cannot be read gives the defaults and a warning.
// Never throws on bad content.
Settings load_settings(const std::filesystem::path& file, std::vector<std::string>* warnings = nullptr);

// load_settings on text already in memory: `name` stands for the file in warnings. The fuzzer's
// entry point.
Settings parse_settings(std::string_view content, const std::string& name, std::vector<std::string>* warnings = nullptr);
// The text save_settings writes: every remembered row of settings_table.h, in the table's order.
std::string render_settings(const Settings& settings);

// Writes `settings` to FILE.tmp, flushes it to disk, then renames it over `file`, so a crash or a
// full disk never leaves a half-written settings file; creates the folder when missing. Returns
// an error message, empty on success (FILE.tmp is removed on failure).
// An existing file is rewritten in place: each remembered setting's line gets the new value, and
// comments, blank lines, unknown keys and lines that are not settings stay, in their order. An
// existing regular file that cannot be read (permission, over 1 MiB, NUL bytes) is first renamed
// to FILE.YYYYmmdd-HHMMSS.bak, which is said in `notes` (nothing is saved if that fails).
std::string save_settings(const Settings& settings, const std::filesystem::path& file,
                          std::vector<std::string>* notes = nullptr);

// Puts `path` first in settings.recent_files, made absolute against the current folder (so it
// opens from any folder later), removing an earlier copy and keeping at most kMaxRecentFiles.
// An empty path is ignored; a URL ("scheme://...") is kept as given.
void remember_recent(Settings& settings, const std::string& path);
// Recent files saved relative by older versions: each relative entry that names an existing file
// from the current folder becomes absolute; others stay as they are. Duplicates are dropped.
void absolutize_recent(Settings& settings);

// Playback speed one step down or up, as mpv's [ and ] (divided or multiplied by 1.1, clamped
// to kMinSpeed..kMaxSpeed).
float slower(float speed);
float faster(float speed);

}  // namespace vhist::viewer
