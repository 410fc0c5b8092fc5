#!/bin/bash
# vhist issue 27, session 6, call 3: the merged code (viewer/bench --hwdec, AV1 on the CPU through
# a static libdav1d, the reworked passes): exactness and fallback scripts, vhist-bench's hardware
# rows (video and viewer tables), and one stream against ffmpeg's NVDEC decode.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; $B/vhist --version
  echo "== tests/hwdec_test.sh exact"; bash .nvdec/hwdec_test.sh exact $B/vhist $C; echo "rc=$?"
  echo "== tests/hwdec_test.sh fallback"; bash .nvdec/hwdec_test.sh fallback $B/vhist $C; echo "rc=$?"
  for m in no auto nvdec; do echo "== av1 --hwdec $m"; $B/vhist analyze $C/av1.mkv --hwdec $m -v -o /tmp/w/av1-$m.jsonl 2>&1 | grep -v "^vhist analyze: colour"; echo "rc=$?"; done
  echo "== tests/hwdec_bench_test.sh device 1920x1080,3840x2160"; bash .nvdec/hwdec_bench_test.sh device $B/vhist-bench 1920x1080,3840x2160; echo "rc=$?"
  echo "== vhist-bench --video-only --hwdec nvdec --sizes 7680x4320"; $B/vhist-bench --video-only --hwdec nvdec --sizes 7680x4320; echo "rc=$?"
  echo "== one stream, in turns: ffmpeg -hwaccel cuda decode only, vhist analyze --hwdec nvdec"
  for clip in hevc10_2160p.txt h264_2160p.txt hevc10_4320p.txt; do
    for r in 1 2; do
      t0=$(now); $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/$clip -f null -; t1=$(now)
      echo "$clip ffmpeg wall $(sec $t0 $t1) s"
      t0=$(now); $B/vhist analyze $C/$clip --hwdec nvdec -v -o /dev/null 2>&1 | grep "GPU time" | sed 's/.*frames in/frames in/'; t1=$(now)
      echo "$clip vhist wall $(sec $t0 $t1) s"
    done
  done
} > $O/s6-3.txt 2>&1
cat $O/s6-3.txt
