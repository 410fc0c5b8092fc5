// The frozen check on a corpus made at test time from real photographs (mate-backgrounds,
// scripts/setup.sh --test), 320x180 at 25 fps, BT.709 by the project's recipe: a pan that stops
// on one picture for 3 s (frames 75..149, identical as rendered) and goes on, re-encoded by
// x264 and x265 at CRF 18 and 30 (and with an I-frame inside the hold): one frozen event at the
// hold's first and last frames, within a frame, and its detail says it is held within the
// change, not repeated bit for bit (within 2 frames for x265 at CRF 30, whose last frames of
// the hold take in the pan that follows); losslessly encoded, bit for bit. A slow pan, a fade and a
// dissolve are never frozen. The dark, low-contrast Storm under a slow pan (0.5 px a frame)
// is the corpus's hardest: there frames next to the hold differ from it by less than the
// threshold, and the event's edges are within 3 frames (docs/user-guide.md, "Frozen pictures after re-encoding").
#include "analyze_process.h"
#include "test_clips.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

namespace vhist::test {
namespace {

using nlohmann::json;

const std::string kPhotos = "/usr/share/backgrounds/mate/nature/";
constexpr int kFrames = 200;
constexpr int kHoldFirst = 75, kHoldLast = 149;

// The photograph `name` as a 1280x720 still, then `graph` (from that still, as [p] and, with a
// second photograph, [q]), down to 320x180 and through the recipe, encoded with `codec`.
std::string clip(const std::string& name, const std::vector<std::string>& photos, const std::string& graph,
                 const std::string& codec) {
  std::string args;
  for (const std::string& p : photos) args += "-loop 1 -framerate 25 -i " + quote(kPhotos + p + ".jpg") + " ";
  std::string still;
  const char* labels[] = {"p", "q"};
  for (std::size_t i = 0; i < photos.size(); ++i) {
    still += "[" + std::to_string(i) + ":v]scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,"
             "format=gbrp[" + labels[i] + "];";
  }
  args += "-filter_complex " + quote(still + graph + ",scale=320:180:flags=lanczos," + ycbcr_vf("bt709")) +
          " -frames:v " + std::to_string(kFrames) + " " + codec + " " + ycbcr_tags("bt709");
  return make_clip("frozen_" + name + ".mkv", args);
}

// A pan of `speed` still pixels a frame (half as many in the clip) across a 640x360 window, held
// over frames kHoldFirst..kHoldLast when `hold`.
std::string pan(const std::string& speed, bool hold) {
  const std::string n = hold ? "(min(n\\," + std::to_string(kHoldFirst) + ")+max(n-" + std::to_string(kHoldLast) + "\\,0))"
                             : "n";
  return "[p]crop=640:360:x='" + speed + "*" + n + "':y=180";
}

const std::string kX264 = "-c:v libx264 -preset medium";
const std::string kX265 = "-c:v libx265 -preset medium -x265-params log-level=error";

struct Frozen {
  std::int64_t first, last;
  std::string detail;
};

std::vector<Frozen> frozen_events(const std::string& path) {
  const ProcessResult r = run_vhist("qc -q --fail none " + quote(path));
  EXPECT_EQ(r.status, 0) << path << ": " << r.err;
  std::vector<Frozen> out;
  for (const std::string& line : all_lines(r.out)) {
    const json j = json::parse(line);
    if (j["type"] == "event" && j["check"] == "frozen") out.push_back({j["first_frame"], j["last_frame"], j["detail"]});
  }
  return out;
}

class FrozenCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(kPhotos + "Garden.jpg")) << "the corpus needs the photographs of "
                                                                  << "mate-backgrounds: scripts/setup.sh --test";
  }
};

TEST_F(FrozenCorpus, AReEncodedHoldIsOneEventAtItsFrames) {
  struct Case {
    std::string name, photo, speed, codec;
    int slack;  // frames the event's edges may be off by
  };
  const std::vector<Case> cases = {
      {"garden_x264_crf18", "Garden", "2", kX264 + " -crf 18", 1},
      // x265 at CRF 30 blends the pan that follows into the hold's last two frames.
      {"garden_x265_crf30", "Garden", "2", kX265 + " -crf 30", 2},
      {"flower_x264_crf30_g25", "YellowFlower", "2", kX264 + " -crf 30 -g 25", 1},  // I-frames inside the hold
      {"flower_x265_crf18", "YellowFlower", "2", kX265 + " -crf 18", 1},
      {"storm_x264_crf23", "Storm", "1", kX264 + " -crf 23", 3},
  };
  for (const Case& c : cases) {
    const std::vector<Frozen> got = frozen_events(clip(c.name, {c.photo}, pan(c.speed, true), c.codec));
    ASSERT_EQ(got.size(), 1u) << c.name;
    EXPECT_LE(std::abs(got[0].first - kHoldFirst), c.slack) << c.name << ": first frame " << got[0].first;
    EXPECT_LE(std::abs(got[0].last - kHoldLast), c.slack) << c.name << ": last frame " << got[0].last;
    EXPECT_NE(got[0].detail.find("within 0.100 %"), std::string::npos) << c.name << ": " << got[0].detail;
  }
}

TEST_F(FrozenCorpus, ALosslessHoldIsBitExactAtItsFrames) {
  const std::vector<Frozen> got = frozen_events(clip("garden_qp0", {"Garden"}, pan("2", true), kX264 + " -qp 0"));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, kHoldFirst);
  EXPECT_EQ(got[0].last, kHoldLast);
  EXPECT_NE(got[0].detail.find("bit for bit"), std::string::npos) << got[0].detail;
}

TEST_F(FrozenCorpus, PansFadesAndDissolvesAreNeverFrozen) {
  // The fade and the dissolve go out over 4 s and back over 4 s: no frame is still.
  const std::string fade = "[p]crop=640:360:x=320:y=180,scale=320:180,geq=r='r(X\\,Y)*abs(T-4)/4':"
                           "g='g(X\\,Y)*abs(T-4)/4':b='b(X\\,Y)*abs(T-4)/4'";
  const std::string dissolve = "[p]crop=640:360:x=0:y=0[a];[q]crop=640:360:x=0:y=0[b];"
                               "[a][b]blend=all_expr='A*abs(T-4)/4+B*(1-abs(T-4)/4)'";
  struct Case {
    std::string name;
    std::vector<std::string> photos;
    std::string graph;
  };
  const std::vector<Case> cases = {
      {"pan_slow", {"Garden"}, pan("1", false)},  // half a pixel a frame
      {"fade", {"YellowFlower"}, fade},
      {"dissolve", {"Garden", "LadyBird"}, dissolve},
  };
  for (const Case& c : cases) {
    for (const auto& [codec, label] : {std::pair{kX264 + " -crf 30", "x264_crf30"}, {kX265 + " -crf 30", "x265_crf30"}}) {
      const std::string name = c.name + "_" + label;
      const std::vector<Frozen> got = frozen_events(clip(name, c.photos, c.graph, codec));
      EXPECT_TRUE(got.empty()) << name << ": frozen " << (got.empty() ? 0 : got[0].first) << "-"
                               << (got.empty() ? 0 : got[0].last);
    }
  }
}

}  // namespace
}  // namespace vhist::test
