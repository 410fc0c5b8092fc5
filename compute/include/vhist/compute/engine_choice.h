// Which engine converts and counts a video's frames: the GPU's compute passes or the CPU engine
// (CpuEngine, vectorized C++). The one rule, used by the viewer and by `vhist analyze`.
#pragma once

#include "vhist/render/device_select.h"

#include <optional>
#include <string_view>

namespace vhist {

enum class EngineChoice { automatic, gpu, cpu };  // what the user asked for: "auto", "gpu", "cpu"
enum class Engine { gpu, cpu };                   // what runs

// "auto", "gpu" or "cpu"; std::nullopt for anything else.
std::optional<EngineChoice> parse_engine_choice(std::string_view name);
std::string_view engine_name(Engine engine);  // "gpu", "cpu"

// The engine for `device`: the user's choice when it names one; automatically the CPU engine
// when the Vulkan device is itself a CPU (lavapipe: emulated compute passes cost far more than
// the same work in vectorized C++), else the GPU.
Engine choose_engine(render::DeviceKind device, EngineChoice choice);

}  // namespace vhist
