# The project's one recipe for turning R'G'B' pictures (FFmpeg's test sources, photographs,
# PNGs) into Y'CbCr clips tagged with the matrix and range they were made with. Sourced by
# assets/make_demo.sh, scripts/make_footage.sh, the benchmark scripts and the tests (through
# tests/test_clips.h), and checked by Clips.TheRecipeDecodesBackToItsPatches (tests/test_recipe.cpp).
#
# Why: FFmpeg's scaler converts R'G'B' to Y'CbCr with BT.601's matrix unless told otherwise, so
# `format=yuv420p` before a BT.709 tag gives a clip whose colours are wrong when decoded as tagged
# (the demo failed EBU R 103's gamut check on 64 % of its picture that way). The recipe first makes
# the picture planar R'G'B' (so a source that could draw Y'CbCr itself, or a JPEG's own Y'CbCr,
# goes through R'G'B' too), then converts it with the matrix and range of the tag.
#
# The recipe goes in the same filter graph as the source: after `-f lavfi -i SOURCE,` or in the
# -vf or -filter_complex of a file input. (A separate -vf after a lavfi input is a second graph:
# the source there may draw Y'CbCr of its own choosing, untagged, which the second graph would
# then read as BT.601.)
#
#   ycbcr_vf MATRIX [PIX_FMT [RANGE]]   the filters to end a -vf or -filter_complex chain with
#   ycbcr_tags MATRIX [RANGE]           the encoder options that tag the clip to match
# MATRIX is a tag as ffmpeg's -colorspace names it: bt709, smpte170m or bt470bg (BT.601's matrix;
# NTSC or PAL primaries), bt2020nc, smpte240m (SMPTE 240M, old HD). PIX_FMT: a Y'CbCr format (default yuv420p). RANGE: tv
# (limited, the default) or pc (full).

# ycbcr_matrix MATRIX: zscale's name for the tag's matrix.
ycbcr_matrix() {
  case $1 in
    bt709) echo 709 ;;
    smpte170m) echo 170m ;;
    bt470bg) echo 470bg ;;
    bt2020nc) echo 2020_ncl ;;
    *) echo "ycbcr.sh: unknown matrix '$1' (bt709, smpte170m, bt470bg, bt2020nc or smpte240m)" >&2; return 2 ;;
  esac
}

# zscale (libzimg), not swscale: measured on saturated patches through 4:2:0 and back
# (Clips.TheRecipeDecodesBackToItsPatches), swscale's R'G'B'-to-Y'CbCr is up to 5 codes off at
# 10 bits and 1.7 at 8; zscale's are the rounding of the Y'CbCr codes themselves.
ycbcr_vf() {
  local matrix fmt=${2:-yuv420p} range=limited
  # zimg has no SMPTE 240M matrix: swscale's, for that old HD tag alone.
  [ "$1" = smpte240m ] && { echo "format=gbrp,scale=out_color_matrix=smpte240m:out_range=${3:-tv},format=$fmt"; return; }
  matrix=$(ycbcr_matrix "$1") || return 2
  [ "${3:-tv}" = pc ] && range=full
  # Planar 8-bit R'G'B', which every filter takes, whatever the output's depth: the sources are
  # 8-bit, and swscale's step to gbrp16le shifts (255 becomes 65280), 2 codes off at 10 bits.
  echo "format=gbrp,zscale=m=$matrix:r=$range,format=$fmt"
}

ycbcr_tags() {
  local range=${2:-tv} primaries trc
  [ "$1" = smpte240m ] || ycbcr_matrix "$1" > /dev/null || return 2
  case $1 in
    bt709) primaries=bt709 trc=bt709 ;;
    smpte170m) primaries=smpte170m trc=smpte170m ;;
    bt470bg) primaries=bt470bg trc=smpte170m ;;
    bt2020nc) primaries=bt2020 trc=bt2020-10 ;;
    smpte240m) primaries=smpte240m trc=smpte240m ;;
  esac
  echo "-colorspace $1 -color_primaries $primaries -color_trc $trc -color_range $range"
}
