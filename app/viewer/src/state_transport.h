// The viewer's transport: what is open, how it plays, and how it is decoded. Changed by the
// loop (viewer.cpp: open_file, the tick's frame), the panel's file and transport rows
// (viewer_panel.cpp) and the keys (viewer_input.cpp). Main thread only: the player's decode
// thread is behind Player's own interface.
#pragma once

#include "vhist/media/camera.h"
#include "vhist/viewer/file_browser.h"
#include "vhist/viewer/player.h"

#include <string>

namespace vhist::hwdec {
struct Hwdec;
}

namespace vhist::viewer {

struct Transport {
  Player player;
  FileBrowser browser;
  std::string open_path;     // the panel's path field
  std::string error;         // shown in the panel (and printed on stderr) until the next open
  std::string pending_open;  // a file to open at the next tick (drop, browser, recent)
  bool cli_input_failed = false;  // the file on the command line did not open (exit status 2 in tests)
  media::CameraListing cameras;
  bool camera_connected = true;  // as of the last tick, to report a camera lost or back
  std::string announce_frame;    // "Seek", "Step": say the next frame's time and number on the OSD
  double fps = 0;                // redraws a second (the test summary)
  double video_fps = 0;          // video frames shown a second (the panel; 0 while paused)
};

// --hwdec (viewer_hwdec.h): what it came to for the device (the Viewer's, null before it starts);
// why the open file is decoded on the CPU though --hwdec asked for NVDEC (empty: it is not, or it
// was not asked), not yet said; NVDEC's check of the first frame awaited. Changed by
// viewer_hwdec.cpp and the loop. Main thread only.
struct Decoding {
  const hwdec::Hwdec* hwdec = nullptr;
  std::string note;
  bool unsaid = false, watch = false;
  const char* engine_name = "gpu";
};

}  // namespace vhist::viewer
