// The FrameRenderer's hardware-decoded frames (frame_import.h): a frame a decoder left in GPU
// memory of its own API is copied by the importer into the importer's planes buffer for the
// tick's slot, device to device, and the convert pass reads it there. The copy of a tick's frame
// waits for the last tick submitted (so for every earlier one: they are done with the slot's
// buffer, which holds the frame shown until now); the tick's submission waits for the copy.
#include "frame_renderer_slot.h"

#include "vhist/compute/frame_converter.h"

#include <stdexcept>

namespace vhist::viewer {

void FrameRenderer::prepare_imported_frame(const VideoFormat& format, const VideoPlanes& planes,
                                           const DeviceFrame& device) {
  if (!import_ || !import_->accepts(device.memory)) {
    throw std::invalid_argument("the frame is in another API's GPU memory and the picture has no importer for it");
  }
  plane_layout_ = plane_offsets(format, planes.stride);
  // A buffer that grows is replaced: the ticks in flight may still read the old one.
  if (import_capacity_[next_slot_] < plane_layout_.total) wait_idle();
  imported_planes_ = &import_->planes(next_slot_, plane_layout_.total);
  import_capacity_[next_slot_] = imported_planes_->size();
  slots_[next_slot_]->imported = true;
  import_wait_ = import_->copy(next_slot_, format, planes, device, plane_layout_, ++import_copies_, ticks_submitted_);
}

render::TimelinePoint FrameRenderer::import_release() const {
  if (!import_) return {};
  return {import_->release(), ticks_submitted_ + 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
}

}  // namespace vhist::viewer
