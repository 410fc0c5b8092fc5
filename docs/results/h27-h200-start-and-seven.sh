#!/bin/bash
# vhist issue 27, session 6, call 2: the start with CUDA beside Vulkan (vhist-prev: before), one
# process and seven at once; then seven 4K streams (3600 frames each): ffmpeg NVDEC decode-only
# x7 against vhist batch --jobs 7 and seven vhist analyze, in turns.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
  echo "== start (320x240 12-frame H.264), one process x3, then seven at once x2"
  run() { local t0=$(now); "$@" > /dev/null 2>&1; echo -n "$(sec $t0 $(now)) "; }
  for k in ffmpeg vhist-prev vhist; do
    if [[ $k == ffmpeg ]]; then cmd="$B/ffmpeg -hide_banner -nostdin -loglevel error -hwaccel cuda -hwaccel_output_format cuda -i $C/h264.mp4 -f null -"
    else cmd="$B/$k analyze $C/h264.mp4 --hwdec nvdec -q -o /dev/null"; fi
    echo -n "$k x1: "; for r in 1 2 3; do run $cmd; done; echo
    echo -n "$k x7: "; for r in 1 2; do t0=$(now); for i in 1 2 3 4 5 6 7; do $cmd > /dev/null 2>&1 & done; wait; echo -n "$(sec $t0 $(now)) "; done; echo
  done
  $B/vhist analyze $C/h264.mp4 --hwdec nvdec -v -o /dev/null 2>&1 | tail -1
  for name in hevc10_2160p h264_2160p; do
    src=$(ls $C/$name.* | grep -v txt | head -1)
    mkdir -p $C/b7_$name
    ln -f $src $C/b7_$name/ 2>/dev/null || cp $src $C/b7_$name/
    for i in 1 2 3 4 5 6 7; do cp $C/${name}_long.txt $C/b7_$name/s$i.txt; done
    for r in 1 2; do
      t0=$(now); for i in 1 2 3 4 5 6 7; do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7_$name/s$i.txt -f null - & done; wait; t1=$(now)
      echo "$name run $r: ffmpeg x7 wall $(sec $t0 $t1) s"
      t0=$(now); $B/vhist batch $C/b7_$name --ext txt --out /tmp/w/o7_$name --jobs 7 --hwdec nvdec --fail none --force -q; echo -n "rc=$? "; t1=$(now)
      echo "$name run $r: vhist batch --jobs 7 wall $(sec $t0 $t1) s"
      t0=$(now); for i in 1 2 3 4 5 6 7; do $B/vhist analyze $C/b7_$name/s$i.txt --hwdec nvdec -v -o /dev/null 2> /tmp/w/a$i.err & done; wait; t1=$(now)
      echo "$name run $r: vhist analyze x7 wall $(sec $t0 $t1) s"; grep -h "GPU time" /tmp/w/a*.err | sed 's/.*frames in/frames in/' | head -7
    done
    cut -d, -f3,4,50- /tmp/w/o7_$name/summary.csv | head -3
  done
} > $O/s6-2.txt 2>&1
cat $O/s6-2.txt
