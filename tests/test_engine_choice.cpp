// The one engine rule (engine_choice.h): the user's choice wins; automatically the CPU engine
// only on a CPU Vulkan device.
#include "vhist/compute/engine_choice.h"

#include <gtest/gtest.h>

namespace vhist {
namespace {

TEST(EngineChoice, AutomaticPicksTheCpuEngineOnlyOnACpuDevice) {
  EXPECT_EQ(choose_engine(render::DeviceKind::cpu, EngineChoice::automatic), Engine::cpu);
  for (auto kind : {render::DeviceKind::discrete, render::DeviceKind::integrated, render::DeviceKind::virtual_gpu,
                    render::DeviceKind::other}) {
    EXPECT_EQ(choose_engine(kind, EngineChoice::automatic), Engine::gpu);
  }
}

TEST(EngineChoice, TheUsersChoiceWins) {
  EXPECT_EQ(choose_engine(render::DeviceKind::cpu, EngineChoice::gpu), Engine::gpu);
  EXPECT_EQ(choose_engine(render::DeviceKind::discrete, EngineChoice::cpu), Engine::cpu);
}

TEST(EngineChoice, Names) {
  EXPECT_EQ(parse_engine_choice("auto"), EngineChoice::automatic);
  EXPECT_EQ(parse_engine_choice("gpu"), EngineChoice::gpu);
  EXPECT_EQ(parse_engine_choice("cpu"), EngineChoice::cpu);
  EXPECT_FALSE(parse_engine_choice("GPU").has_value());
  EXPECT_FALSE(parse_engine_choice("none").has_value());  // analyze's decode-only mode is not an engine
  EXPECT_EQ(engine_name(Engine::cpu), "cpu");
  EXPECT_EQ(engine_name(Engine::gpu), "gpu");
}

}  // namespace
}  // namespace vhist
