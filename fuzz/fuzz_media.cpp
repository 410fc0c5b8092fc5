// libFuzzer target for the media path: the input bytes are opened from memory (a custom
// AVIOContext; nothing else is reachable), probed, decoded for a few frames, each frame converted
// by the CPU reference and by the CPU engine, and their histograms compared: they must be equal.
#include "vhist/media/media_source.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/cpu_reference.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

namespace {

constexpr int kMaxFrames = 4;                       // decoded frames looked at per input
constexpr std::int64_t kMaxPixels = 1024 * 1024;    // larger frames: refused by the decoder
constexpr std::uint32_t kBins = 64;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vhist;
  static CpuEngine engine(1);
  media::SourceOptions options;
  options.queue_frames = 2;
  options.decoder_threads = 1;
  options.max_pixels = kMaxPixels;
  std::unique_ptr<media::MediaSource> source;
  try {
    source = media::MediaSource::open_memory(
        "fuzz input", std::string_view(reinterpret_cast<const char*>(data), size), options);
  } catch (const media::MediaError&) {
    return 0;  // a clear error: fine
  }
  try {
    for (int n = 0; n < kMaxFrames; ++n) {
      media::DecodedFrame frame;
      const auto status = source->next(frame, std::chrono::seconds(5));
      if (status != media::MediaSource::Status::frame) break;
      const VideoFormat& f = frame.format;
      if (std::uint64_t{f.width} * f.height > static_cast<std::uint64_t>(kMaxPixels)) {
        std::fprintf(stderr, "frame %ux%u is larger than the decoder's limit\n", f.width, f.height);
        std::abort();
      }
      if (const std::string why = check_video_format(f); !why.empty()) {
        std::fprintf(stderr, "decoded frame has a format the converters refuse: %s\n", why.c_str());
        std::abort();
      }
      const std::vector<std::byte> rgb = reference_convert(f, frame.planes);
      const Histogram expected = reference_histogram(rgb, converted_format(f), kBins);
      const Histogram got = engine.histogram(f, frame.planes, kBins);
      if (got.counts != expected.counts) {
        std::fprintf(stderr, "CPU engine and reference differ on a %ux%u %s frame\n", f.width, f.height,
                     f.pixel_format.c_str());
        std::abort();
      }
    }
  } catch (const media::MediaError&) {
    // bad input found while decoding: fine
  }
  (void)source->report();
  return 0;
}
