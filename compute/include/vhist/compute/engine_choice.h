// Which engine converts and counts a video's frames: the GPU's compute passes or the CPU engine
// (CpuEngine, vectorized C++). The one rule, used by the viewer and by `vhist analyze`.
#pragma once

#include "vhist/compute/engine.h"
#include "vhist/render/device_select.h"

namespace vhist {

// The engine for `device`: the user's choice when it names one; automatically the CPU engine
// when the Vulkan device is itself a CPU (lavapipe: emulated compute passes cost far more than
// the same work in vectorized C++), else the GPU.
Engine choose_engine(render::DeviceKind device, EngineChoice choice);

}  // namespace vhist
