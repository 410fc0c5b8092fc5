// What vhist reads, and that reading never holds it hostage (docs/security.md, "Input-side
// regression tests"): `vhist analyze` and the viewer run as processes on playlists that point
// outside their folder, formats that open files past vhist's checks, stalled FIFOs and pipes
// sent a signal, and reference files that are not files.
#include "analyze_process.h"
#include "test_clips.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

// AddressSanitizer's build (GCC says so by __SANITIZE_ADDRESS__, clang by __has_feature).
#if defined(__SANITIZE_ADDRESS__)
#define VHIST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VHIST_UNDER_ASAN 1
#endif
#endif
#ifndef VHIST_UNDER_ASAN
#define VHIST_UNDER_ASAN 0
#endif

namespace fs = std::filesystem;
using namespace vhist::test;

namespace {

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string hls(const std::vector<std::string>& segments) {
  std::string s = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n";
  for (const auto& seg : segments) s += "#EXTINF:1.0,\n" + seg + "\n";
  return s + "#EXT-X-ENDLIST\n";
}

// A playlist folder with a segment of its own, and a segment outside it (plus a link to there).
struct Playlists {
  fs::path dir, outside;
  Playlists() {
    dir = clip_dir() / "playlist";
    outside = clip_dir() / "elsewhere";
    fs::create_directories(dir);
    fs::create_directories(outside);
    const std::string args = "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 10 -c:v mpeg2video -f mpegts";
    const std::string seg = make_clip("segment.ts", args);
    fs::copy_file(seg, dir / "seg.ts", fs::copy_options::overwrite_existing);
    fs::copy_file(seg, outside / "secret.ts", fs::copy_options::overwrite_existing);
    std::error_code ec;
    fs::remove(dir / "link", ec);
    fs::create_directory_symlink(outside, dir / "link");
  }
};

}  // namespace

// The playlist's own segment plays; a segment named by an absolute path, a file:// URL, '..' or a
// link out of the folder is refused with exit 2 and a line saying which file and why, also when
// only a later segment is outside.
TEST(InputSafety, PlaylistMayNameOnlyFilesBelowItsFolder) {
  const Playlists p;
  write_text(p.dir / "ok.m3u8", hls({"seg.ts", "seg.ts"}));
  const ProcessResult ok = run_vhist("analyze '" + (p.dir / "ok.m3u8").string() + "' --engine cpu -q");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(lines(ok.out).size(), 20u) << ok.err;

  const std::string secret = (p.outside / "secret.ts").string();
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"absolute", {secret}},
      {"file_url", {"file://" + secret}},
      {"dotdot", {"../elsewhere/secret.ts"}},
      {"link", {"link/secret.ts"}},
      {"later", {"seg.ts", "seg.ts", "seg.ts", "../elsewhere/secret.ts"}},
  };
  for (const auto& [name, segments] : cases) {
    const fs::path list = p.dir / (name + ".m3u8");
    write_text(list, hls(segments));
    const ProcessResult r = run_vhist("analyze '" + list.string() + "' --engine cpu -q");
    EXPECT_EQ(r.status, 2) << name << ": " << r.err;
    EXPECT_NE(r.err.find("'" + list.string() + "'"), std::string::npos) << name << ": " << r.err;
    EXPECT_NE(r.err.find("names a file vhist may not open"), std::string::npos) << name << ": " << r.err;
    EXPECT_NE(r.err.find("is outside the input's folder"), std::string::npos) << name << ": " << r.err;
    EXPECT_NE(r.err.find("move or copy the files there"), std::string::npos) << name << ": " << r.err;
    EXPECT_EQ(r.err.find("validation"), std::string::npos) << r.err;
  }
}

// A concat list is read after vhist has checked every line itself: a list whose entries lie
// below its folder plays, both files (10 + 5 frames, one named with FFmpeg's quoting and
// escaping); an entry by absolute path (outside the folder or inside it), '../', a symlinked
// folder out of it, a file: or http: URL, a nested concat list, a missing file, and an `option`
// line are refused with exit 2 and a line naming the list, the line and the entry, before
// anything is read (also when only a later entry is bad).
TEST(InputSafety, ConcatListMayNameOnlyFilesBelowItsFolder) {
  const Playlists p;
  const std::string five = make_clip("segment5.ts", "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 5 -c:v mpeg2video -f mpegts");
  fs::create_directories(p.dir / "sub dir");
  fs::copy_file(five, p.dir / "sub dir" / "b.ts", fs::copy_options::overwrite_existing);
  fs::create_directories(p.dir / "sub");
  fs::copy_file(five, p.dir / "sub" / "b.ts", fs::copy_options::overwrite_existing);
  for (const std::string& second : {std::string("sub/b.ts"), std::string("'sub'/b\\.ts")}) {
    write_text(p.dir / "ok.ffconcat", "ffconcat version 1.0\n# a comment\nfile 'seg.ts'\r\nduration 1\nfile " + second + "\n");
    const ProcessResult ok = run_vhist("analyze '" + (p.dir / "ok.ffconcat").string() + "' --engine cpu -q");
    EXPECT_EQ(ok.status, 0) << second << ": " << ok.err;
    EXPECT_EQ(lines(ok.out).size(), 15u) << second << ": " << ok.err;
    EXPECT_NE(header_of(ok.out).find("\"container\":\"concat\""), std::string::npos) << ok.out;
  }

  const std::string secret = (p.outside / "secret.ts").string();
  const std::string inside = (p.dir / "seg.ts").string();
  // name, list body after the version line, what the message must say about the entry
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"absolute", "file '" + secret + "'\n", "line 2: file '" + secret + "': '" + secret + "' is outside the input's folder"},
      {"absolute_inside", "file '" + inside + "'\n", "line 2: file '" + inside + "' is an absolute path"},
      {"dotdot", "file seg.ts\nfile '../elsewhere/secret.ts'\n", "line 3: file '../elsewhere/secret.ts': "},
      {"link", "file 'link/secret.ts'\n", "line 2: file 'link/secret.ts': "},
      {"file_url", "file 'file:seg.ts'\n", "line 2: file 'file:seg.ts' is a URL (file)"},
      {"http_url", "file 'http://127.0.0.1:9/seg.ts'\n", "line 2: file 'http://127.0.0.1:9/seg.ts' is a URL (http)"},
      {"nested", "file 'ok.ffconcat'\n", "line 2: file 'ok.ffconcat' is itself a concat list"},
      {"missing", "file seg.ts\nfile 'gone.ts'\n", "line 3: file 'gone.ts' does not exist"},
      {"unsafe_name", "file 'sub dir/b.ts'\n", "line 2: file 'sub dir/b.ts' is not a name FFmpeg's safe mode accepts"},
      {"option", "file seg.ts\noption protocol_whitelist file,http\n", "line 3: 'option' is not allowed"},
  };
  for (const auto& [name, body, why] : cases) {
    const fs::path list = p.dir / (name + ".ffconcat");
    write_text(list, "ffconcat version 1.0\n" + body);
    const ProcessResult r = run_vhist("analyze '" + list.string() + "' --engine cpu -q");
    EXPECT_EQ(r.status, 2) << name << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << name << ": " << r.out;
    EXPECT_NE(r.err.find("'" + list.string() + "' is a concat list vhist may not read: " + why), std::string::npos)
        << name << ": " << r.err;
    if (name == "dotdot" || name == "link") {
      EXPECT_NE(r.err.find("('" + secret + "') is outside the input's folder"), std::string::npos) << name << ": " << r.err;
    }
  }
  // Standard input cannot be checked against a folder: a concat list there is not read at all.
  const ProcessResult piped = run_vhist("analyze - --engine cpu -q < '" + (p.dir / "ok.ffconcat").string() + "'");
  EXPECT_EQ(piped.status, 2) << piped.err;
  EXPECT_NE(piped.err.find("concat demuxer, which vhist does not use"), std::string::npos) << piped.err;
}

// DASH manifests open their segments past vhist's io_open check: not read at all, even when
// every segment is beside the manifest.
TEST(InputSafety, DashManifestsAreRefused) {
  const Playlists p;
  const fs::path dash = p.dir / "dash";
  fs::create_directories(dash);
  const std::string cmd = "ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=s=64x48:r=10 -frames:v 20 -c:v mpeg4 "
                          "-f dash -seg_duration 1 '" + (dash / "m.mpd").string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const ProcessResult r = run_vhist("analyze '" + (dash / "m.mpd").string() + "' --engine cpu -q");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("dash demuxer, which vhist does not use"), std::string::npos) << r.err;
}

// --- a stalled input and a signal ------------------------------------------------------------

namespace {

// Runs analyze on `input_kind` ("fifo" or "pipe") fed the first 60,000 bytes of a 500-frame clip
// by a writer that then pauses for 30 s; once analyze has installed its handler (SigCgt in
// /proc), opened the input (-v says "reading stream": a sanitizer build under load can take more
// than a second to get there) and had a second more to read what there is, sends `signal`. The
// run must end within 2 s of the signal with 128 + its number, its records complete.
void expect_stalled_input_ends_on(const std::string& signal, int number, const std::string& input_kind) {
  const std::string clip = make_clip("stall.ts", "-f lavfi -i testsrc2=s=160x120:r=25 -frames:v 500 -c:v libx264 "
                                                 "-preset ultrafast -pix_fmt yuv420p -f mpegts");
  // Files of this case's own: CTest runs the cases as processes side by side (-j2).
  const std::string tag = "stall_" + input_kind + "_" + signal;
  const fs::path fifo = clip_dir() / (tag + ".fifo"), out = clip_dir() / (tag + ".jsonl"),
                 err = clip_dir() / (tag + ".err"), result = clip_dir() / (tag + ".result");
  fs::remove(fifo);
  fs::remove(out);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The writer (a subshell that becomes `sleep`, so that its id ends it) holds the FIFO open,
  // read-write (1<>): the 60,000 bytes fit the pipe's buffer and are never lost to SIGPIPE when
  // analyze's checks open and close the FIFO before FFmpeg opens it (under load, `head` wrote in
  // that gap and died, and FFmpeg saw no data). "pipe" gives the FIFO to analyze as standard
  // input ("-": FFmpeg's pipe protocol).
  const std::string writer = "(head -c 60000 '" + clip + "'; exec sleep 30) 1<> '" + fifo.string() + "' & w=$!; ";
  const std::string vhist = "'" + std::string(VHIST_BINARY) + "' analyze -v --engine cpu -o '" + out.string() + "' ";
  const std::string start = writer + vhist + (input_kind == "fifo" ? "'" + fifo.string() + "'" : "- < '" + fifo.string() + "'") +
                            " 2> '" + err.string() + "' & pid=$!; ";
  const int bit = number - 1;
  const std::string cmd =
      start + "i=0; while [ $i -lt 600 ]; do m=$(awk '/^SigCgt/{print $2}' /proc/$pid/status 2>/dev/null); "
              "[ -n \"$m\" ] && [ $(( (0x$m >> " + std::to_string(bit) + ") & 1 )) = 1 ] && break; "
              "sleep 0.05; i=$((i+1)); done; "
              "j=0; while [ $j -lt 600 ] && ! grep -q 'reading stream' '" + err.string() + "'; do sleep 0.05; j=$((j+1)); done; "
              "sleep 1; t0=$(date +%s%N); kill -" + signal + " $pid; wait $pid; "
              "s=$?; t1=$(date +%s%N); echo \"$s $(( (t1 - t0) / 1000000 ))\" > '" + result.string() + "'; "
              "kill $w 2>/dev/null; true";
  ASSERT_EQ(std::system(("bash -c \"$(cat <<'EOF'\n" + cmd + "\nEOF\n)\"").c_str()), 0);
  int status = -1;
  long long ms = -1;
  ASSERT_EQ(std::sscanf(read_file(result).c_str(), "%d %lld", &status, &ms), 2) << read_file(result);
  EXPECT_EQ(status, 128 + number) << input_kind << " " << signal << ": " << read_file(err);
  EXPECT_LT(ms, 2000) << input_kind << " " << signal << ": the run took " << ms << " ms to end after the signal";
  EXPECT_NE(read_file(err).find("interrupted (SIG" + signal + ")"), std::string::npos) << read_file(err);
  const std::string text = read_file(out);
  ASSERT_FALSE(text.empty()) << read_file(err);
  EXPECT_EQ(text.back(), '\n');
  const auto records = lines(text);
  EXPECT_GT(records.size(), 5u) << "the frames before the stall are not in the output";
  for (const auto& rec : records) EXPECT_EQ(rec.substr(rec.size() - 2), "}}");
  EXPECT_NE(read_file(err).find(std::to_string(records.size()) + " complete records"), std::string::npos) << read_file(err);
}

}  // namespace

// The writer stalls before the input could even be opened (100 bytes, or no writer at all: the
// open(2) of the FIFO waits): the signal ends the run all the same, within 2 s, with 128 + its
// number and a line saying so.
TEST(InputSafety, SignalEndsAStalledOpen) {
  const std::string clip = make_clip("stall.ts", "-f lavfi -i testsrc2=s=160x120:r=25 -frames:v 500 -c:v libx264 "
                                                 "-preset ultrafast -pix_fmt yuv420p -f mpegts");
  const fs::path fifo = clip_dir() / "open.fifo", err = clip_dir() / "open.err", result = clip_dir() / "open.result";
  for (const bool writer : {true, false}) {
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string start = (writer ? "(head -c 100 '" + clip + "'; exec sleep 30) > '" + fifo.string() + "' & w=$!; " : "w=; ") +
                              "'" + std::string(VHIST_BINARY) + "' analyze --engine cpu -o /dev/null '" + fifo.string() +
                              "' 2> '" + err.string() + "' & pid=$!; ";
    const std::string cmd =
        start + "i=0; while [ $i -lt 600 ]; do m=$(awk '/^SigCgt/{print $2}' /proc/$pid/status 2>/dev/null); "
                "[ -n \"$m\" ] && [ $(( (0x$m >> 14) & 1 )) = 1 ] && break; sleep 0.05; i=$((i+1)); done; sleep 1; "
                "t0=$(date +%s%N); kill -TERM $pid; wait $pid; s=$?; t1=$(date +%s%N); "
                "echo \"$s $(( (t1 - t0) / 1000000 ))\" > '" + result.string() + "'; [ -n \"$w\" ] && kill $w 2>/dev/null; true";
    ASSERT_EQ(std::system(("bash -c \"$(cat <<'EOF'\n" + cmd + "\nEOF\n)\"").c_str()), 0);
    int status = -1;
    long long ms = -1;
    ASSERT_EQ(std::sscanf(read_file(result).c_str(), "%d %lld", &status, &ms), 2) << read_file(result);
    EXPECT_EQ(status, 143) << (writer ? "100 bytes: " : "no writer: ") << read_file(err);
    EXPECT_LT(ms, 2000) << (writer ? "100 bytes" : "no writer");
    EXPECT_NE(read_file(err).find("interrupted (SIGTERM) while opening the input"), std::string::npos) << read_file(err);
  }
}

TEST(InputSafety, StalledFifoEndsOnSigterm) { expect_stalled_input_ends_on("TERM", 15, "fifo"); }
TEST(InputSafety, StalledFifoEndsOnSigint) { expect_stalled_input_ends_on("INT", 2, "fifo"); }
TEST(InputSafety, StalledFifoEndsOnSighup) { expect_stalled_input_ends_on("HUP", 1, "fifo"); }
TEST(InputSafety, StalledPipeEndsOnSigterm) { expect_stalled_input_ends_on("TERM", 15, "pipe"); }

// --- reference files ----------------------------------------------------------------------------

// --reference reads only a regular file, a line at most 1 MiB: /dev/zero (one endless line) and a
// FIFO with no writer are refused at once with exit status 2, before a window is opened (so no
// display is needed), memory bounded (the run is held to 1 GiB of address space).
TEST(InputSafety, ReferenceMustBeARegularFileOfBoundedLines) {
  const std::string clip = make_clip("ref_clip.mp4", "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 3 -c:v libx264 -pix_fmt yuv420p");
  const fs::path fifo = clip_dir() / "reference.fifo", long_line = clip_dir() / "long_line.jsonl";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  write_text(long_line, std::string((1 << 20) + 10, ' ') + "\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/dev/zero", "is not a regular file (a device)"},
      {fifo.string(), "is not a regular file (a FIFO or pipe)"},
      {long_line.string(), "line 1 is longer than 1 MiB"},
  };
#if VHIST_UNDER_ASAN
  const std::string limit;  // AddressSanitizer reserves more address space than the limit allows
#else
  const std::string limit = "ulimit -v 1048576; ";
#endif
  for (const auto& [path, why] : cases) {
    const fs::path err = clip_dir() / "reference.err";
    const std::string cmd = "(" + limit + "env -u DISPLAY -u WAYLAND_DISPLAY timeout -k 5 20 '" +
                            std::string(VHIST_BINARY) + "' '" + clip + "' --reference '" + path +
                            "' --frames 1) > /dev/null 2> '" + err.string() + "'";
    const int raw = std::system(cmd.c_str());
    const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    EXPECT_EQ(status, 2) << path << ": " << read_file(err);
    EXPECT_NE(read_file(err).find("reference '" + path + "': " + why), std::string::npos) << read_file(err);
  }
}

// --- memory limits ----------------------------------------------------------------------------

// Under a 512 MiB address-space limit (ulimit -v 524288) lavapipe cannot start: analyze says
// "out of memory" and names the limit (it used to blame the Vulkan driver), exit 1; the viewer,
// whether it fails cleanly or crashes in the driver, names the limit too.
TEST(InputSafety, MemoryLimitIsSaidToBeTheCause) {
#if VHIST_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than any such limit";
#endif
  const std::string clip = make_clip("ref_clip.mp4", "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 3 -c:v libx264 -pix_fmt yuv420p");
  const fs::path err = clip_dir() / "limit.err";
  const std::string analyze = "(ulimit -v 524288; timeout -k 5 60 '" + std::string(VHIST_BINARY) + "' analyze '" + clip +
                              "' -o /dev/null) 2> '" + err.string() + "'";
  const int raw = std::system(analyze.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  const std::string text = read_file(err);
  if (status == 0) GTEST_SKIP() << "this Vulkan driver runs in 512 MiB";
  EXPECT_EQ(status, 1) << text;
  EXPECT_NE(text.find("out of memory"), std::string::npos) << text;
  EXPECT_NE(text.find("limited to 512 MiB (ulimit -v 524288)"), std::string::npos) << text;
  EXPECT_EQ(text.find("install"), std::string::npos) << text;

  const std::string viewer = "timeout -k 10 120 " + with_display("1280x720") + "bash -c \"ulimit -v 524288; exec '" +
                             std::string(VHIST_BINARY) +
                             "' '" + clip + "' --frames 3\" > /dev/null 2> '" + err.string() + "'";
  const int viewer_raw = std::system(viewer.c_str());
  const std::string viewer_text = read_file(err);
  if (!(WIFEXITED(viewer_raw) && WEXITSTATUS(viewer_raw) == 0)) {
    EXPECT_NE(viewer_text.find("limited to 512 MiB (ulimit -v 524288)"), std::string::npos) << viewer_text;
  }
}
