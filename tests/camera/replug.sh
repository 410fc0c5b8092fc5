#!/bin/bash
# replug.sh VHIST WORK CYCLES: run by in_vm.sh under ../with_display.sh inside the vivid VM. The
# viewer streams /dev/video0 (5 new frames shown); the camera is unplugged (vivid unbound) and plugged back CYCLES
# times; each step waits for the viewer's own state (window_script.sh: its state file, its open
# file descriptors), never a number of seconds. Then S saves a screenshot (WORK/shots/*.png) and
# Q quits. The viewer's stderr is WORK/viewer.err; in_vm.sh judges what it finds there.
# Exit status: the viewer's, or 1 when a step did not happen (said on stderr).
set -u
vhist=$1 work=$2 cycles=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export VHIST_TEST_STATE="$work/state"
. "$here/../window_script.sh"

# Is /dev/video0 (the live node, not a removed one) open in the viewer?
has_camera_open() { ls -l "/proc/$pid/fd" 2> /dev/null | grep -q -- '-> /dev/video0$'; }
lets_go() { ! has_camera_open; }
# How many times the OSD has said the camera is lost (its log keeps the last 16 lines).
said_lost() { [ "$(grep -o '[Cc]amera lost' "$VHIST_TEST_STATE" 2> /dev/null | wc -l)" -ge "$1" ]; }
# The shown frame's time (the state line's "frame at T s"); new_frames N: until N camera frames
# newer than the one shown have been drawn (redraws of the same frame, as the OSD fades, do not count).
frame_at() { sed -n 's/.*, frame at \([-0-9.]*\) s,.*/\1/p' "$VHIST_TEST_STATE" 2> /dev/null; }
frame_is_not() { _f=$(frame_at); [ -n "$_f" ] && [ "$_f" != "$1" ]; }
new_frames() {
  _i=0
  while [ "$_i" -lt "$1" ]; do
    wait_until "it drew a new camera frame" frame_is_not "$(frame_at)" || return 1
    _i=$((_i + 1))
  done
}
step_failed() { echo "camera viewer: cycle $cycle: $*" >&2; kill "$pid" 2> /dev/null; wait "$pid"; exit 1; }

mkdir -p "$work/xdg" "$work/shots"
cd "$work/shots" || exit 1
# --quit-after 1200 is only the ceiling for a step that never comes while the viewer keeps
# drawing (in_vm.sh's stall_limit.sh ends a viewer that stops drawing); the whole test takes
# 1 to 2 minutes in a quiet guest. Not a number of frames: a guest with KVM draws hundreds a
# second. The test ends with Q.
XDG_CONFIG_HOME="$work/xdg" VHIST_VALIDATION=1 "$vhist" /dev/video0 --camera-format YUYV --camera-size 320x180 \
    --camera-fps 30 --quit-after 1200 --size 320x180 2> "$work/viewer.err" &
pid=$!
cycle=0
wait_until "it opened /dev/video0" has_camera_open || step_failed "the viewer never opened /dev/video0"
new_frames 5 || step_failed "no frames from the camera"
for cycle in $(seq 1 "$cycles"); do
  echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind || step_failed "could not unbind vivid"
  wait_until "it let go of the removed camera" lets_go || step_failed "the viewer holds the removed camera"
  wait_until "it said the camera is lost" said_lost "$cycle" || step_failed "no 'camera lost' on the OSD"
  echo vivid.0 > /sys/bus/platform/drivers/vivid/bind || step_failed "could not bind vivid"
  wait_until "it reopened /dev/video0" has_camera_open || step_failed "the viewer did not reopen /dev/video0"
  new_frames 5 || step_failed "no frames after the replug"
  echo "camera viewer: cycle $cycle: unplugged, said so, reopened, 5 new frames drawn"
done
xdotool key s
wait_file_like "*.png" || step_failed "no screenshot"
xdotool key q
wait "$pid"
