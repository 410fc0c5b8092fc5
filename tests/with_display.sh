#!/bin/bash
# with_display.sh [-s WIDTHxHEIGHT] [--] COMMAND [ARGS...]: runs COMMAND with DISPLAY set to an
# X server of its own (Xvfb, 24-bit, default 1280x720) and returns COMMAND's exit status. The
# one harness of every window test (the C++ tests, the soak, the install test, the camera VM).
#
# Why not xvfb-run -a: it picks a display number by looking for a free lock file, so two runs
# started at once can take the same number ("xvfb-run: error: Xvfb failed to start"), and its
# own clean-up can fail after the command ("problem while cleaning up temporary directory",
# status 5 where the command's was 1). Here Xvfb chooses the number itself (-displayfd: it binds
# the first free display and then writes its number), and the number is read from a pipe, so
# the command starts when the server is ready, not after a guessed delay. A server that dies
# before it is ready (a lost display) is started again, twice at most.
#
# Exit status: COMMAND's; 125 when no server would start (its log on standard error).
set -u -o pipefail

size=1280x720
while [ $# -gt 0 ]; do
    case "$1" in
        -s) size=$2; shift 2 ;;
        --) shift; break ;;
        -*) echo "with_display.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: with_display.sh [-s WIDTHxHEIGHT] [--] COMMAND [ARGS...]" >&2; exit 2; }
[[ "$size" =~ ^[0-9]+x[0-9]+$ ]] || { echo "with_display.sh: -s wants WIDTHxHEIGHT, not '$size'" >&2; exit 2; }
command -v Xvfb > /dev/null || { echo "with_display.sh: Xvfb is not installed (apt-get install xvfb)" >&2; exit 125; }

work=$(mktemp -d "${TMPDIR:-/tmp}/vhist-display.XXXXXX") || exit 125
server=
child=
stop() {
    [ -n "$child" ] && kill -TERM "$child" 2> /dev/null
    [ -n "$server" ] && kill -TERM "$server" 2> /dev/null && wait "$server" 2> /dev/null
    rm -rf "$work"
}
trap stop EXIT
# A signal to this script (timeout's TERM) reaches the command and the server.
trap 'stop; trap - EXIT; exit 143' TERM
trap 'stop; trap - EXIT; exit 130' INT

# Starts a server and sets `display` to its number once it accepts clients; fails (and leaves
# `display` empty) when the server died first.
display=
start_server() {
    rm -f "$work/ready"
    mkfifo "$work/ready" || return 1
    # -r: no autorepeat. A script holds a key across frames (xdotool keydown; wait_frames 2;
    # keyup), which on a loaded machine outlasts the server's 660 ms repeat delay; a repeat of
    # ctrl+a's "a" after its ctrl was released typed an "a" into the path field under stress-ng.
    Xvfb -displayfd 3 -screen 0 "${size}x24" -r -nolisten tcp -noreset 3> "$work/ready" 2> "$work/xvfb.log" &
    server=$!
    read -r display < "$work/ready"
    [ -n "$display" ] && return 0
    wait "$server" 2> /dev/null
    server=
    return 1
}

for attempt in 1 2 3; do
    start_server && break
done
if [ -z "$display" ]; then
    echo "with_display.sh: Xvfb did not start ($attempt attempts); its log:" >&2
    cat "$work/xvfb.log" >&2
    exit 125
fi

DISPLAY=":$display" "$@" <&0 &
child=$!
wait "$child"
status=$?
child=
exit $status
