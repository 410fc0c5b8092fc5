#!/usr/bin/env bash
# The timeline strip's cost per drawn frame on lavapipe under Xvfb, robust to a loaded machine:
# the viewer paused on one frame (no decoding) renders N frames (--frames N: no idle waits), and
# the process's CPU time (user + system, all threads: lavapipe draws on the CPU) and wall time of
# a run of SHORT frames are taken from those of a run of LONG frames, leaving start-up out:
#   timeline_draw_cost.sh OUT_DIR CLIP ROUNDS SHORT LONG SIZE LABEL=VHIST...
#   vhist CLIP --size SIZE --paused-at 2 --frames N --timeline off|on
# Validation on, the panel shown, the timeline's cache made beforehand (no scan running).
# Prints per run: label, size, timeline, frames, wall s, CPU s; then the differences per frame.
set -u
out=$1 clip=$2 rounds=$3 short=$4 long=$5 size=$6
shift 6
mkdir -p "$out/config/vhist" "$out/cache"
printf 'show_panel = true\n' > "$out/config/vhist/settings.ini"
export XDG_CONFIG_HOME="$out/config" XDG_CACHE_HOME="$out/cache" VHIST_VALIDATION=1
first=${1#*=}
if ! ls "$out/cache"/vhist/timelines/* > /dev/null 2>&1; then
  xvfb-run -a -s "-screen 0 1920x1200x24" "$first" "$clip" --size 640x360 --quit-after 40 --timeline on > /dev/null 2>&1
fi
ls "$out/cache"/vhist/timelines/* > /dev/null 2>&1 || { echo "timeline_draw_cost.sh: no timeline cache made" >&2; exit 1; }
run() {  # run VHIST TIMELINE FRAMES -> "wall cpu"
  xvfb-run -a -s "-screen 0 1920x1200x24" /usr/bin/time -f "TIME %e %U %S" "$1" "$clip" --size "$size" --paused-at 2 \
    --frames "$3" --timeline "$2" 2>&1 | awk '/validation/ { print "VALIDATION" > "/dev/stderr" } /^TIME/ { printf "%s %.2f\n", $2, $3 + $4 }'
}
for ((r = 1; r <= rounds; ++r)); do
  for spec in "$@"; do
    for t in off on; do
      read -r w1 c1 < <(run "${spec#*=}" "$t" "$short")
      read -r w2 c2 < <(run "${spec#*=}" "$t" "$long")
      awk -v l="${spec%%=*}" -v s="$size" -v t="$t" -v n=$((long - short)) -v w1="$w1" -v c1="$c1" -v w2="$w2" -v c2="$c2" \
        'BEGIN { printf "%s %s timeline=%s  wall %.2f/%.2f s cpu %.2f/%.2f s  per frame: wall %.2f ms cpu %.2f ms (%.1f fps)\n",
                 l, s, t, w1, w2, c1, c2, (w2 - w1) * 1000 / n, (c2 - c1) * 1000 / n, n / (w2 - w1) }'
    done
  done
done
