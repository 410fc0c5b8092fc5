// The viewer's command line, `vhist [INPUT] [options]`: the shared groups (input, device, camera,
// time; option_table.h), the settings that have a command-line spelling (settings_table.h) and
// the options of this run only (window size, --frames, the test drivers). No window, no Vulkan:
// the fuzzer parses command lines through here.
#pragma once

#include "vhist/cli/option_table.h"
#include "vhist/viewer/settings.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace vhist::viewer {

struct SettingRow;

// What the command line asks of this run.
struct ViewerOptions {
  cli::CommonOptions common;  // INPUT, --device, --camera-*, --start (--paused-at)
  bool camera = false;        // --camera: the first camera when no INPUT is given
  int width = 0, height = 0;  // --size; 0: the remembered size
  bool no_vsync = false;
  std::int64_t frames = -1;  // render this many frames, then exit
  std::string screenshot;    // the last frame rendered, as PNG
  // --reference: a frame record of analyze's JSON Lines output as the reference histogram.
  std::string reference;
  std::optional<std::int64_t> reference_frame;
  // Test drivers (test_drivers.h).
  bool exercise_window = false;
  double quit_after = 0;  // seconds; 0: not set
  int resize_storm = 0;   // events
  // Settings given on the command line, applied over the remembered ones in the table's order.
  std::vector<std::pair<const SettingRow*, std::string>> settings;

  // --frames or --quit-after: a test run (a summary at the end, the remembered settings untouched).
  bool test_mode() const { return frames > 0 || quit_after > 0; }
};

// The options of this run only (--size, --frames, the test drivers ...), for the tests.
std::span<const cli::CliRow<ViewerOptions>> viewer_run_rows();

// Adds the viewer's options to `app` (the root command): values land in `options`.
void add_viewer_options(CLI::App& app, ViewerOptions& options);
// The help's footer: the keys, and every setting with its settings.ini key and default.
std::string viewer_help_footer();
// Applies the settings given on the command line over `settings` (loaded from the file).
void apply_settings(const ViewerOptions& options, Settings& settings);

}  // namespace vhist::viewer
