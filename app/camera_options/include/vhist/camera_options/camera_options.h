// The shared camera options (option_table.h's "Camera" group) as the media code takes them.
#pragma once

#include "vhist/media/camera.h"
#include "vhist/cli/option_table.h"

namespace vhist::cli {

inline media::CameraOptions camera_options(const CommonOptions& o) {
  media::CameraOptions camera;
  camera.pixel_format = o.camera_format;
  camera.width = o.camera_width;
  camera.height = o.camera_height;
  camera.frame_rate = o.camera_fps;
  return camera;
}

}  // namespace vhist::cli
