#include "vhist/command_line/viewer_options.h"

#include "vhist/cli/cli.h"
#include "vhist/viewer/settings_table.h"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace vhist::viewer {

namespace {

std::string set_size(ViewerOptions& o, std::string_view text) {
  const auto size = cli::parse_size(text);
  if (!size || size->first < 160 || size->second < 120 || size->first > 16384 || size->second > 16384) {
    return "WxH, from 160x120 to 16384x16384";
  }
  o.width = static_cast<int>(size->first);
  o.height = static_cast<int>(size->second);
  return {};
}

// The options of this run only (nothing remembered).
constexpr cli::CliRow<ViewerOptions> kRunRows[] = {
    {"--camera", "", "open the first camera (V4L2 capture device); or give its /dev/videoN as INPUT", "Camera",
     [](ViewerOptions& o, std::string_view) {
       o.camera = true;
       return std::string();
     }},
    {"--size", "WxH", "window size in screen coordinates (default: as last time, 1280x720)", "Window", set_size},
    {"--no-vsync", "", "present without waiting for the display (MAILBOX or IMMEDIATE if offered)", "Window",
     [](ViewerOptions& o, std::string_view) {
       o.no_vsync = true;
       return std::string();
     }},
    {"--frames", "N", "render N frames, then exit (for tests and scripts)", "Run",
     [](ViewerOptions& o, std::string_view v) { return cli::set_positive(o.frames, v, 1u << 30); }},
    {"--screenshot", "FILE", "save the last rendered frame, exactly as shown, as PNG", "Run",
     [](ViewerOptions& o, std::string_view v) { return cli::set_text(o.screenshot, v, "a file name"); }},
    {"--reference", "FILE",
     "the reference histogram (outlined over the live one, with distances; M matches the picture to it): a frame "
     "record of `vhist analyze` JSON Lines output",
     "Reference", [](ViewerOptions& o, std::string_view v) { return cli::set_text(o.reference, v, "a file name"); }},
    {"--reference-frame", "N", "the record of frame N in the --reference file (default: its first)", "Reference",
     [](ViewerOptions& o, std::string_view v) {
       const auto n = cli::parse_uint(v, 0, 0xffffffffu);
       if (!n) return std::string("a frame number");
       o.reference_frame = static_cast<std::int64_t>(*n);
       return std::string();
     }},
    {"--exercise-window", "", "(tests) resize, minimize and restore the window while rendering", "Tests",
     [](ViewerOptions& o, std::string_view) {
       o.exercise_window = true;
       return std::string();
     }},
    {"--quit-after", "T", "(tests) run for T seconds, then exit with the --frames summary", "Tests",
     [](ViewerOptions& o, std::string_view v) {
       const auto t = cli::parse_time(v);
       if (!t || *t <= 0) return std::string("a time: seconds (90) or [HH:]MM:SS");
       o.quit_after = *t;
       return std::string();
     }},
    {"--resize-storm", "N", "(tests) N resize and minimize events while playing, one every 3 frames", "Tests",
     [](ViewerOptions& o, std::string_view v) {
       const auto n = cli::parse_uint(v, 1, 1000000);
       if (!n) return std::string("a positive number of events");
       o.resize_storm = static_cast<int>(*n);
       return std::string();
     }},
};

// The keys that act rather than set (the settings' keys are in their rows).
// Named as people type them (Space, Right, Shift+K), as mpv's manual does.
constexpr std::pair<std::string_view, std::string_view> kActionKeys[] = {
    {"Space", "play/pause"},
    {"Left/Right", "seek 5 s back/forward"},
    {"Up/Down", "seek 60 s forward/back"},
    {"mouse wheel over the picture", "seek 10 s a notch (over the panel it scrolls the panel)"},
    {", (comma) / . (period)", "step one frame back/forward"},
    {"Backspace", "speed 1"},
    {"S", "screenshot of the window (CLIP-00m12.345s.png in $XDG_PICTURES_DIR or the current folder)"},
    {"F or double click on the picture", "fullscreen (a double click does nothing else)"},
    {"I", "stats page (decoder, frame times, drops, queue, GPU)"},
    {"K / Shift+K", "keep the current histograms as the reference / drop the reference"},
    {"drag on the video", "region of interest: the histograms, statistics and equalization describe it"},
    {"R", "clear the region of interest"},
    {"click / right click on the video", "pin / unpin the pixel readout"},
    {"middle drag on the video", "pan a 1:1 picture (fit 1:1)"},
    {"Page Down / Page Up", "the next / previous QC event on the timeline (its first frame)"},
    {"click or drag on the timeline", "seek to the frame under the pointer"},
    {"Esc", "close a dialog or dropdown, else leave fullscreen"},
    {"Q", "quit"},
};

}  // namespace

std::span<const cli::CliRow<ViewerOptions>> viewer_run_rows() { return kRunRows; }

void add_viewer_options(CLI::App& app, ViewerOptions& options) {
  cli::add_rows(app, cli::input_rows(), options.common);
  for (const SettingRow& row : setting_rows()) {
    if (row.flag.empty()) continue;
    cli::add_option(app, row.flag, row.value_name, row.help, row.section, false,
                    [&options, &row](std::string_view text) {
                      Settings scratch;
                      const std::string expected = set_from_command_line(row, scratch, text);
                      if (expected.empty()) options.settings.emplace_back(&row, std::string(text));
                      return expected;
                    });
  }
  cli::add_rows(app, viewer_run_rows(), options);
  cli::add_rows(app, cli::viewer_time_rows(), options.common);
  cli::add_rows(app, cli::device_rows(), options.common);
  cli::add_rows(app, cli::decode_rows(), options.common);
  cli::add_rows(app, cli::camera_rows(), options.common);
}

namespace {

// What a setting's key does in words: its key_help, else its name with spaces ("split view").
std::string key_help(const SettingRow& row) {
  std::string text(row.key_help.empty() ? row.name : row.key_help);
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

// "Keys: a, b, c" in lines of at most 100 characters, broken between items only.
std::string key_lines(const std::vector<std::string>& items) {
  std::string out = "Keys:";
  std::size_t line = out.size();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : ".");
    if (line + 1 + item.size() > 100) {
      out += "\n ";
      line = 1;
    }
    out += " " + item;
    line += 1 + item.size();
  }
  return out + "\n";
}

}  // namespace

std::string viewer_help_footer() {
  std::vector<std::string> keys;
  for (const auto& [key, what] : kActionKeys) keys.push_back(std::string(key) + " " + std::string(what));
  std::string settings = "\nSettings (remembered in $XDG_CONFIG_HOME/vhist/settings.ini unless marked):\n";
  const Settings defaults;
  for (const SettingRow& row : setting_rows()) {
    if (row.key) keys.push_back(key_name(row.key) + " " + key_help(row));
    if (!row.field) continue;
    std::string line = "  " + std::string(row.name);
    line.resize(std::max<std::size_t>(line.size() + 1, 18), ' ');
    line += std::string(row.help);
    // A switch's default in the words its help uses (on or off; the file takes both spellings).
    std::string value = setting_text(row, defaults);
    if (value == "true" || value == "false") value = value == "true" ? "on" : "off";
    if (!value.empty() && value.find('\n') == std::string::npos) line += " (default " + value + ")";
    if (!row.remembered) line += " (this run only)";
    settings += line + "\n";
  }
  for (const char* mouse : {"hover or drag across a histogram: the pixels of those codes lit, the rest dimmed",
                            "drop a file on the window to open it"}) {
    keys.emplace_back(mouse);
  }
  return key_lines(keys) + settings +
         "\nEnvironment:\n  VHIST_DEVICE=SEL       same as --device\n"
         "  VHIST_VALIDATION=1     enable the Vulkan validation layer and report its messages\n";
}

void apply_settings(const ViewerOptions& options, Settings& settings) {
  for (const auto& [row, text] : options.settings) set_from_command_line(*row, settings, text);
}

}  // namespace vhist::viewer
