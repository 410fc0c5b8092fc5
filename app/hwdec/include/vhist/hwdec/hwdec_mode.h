// The --hwdec setting's values (mpv's spelling and meaning), header-only so that the command-line
// tables (app/cli) declare the option without linking the decoder's GPU side (hwdec.h).
//   no     decode on the CPU (the default, as in mpv)
//   auto   NVDEC when this GPU can (hwdec.h says when) and it is the faster path for the codec
//          (cpu_decodes_faster), else the CPU, saying why
//   nvdec  NVDEC; when it cannot be used, the CPU with a warning (as mpv's --hwdec=nvdec does)
#pragma once

#include <algorithm>
#include <optional>
#include <string_view>
#include <thread>

namespace vhist::hwdec {

enum class HwdecMode { no, automatic, nvdec };

inline constexpr std::string_view kHwdecExpected = "auto, no or nvdec";

inline std::optional<HwdecMode> parse_hwdec(std::string_view text) {
  if (text == "auto") return HwdecMode::automatic;
  if (text == "no") return HwdecMode::no;
  if (text == "nvdec") return HwdecMode::nvdec;
  return std::nullopt;
}

// The fewest hardware threads on which --hwdec auto leaves H.264 to the CPU. Measured on the GPU
// machine (docs/benchmarks.md, "Hardware decoding"): 4K H.264 decodes at 434-458 frames a second
// on its 16 threads against 180 on one NVDEC engine (about 28 a thread); 4K HEVC 10-bit at
// 256-266 against 365, so HEVC (and VP9, AV1: heavier to decode) stays on NVDEC. 12 threads
// (about 340 frames a second) keeps a wide margin over NVDEC's 180.
inline constexpr unsigned kCpuH264Threads = 12;

// Whether --hwdec auto decodes `codec` (FFmpeg's codec name) faster on `threads` CPU threads
// than on one NVDEC engine.
inline bool cpu_decodes_faster(std::string_view codec, unsigned threads) {
  return codec == "h264" && threads >= kCpuH264Threads;
}

// The threads a run's CPU decoder gets: `requested` (--threads; `vhist batch` gives each of its
// --jobs runs cores / jobs), else one per hardware thread.
inline unsigned cpu_decoder_threads(unsigned requested) {
  return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

inline std::string_view hwdec_name(HwdecMode mode) {
  switch (mode) {
    case HwdecMode::no: return "no";
    case HwdecMode::automatic: return "auto";
    case HwdecMode::nvdec: return "nvdec";
  }
  return "?";
}

}  // namespace vhist::hwdec
