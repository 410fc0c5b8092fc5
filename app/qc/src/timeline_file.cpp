#include "vhist/qc/timeline_file.h"

#include "vhist/util/files.h"

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <type_traits>

namespace vhist::qc {

namespace {

constexpr char kMagic[8] = {'V', 'H', 'I', 'S', 'T', 'T', 'L', '\n'};
// 2: QcFrame::hlg (HLG frames' light) added.
constexpr std::uint32_t kVersion = 2;
// A timeline of a long file is tens of MB (a QcFrame per frame, 2048 columns of 4 KiB).
constexpr std::size_t kMaxBytes = std::size_t{1} << 30;

// Fields are written as their bytes on this machine: x86-64 and arm64 are both little-endian,
// and a file from another byte order fails the version check (kVersion's bytes reversed).
class Writer {
 public:
  template <typename T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size()));
    out += s;
  }
  std::string out;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v{};
    if (!take(sizeof v)) return v;
    std::memcpy(&v, in_.data() + at_ - sizeof v, sizeof v);
    return v;
  }
  std::string text() {
    const auto n = get<std::uint32_t>();
    if (!take(n)) return {};
    return std::string(in_.substr(at_ - n, n));
  }
  // Whether `n` more items of `size` bytes can be there (a count read from a corrupt file must
  // not make a huge allocation).
  bool room_for(std::uint64_t n, std::size_t size) const { return !bad_ && n <= (in_.size() - at_) / size; }
  bool bad() const { return bad_; }
  bool at_end() const { return at_ == in_.size(); }

 private:
  bool take(std::size_t n) {
    if (bad_ || in_.size() - at_ < n) {
      bad_ = true;
      return false;
    }
    at_ += n;
    return true;
  }
  std::string_view in_;
  std::size_t at_ = 0;
  bool bad_ = false;
};

void put_event(Writer& w, const Event& e) {
  w.put(static_cast<std::uint8_t>(e.check));
  w.put(e.first_frame), w.put(e.last_frame), w.put(e.start), w.put(e.end);
  w.put(e.start_timecode), w.put(e.end_timecode);
  w.put(e.worst), w.put(e.worst_frame), w.put(e.unit), w.put(e.frame_share), w.put(e.detail);
  w.put(static_cast<std::uint8_t>(e.fails));
}

Event get_event(Reader& r) {
  Event e;
  const auto check = r.get<std::uint8_t>();
  e.check = check < kAllChecks.size() ? static_cast<Check>(check) : Check::range;
  e.first_frame = r.get<std::int64_t>(), e.last_frame = r.get<std::int64_t>();
  e.start = r.get<double>(), e.end = r.get<double>();
  e.start_timecode = r.text(), e.end_timecode = r.text();
  e.worst = r.get<double>(), e.worst_frame = r.get<std::int64_t>(), e.unit = r.text();
  e.frame_share = r.get<double>(), e.detail = r.text();
  e.fails = r.get<std::uint8_t>() != 0;
  return e;
}

std::string serialize(const TimelineFile& f) {
  Writer w;
  w.out.append(kMagic, sizeof kMagic);
  w.put(kVersion);
  w.put(f.input.path), w.put(f.input.size), w.put(f.input.mtime_ns);
  w.put(f.frame_rate), w.put(f.duration), w.put(static_cast<std::uint8_t>(f.complete));
  const Timeline& t = f.timeline;
  w.put(t.expected_frames()), w.put(t.frames_per_column());
  w.put(static_cast<std::uint64_t>(t.frames().size()));
  for (const QcFrame& q : t.frames()) w.put(q);
  w.put(static_cast<std::uint64_t>(t.columns().size()));
  for (const TimelineColumn& c : t.columns()) w.put(c);
  w.put(static_cast<std::uint64_t>(f.events.size()));
  for (const Event& e : f.events) put_event(w, e);
  return std::move(w.out);
}

}  // namespace

std::optional<InputIdentity> identify_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return std::nullopt;
  return InputIdentity{absolute.lexically_normal().string(), static_cast<std::uint64_t>(st.st_size),
                       std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec};
}

std::string save_timeline(const std::string& path, const TimelineFile& file) {
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);
  if (ec) return "cannot make the folder " + util::quoted(folder.string()) + ": " + ec.message();
  return util::write_file_atomically(path, serialize(file));
}

std::optional<TimelineFile> load_timeline(const std::string& path, std::string& error) {
  const std::optional<std::string> bytes = util::read_small_file(path, kMaxBytes, error);
  if (!bytes) return std::nullopt;
  if (bytes->size() < sizeof kMagic + 4 || std::memcmp(bytes->data(), kMagic, sizeof kMagic) != 0) {
    error = "not a vhist timeline file";
    return std::nullopt;
  }
  Reader r(std::string_view(*bytes).substr(sizeof kMagic));
  if (const auto version = r.get<std::uint32_t>(); version != kVersion) {
    error = "a timeline file of version " + std::to_string(version) + ", this vhist reads version " +
            std::to_string(kVersion);
    return std::nullopt;
  }
  TimelineFile f;
  f.input.path = r.text(), f.input.size = r.get<std::uint64_t>(), f.input.mtime_ns = r.get<std::int64_t>();
  f.frame_rate = r.get<double>(), f.duration = r.get<double>(), f.complete = r.get<std::uint8_t>() != 0;
  const auto expected = r.get<std::int64_t>();
  const auto per_column = r.get<std::uint32_t>();
  const auto frame_count = r.get<std::uint64_t>();
  std::vector<QcFrame> frames;
  if (r.room_for(frame_count, sizeof(QcFrame))) {
    frames.resize(frame_count);
    for (QcFrame& q : frames) q = r.get<QcFrame>();
  }
  const auto column_count = r.get<std::uint64_t>();
  std::vector<TimelineColumn> columns;
  if (r.room_for(column_count, sizeof(TimelineColumn))) {
    columns.resize(column_count);
    for (TimelineColumn& c : columns) c = r.get<TimelineColumn>();
  }
  const auto event_count = r.get<std::uint64_t>();
  for (std::uint64_t k = 0; r.room_for(event_count - k, 1) && k < event_count; ++k) f.events.push_back(get_event(r));
  if (r.bad() || !r.at_end() || frames.size() != frame_count || columns.size() != column_count ||
      f.events.size() != event_count) {
    error = "truncated or corrupt";
    return std::nullopt;
  }
  f.timeline.restore(expected, per_column, std::move(frames), std::move(columns));
  return f;
}

std::string timeline_cache_path(const InputIdentity& input) {
  // FNV-1a of the identity: a changed file (size, time) gets a new name, and the old one is
  // simply not read again.
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&](std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  };
  mix(input.path);
  mix(std::string_view(reinterpret_cast<const char*>(&input.size), sizeof input.size));
  mix(std::string_view(reinterpret_cast<const char*>(&input.mtime_ns), sizeof input.mtime_ns));
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = std::filesystem::path(home) / ".cache";
  } else {
    base = "/tmp";
  }
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.vhtl", static_cast<unsigned long long>(h));
  return (base / "vhist" / "timelines" / name).string();
}

}  // namespace vhist::qc
