#!/bin/bash
# vhist on the GPU machine, this session: (1) HLG light, GPU == CPU on NVIDIA (and with NVDEC),
# (2) vhist batch --jobs 7 --hwdec nvdec against seven ffmpeg NVDEC decode-only runs and seven
# vhist analyze processes, 4K HEVC 10-bit and H.264, 3600 frames per stream.
B=$PWD/.nvdec/bin C=$PWD/.nvdec/clips O=${OUT:-/tmp/out}
mkdir -p "$O" /tmp/w; chmod +x $B/*
now() { date +%s.%N; }
sec() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", b - a}'; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
  for clip in garden_hlg.mkv qc_pq.mkv hevc10.mkv; do
    k=0
    for args in "--engine cpu --hwdec no" "--engine gpu --hwdec no" "--engine gpu --hwdec nvdec"; do
      k=$((k+1))
      VHIST_VALIDATION=1 $B/vhist analyze $C/$clip $args -q -o /tmp/w/$clip.$k.jsonl; echo "$clip $args rc=$?"
      grep -v '"type":"header"' /tmp/w/$clip.$k.jsonl > /tmp/w/$clip.$k.body
    done
    cmp /tmp/w/$clip.1.body /tmp/w/$clip.2.body && echo "$clip: gpu records == cpu records"
    cmp /tmp/w/$clip.1.body /tmp/w/$clip.3.body && echo "$clip: gpu+nvdec records == cpu records"
    tail -1 /tmp/w/$clip.3.jsonl | grep -o '"light":{[^}]*}'
  done
  for name in hevc10_2160p h264_2160p; do
    ext=${name#*_}; src=$(ls $C/$name.* | grep -v txt | head -1)
    mkdir -p $C/b7_$name
    ln -f $src $C/b7_$name/ 2>/dev/null || cp $src $C/b7_$name/
    for i in 1 2 3 4 5 6 7; do cp $C/${name}_long.txt $C/b7_$name/s$i.txt; done
    head -2 $C/b7_$name/s1.txt
    echo "== $name x7: ffmpeg -hwaccel cuda decode only"
    t0=$(now); for i in 1 2 3 4 5 6 7; do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7_$name/s$i.txt -f null - & done; wait; t1=$(now)
    echo "ffmpeg x7 wall $(sec $t0 $t1) s"
    echo "== $name x7: vhist batch --jobs 7 --hwdec nvdec"
    t0=$(now); $B/vhist batch $C/b7_$name --ext txt --out /tmp/w/o7_$name --jobs 7 --hwdec nvdec --fail none; echo "rc=$?"; t1=$(now)
    echo "batch x7 wall $(sec $t0 $t1) s"
    cut -d, -f3,4,18,19,50- /tmp/w/o7_$name/summary.csv | head -9
    echo "== $name x7: seven vhist analyze --hwdec nvdec processes"
    t0=$(now); for i in 1 2 3 4 5 6 7; do $B/vhist analyze $C/b7_$name/s$i.txt --hwdec nvdec -q -o /dev/null & done; wait; t1=$(now)
    echo "analyze x7 wall $(sec $t0 $t1) s"
    echo "== $name x7 again: ffmpeg, then batch"
    t0=$(now); for i in 1 2 3 4 5 6 7; do $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7_$name/s$i.txt -f null - & done; wait; t1=$(now)
    echo "ffmpeg x7 wall $(sec $t0 $t1) s"
    t0=$(now); $B/vhist batch $C/b7_$name --ext txt --out /tmp/w/o7_$name --jobs 7 --hwdec nvdec --fail none --force -q; t1=$(now)
    echo "batch x7 wall $(sec $t0 $t1) s"
    echo "== $name one stream: ffmpeg, vhist batch --jobs 1 of one list"
    t0=$(now); $B/ffmpeg -hide_banner -nostdin -loglevel error -f concat -safe 0 -hwaccel cuda -hwaccel_output_format cuda -i $C/b7_$name/s1.txt -f null -; t1=$(now)
    echo "ffmpeg x1 wall $(sec $t0 $t1) s"
    t0=$(now); $B/vhist batch $C/b7_$name/s1.txt --out /tmp/w/o1_$name --hwdec nvdec --fail none --force -q; t1=$(now)
    echo "batch x1 wall $(sec $t0 $t1) s"
  done
} > $O/batch_device.txt 2>&1
cat $O/batch_device.txt
