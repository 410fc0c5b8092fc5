#!/usr/bin/env bash
# Makes real-looking test footage from photographs that Debian ships (package mate-backgrounds,
# GPL-2+, authors in /usr/share/doc/mate-backgrounds/copyright): a slow pan and zoom across a
# photograph, written in the shapes users bring. Nothing is downloaded. Used for the docs'
# screenshots and for looking at the viewer by hand; the clips are not committed.
#   usage: scripts/make_footage.sh [OUT_DIR] [SECONDS]    (default build/footage, 4 s)
#   garden_1080p.mp4      16:9 1920x1080 H.264 8-bit, BT.709 limited
#   storm_portrait.mp4    a phone clip: 1920x1080 stored, display matrix rotated 90 degrees
#   meadow_anamorphic.mkv SD 720x576 with sample aspect 64:45 (16:9 on screen)
#   garden_10bit.mkv      HEVC Main 10, BT.709 limited
#   garden_pq.mkv         HEVC Main 10, BT.2020 PQ (a bright grade: analyze measures MaxCLL ~1090 cd/m2)
#   garden_hlg.mkv        HEVC Main 10, BT.2020 HLG
set -euo pipefail
out=${1:-build/footage}
secs=${2:-4}
photos=/usr/share/backgrounds/mate/nature
if [ ! -r "$photos/Garden.jpg" ]; then
  echo "make_footage.sh: $photos/Garden.jpg not found: install the package mate-backgrounds" >&2
  exit 2
fi
mkdir -p "$out"
frames=$((secs * 30))
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
# The photographs are R'G'B' (JPEG's Y'CbCr decodes to it); each clip is converted with the matrix
# and range it is tagged with, by the project's one recipe.
. "$(dirname "$0")/ycbcr.sh"
# A pan and zoom across one photograph: 2% zoom a second, drifting right and down.
pan() { # photo size
  echo "scale=-2:2160,zoompan=z='1.05+0.0007*on':x='(iw-iw/zoom)*on/$frames':y='(ih-ih/zoom)*0.4':d=1:s=$2:fps=30,trim=end_frame=$frames"
}
# shellcheck disable=SC2046  # the recipe's tags are several words
ff -loop 1 -i "$photos/Garden.jpg" -vf "$(pan Garden 1920x1080),setsar=1,$(ycbcr_vf bt709)" -frames:v "$frames" \
  -c:v libx264 -preset veryfast -crf 20 $(ycbcr_tags bt709) "$out/garden_1080p.mp4"
# A phone held upright: the sensor stores the picture on its side (1920x1080) and the container's
# display matrix turns it upright (1080x1920 on screen), as phones write it.
# shellcheck disable=SC2046
ff -loop 1 -i "$photos/Storm.jpg" -vf "crop=ih*9/16:ih,$(pan Storm 1080x1920),transpose=1,setsar=1,$(ycbcr_vf bt709)" \
  -frames:v "$frames" -c:v libx264 -preset veryfast -crf 20 $(ycbcr_tags bt709) "$out/storm_landscape.mp4"
ff -i "$out/storm_landscape.mp4" -c copy -metadata:s:v:0 rotate=90 "$out/storm_portrait.mp4"
rm -f "$out/storm_landscape.mp4"
# SD PAL: BT.601's matrix and PAL's primaries.
# shellcheck disable=SC2046
ff -loop 1 -i "$photos/GreenMeadow.jpg" -vf "$(pan GreenMeadow 1024x576),scale=720:576,setsar=64/45,$(ycbcr_vf bt470bg)" \
  -frames:v "$frames" -c:v libx264 -preset veryfast -crf 20 $(ycbcr_tags bt470bg) "$out/meadow_anamorphic.mkv"
# shellcheck disable=SC2046
ff -loop 1 -i "$photos/Garden.jpg" -vf "$(pan Garden 1920x1080),$(ycbcr_vf bt709 yuv420p10le)" -frames:v "$frames" \
  -c:v libx265 -preset ultrafast -x265-params log-level=error $(ycbcr_tags bt709) "$out/garden_10bit.mkv"
# HDR: the photograph's BT.709 light, linearised with zscale's nominal peak at 600 (a bright grade:
# highlights well above SDR's 203 cd/m2 reference white), converted to BT.2020 primaries, encoded PQ or HLG.
hdr() { # zscale-transfer x265-transfer file
  ff -loop 1 -i "$photos/Garden.jpg" \
    -vf "$(pan Garden 1920x1080),format=gbrpf32le,zscale=tin=iec61966-2-1:pin=bt709:rin=full:t=linear:npl=600:p=bt2020,zscale=tin=linear:pin=bt2020:rin=full:t=$1:m=bt2020nc:r=limited:npl=600,format=yuv420p10le" \
    -frames:v "$frames" -c:v libx265 -preset ultrafast \
    -x265-params "log-level=error:colorprim=bt2020:transfer=$2:colormatrix=bt2020nc:range=limited" \
    -colorspace bt2020nc -color_primaries bt2020 -color_trc "$2" -color_range tv "$out/$3"
}
hdr smpte2084 smpte2084 garden_pq.mkv
hdr arib-std-b67 arib-std-b67 garden_hlg.mkv
ls -l "$out"
