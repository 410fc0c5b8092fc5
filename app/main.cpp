// vhist: GPU-native video histograms. `vhist [INPUT]` is the viewer, `vhist analyze` exports
// per-frame histograms, and --list-devices / --self-test are device tools.
#include "analyze.h"
#include "cli.h"
#include "media/camera.h"
#include "media/media_source.h"
#include "viewer/viewer.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/render/context.h"
#include "vhist/render/vk_check.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

namespace {

constexpr const char* kUsage = R"(usage: vhist analyze INPUT [options]   per-frame histograms of a video file
                                        (see vhist analyze --help)
       vhist --list-devices | --list-cameras | --self-test [--device SEL] | --version

Device tools:
  --list-devices     list the Vulkan devices, their type, Vulkan version and driver
  --list-cameras     list the V4L2 cameras with their formats, frame sizes and rates
  --device SEL       use device SEL: an index from --list-devices or part of its name
                     (default: VHIST_DEVICE, else the first discrete GPU, integrated GPU, CPU)
  --self-test        histogram a synthetic frame on the GPU with both strategies and compare
                     them with the CPU reference; exit 0 when all agree
  --version          print the version
  -h, --help         this text

Environment:
  VHIST_DEVICE=SEL       same as --device
  VHIST_VALIDATION=1     enable the Vulkan validation layer and report its messages
)";

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

// Prints every camera with its modes; exit 0 (also when there is none: that is an answer).
int list_cameras() {
  const vhist::media::CameraListing listing = vhist::media::list_cameras();
  if (listing.cameras.empty()) std::printf("no V4L2 capture device found\n");
  for (const auto& c : listing.cameras) {
    std::printf("%s  %s  (bus %s, driver %s)\n", c.path.c_str(), c.name.c_str(), c.bus.c_str(), c.driver.c_str());
    for (const auto& m : c.modes) {
      std::string rates;
      for (double r : m.frame_rates) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%g", rates.empty() ? "" : " ", r);
        rates += buf;
      }
      std::printf("    %-5s %5ux%-5u %s fps  (%s)\n", m.pixel_format.c_str(), m.width, m.height, rates.c_str(),
                  m.description.c_str());
    }
  }
  for (const auto& e : listing.errors) std::printf("%s\n", e.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "analyze") return vhist::app::run_analyze(argc - 1, argv + 1);
  // The device tools take over when one of their options is given; anything else is the viewer.
  bool tool = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    tool = tool || arg == "--list-devices" || arg == "--self-test" || arg == "--version" || arg == "--list-cameras";
    if (arg == "-h" || arg == "--help") {
      std::fputs(vhist::viewer::viewer_usage(), stdout);
      std::fputs("\n", stdout);
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  if (!tool) return vhist::viewer::run_viewer(argc, argv);
  std::string device;
  bool list = false, test = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--version") {
      std::printf("vhist 0.1.0 (%s)\n", vhist::media::ffmpeg_version().c_str());
      return 0;
    } else if (arg == "--list-devices") {
      list = true;
    } else if (arg == "--list-cameras") {
      return list_cameras();
    } else if (arg == "--self-test") {
      test = true;
    } else if (arg == "--device") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "vhist: --device needs a value (an index or part of a device name)\n");
        return 2;
      }
      device = argv[++i];
    } else {
      std::fprintf(stderr, "vhist: unknown option '%s' (see vhist --help)\n", argv[i]);
      return 2;
    }
  }
  if (list) return vhist::cli::print_device_list();
  if (test) {
    try {
      return self_test(device);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "vhist: %s\n", vhist::render::failure_message(e).c_str());
      return 1;
    }
  }
  return 0;
}
