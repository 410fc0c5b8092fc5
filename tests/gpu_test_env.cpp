#include "gpu_test_env.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

namespace vhist::test {
namespace {

struct Holder {
  std::unique_ptr<render::Context> context;
  std::string reason;
};

Holder& holder() {
  static Holder h = [] {
    Holder made;
    try {
      render::ContextOptions options;
      options.require_validation = true;  // every GPU test runs under the validation layer
      made.context = std::make_unique<render::Context>(options);
    } catch (const std::exception& e) {
      made.reason = e.what();
    }
    return made;
  }();
  return h;
}

bool gpu_required() {
  const char* v = std::getenv("VHIST_REQUIRE_GPU");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

}  // namespace

render::Context* gpu_context() { return holder().context.get(); }
const std::string& gpu_unavailable_reason() { return holder().reason; }

void GpuTest::SetUp() {
  if (gpu_context() == nullptr) {
    if (gpu_required()) {
      FAIL() << "VHIST_REQUIRE_GPU=1 but no Vulkan context: " << gpu_unavailable_reason();
    }
    GTEST_SKIP() << "no usable Vulkan device, skipping GPU test: " << gpu_unavailable_reason();
  }
  messages_before_ = gpu_context()->validation_message_count();
}

void GpuTest::TearDown() {
  if (gpu_context() == nullptr) return;
  EXPECT_EQ(gpu_context()->validation_message_count(), messages_before_)
      << "the Vulkan validation layer reported problems during this test (messages on stderr)";
}

}  // namespace vhist::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
