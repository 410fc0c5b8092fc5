#!/bin/bash
# vhist issue 27, session 6, call 1: (1) per-frame GPU stages of the hardware path, the previous
# binary against this one, in turns; (2) GPU engine == CPU engine records with the new plane and
# convert passes; (3) where seven processes' start goes.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
  echo "== 1. GPU stages, --hwdec nvdec, prev / new in turns"
  for clip in hevc10_2160p.txt h264_2160p.txt hevc10_4320p.txt; do
    for r in 1 2 3; do for v in vhist-prev vhist; do
      echo -n "$clip $v: "; $B/$v analyze $C/$clip --hwdec nvdec -v -o /dev/null 2>&1 | grep "GPU time" | sed 's/.*frames in/frames in/'
    done; done
  done
  for v in vhist-prev vhist; do echo -n "hevc10_2160p --hwdec no $v: "; $B/$v analyze $C/hevc10_2160p.txt --hwdec no -v -o /dev/null 2>&1 | grep "GPU time" | sed 's/.*frames in/frames in/'; done
  echo "== 2. records: gpu engine (nvdec and cpu decode) == cpu engine"
  for clip in h264.mp4 hevc8.mkv hevc10.mkv hevc12.mkv hevc444.mkv hevc444_10.mkv vp9.webm garden_hlg.mkv qc_pq.mkv hevc10_2160p.mkv h264_2160p.mp4 hevc10_4320p.mkv; do
    k=0
    for args in "--engine cpu --hwdec no" "--engine gpu --hwdec no" "--engine gpu --hwdec nvdec"; do
      k=$((k+1))
      VHIST_VALIDATION=1 $B/vhist analyze $C/$clip $args -q -o /tmp/w/$clip.$k.jsonl; echo "$clip $args rc=$?"
      grep -v '"type":"header"' /tmp/w/$clip.$k.jsonl > /tmp/w/$clip.$k.body
    done
    cmp /tmp/w/$clip.1.body /tmp/w/$clip.2.body && echo "$clip: gpu records == cpu records"
    cmp /tmp/w/$clip.1.body /tmp/w/$clip.3.body && echo "$clip: gpu+nvdec records == cpu records"
  done
  echo "== 3. start: one process, then seven at once (320x240 12-frame H.264)"
  run() { local t0=$(now); "$@" > /dev/null 2>&1; echo -n "$(sec $t0 $(now)) "; }
  declare -A cmds=(
    [version]="$B/vhist --version"
    [ffmpeg_cuda]="$B/ffmpeg -hide_banner -nostdin -loglevel error -hwaccel cuda -hwaccel_output_format cuda -i $C/h264.mp4 -f null -"
    [ffmpeg_cpu]="$B/ffmpeg -hide_banner -nostdin -loglevel error -i $C/h264.mp4 -f null -"
    [an_none_no]="$B/vhist analyze $C/h264.mp4 --engine none --hwdec no -q -o /dev/null"
    [an_gpu_no]="$B/vhist analyze $C/h264.mp4 --engine gpu --hwdec no -q -o /dev/null"
    [an_none_nv]="$B/vhist analyze $C/h264.mp4 --engine none --hwdec nvdec -q -o /dev/null"
    [an_gpu_nv]="$B/vhist analyze $C/h264.mp4 --engine gpu --hwdec nvdec -q -o /dev/null"
  )
  for k in version ffmpeg_cpu ffmpeg_cuda an_none_no an_gpu_no an_none_nv an_gpu_nv; do
    echo -n "$k x1: "; for r in 1 2 3; do run ${cmds[$k]}; done; echo
    echo -n "$k x7 at once: "
    for r in 1 2; do t0=$(now); for i in 1 2 3 4 5 6 7; do ${cmds[$k]} > /dev/null 2>&1 & done; wait; echo -n "$(sec $t0 $(now)) "; done; echo
  done
  echo "== 4. vhist -v on the tiny clip (what it says of its start)"
  $B/vhist analyze $C/h264.mp4 --engine gpu --hwdec nvdec -v -o /dev/null 2>&1 | tail -5
} > $O/s6-1.txt 2>&1
cat $O/s6-1.txt
