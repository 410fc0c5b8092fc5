#!/bin/bash
# vhist issue 27, session 7, call 2: how batch --workers threads scales with --jobs over seven
# 4K HEVC 10-bit inputs (3600 frames each) on NVDEC, and fourteen inputs at once against ffmpeg x14.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
  name=hevc10_2160p
  mkdir -p $C/b7 $C/b14
  ln -f $C/$name.mkv $C/b7/; ln -f $C/$name.mkv $C/b14/
  for i in 1 2 3 4 5 6 7; do cp $C/${name}_long.txt $C/b7/s$i.txt; done
  for i in $(seq 1 14); do cp $C/${name}_long.txt $C/b14/s$i.txt; done
  t0=$(now); $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7/s1.txt -f null -; echo "ffmpeg x1 (3600 frames) wall $(sec $t0 $(now)) s"
  for j in 1 2 4 7; do
    t0=$(now); $B/vhist batch $C/b7 --ext txt --out /tmp/w/j$j --jobs $j --workers threads --hwdec nvdec --fail none --force -q; rc=$?
    echo "7 inputs, --jobs $j --workers threads: wall $(sec $t0 $(now)) s rc=$rc"
  done
  for r in 1 2; do
    t0=$(now); for i in $(seq 1 14); do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b14/s$i.txt -f null - & done; wait
    echo "run $r: ffmpeg x14 wall $(sec $t0 $(now)) s"
    t0=$(now); $B/vhist batch $C/b14 --ext txt --out /tmp/w/t14 --jobs 14 --workers threads --hwdec nvdec --fail none --force -q; rc=$?
    echo "run $r: vhist batch --jobs 14 --workers threads wall $(sec $t0 $(now)) s rc=$rc"
  done
} > $O/s7-2.txt 2>&1
cat $O/s7-2.txt
