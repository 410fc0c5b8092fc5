#!/bin/bash
# vhist issue 27, session 7: seven 4K streams (3600 frames each) in one process with worker
# threads (vhist batch --workers threads: one Vulkan device and one CUDA context for all seven)
# against ffmpeg NVDEC decode-only x7 and vhist batch with seven processes, in turns, three
# rounds; the two batch modes' records and events compared byte for byte; hwdec_test fallback.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
  for name in hevc10_2160p h264_2160p; do
    src=$(ls $C/$name.* | grep -v txt | head -1)
    mkdir -p $C/b7_$name
    ln -f $src $C/b7_$name/ 2>/dev/null || cp $src $C/b7_$name/
    for i in 1 2 3 4 5 6 7; do cp $C/${name}_long.txt $C/b7_$name/s$i.txt; done
    for r in 1 2 3; do
      t0=$(now); for i in 1 2 3 4 5 6 7; do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7_$name/s$i.txt -f null - & done; wait; t1=$(now)
      echo "$name run $r: ffmpeg x7 wall $(sec $t0 $t1) s"
      t0=$(now); $B/vhist batch $C/b7_$name --ext txt --out /tmp/w/t7_$name --jobs 7 --workers threads --hwdec nvdec --fail none --force -q; rc=$?; t1=$(now)
      echo "$name run $r: vhist batch --jobs 7 --workers threads wall $(sec $t0 $t1) s rc=$rc"
      t0=$(now); $B/vhist batch $C/b7_$name --ext txt --out /tmp/w/p7_$name --jobs 7 --hwdec nvdec --fail none --force -q; rc=$?; t1=$(now)
      echo "$name run $r: vhist batch --jobs 7 (processes) wall $(sec $t0 $t1) s rc=$rc"
    done
    echo "$name rows (threads): key, frames, engine, seconds"
    cut -d, -f3 /tmp/w/t7_$name/summary.csv | head -2
    python3 -c "print(1)" >/dev/null 2>&1 || true
    grep -o '"key":"[^"]*"\|"frames":[0-9]*\|"engine":"[^"]*"\|"seconds":[0-9.]*' /tmp/w/t7_$name/summary.jsonl | paste -sd' ' | sed 's/"key"/\n"key"/g'
    echo
    same=0 differ=0
    for f in /tmp/w/t7_$name/*.jsonl; do
      b=$(basename $f); [[ $b == summary.jsonl ]] && continue
      if cmp -s $f /tmp/w/p7_$name/$b; then same=$((same+1)); else differ=$((differ+1)); echo "DIFFER: $b"; fi
    done
    echo "$name: threads vs processes, records and events files identical: $same, differing: $differ"
  done
  echo "== hwdec_test.sh fallback"
  bash .nvdec/hwdec_test.sh fallback $B/vhist $C; echo "rc=$?"
} > $O/s7.txt 2>&1
cat $O/s7.txt
