#!/bin/bash
# vhist issue 27, session 6, call 4: does a deeper queue (6 frames in flight instead of 3) let
# seven NVDEC streams run closer to ffmpeg's? (The decoder's CUDA stream carries vhist's copy,
# which waits for the slot's previous frame to be released by the Vulkan side.)
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  name=hevc10_2160p
  mkdir -p $C/b7_$name; ln -f $C/$name.mkv $C/b7_$name/ 2>/dev/null || cp $C/$name.mkv $C/b7_$name/
  for i in 1 2 3 4 5 6 7; do cp $C/${name}_long.txt $C/b7_$name/s$i.txt; done
  for r in 1 2 3; do
    t0=$(now); for i in 1 2 3 4 5 6 7; do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7_$name/s$i.txt -f null - & done; wait
    echo "run $r: ffmpeg x7 wall $(sec $t0 $(now)) s"
    for v in vhist vhist-s6; do
      t0=$(now); for i in 1 2 3 4 5 6 7; do $B/$v analyze $C/b7_$name/s$i.txt --hwdec nvdec -v -o /dev/null 2> /tmp/w/$v-$i.err & done; wait
      echo "run $r: $v analyze x7 wall $(sec $t0 $(now)) s; own: $(grep -ho 'frames in [0-9.]* s' /tmp/w/$v-*.err | awk '{print $3}' | tr '\n' ' ')"
    done
  done
  for v in vhist vhist-s6; do echo -n "$v x1: "; $B/$v analyze $C/hevc10_2160p.txt --hwdec nvdec -v -o /dev/null 2>&1 | grep "GPU time" | sed 's/.*frames in/frames in/'; done
} > $O/s6-4.txt 2>&1
cat $O/s6-4.txt
