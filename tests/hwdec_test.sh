#!/usr/bin/env bash
# --hwdec end to end through `vhist analyze` (issue 27).
#
#   tests/hwdec_test.sh fallback VHIST   runs anywhere: bad values exit 2 with the rule; where NVDEC
#                                        cannot be used, --hwdec auto and nvdec say why and decode on
#                                        the CPU with records equal to --hwdec no's.
#   tests/hwdec_test.sh exact VHIST [CLIPDIR]
#                                        on an NVIDIA GPU: H.264, HEVC 8-bit, HEVC 10-bit and VP9 clips
#                                        analyzed with --hwdec nvdec (which must really decode on
#                                        NVDEC: the header's decoder says "(nvdec)") and --hwdec no:
#                                        the records must be identical frame for frame. Elsewhere it
#                                        exits 77 (CTest: skipped) saying there is no NVIDIA device.
# CLIPDIR holds h264.mp4, hevc8.mkv, hevc10.mkv, vp9.webm, and where present av1.mkv (both modes),
# hevc12.mkv, hevc444.mkv, hevc444_10.mkv (exact) (the GPU machine has no ffmpeg to make them);
# without it they are made here with ffmpeg. AV1 decodes on the CPU through libdav1d, which the
# static FFmpeg of scripts/build_ffmpeg_static.sh links; --hwdec nvdec decodes it on NVDEC where the
# GPU's NVDEC takes it, else on the CPU, saying why.
set -uo pipefail
mode=$1 vhist=$2 clips=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

make_clips() {
  clips=$tmp/clips
  mkdir -p "$clips"
  local src="-f lavfi -i testsrc2=size=320x240:rate=25,noise=alls=8:allf=t -frames:v 12"
  ffmpeg -nostdin -hide_banner -loglevel error $src -c:v libx264 -pix_fmt yuv420p "$clips/h264.mp4" || fail "ffmpeg h264"
  ffmpeg -nostdin -hide_banner -loglevel error $src -c:v libx265 -pix_fmt yuv420p -x265-params log-level=error \
    "$clips/hevc8.mkv" || fail "ffmpeg hevc8"
  ffmpeg -nostdin -hide_banner -loglevel error $src -c:v libx265 -pix_fmt yuv420p10le -x265-params log-level=error \
    "$clips/hevc10.mkv" || fail "ffmpeg hevc10"
  ffmpeg -nostdin -hide_banner -loglevel error $src -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -pix_fmt yuv420p \
    "$clips/vp9.webm" || fail "ffmpeg vp9"
  # A codec NVDEC may refuse, whose FFmpeg 5.1 decoder of its own needs a hwaccel (AV1).
  SVT_LOG=1 ffmpeg -nostdin -hide_banner -loglevel error $src -c:v libsvtav1 -pix_fmt yuv420p "$clips/av1.mkv" || fail "ffmpeg av1"
  [[ $mode == exact ]] || return 0
  # The other layouts NVDEC hands over (P016, YUV444P, YUV444P16).
  local x265="-c:v libx265 -x265-params log-level=error"
  ffmpeg -nostdin -hide_banner -loglevel error $src $x265 -pix_fmt yuv420p12le "$clips/hevc12.mkv" || fail "ffmpeg hevc12"
  ffmpeg -nostdin -hide_banner -loglevel error $src $x265 -pix_fmt yuv444p "$clips/hevc444.mkv" || fail "ffmpeg hevc444"
  ffmpeg -nostdin -hide_banner -loglevel error $src $x265 -pix_fmt yuv444p10le "$clips/hevc444_10.mkv" || fail "ffmpeg hevc444_10"
}
[[ -n "$clips" ]] || make_clips

# Runs analyze on clip $1 with --hwdec $2 into $tmp/$3.jsonl (stderr in $tmp/$3.err); returns its status.
analyze() {
  "$vhist" analyze "$1" --hwdec "$2" --format jsonl -o "$tmp/$3.jsonl" 2> "$tmp/$3.err"
}
# The records without the header's decoder and pixel_format fields: the two things the path
# changes (NVDEC hands over NV12 / P010 where FFmpeg's CPU decoders give yuv420p / yuv420p10le,
# the same samples in another layout). Every frame record and the summary must be identical.
records() { sed -E '1s/"decoder":"[^"]*",?//; 1s/"pixel_format":"[^"]*",?//' "$tmp/$1.jsonl"; }
decoder() { grep -o '"decoder":"[^"]*"' "$tmp/$1.jsonl" | head -n 1; }

if [[ $mode == fallback ]]; then
  "$vhist" analyze "$clips/h264.mp4" --hwdec vaapi -o "$tmp/x.jsonl" 2> "$tmp/bad.err"
  st=$?
  [[ $st == 2 ]] || fail "--hwdec vaapi exited $st, not 2"
  grep -q -- "--hwdec needs auto, no or nvdec, not 'vaapi'" "$tmp/bad.err" || fail "bad value message: $(cat "$tmp/bad.err")"
  [[ ! -e "$tmp/x.jsonl" ]] || fail "a bad value wrote an output"
  analyze "$clips/h264.mp4" no no || fail "--hwdec no: $(cat "$tmp/no.err")"
  analyze "$clips/h264.mp4" auto auto || fail "--hwdec auto: $(cat "$tmp/auto.err")"
  analyze "$clips/h264.mp4" nvdec nvdec || fail "--hwdec nvdec: $(cat "$tmp/nvdec.err")"
  # (--hwdec nvdec's header, not auto's: on many cores auto leaves H.264 to the CPU by choice)
  if grep -q '(nvdec)' "$tmp/nvdec.jsonl"; then
    echo "NVDEC is usable here: the fallback is tested where it is not (lavapipe)"
  else
    grep -q -- "--hwdec auto: decoding on the CPU: " "$tmp/auto.err" || fail "auto gave no reason: $(cat "$tmp/auto.err")"
    grep -q -- "warning: --hwdec nvdec: NVDEC cannot be used (" "$tmp/nvdec.err" || fail "nvdec gave no warning: $(cat "$tmp/nvdec.err")"
    [[ $(decoder auto) == '"decoder":"h264"' ]] || fail "auto's header says $(decoder auto)"
    cat "$tmp/auto.err"
  fi
  [[ -s "$tmp/no.jsonl" ]] || fail "no records"
  cmp -s "$tmp/no.jsonl" "$tmp/auto.jsonl" || [[ "$(records no)" == "$(records auto)" ]] || fail "auto's records differ from no's"
  [[ "$(records no)" == "$(records nvdec)" ]] || fail "nvdec's records differ from no's"
  # (a machine without the validation layer says so once per run; nothing else may be said)
  ! grep -v "validation requested but" "$tmp/no.err" | grep -q . || fail "--hwdec no said something: $(cat "$tmp/no.err")"
  # AV1 (where the clip is): the CPU path takes a decoder that decodes on the CPU (libdav1d), not
  # FFmpeg's own av1 (hwaccel only); auto decodes it too, with records equal to no's.
  if [[ -f "$clips/av1.mkv" ]]; then
    analyze "$clips/av1.mkv" no av1.no || fail "av1 --hwdec no: $(cat "$tmp/av1.no.err")"
    analyze "$clips/av1.mkv" auto av1.auto || fail "av1 --hwdec auto: $(cat "$tmp/av1.auto.err")"
    [[ $(decoder av1.no) != '"decoder":"av1"' ]] || fail "av1: --hwdec no used FFmpeg's hwaccel-only av1 decoder"
    [[ $(grep -c '"frame"' "$tmp/av1.no.jsonl") == 12 ]] || fail "av1: not 12 records"
    grep -q '(nvdec)' "$tmp/av1.auto.jsonl" || grep -q -- "--hwdec auto: decoding on the CPU: ." "$tmp/av1.auto.err" ||
      fail "av1: auto decoded on the CPU without saying why: $(cat "$tmp/av1.auto.err")"
    [[ "$(records av1.no)" == "$(records av1.auto)" ]] || fail "av1: auto's records differ from no's"
    echo "av1.mkv: $(decoder av1.no); auto: $(decoder av1.auto) $(grep -v 'validation requested' "$tmp/av1.auto.err")"
  fi
  echo "PASS: fallback"
  exit 0
fi

# exact
analyze "$clips/h264.mp4" nvdec probe
if grep -qE "is not an NVIDIA GPU|no NVIDIA CUDA driver" "$tmp/probe.err"; then
  echo "SKIP: no NVIDIA device: $(cat "$tmp/probe.err")"
  exit 77
fi
for clip in h264.mp4 hevc8.mkv hevc10.mkv vp9.webm; do
  name=${clip%.*}
  analyze "$clips/$clip" nvdec "$name.hw" || fail "$clip --hwdec nvdec: $(cat "$tmp/$name.hw.err")"
  analyze "$clips/$clip" no "$name.sw" || fail "$clip --hwdec no: $(cat "$tmp/$name.sw.err")"
  [[ $(decoder "$name.hw") == *'(nvdec)"' ]] || fail "$clip was not decoded on NVDEC: $(decoder "$name.hw"); $(cat "$tmp/$name.hw.err")"
  n=$(grep -c '"frame"' "$tmp/$name.sw.jsonl")
  [[ $n -gt 0 ]] || fail "$clip: no records"
  [[ "$(records "$name.hw")" == "$(records "$name.sw")" ]] || {
    diff <(records "$name.hw") <(records "$name.sw") | head -n 5 >&2
    fail "$clip: NVDEC's records differ from the CPU's"
  }
  echo "$clip: $n frames identical ($(decoder "$name.hw") vs $(decoder "$name.sw"))"
done
# Where present: the other layouts and AV1, on whichever path NVDEC allows, records equal. AV1:
# this FFmpeg's CPU decoder is libdav1d (FFmpeg 5.1's own av1 decodes only through a hwaccel), so
# it decodes with either --hwdec; with nvdec either on NVDEC or on the CPU with the reason said.
for clip in hevc12.mkv hevc444.mkv hevc444_10.mkv av1.mkv; do
  [[ -f "$clips/$clip" ]] || continue
  name=${clip%.*}
  analyze "$clips/$clip" no "$name.sw" || fail "$clip --hwdec no: $(cat "$tmp/$name.sw.err")"
  analyze "$clips/$clip" nvdec "$name.hw" || fail "$clip --hwdec nvdec: $(cat "$tmp/$name.hw.err")"
  [[ $(decoder "$name.sw") != '"decoder":"av1"' ]] || fail "$clip: --hwdec no used FFmpeg's hwaccel-only av1 decoder"
  if [[ $(decoder "$name.hw") != *'(nvdec)"' ]]; then
    grep -q -- "warning: --hwdec nvdec: NVDEC cannot be used (.\+); decoding on the CPU" "$tmp/$name.hw.err" ||
      grep -q -- "--hwdec: .* is decoded on the CPU: ." "$tmp/$name.hw.err" ||
      fail "$clip: decoded on the CPU with --hwdec nvdec without saying why: $(cat "$tmp/$name.hw.err")"
  fi
  n=$(grep -c '"frame"' "$tmp/$name.sw.jsonl")
  [[ $n -gt 0 ]] || fail "$clip: no records"
  [[ "$(records "$name.hw")" == "$(records "$name.sw")" ]] || {
    diff <(records "$name.hw") <(records "$name.sw") | head -n 5 >&2
    fail "$clip: the records with --hwdec nvdec differ"
  }
  echo "$clip: $n frames identical ($(decoder "$name.hw") vs $(decoder "$name.sw"), \
$(grep -o '"pixel_format":"[^"]*"' "$tmp/$name.hw.jsonl" | head -n 1)) $(grep -v 'validation requested' "$tmp/$name.hw.err")"
done
echo "PASS: exact"
