#!/bin/bash
# vhist issue 27, session 7, call 3: after the NVIDIA driver's two loaders became one (app/nvidia):
# NVDEC's exactness for every codec, the benchmark's nvdec rows, one analyze with its stages,
# and seven HEVC 10-bit streams on threads once more.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
  echo "== tests/hwdec_test.sh exact"; bash .nvdec/hwdec_test.sh exact $B/vhist $C; echo "rc=$?"
  echo "== tests/hwdec_bench_test.sh device"; bash .nvdec/hwdec_bench_test.sh device $B/vhist-bench 3840x2160; echo "rc=$?"
  echo "== analyze -v, 4K HEVC 10-bit and H.264, NVDEC"
  for n in hevc10_2160p h264_2160p; do $B/vhist analyze $C/$n.txt --hwdec nvdec -v -o /dev/null 2>&1 | grep -E "decoder|GPU time" | sed 's/^vhist analyze: //'; done
  name=hevc10_2160p
  mkdir -p $C/b7; ln -f $C/$name.mkv $C/b7/
  for i in 1 2 3 4 5 6 7; do cp $C/${name}_long.txt $C/b7/s$i.txt; done
  for r in 1 2; do
    t0=$(now); for i in 1 2 3 4 5 6 7; do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7/s$i.txt -f null - & done; wait
    echo "run $r: ffmpeg x7 wall $(sec $t0 $(now)) s"
    t0=$(now); $B/vhist batch $C/b7 --ext txt --out /tmp/w/t7 --jobs 7 --workers threads --hwdec nvdec --fail none --force -q; rc=$?
    echo "run $r: vhist batch --jobs 7 --workers threads wall $(sec $t0 $(now)) s rc=$rc"
  done
} > $O/s7-3.txt 2>&1
cat $O/s7-3.txt
