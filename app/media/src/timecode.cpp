#include "vhist/media/timecode.h"

extern "C" {
#include <libavutil/timecode.h>
}

#include <limits>

namespace vhist::media {

std::string timecode_of_frame(const StreamTimecode& tc, std::int64_t frame) {
  if (tc.start.empty() || tc.rate_num == 0 || tc.rate_den == 0) return {};
  if (frame < 0 || frame > std::numeric_limits<int>::max()) return {};
  AVTimecode t{};
  const AVRational rate{static_cast<int>(tc.rate_num), static_cast<int>(tc.rate_den)};
  if (av_timecode_init_from_string(&t, rate, tc.start.c_str(), nullptr) < 0) return {};
  char buf[AV_TIMECODE_STR_SIZE];
  return av_timecode_make_string(&t, buf, static_cast<int>(frame));
}

}  // namespace vhist::media
