#!/usr/bin/env bash
# Makes the malformed-input corpus (issue 6): files that vhist must either decode as far as it
# can or refuse with a clear one-line error, never crashing, hanging or leaking. Uses only the
# ffmpeg tool and coreutils (dd, printf, head, od, tr, mkfifo).
#   tests/corpus/make_corpus.sh OUTDIR
# CORPUS_REMOTE (default http://127.0.0.1:9) is the server the network playlists point at: the
# corpus test listens there and fails if anything connects.
set -euo pipefail
out=${1:?usage: make_corpus.sh OUTDIR}
remote=${CORPUS_REMOTE:-http://127.0.0.1:9}
export LC_ALL=C
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
base="$out/.base"  # clean clips the cases are cut from (not part of the corpus)
mkdir -p "$base"

ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
src=(-f lavfi -i testsrc2=size=64x48:rate=10:duration=1)
size() { stat -c %s "$1"; }
# cut SRC NAME BYTES: the first BYTES bytes of SRC
cut_at() { head -c "$3" "$1" >"$out/$2"; }
# flip FILE OFFSET...: inverts the byte at each offset (in place)
flip() {
  local f=$1 off b
  shift
  for off in "$@"; do
    b=$(od -An -tu1 -j "$off" -N1 "$f" | tr -d ' ')
    [ -n "$b" ] || continue
    printf "\\$(printf %03o $((b ^ 255)))" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
  done
}
# poke FILE OFFSET HEXBYTES: writes bytes ("ffff0000") at OFFSET
poke() {
  local f=$1 off=$2 hex=$3 esc="" i
  for ((i = 0; i < ${#hex}; i += 2)); do esc+="\\x${hex:i:2}"; done
  printf "$esc" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
# offset of the first occurrence of a byte string (printf escapes) in FILE, or empty
find_bytes() { grep -obUaP "$2" "$1" | head -1 | cut -d: -f1; }
# every STEP-th byte from START to the end, up to COUNT offsets
spread() { local start=$1 end=$2 count=$3 i; for ((i = 0; i < count; i++)); do echo $((start + (end - start) * i / count)); done; }

# --- clean sources ---------------------------------------------------------------------------
ff "${src[@]}" -c:v libx264 -g 5 -pix_fmt yuv420p "$base/moov_end.mp4"
ff "${src[@]}" -c:v libx264 -g 5 -pix_fmt yuv420p -movflags +faststart "$base/faststart.mp4"
ff "${src[@]}" -c:v libx264 -g 5 -pix_fmt yuv420p "$base/clip.mkv"
ff "${src[@]}" -c:v libx264 -g 5 -bf 0 -pix_fmt yuv420p -f h264 "$base/clip.h264"
ff "${src[@]}" -c:v libvpx -g 5 -pix_fmt yuv420p "$base/clip.ivf"
ff "${src[@]}" -c:v libvpx-vp9 -g 5 -pix_fmt yuv420p "$base/clip.webm"
ff "${src[@]}" -c:v mpeg2video -g 5 "$base/clip.ts"
ff "${src[@]}" -pix_fmt yuv420p "$base/clip.y4m"
ff -f lavfi -i testsrc2=size=256x16:rate=10:duration=1 -c:v libx264 -pix_fmt yuv420p "$base/wide.mkv"
ff -f lavfi -i testsrc2=size=64x48:rate=10:duration=1 -frames:v 1 "$base/frame.png"
ff -f lavfi -i testsrc2=size=64x48:rate=10:duration=0.5 -c:v gif "$base/anim.gif"

# A control: a clean clip decodes (status 0).
cp "$base/faststart.mp4" "$out/ok_control.mp4"

# --- truncated at many offsets ---------------------------------------------------------------
n=$(size "$base/faststart.mp4")
cut_at "$base/faststart.mp4" trunc_mp4_16b.mp4 16
cut_at "$base/faststart.mp4" trunc_mp4_header_only.mp4 $((n / 10))
cut_at "$base/faststart.mp4" trunc_mp4_half.mp4 $((n / 2))
cut_at "$base/faststart.mp4" trunc_mp4_last_byte.mp4 $((n - 1))
n=$(size "$base/moov_end.mp4")
cut_at "$base/moov_end.mp4" trunc_mp4_no_moov.mp4 $((n * 9 / 10))
n=$(size "$base/clip.mkv")
cut_at "$base/clip.mkv" trunc_mkv_100b.mkv 100
cut_at "$base/clip.mkv" trunc_mkv_third.mkv $((n / 3))
cut_at "$base/clip.mkv" trunc_mkv_most.mkv $((n * 8 / 10))
n=$(size "$base/clip.h264")
cut_at "$base/clip.h264" trunc_h264_sps_only.h264 40
cut_at "$base/clip.h264" trunc_h264_half.h264 $((n / 2))
n=$(size "$base/clip.ivf")
cut_at "$base/clip.ivf" trunc_ivf_header_only.ivf 32
cut_at "$base/clip.ivf" trunc_ivf_mid_frame.ivf $((n / 2 + 7))
n=$(size "$base/clip.webm")
cut_at "$base/clip.webm" trunc_webm_60pct.webm $((n * 6 / 10))
cut_at "$base/clip.ts" trunc_ts_3_packets.ts $((188 * 3))
n=$(size "$base/clip.y4m")
cut_at "$base/clip.y4m" trunc_y4m_mid_frame.y4m $((n / 3 + 100))

# --- bit flips in headers and in packets -----------------------------------------------------
cp "$base/faststart.mp4" "$out/flip_mp4_avcC.mp4"
at=$(find_bytes "$out/flip_mp4_avcC.mp4" 'avcC')
flip "$out/flip_mp4_avcC.mp4" $((at + 5)) $((at + 8)) $((at + 10)) $((at + 12))
cp "$base/faststart.mp4" "$out/flip_mp4_stsz.mp4"
at=$(find_bytes "$out/flip_mp4_stsz.mp4" 'stsz')
poke "$out/flip_mp4_stsz.mp4" $((at + 16)) ffffffff7fffffff
cp "$base/faststart.mp4" "$out/flip_mp4_stco.mp4"
at=$(find_bytes "$out/flip_mp4_stco.mp4" 'stco')
poke "$out/flip_mp4_stco.mp4" $((at + 8)) 7fffffff
cp "$base/faststart.mp4" "$out/flip_mp4_mdhd_timescale0.mp4"
at=$(find_bytes "$out/flip_mp4_mdhd_timescale0.mp4" 'mdhd')
poke "$out/flip_mp4_mdhd_timescale0.mp4" $((at + 16)) 00000000
cp "$base/clip.mkv" "$out/flip_mkv_header.mkv"
flip "$out/flip_mkv_header.mkv" $(spread 4 200 12)
cp "$base/clip.mkv" "$out/flip_mkv_packets.mkv"
n=$(size "$base/clip.mkv")
flip "$out/flip_mkv_packets.mkv" $(spread $((n / 4)) $((n - 64)) 40)
cp "$base/clip.h264" "$out/flip_h264_packets.h264"
n=$(size "$base/clip.h264")
flip "$out/flip_h264_packets.h264" $(spread 60 $((n - 8)) 60)
cp "$base/clip.ivf" "$out/flip_ivf_packets.ivf"
n=$(size "$base/clip.ivf")
flip "$out/flip_ivf_packets.ivf" $(spread 48 $((n - 8)) 40)
cp "$base/clip.webm" "$out/flip_webm_packets.webm"
n=$(size "$base/clip.webm")
flip "$out/flip_webm_packets.webm" $(spread $((n / 3)) $((n - 16)) 30)
cp "$base/clip.ts" "$out/flip_ts_packets.ts"
n=$(size "$base/clip.ts")
flip "$out/flip_ts_packets.ts" $(spread 200 $((n - 8)) 80)
cp "$base/frame.png" "$out/flip_png_idat.png"
at=$(find_bytes "$out/flip_png_idat.png" 'IDAT')
flip "$out/flip_png_idat.png" $((at + 10)) $((at + 20)) $((at + 30))

# --- wrong extensions, zero length, not a file -----------------------------------------------
cp "$base/faststart.mp4" "$out/ext_mp4_named.mkv"
cp "$base/frame.png" "$out/ext_png_named.mp4"
printf 'This is not a video, it is a text file.\n' >"$out/ext_text_named.mp4"
head -c 4096 /dev/zero | tr '\0' '\377' >"$out/ext_all_ff_bytes.mp4"
head -c 4096 /dev/zero >"$out/ext_all_zero_bytes.mkv"
: >"$out/zero_length.mp4"
mkdir "$out/directory.mp4"

# --- huge declared dimensions ----------------------------------------------------------------
{ printf 'YUV4MPEG2 W65535 H65535 F10:1 Ip A1:1 C420jpeg\nFRAME\n'; head -c 100000 /dev/zero; } >"$out/huge_y4m_65535.y4m"
{ printf 'YUV4MPEG2 W0 H0 F10:1 Ip A1:1 C420jpeg\nFRAME\n'; head -c 1000 /dev/zero; } >"$out/huge_y4m_zero_size.y4m"
{ printf 'YUV4MPEG2 W64 H48 F1:0 Ip A0:0 C420jpeg\n'; tail -c +$(($(head -1 "$base/clip.y4m" | wc -c) + 1)) "$base/clip.y4m"; } >"$out/absurd_y4m_rate_1_0.y4m"
cp "$base/clip.ivf" "$out/huge_ivf_65535.ivf"
poke "$out/huge_ivf_65535.ivf" 12 ffffffff
cp "$base/wide.mkv" "$out/huge_mkv_65535.mkv"
at=$(find_bytes "$out/huge_mkv_65535.mkv" '\xB0\x82\x01\x00')
poke "$out/huge_mkv_65535.mkv" $((at + 2)) ffff
cp "$base/frame.png" "$out/huge_png_65535.png"
poke "$out/huge_png_65535.png" 16 0000ffff0000ffff
cp "$base/anim.gif" "$out/huge_gif_65535.gif"
poke "$out/huge_gif_65535.gif" 6 ffffffff

# --- absurd frame rates and timestamps -------------------------------------------------------
ff "${src[@]}" -frames:v 5 -c:v libx264 -r 1/1000000 "$out/rate_one_per_million_s.mkv"
ff "${src[@]}" -frames:v 5 -c:v mpeg4 -r 1000000 -fps_mode passthrough "$out/rate_million_fps.avi" ||
  ff "${src[@]}" -frames:v 5 -c:v mpeg4 -r 1000000 "$out/rate_million_fps.avi"
ff "${src[@]}" -c:v libx264 -output_ts_offset 1000000000 "$out/ts_offset_huge.mkv"
ff "${src[@]}" -c:v libx264 -bf 0 -bsf:v 'setts=ts=N*1000000000000' "$out/ts_setts_huge_steps.mkv"
ff "${src[@]}" -c:v libx264 -bf 0 -bsf:v 'setts=ts=0' -f nut "$out/ts_all_zero.nut" 2>/dev/null || true
ff "${src[@]}" -c:v libx264 -video_track_timescale 1 "$out/ts_timescale_1.mp4"

# --- playlists that reference remote or other local files ------------------------------------
printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n%s/seg0.ts\n#EXT-X-ENDLIST\n' "$remote" >"$out/playlist_remote.m3u8"
printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n%s/variant.m3u8\n' "$remote" >"$out/playlist_remote_variant.m3u8"
printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile:///etc/passwd\n#EXTINF:1.0,\nfile://%s\n#EXT-X-ENDLIST\n' \
  "$base/clip.ts" >"$out/playlist_file_urls.m3u8"
printf '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nplaylist_self.m3u8\n' >"$out/playlist_self.m3u8"
printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\ndata:video/mp2t;base64,AAAA\n#EXT-X-ENDLIST\n' >"$out/playlist_data_url.m3u8"
printf "ffconcat version 1.0\nfile '/etc/passwd'\nfile '%s'\n" "$base/clip.mkv" >"$out/concat_absolute.ffconcat"
printf "ffconcat version 1.0\nfile '../../../../etc/passwd'\nfile '.base/clip.mkv'\n" >"$out/concat_dotdot.ffconcat"
printf "ffconcat version 1.0\nfile '%s/seg.ts'\n" "$remote" >"$out/concat_remote.ffconcat"
printf "ffconcat version 1.0\nfile 'concat_self.ffconcat'\n" >"$out/concat_self.ffconcat"

echo "make_corpus.sh: $(find "$out" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l) inputs in $out"
