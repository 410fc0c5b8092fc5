#include "vhist/compute/engine.h"

namespace vhist {

std::optional<EngineChoice> parse_engine_choice(std::string_view name) {
  if (name == "auto") return EngineChoice::automatic;
  if (name == "gpu") return EngineChoice::gpu;
  if (name == "cpu") return EngineChoice::cpu;
  return std::nullopt;
}

std::string_view engine_name(Engine engine) { return engine == Engine::cpu ? "cpu" : "gpu"; }

}  // namespace vhist
