#!/bin/bash
# vhist issue 28 on the GPU machine: vhist qc's events with each engine and decoder (must equal
# the clips' design), and vhist qc against vhist analyze (the hardware path) with NVDEC, in turns.
B=.nvdec/bin C=.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
{
  nvidia-smi --query-gpu=name --format=csv,noheader
  for clip in qc_sdr.mov qc_pq.mkv; do
    for args in "--engine cpu --hwdec no" "--engine gpu --hwdec no" "--engine gpu --hwdec nvdec"; do
      echo "== qc $clip $args"
      VHIST_VALIDATION=1 $B/vhist qc $C/$clip $args --format csv -o /tmp/w/e.csv 2>&1 | tail -3; echo "rc=${PIPESTATUS[0]}"
      grep -v '^#' /tmp/w/e.csv | cut -d, -f1-8
    done
  done
  for clip in h264_2160p_long.txt hevc10_2160p_long.txt; do
    echo "== speed $clip: analyze --hwdec nvdec vs qc --hwdec nvdec, in turns (wall s)"
    $B/vhist qc $C/$clip --hwdec nvdec -v -o /tmp/w/q.jsonl --fail none 2>&1 | grep -E 'frames in|decoder' | tail -2
    for i in 1 2 3 4; do
      t0=$(now); $B/vhist analyze $C/$clip --hwdec nvdec -q -o /dev/null; t1=$(now)
      $B/vhist qc $C/$clip --hwdec nvdec -q -o /dev/null --fail none; t2=$(now)
      echo "pair $i analyze $(echo "$t1 - $t0" | bc -l) qc $(echo "$t2 - $t1" | bc -l)"
    done
    $B/vhist analyze $C/$clip --hwdec nvdec -v -o /dev/null 2>&1 | grep 'frames in'
    $B/vhist qc $C/$clip --hwdec nvdec -v -o /dev/null --fail none 2>&1 | grep 'frames in'
  done
  echo "== hwdec_test.sh exact"; VHIST_VALIDATION=1 bash .nvdec/hwdec_test.sh exact $B/vhist $C 2>&1 | tail -5; echo "rc=$?"
} > $O/qc_device.txt 2>&1
cat $O/qc_device.txt
