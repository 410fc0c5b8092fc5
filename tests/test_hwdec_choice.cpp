// --hwdec's one rule (hwdec::choose_decoding, app/hwdec): `vhist analyze` (and qc, batch) and the
// viewer both decide by it, so they put a source on NVDEC or the CPU alike and say the same
// reason. Plain C++: the facts are given, no GPU or CUDA needed. The viewer asks in steps (once
// for its device and engine, then per file before and after the codec is known) where analyze
// asks once; ViewerStepsGiveAnalyzesAnswer checks that both orders come to the same choice on
// every case. tests/test_viewer.cpp (Hwdec.FallbackSaysWhyAndDrawsTheSamePicture) checks the two
// commands' lines against each other on the real device.
#include "vhist/hwdec/hwdec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vhist::hwdec {
namespace {

constexpr const char* kDevice = "the Vulkan device llvmpipe (LLVM 15.0.6, 256 bits) is not an NVIDIA GPU";
constexpr const char* kCamera = "a camera's frames are not decoded by NVDEC";
constexpr const char* kHostEngine = "the CPU engine reads frames in host memory (NVDEC's stay on the GPU)";

DecodeFacts usable(HwdecMode mode, const std::string& codec = "hevc", unsigned threads = 2) {
  DecodeFacts f;
  f.mode = mode;
  f.device_usable = true;
  f.codec = codec;
  f.threads = threads;
  return f;
}

DecodeFacts unusable(HwdecMode mode) {
  DecodeFacts f = usable(mode);
  f.device_usable = false;
  f.device_reason = kDevice;
  return f;
}

std::string faster(const std::string& codec, unsigned threads) {
  return codec + " decodes faster on " + std::to_string(threads) +
         " CPU threads than on one NVDEC engine (--hwdec nvdec uses NVDEC all the same)";
}

// --hwdec no decodes on the CPU and says nothing, whatever else holds.
TEST(HwdecRule, NoDecodesOnTheCpuAndSaysNothing) {
  DecodeFacts f = usable(HwdecMode::no, "h264", 16);
  f.camera = true;
  f.host_engine = true;
  const DecodeChoice c = choose_decoding(f);
  EXPECT_FALSE(c.nvdec);
  EXPECT_EQ(c.reason, "");
  EXPECT_FALSE(choose_decoding(DecodeFacts{}).nvdec);
}

// Where everything holds, auto and nvdec decode on NVDEC.
TEST(HwdecRule, NvdecWhereEverythingHolds) {
  for (const HwdecMode mode : {HwdecMode::automatic, HwdecMode::nvdec}) {
    const DecodeChoice c = choose_decoding(usable(mode));
    EXPECT_TRUE(c.nvdec) << hwdec_name(mode);
    EXPECT_EQ(c.reason, "") << hwdec_name(mode);
  }
}

// The reasons, first one first: the camera's before the device's, the device's before the
// engine's (it holds for every engine), the engine's before auto's codec rule.
TEST(HwdecRule, ReasonsInTheirOrder) {
  for (const HwdecMode mode : {HwdecMode::automatic, HwdecMode::nvdec}) {
    DecodeFacts f = unusable(mode);
    f.camera = true;
    f.host_engine = true;
    f.codec = "h264";
    f.threads = 16;
    EXPECT_EQ(choose_decoding(f).reason, kCamera);
    f.camera = false;
    EXPECT_EQ(choose_decoding(f).reason, kDevice);
    f.device_usable = true;
    f.device_reason.clear();
    EXPECT_EQ(choose_decoding(f).reason, kHostEngine);
    f.host_engine = false;
    EXPECT_EQ(choose_decoding(f).reason, mode == HwdecMode::automatic ? faster("h264", 16) : "");
    EXPECT_EQ(choose_decoding(f).nvdec, mode == HwdecMode::nvdec);
  }
}

// auto leaves H.264 to the CPU on 12 threads or more (the decoder's: --threads, else one per
// hardware thread); nvdec never; other codecs and a codec not known yet stay on NVDEC.
TEST(HwdecRule, AutoLeavesH264ToTheCpuOnManyThreads) {
  EXPECT_EQ(choose_decoding(usable(HwdecMode::automatic, "h264", 12)).reason, faster("h264", 12));
  EXPECT_TRUE(choose_decoding(usable(HwdecMode::automatic, "h264", 11)).nvdec);
  EXPECT_TRUE(choose_decoding(usable(HwdecMode::nvdec, "h264", 16)).nvdec);
  for (const char* codec : {"hevc", "vp9", "av1", ""}) {
    EXPECT_TRUE(choose_decoding(usable(HwdecMode::automatic, codec, 128)).nvdec) << codec;
  }
  const unsigned hardware = cpu_decoder_threads(0);
  const DecodeChoice c = choose_decoding(usable(HwdecMode::automatic, "h264", 0));
  EXPECT_EQ(c.nvdec, hardware < kCpuH264Threads);
  EXPECT_EQ(c.reason, c.nvdec ? "" : faster("h264", hardware));
}

// A Hwdec's facts: its mode, and NVDEC not usable with its reason (no CUDA here).
TEST(HwdecRule, DeviceFactsOfAHwdec) {
  Hwdec hw;
  hw.mode = HwdecMode::nvdec;
  hw.refuse(kDevice);
  const DecodeFacts f = device_facts(hw);
  EXPECT_EQ(f.mode, HwdecMode::nvdec);
  EXPECT_FALSE(f.device_usable);
  EXPECT_EQ(f.device_reason, kDevice);
  EXPECT_EQ(choose_decoding(f).reason, kDevice);
}

// The viewer's steps, as viewer_hwdec.cpp takes them: its device and engine once, without a
// codec (open_viewer_hwdec; NVDEC given up keeps the reason); per file, a camera
// (note_camera_decoding), else the rule without the codec and, on NVDEC, with it (open_player).
DecodeChoice viewer_steps(const DecodeFacts& f) {
  DecodeFacts session = f;
  session.camera = false;
  session.codec.clear();
  const DecodeChoice device = choose_decoding(session);
  DecodeFacts file;
  file.mode = f.mode;
  file.device_usable = device.nvdec;
  file.device_reason = device.reason;
  file.camera = f.camera;
  file.threads = f.threads;
  if (const DecodeChoice before = choose_decoding(file); !before.nvdec || f.camera) return before;
  file.codec = f.codec;
  return choose_decoding(file);
}

// Every case both commands see: each mode, camera or file, a device with NVDEC or without, the
// CPU engine or the GPU's, codecs on few and many threads. The viewer's steps give analyze's one
// answer, reason included.
TEST(HwdecRule, ViewerStepsGiveAnalyzesAnswer) {
  int cases = 0;
  for (const HwdecMode mode : {HwdecMode::no, HwdecMode::automatic, HwdecMode::nvdec}) {
    for (const bool camera : {false, true}) {
      for (const bool device : {false, true}) {
        for (const bool host_engine : {false, true}) {
          for (const char* codec : {"h264", "hevc", "av1", ""}) {
            for (const unsigned threads : {2u, 16u}) {
              DecodeFacts f = device ? usable(mode, codec, threads) : unusable(mode);
              f.codec = codec;
              f.threads = threads;
              f.camera = camera;
              f.host_engine = host_engine;
              const DecodeChoice analyze = choose_decoding(f), viewer = viewer_steps(f);
              const std::string at = std::string(hwdec_name(mode)) + (camera ? " camera" : " file") +
                                     (device ? " nvdec-device" : " other-device") + (host_engine ? " cpu-engine" : "") +
                                     " " + codec + " " + std::to_string(threads);
              EXPECT_EQ(viewer.nvdec, analyze.nvdec) << at;
              EXPECT_EQ(viewer.reason, analyze.reason) << at;
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 3 * 2 * 2 * 2 * 4 * 2);
}

// The reasons after the rule, where a stream was to go to NVDEC: it did not open there, or NVDEC
// did not take it (FFmpeg's words, or ours where it gave none).
TEST(HwdecRule, ReasonsAfterOpeningOnNvdec) {
  EXPECT_EQ(open_failed_reason("No such file"), "the decoder did not open on NVDEC: No such file");
  EXPECT_EQ(not_taken_reason(""), "NVDEC did not take the stream");
  EXPECT_EQ(not_taken_reason("NVDEC refused hevc Main 12"), "NVDEC refused hevc Main 12");
}

// The line both commands say (after their own prefix): a note for auto, a warning for nvdec.
TEST(HwdecRule, FallbackLine) {
  EXPECT_EQ(fallback_line(HwdecMode::automatic, kCamera), std::string("--hwdec auto: decoding on the CPU: ") + kCamera);
  EXPECT_EQ(fallback_line(HwdecMode::nvdec, kDevice),
            std::string("warning: --hwdec nvdec: NVDEC cannot be used (") + kDevice + "); decoding on the CPU");
}

}  // namespace
}  // namespace vhist::hwdec
