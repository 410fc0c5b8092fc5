#!/bin/bash
# vhist qc against vhist analyze (the hardware path), both with NVDEC, whole processes in turns.
B=.nvdec/bin C=.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O"; chmod +x $B/*
now() { date +%s.%N; }
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  for clip in h264_2160p_long.txt hevc10_2160p_long.txt; do
    echo "== $clip: wall s of analyze --hwdec nvdec, then qc --hwdec nvdec"
    for i in 1 2 3 4 5; do
      t0=$(now); $B/vhist analyze $C/$clip --hwdec nvdec -q -o /dev/null; t1=$(now)
      $B/vhist qc $C/$clip --hwdec nvdec -q -o /dev/null --fail none; t2=$(now)
      awk -v a="$t0" -v b="$t1" -v c="$t2" -v i="$i" 'BEGIN { printf "pair %d analyze %.3f qc %.3f qc/analyze %.3f\n", i, b - a, c - b, (c - b) / (b - a) }'
    done
  done
} > $O/qc_speed.txt 2>&1
cat $O/qc_speed.txt
