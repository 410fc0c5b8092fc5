#!/usr/bin/env bash
# The install end to end (CTest's vhist_install): `cmake --install BUILD --prefix PREFIX`, then
#   - every file the install promises is there;
#   - the desktop entry passes desktop-file-validate;
#   - the man page formats with groff without a warning, with its sections;
#   - from / (no source tree around), the installed `vhist --version`, `vhist analyze` on the
#     installed demo clip, the Python package (import vhist from the install's dist-packages,
#     vhist.analyze through the installed vhist), and the viewer with no INPUT under Xvfb (--frames 5 --screenshot);
#   - the install moved elsewhere with its demo clip swapped for a one-colour clip: the viewer's
#     screenshot shows that colour, so the clip was found beside the executable, not in the
#     source tree or the build's install folder.
# Usage: install_test.sh BUILD_DIR PREFIX
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(realpath "$1")
prefix=$(realpath -m "$2")
fail() { echo "install_test: $*" >&2; exit 1; }

rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" > "$build/install-test.log"

for f in bin/vhist bin/vhist-bench share/applications/vhist.desktop \
         share/icons/hicolor/scalable/apps/vhist.svg share/icons/hicolor/256x256/apps/vhist.png \
         share/man/man1/vhist.1 share/vhist/demo.mp4; do
  [ -s "$prefix/$f" ] || fail "$f was not installed into $prefix"
done
[ -x "$prefix/bin/vhist" ] || fail "bin/vhist is not executable"

icon_size=$(ffprobe -v error -show_entries stream=width,height -of csv=p=0:s=x "$prefix/share/icons/hicolor/256x256/apps/vhist.png")
[ "$icon_size" = 256x256 ] || fail "the PNG icon is $icon_size, not 256x256"
grep -q '<svg ' "$prefix/share/icons/hicolor/scalable/apps/vhist.svg" || fail "the scalable icon is no SVG"

desktop-file-validate "$prefix/share/applications/vhist.desktop" || fail "the desktop entry does not validate"
grep -q '^MimeType=.*video/mp4;.*video/x-matroska;' "$prefix/share/applications/vhist.desktop" ||
  fail "the desktop entry does not register the video types"

man_warnings=$(groff -man -Tutf8 -ww -z "$prefix/share/man/man1/vhist.1" 2>&1)
[ -z "$man_warnings" ] || fail "groff warns about the man page: $man_warnings"
man_text=$(groff -man -Tutf8 -P-c -P-b -P-u "$prefix/share/man/man1/vhist.1" 2>/dev/null)
for section in NAME SYNOPSIS OPTIONS KEYS "ANALYZE OPTIONS" "EXIT STATUS"; do
  grep -q "^$section" <<<"$man_text" || fail "the man page has no $section section"
done
grep -q -- "--frames" <<<"$man_text" || fail "the man page does not list the options"

work=$(mktemp -d)
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
cd /

version=$("$prefix/bin/vhist" --version)
grep -q "vhist" <<<"$version" || fail "vhist --version printed: $version"

"$prefix/bin/vhist" analyze "$prefix/share/vhist/demo.mp4" --frames 2 -o "$work/demo.jsonl"
[ "$(grep -c '"type":"frame"' "$work/demo.jsonl")" -eq 2 ] || fail "analyze wrote $(wc -l < "$work/demo.jsonl") lines, not a header and 2 records"
head -n 1 "$work/demo.jsonl" | grep -q '^{"type":"header","input":"[^"]*demo.mp4"' || fail "analyze's output does not start with its header"
grep -q '"rotation":0,"display_width":1280,"display_height":720' "$work/demo.jsonl" ||
  fail "analyze's record does not give the demo clip's shape: $(head -c 200 "$work/demo.jsonl")"

# The Python package from the install tree alone (issue 29): its dist-packages folder on
# PYTHONPATH, from /, the installed vhist found on PATH (VHIST unset).
init=$(find "$prefix/lib" -path '*/dist-packages/vhist/__init__.py' | head -n 1)
[ -n "$init" ] || fail "the Python package vhist was not installed under $prefix/lib"
pydir=$(dirname "$(dirname "$init")")
py_out=$(env -u VHIST PYTHONPATH="$pydir" PATH="$prefix/bin:/usr/bin:/bin" /usr/bin/python3 -c '
import sys, vhist
assert vhist.__file__.startswith(sys.argv[1]), vhist.__file__
frames = list(vhist.analyze(sys.argv[2], frames=2, bins=64))
print(vhist.find_vhist(), len(frames), frames[1].counts["l"].sum(), frames[1].width)
' "$pydir" "$prefix/share/vhist/demo.mp4" 2>&1) || fail "the installed Python package failed: $py_out"
[ "$py_out" = "$prefix/bin/vhist 2 $((1280 * 720)) 1280" ] || fail "the installed Python package said: $py_out"
env PYTHONPATH="$pydir" /usr/bin/python3 -m vhist.dask_batch --help | grep -q -- "--scheduler" ||
  fail "python3 -m vhist.dask_batch --help does not run from the install"

# The viewer under its own X server, validation on; the run's messages kept for a failure.
# Its own settings folder, so that the user's settings.ini is neither read nor written; the timeline
# strip off (on by default): it would take the bottom of the picture sampled below, and its scan
# would write the user's cache.
view() {  # view VHIST SHOT
  XDG_CONFIG_HOME="$work/config" VHIST_VALIDATION=1 timeout -k 10 200 bash "$here/with_display.sh" -s 1920x1200 \
    timeout -k 10 180 "$1" --frames 5 --size 1280x720 --timeline off --screenshot "$2" > "$work/view.log" 2>&1 ||
    fail "the installed viewer failed: $(cat "$work/view.log")"
  [ -s "$2" ] || fail "the viewer wrote no screenshot: $(cat "$work/view.log")"
  if grep -qi "not found\|validation" "$work/view.log"; then fail "the viewer said: $(cat "$work/view.log")"; fi
}
view "$prefix/bin/vhist" "$work/demo.png"

# Moved elsewhere, with a one-colour clip (R'G'B' about 40, 200, 200) as its demo clip.
moved="$work/moved"
cp -a "$prefix" "$moved"
# (R'G'B' coded, lossless: no matrix between the colour asked for and the one shown.)
ffmpeg -v error -y -f lavfi -i "color=c=0x28c8c8:s=320x180:r=25:d=1" -c:v libx264rgb -qp 0 -pix_fmt rgb24 \
  -f mp4 "$moved/share/vhist/demo.mp4"
view "$moved/bin/vhist" "$work/moved.png"
# Sample the screenshot on a 16x9 grid and count the samples of the clip's colour (+-16): the
# video covers the window, so most are, unless UI or histograms cover them.
ffmpeg -v error -y -i "$work/moved.png" -vf scale=16:9:flags=neighbor -f rawvideo -pix_fmt rgb24 "$work/grid.rgb"
matches=$(od -An -v -tu1 -w3 "$work/grid.rgb" |
  awk 'function near(a, b) { return a >= b - 16 && a <= b + 16 } near($1, 40) && near($2, 200) && near($3, 200) { n++ } END { print n + 0 }')
[ "$matches" -ge 36 ] || fail "the moved install's viewer did not show its own demo clip ($matches of 144 samples)"
echo "install_test: ok ($prefix; $matches of 144 samples show the moved install's clip)"
