#!/bin/bash
# The MJPEG camera tests (see run_vivid_tests.sh). vivid has no MJPEG, so the guest loads
# v4l2loopback (vm_run.sh -l) and a producer inside it, ffmpeg copying a JPEG stream to the
# loopback node (`-c copy -f v4l2`: FFmpeg's v4l2 output sets the node to MJPG and write()s one
# JPEG per frame), makes that node an MJPEG camera. The clips are encoded on the host, where it
# is fast; in the emulated guest, encoding 640x360 JPEG reaches only about 14 fps.
#
#   mjpeg.sh clips DIR                     (host) writes DIR/mjpeg-*.mjpeg and DIR/mjpeg-colours.txt
#   mjpeg.sh in-vm TESTS BUILD WORK NODE COLOUR_NODE
#                                          (guest) the tests against two loopback nodes: one for
#                                          the moving pattern, one for the colours (v4l2loopback
#                                          keeps a node's first size after its producer has gone)
# Exit status 0 when everything passed.
set -u -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The solid colours of the colour clip (R'G'B', hex), each for 6 frames: saturated ones, whose
# decoding depends on the matrix (BT.601 versus BT.709), and greys, which show the range
# (full versus limited). The JPEG round trip keeps these within 1 code (chroma quantization
# moves some other colours by 3).
colours="C83C5A 2080E0 404040 E0E0E0 A0A020 6040C0"

if [ "${1:-}" = clips ]; then
    dir=$2
    # 2 s of a moving test pattern, 640x360 at 30 fps, as cameras send it: JFIF, yuvj420p.
    ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=640x360:rate=30 -frames:v 60 \
        -c:v mjpeg -pix_fmt yuvj420p -q:v 3 -f mjpeg "$dir/mjpeg-pattern.mjpeg" || exit 1
    graph="" inputs="" n=0
    for c in $colours; do
        graph+="color=c=0x$c:size=1280x720:rate=30:duration=0.2[c$n];"
        inputs+="[c$n]"
        n=$((n + 1))
    done
    ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "$graph${inputs}concat=n=$n[out0]" \
        -c:v mjpeg -pix_fmt yuvj420p -q:v 2 -f mjpeg "$dir/mjpeg-colours.mjpeg" || exit 1
    echo "$colours" | tr ' ' ',' > "$dir/mjpeg-colours.txt"
    exit 0
fi

[ "${1:-}" = in-vm ] && [ $# -eq 6 ] || { echo "usage: $0 clips DIR | in-vm TESTS BUILD WORK NODE COLOUR_NODE" >&2; exit 2; }
tests=$2 build=$3 work=$4 node=$5 colour_node=$6
# The guest's own shader cache, never the host's (guest_shader_cache.sh says why).
. "$here/guest_shader_cache.sh"
vhist="$build/app/vhist"
status=0
producer=""

fail() { echo "MJPEG camera test FAILED: $*" >&2; status=1; }

# Starts the producer writing CLIP to DEV and waits until DEV captures MJPG at SIZE
# (v4l2loopback with exclusive_caps=1 shows a capture device only while something writes to it).
start_producer() {
    local clip=$1 dev=$2 size=$3 i=0
    ffmpeg -nostdin -hide_banner -loglevel error -re -stream_loop -1 -framerate 30 -f mjpeg -i "$clip" \
        -c copy -f v4l2 "$dev" 2> "$work/producer.err" &
    producer=$!
    until v4l2-ctl -d "$dev" --list-formats-ext 2>/dev/null | grep -q "Size: Discrete $size"; do
        i=$((i + 1))
        if [ $i -gt 300 ] || ! kill -0 "$producer" 2>/dev/null; then
            echo "MJPEG camera test FAILED: the producer did not make $dev an MJPG $size camera:" \
                "$(tail -3 "$work/producer.err")" >&2
            return 1
        fi
        sleep 0.1
    done
}
stop_producer() {
    [ -n "$producer" ] || return 0
    kill "$producer" 2>/dev/null
    wait "$producer" 2>/dev/null
    producer=""
}
trap 'stop_producer; save_guest_shader_cache' EXIT

# 1. A 640x360 MJPEG camera at 30 fps: CameraSource, vhist analyze and the viewer.
if start_producer "$work/mjpeg-pattern.mjpeg" "$node" 640x360; then
    VHIST_MJPEG_CAMERA=$node "$tests" --gtest_filter='MjpegCamera.ListedWithItsMode:MjpegCamera.ThirtyFramesAtThirtyFps' \
        || status=1

    if "$vhist" analyze "$node" --camera-format mjpeg --camera-size 640x360 --camera-fps 30 --frames 30 --bins 16 -q \
        -o "$work/mjpeg.jsonl" 2> "$work/mjpeg-analyze.err"; then
        # The output's first line is its provenance header; the records are the frame objects.
        head -n 1 "$work/mjpeg.jsonl" | grep -q '^{"type":"header"' || fail "analyze's output does not start with its header"
        records=$(grep -c '^{"type":"frame"' "$work/mjpeg.jsonl")
        sized=$(grep '^{"type":"frame"' "$work/mjpeg.jsonl" | grep -c '"width":640,"height":360')
        [ "$records" = 30 ] || fail "analyze wrote $records records, not 30"
        [ "$sized" = "$records" ] || fail "$((records - sized)) analyze records are not 640x360"
    else
        fail "vhist analyze $node --camera-format mjpeg failed: $(tail -3 "$work/mjpeg-analyze.err")"
    fi

    # The viewer on it, in a 320x180 window (see in_vm.sh for why the window is small), for 20
    # frames, enough to stream, save a screenshot and report a median: without AVX2 in the guest
    # (in_vm.sh says why) lavapipe draws 1 to 3 fps there, validation on, so each frame costs the
    # guest about a second.
    mkdir -p "$work/xdg"
    # The hang ceiling: 240 s without a frame drawn (tests/stall_limit.sh on the state file).
    if XDG_CONFIG_HOME="$work/xdg" VHIST_VALIDATION=1 VHIST_TEST_STATE="$work/mjpeg-viewer.state" \
        bash "$here/../stall_limit.sh" 240 "$work/mjpeg-viewer.state" -- \
        bash "$here/../with_display.sh" -s 1280x1024 "$vhist" "$node" --camera-format MJPG \
        --camera-size 640x360 --camera-fps 30 --frames 20 --size 320x180 --screenshot "$work/mjpeg-viewer.png" \
        2> "$work/mjpeg-viewer.err"; then
        [ -s "$work/mjpeg-viewer.png" ] || fail "the viewer on the MJPEG camera saved no screenshot"
        echo "MJPEG camera viewer (640x360 at 30 fps, window 320x180): $(grep -h 'capture to present\|frames rendered' \
            "$work/mjpeg-viewer.err" | tr '\n' ' ')"
    else
        fail "the viewer on the MJPEG camera failed: $(tail -3 "$work/mjpeg-viewer.err")"
    fi
    stop_producer
else
    status=1
fi

# 2. Colour: solid 1280x720 frames of known R'G'B' through the camera.
if start_producer "$work/mjpeg-colours.mjpeg" "$colour_node" 1280x720; then
    VHIST_MJPEG_CAMERA=$colour_node VHIST_MJPEG_COLOURS=$(cat "$work/mjpeg-colours.txt") "$tests" \
        --gtest_filter='MjpegCamera.DecodesToFullRangeBt601' || status=1
    stop_producer
else
    status=1
fi
exit $status
