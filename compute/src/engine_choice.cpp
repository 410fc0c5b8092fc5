#include "vhist/compute/engine_choice.h"

namespace vhist {

Engine choose_engine(render::DeviceKind device, EngineChoice choice) {
  switch (choice) {
    case EngineChoice::gpu: return Engine::gpu;
    case EngineChoice::cpu: return Engine::cpu;
    case EngineChoice::automatic: break;
  }
  return device == render::DeviceKind::cpu ? Engine::cpu : Engine::gpu;
}

}  // namespace vhist
