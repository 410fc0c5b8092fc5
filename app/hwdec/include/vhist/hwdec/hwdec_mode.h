// The --hwdec setting's values (mpv's spelling and meaning), header-only so that the command-line
// tables (app/cli) declare the option without linking the decoder's GPU side (hwdec.h).
//   no     decode on the CPU (the default, as in mpv)
//   auto   NVDEC when this GPU can (hwdec.h says when), else the CPU, saying why
//   nvdec  NVDEC; when it cannot be used, the CPU with a warning (as mpv's --hwdec=nvdec does)
#pragma once

#include <optional>
#include <string_view>

namespace vhist::hwdec {

enum class HwdecMode { no, automatic, nvdec };

inline constexpr std::string_view kHwdecExpected = "auto, no or nvdec";

inline std::optional<HwdecMode> parse_hwdec(std::string_view text) {
  if (text == "auto") return HwdecMode::automatic;
  if (text == "no") return HwdecMode::no;
  if (text == "nvdec") return HwdecMode::nvdec;
  return std::nullopt;
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
