#include "vhist/compute/engine_choice.h"

namespace vhist {

std::optional<EngineChoice> parse_engine_choice(std::string_view name) {
  if (name == "auto") return EngineChoice::automatic;
  if (name == "gpu") return EngineChoice::gpu;
  if (name == "cpu") return EngineChoice::cpu;
  return std::nullopt;
}

std::string_view engine_name(Engine engine) { return engine == Engine::cpu ? "cpu" : "gpu"; }

Engine choose_engine(render::DeviceKind device, EngineChoice choice) {
  switch (choice) {
    case EngineChoice::gpu: return Engine::gpu;
    case EngineChoice::cpu: return Engine::cpu;
    case EngineChoice::automatic: break;
  }
  return device == render::DeviceKind::cpu ? Engine::cpu : Engine::gpu;
}

}  // namespace vhist
