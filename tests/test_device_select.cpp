#include "vhist/render/device_select.h"

#include <vulkan/vulkan.h>

#include <gtest/gtest.h>

namespace {

using vhist::render::DeviceDescription;
using vhist::render::DeviceKind;

DeviceDescription dev(const char* name, DeviceKind kind, std::uint32_t api = VK_API_VERSION_1_3) {
  return {name, kind, api, "test driver", true, true};
}

TEST(DeviceSelect, PrefersDiscreteThenIntegratedThenCpu) {
  EXPECT_EQ(vhist::render::choose_device({dev("llvmpipe", DeviceKind::cpu), dev("Intel", DeviceKind::integrated),
                                          dev("NVIDIA H200", DeviceKind::discrete)}, "").index, 2);
  EXPECT_EQ(vhist::render::choose_device({dev("llvmpipe", DeviceKind::cpu), dev("Intel", DeviceKind::integrated)}, "").index, 1);
  EXPECT_EQ(vhist::render::choose_device({dev("llvmpipe", DeviceKind::cpu)}, "").index, 0);
}

TEST(DeviceSelect, SkipsDevicesBelowVulkan13) {
  const auto c = vhist::render::choose_device(
      {dev("old GPU", DeviceKind::discrete, VK_API_VERSION_1_2), dev("llvmpipe", DeviceKind::cpu)}, "");
  EXPECT_EQ(c.index, 1);
}

TEST(DeviceSelect, NoUsableDeviceNamesWhatWasFound) {
  const auto c = vhist::render::choose_device({dev("llvmpipe", DeviceKind::cpu, VK_API_VERSION_1_2)}, "");
  EXPECT_EQ(c.index, -1);
  EXPECT_NE(c.error.find("No Vulkan 1.3 device found"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("llvmpipe 1.2.0"), std::string::npos) << c.error;
  const auto none = vhist::render::choose_device({}, "");
  EXPECT_NE(none.error.find("no Vulkan devices at all"), std::string::npos) << none.error;
}

TEST(DeviceSelect, OverrideByIndexAndName) {
  const std::vector<DeviceDescription> list{dev("NVIDIA H200", DeviceKind::discrete), dev("llvmpipe (LLVM 15)", DeviceKind::cpu)};
  EXPECT_EQ(vhist::render::choose_device(list, "1").index, 1);
  EXPECT_EQ(vhist::render::choose_device(list, "LLVMPIPE").index, 1);
  EXPECT_EQ(vhist::render::choose_device(list, "h200").index, 0);
  const auto bad_index = vhist::render::choose_device(list, "7");
  EXPECT_EQ(bad_index.index, -1);
  EXPECT_NE(bad_index.error.find("index 7 does not exist"), std::string::npos) << bad_index.error;
  const auto bad_name = vhist::render::choose_device(list, "radeon");
  EXPECT_EQ(bad_name.index, -1);
  EXPECT_NE(bad_name.error.find("'radeon'"), std::string::npos) << bad_name.error;
}

TEST(DeviceSelect, OverrideToUnusableDeviceExplains) {
  const auto c = vhist::render::choose_device({dev("old", DeviceKind::discrete, VK_API_VERSION_1_1)}, "0");
  EXPECT_EQ(c.index, -1);
  EXPECT_NE(c.error.find("1.1.0 < 1.3"), std::string::npos) << c.error;
}

}  // namespace
