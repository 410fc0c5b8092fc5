// `vhist scope`'s command line: one frame of a file drawn as a scope (waveform, parade or
// vectorscope) into a PNG. The shared groups (input, device; option_table.h), its own options,
// and the scope drawing's settings under the viewer's names (settings_table.h rows of the
// "Scopes" section), so a scope is asked for with the same words in the window and here. No
// Vulkan, no FFmpeg: the fuzzer parses command lines through here.
#pragma once

#include "vhist/cli/option_table.h"
#include "vhist/compute/region.h"
#include "vhist/picture/scope_layout.h"  // viewer::ScopeKind

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace vhist::viewer {
struct SettingRow;
}

namespace vhist::app {

// What the PNG shows (the viewer's scopes): a waveform (one plot: luma, or R', G', B' over each
// other), a parade (three plots side by side: R', G', B' or the stored Y', Cb, Cr planes) or the
// vectorscope.
using viewer::ScopeKind;
std::string_view scope_kind_name(ScopeKind kind);  // "waveform", "parade", "vectorscope"

// The waveform's and the parade's modes (--mode), named as the viewer's waveform_view and
// parade_view settings name them.
enum class ScopeMode {
  luma,   // waveform: luma (the histograms' L), the default
  rgb,    // waveform: R', G' and B' in their colours in one plot; parade: side by side, its default
  ycbcr,  // parade: the stored Y', Cb, Cr planes (as `vhist analyze --domain ycbcr` counts them)
};
std::string_view scope_mode_name(ScopeMode mode);  // "luma", "rgb", "ycbcr"

struct ScopeOptions {
  cli::CommonOptions common;  // INPUT, --stream, --device
  std::optional<double> at;   // --at: seconds; the frame drawn is the first whose time is >= at
  ScopeKind kind = ScopeKind::waveform;
  bool kind_given = false;
  std::optional<ScopeMode> mode;   // set by finish_scope_options from the kind when not given
  std::optional<PixelRect> roi;    // --roi X,Y,W,H: the scope of that rectangle of stored pixels
  std::uint32_t width = 0, height = 0;  // --size; 0: the kind's default (finish_scope_options)
  std::string engine = "auto";          // auto, gpu or cpu
  std::string output;                   // -o: a file, or - for standard output
  bool quiet = false, verbose = false;
  // Drawing settings given on the command line (the viewer's rows), applied in order over the
  // defaults (not over the viewer's remembered settings: a script's PNG does not depend on them).
  std::vector<std::pair<const viewer::SettingRow*, std::string>> settings;
};

// The PNG's size limits (--size) and its defaults per kind.
inline constexpr std::uint32_t kScopeMinWidth = 160, kScopeMinHeight = 120, kScopeMaxSide = 8192;
std::pair<std::uint32_t, std::uint32_t> default_scope_size(ScopeKind kind);

// scope's own options (not the shared groups or the settings), for the tests.
std::span<const cli::CliRow<ScopeOptions>> scope_rows();
// The settings rows `vhist scope` takes: those of the scope drawing with a command-line spelling.
std::vector<const viewer::SettingRow*> scope_setting_rows();

// Adds scope's options to `app` (the `scope` subcommand).
void add_scope_options(CLI::App& app, ScopeOptions& options);
// After parsing: checks what needs all options at once (an input, --at and -o given; --mode
// fits --kind) and fills in the defaults. Returns an error, empty if none.
std::string finish_scope_options(ScopeOptions& options);
const char* scope_help_footer();

}  // namespace vhist::app
