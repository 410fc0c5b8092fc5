// vhist: GPU-native video histograms. `vhist [INPUT]` is the viewer, `vhist analyze` exports
// per-frame histograms, `vhist scope` draws a frame's scope into a PNG, and --list-devices /
// --self-test are device tools. The command line is parsed from the option tables
// (command_line.h); this file dispatches.
#include "vhist/analyze/analyze.h"
#include "vhist/analyze/qc_command.h"
#include "vhist/analyze/batch_command.h"
#include "vhist/device_list/device_list.h"
#include "vhist/cli/cli.h"
#include "vhist/command_line/command_line.h"
#include "vhist/media/camera.h"
#include "vhist/media/media_source.h"
#include "vhist/scope/scope_command.h"
#ifndef VHIST_HEADLESS
#include "vhist/viewer/viewer.h"
#endif

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/render/context.h"
#include "vhist/render/vk_check.h"
#include "vhist/util/text.h"
#include "vhist/version.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace {

int self_test(const std::string& device) {
  vhist::render::ContextOptions options;
  options.device = device;
  vhist::render::Context context(options);
  vhist::HistogramEngine engine(context);
  std::printf("device: %s (%s)\n", context.description().name.c_str(), context.description().driver.c_str());
  const vhist::FrameFormat format{1920, 1080, vhist::PixelPacking::rgba8, 8};
  int failures = 0;
  for (vhist::Content content : vhist::kAllContents) {
    const auto pixels = vhist::make_frame(format, content);
    const auto expected = vhist::reference_histogram(pixels, format, 256);
    const auto expected_scale = vhist::reference_scale(expected, format.pixel_count());
    for (vhist::Strategy s : {vhist::Strategy::fast, vhist::Strategy::baseline}) {
      const auto got = vhist::histogram_on_gpu(engine, pixels, format, 256, s);
      const bool ok = got.histogram == expected && got.scale == expected_scale;
      failures += ok ? 0 : 1;
      std::printf("%-8s %-8s %s\n", std::string(vhist::content_name(content)).c_str(),
                  std::string(vhist::strategy_name(s)).c_str(), ok ? "equal to the CPU reference" : "MISMATCH");
    }
  }
  if (context.validation_message_count() != 0) {
    std::printf("%u validation messages\n", context.validation_message_count());
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}

std::string P(std::string_view text) { return vhist::util::printable(text); }

// Prints every camera with its modes; exit 0 (also when there is none: that is an answer).
int list_cameras() {
  const vhist::media::CameraListing listing = vhist::media::list_cameras();
  if (listing.cameras.empty()) std::printf("no V4L2 capture device found\n");
  for (const auto& c : listing.cameras) {
    // The device's own texts are untrusted: escaped (util::printable) like every name printed.
    std::printf("%s  %s  (bus %s, driver %s)\n", P(c.path).c_str(), P(c.name).c_str(), P(c.bus).c_str(),
                P(c.driver).c_str());
    for (const auto& m : c.modes) {
      std::string rates;
      for (double r : m.frame_rates) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%g", rates.empty() ? "" : " ", r);
        rates += buf;
      }
      std::printf("    %-5s %5ux%-5u %s fps  (%s)\n", P(m.pixel_format).c_str(), m.width, m.height, rates.c_str(),
                  P(m.description).c_str());
    }
  }
  for (const auto& e : listing.errors) std::printf("%s\n", P(e).c_str());
  return 0;
}

int run_self_test(const std::string& device) {
  try {
    return self_test(device);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist: %s\n", vhist::render::failure_message(e).c_str());
    return 1;
  }
}

// The viewer's subcommand in a build without it (VHIST_HEADLESS: no GLFW, no ImGui).
[[maybe_unused]] int refuse_viewer(const std::string& program) {
  std::fprintf(stderr,
               "%s: this is a headless build (VHIST_HEADLESS), made for machines without a window system: it has "
               "no viewer. Use `%s analyze`, `%s scope`, --list-devices or --self-test, or run a normal build "
               "(without -DVHIST_HEADLESS=ON) to view.\n",
               program.c_str(), program.c_str(), program.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using vhist::app::Command;
  const vhist::app::CommandLine line = vhist::app::parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  if (line.end.done && line.end.status == 0) {
    std::fputs(line.end.help.c_str(), stdout);
    return 0;
  }
  if (line.end.done) {
    const char* program = line.program.c_str();
    std::fprintf(stderr, "%s: %s (see %s --help)\n", program, vhist::util::printable(line.end.error).c_str(), program);
    return line.end.status;
  }
  vhist::render::explain_crashes_under_memory_limit();
  switch (line.command) {
#ifdef VHIST_HEADLESS
    case Command::viewer: return refuse_viewer(line.program);
#else
    case Command::viewer: return vhist::viewer::run_viewer(line.viewer);
#endif
    case Command::analyze: return vhist::app::run_analyze(line.analyze);
    case Command::scope: return vhist::app::run_scope(line.scope);
    case Command::qc: return vhist::app::run_qc(line.qc);
    case Command::batch: return vhist::app::run_batch(line.batch);
    case Command::list_devices: return vhist::cli::print_device_list();
    case Command::list_cameras: return list_cameras();
    case Command::self_test: return run_self_test(line.viewer.common.device);
    case Command::version:
      std::printf("vhist %s (%s)\n", std::string(vhist::kVersion).c_str(), vhist::media::ffmpeg_version().c_str());
      return 0;
  }
  return 0;
}
