# Sourced (POSIX sh) by the scripts the window tests run beside the viewer: the viewer started
# with VHIST_TEST_STATE=FILE writes "rendered N, STATE" to FILE after every frame it draws
# (app/viewer/src/test_drivers.h), and these functions wait for what the test needs next, a
# state or a number of frames, instead of a number of seconds. $pid must be the viewer's: a wait
# ends with status 1 and a message when the viewer ended first (the test then fails on what it
# finds). A hang is bounded by the test's own `timeout`, never decided here.

# The frames drawn so far (0 before the first).
vhist_rendered() {
  _n=$(sed -n 's/^rendered \([0-9][0-9]*\),.*/\1/p' "$VHIST_TEST_STATE" 2> /dev/null)
  echo "${_n:-0}"
}

# wait_until WHAT COMMAND...: until COMMAND succeeds (looked at every 20 ms), or the viewer has
# ended: then "the viewer ended before WHAT" and status 1.
wait_until() {
  _what=$1
  shift
  until "$@"; do
    if ! kill -0 "$pid" 2> /dev/null; then
      echo "window_script: the viewer ended before $_what" >&2
      return 1
    fi
    sleep 0.02
  done
}

# wait_state ERE: until the state line matches the extended regular expression.
state_matches() { grep -Eq -- "$1" "$VHIST_TEST_STATE" 2> /dev/null; }
wait_state() { wait_until "its state matched '$1'" state_matches "$1"; }

# wait_frames N: until N more frames have been drawn. A paused viewer draws only when something
# changes (a key, the mouse, the OSD fading), so wait for frames after an input, not instead of one.
drawn_at_least() { [ "$(vhist_rendered)" -ge "$1" ]; }
wait_frames() { wait_until "$1 more frames were drawn" drawn_at_least $(($(vhist_rendered) + $1)); }

# wait_file PATH: until PATH exists (a screenshot the S key asked for).
wait_file() { wait_until "it wrote $1" test -e "$1"; }

# wait_file_like GLOB: until a file in the current folder matches GLOB (the S key's screenshot,
# named after the clip and the time).
matches_a_file() { ls -- $1 > /dev/null 2>&1; }
wait_file_like() { wait_until "it wrote a file like $1" matches_a_file "$1"; }
