#!/usr/bin/env bash
# The viewer's draw rate with the timeline strip off and on, on lavapipe under Xvfb (issue 28):
#   timeline_fps.sh OUT_DIR CLIP ROUNDS LABEL=VHIST...
# For each round, each size (640x360, 1280x720), each binary and off/on in turns:
#   vhist CLIP --size WxH --quit-after 10 --timeline off|on
# with validation on, the panel shown, looping, and the timeline's cache made beforehand (no scan
# running). Prints one line per run: label, size, timeline, vhist's summary line.
set -u
out=$1 clip=$2 rounds=$3
shift 3
mkdir -p "$out/config/vhist" "$out/cache"
printf 'show_panel = true\nloop = true\n' > "$out/config/vhist/settings.ini"
export XDG_CONFIG_HOME="$out/config" XDG_CACHE_HOME="$out/cache" VHIST_VALIDATION=1
first=${1#*=}
# The cache: one run with the strip on, long enough for the scan of the clip.
if ! ls "$out/cache"/vhist/timelines/* > /dev/null 2>&1; then
  xvfb-run -a -s "-screen 0 1600x1000x24" "$first" "$clip" --size 640x360 --quit-after 40 --timeline on > /dev/null 2>&1
fi
ls "$out/cache"/vhist/timelines/* > /dev/null 2>&1 || { echo "timeline_fps.sh: no timeline cache made" >&2; exit 1; }
for ((r = 1; r <= rounds; ++r)); do
  for size in 640x360 1280x720; do
    for spec in "$@"; do
      for t in off on; do
        line=$(xvfb-run -a -s "-screen 0 1600x1000x24" "${spec#*=}" "$clip" --size "$size" --quit-after 10 --timeline "$t" 2>&1 |
               grep -E "frames rendered|validation" | tr '\n' ' ')
        echo "${spec%%=*} $size timeline=$t $line"
      done
    done
  done
done
