// Which engine converts and counts a video's frames, as names: plain C++, no Vulkan, so the
// picture's plan and the command line can name it. The rule that picks one for a device is
// engine_choice.h's choose_engine().
#pragma once

#include <optional>
#include <string_view>

namespace vhist {

enum class EngineChoice { automatic, gpu, cpu };  // what the user asked for: "auto", "gpu", "cpu"
enum class Engine { gpu, cpu };                   // what runs

// "auto", "gpu" or "cpu"; std::nullopt for anything else.
std::optional<EngineChoice> parse_engine_choice(std::string_view name);
std::string_view engine_name(Engine engine);  // "gpu", "cpu"

}  // namespace vhist
