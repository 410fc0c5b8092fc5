#!/usr/bin/env bash
# vhist-bench --hwdec (issue 27): the --video table's hardware path.
#
#   tests/hwdec_bench_test.sh fallback BENCH   runs anywhere NVDEC cannot be used (here: lavapipe):
#                                              a bad value exits 2 with the rule; --hwdec auto and
#                                              nvdec say why on stderr, exit 0, and the table is
#                                              --hwdec no's (the same rows, all verified).
#   tests/hwdec_bench_test.sh device BENCH [SIZES]
#                                              on the GPU machine (an NVIDIA GPU with its driver;
#                                              the packed .nvdec/bin/vhist-bench): --hwdec nvdec
#                                              must measure the hardware path (in the --video
#                                              table an nvdec row for each size and depth, in the
#                                              --viewer table one for each size) and every row,
#                                              host and nvdec, must equal the CPU reference (ok
#                                              yes; the bench exits 1 otherwise). Elsewhere it
#                                              exits 77 (skipped).
set -uo pipefail
mode=$1 bench=$2 sizes=${3:-1920x1080,3840x2160}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The table's rows without the timed columns: size, format, path, ok.
rows() { awk '$3 == "host" || $3 == "nvdec" { print $1, $2, $3, $NF }' "$1"; }

case $mode in
fallback)
  "$bench" --video-only --sizes 64x48 --iterations 3 --hwdec vaapi > "$tmp/bad.out" 2> "$tmp/bad.err"
  [[ $? -eq 2 ]] || fail "--hwdec vaapi did not exit 2"
  grep -q -- "--hwdec needs auto, no or nvdec, not 'vaapi'" "$tmp/bad.err" || fail "no rule for --hwdec vaapi: $(cat "$tmp/bad.err")"
  "$bench" --validation --video-only --sizes 64x48 --iterations 3 --hwdec no > "$tmp/no.out" 2> "$tmp/no.err" ||
    fail "--hwdec no: $(cat "$tmp/no.err")"
  [[ $(rows "$tmp/no.out" | wc -l) -eq 2 ]] || fail "--hwdec no: not two host rows: $(cat "$tmp/no.out")"
  for m in auto nvdec; do
    "$bench" --validation --video-only --sizes 64x48 --iterations 3 --hwdec $m > "$tmp/$m.out" 2> "$tmp/$m.err" ||
      fail "--hwdec $m exited $?: $(cat "$tmp/$m.err")"
    if ! grep -q "the host path only" "$tmp/$m.err"; then
      echo "NVDEC is usable here: the fallback is not what runs"; exit 77
    fi
    want="vhist-bench: --hwdec auto: the hardware path is not measured: "
    [[ $m == nvdec ]] && want="vhist-bench: warning: --hwdec nvdec: NVDEC cannot be used ("
    grep -qF -- "$want" "$tmp/$m.err" || fail "--hwdec $m does not say why: $(cat "$tmp/$m.err")"
    diff <(rows "$tmp/no.out") <(rows "$tmp/$m.out") > /dev/null || fail "--hwdec $m's rows differ from --hwdec no's"
  done
  grep -q " NO$" "$tmp/no.out" && fail "a row disagreed with the CPU reference"
  "$bench" --validation --viewer-only --sizes 64x48 --iterations 3 --hwdec nvdec > "$tmp/viewer.out" 2> "$tmp/viewer.err" ||
    fail "--viewer-only --hwdec nvdec exited $?: $(cat "$tmp/viewer.err")"
  grep -q "NVDEC cannot be used" "$tmp/viewer.err" || fail "--viewer-only --hwdec nvdec does not say why"
  grep -q "nvdec:" "$tmp/viewer.out" && fail "an nvdec row though NVDEC cannot be used"
  echo "PASS: fallback"
  ;;
device)
  # First a small probe: whether NVDEC can be used here at all.
  "$bench" --video-only --sizes 64x48 --iterations 1 --hwdec nvdec > "$tmp/probe.out" 2> "$tmp/probe.err"
  if grep -q "NVDEC cannot be used" "$tmp/probe.err"; then
    cat "$tmp/probe.err" >&2
    grep -q "not an NVIDIA GPU\|no NVIDIA CUDA driver" "$tmp/probe.err" && { echo "no NVIDIA device here: skipped"; exit 77; }
    fail "NVDEC could not be used on this NVIDIA machine"
  fi
  "$bench" --video-only --sizes "$sizes" --hwdec nvdec > "$tmp/nvdec.out" 2> "$tmp/nvdec.err"
  status=$?
  cat "$tmp/nvdec.out"
  cat "$tmp/nvdec.err" >&2
  [[ $status -eq 0 ]] || fail "vhist-bench exited $status (a row disagreed with the CPU reference, or validation)"
  n_sizes=$(tr ',' '\n' <<< "$sizes" | wc -l)
  [[ $(rows "$tmp/nvdec.out" | awk '$3 == "nvdec"' | wc -l) -eq $((2 * n_sizes)) ]] || fail "not one nvdec row per size and depth"
  rows "$tmp/nvdec.out" | awk '$4 != "yes" { bad = 1 } END { exit bad }' || fail "a row is not verified (ok != yes)"
  "$bench" --viewer-only --sizes "$sizes" --hwdec nvdec > "$tmp/viewer.out" 2> "$tmp/viewer.err"
  status=$?
  cat "$tmp/viewer.out"
  cat "$tmp/viewer.err" >&2
  [[ $status -eq 0 ]] || fail "vhist-bench --viewer-only exited $status"
  [[ $(grep -c "nvdec: video + hist .* ok yes$" "$tmp/viewer.out") -eq $n_sizes ]] ||
    fail "the viewer table has not one verified nvdec row per size"
  echo "PASS: device (nvdec rows verified against the CPU reference)"
  ;;
*) fail "mode: fallback or device" ;;
esac
