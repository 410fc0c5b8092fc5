#include "vhist/viewer/settings.h"

#include "vhist/util/files.h"
#include "vhist/viewer/settings_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <system_error>
#include <type_traits>
#include <utility>

namespace vhist::viewer {

namespace fs = std::filesystem;

namespace {

// A settings file is a few hundred bytes; anything far larger is not one (a wrong path, or a
// device file) and is not worth reading into memory.
constexpr std::size_t kMaxFileBytes = 1 << 20;

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(kSpace);
  return s.substr(first, last - first + 1);
}

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

// File names may hold anything but '/' and NUL. A value is written bare when reading it back
// (trimmed, up to the end of the line) gives it exactly; otherwise it is quoted with C-like
// escapes, so leading spaces, a newline or a leading quote survive the round trip.
std::string encode_value(std::string_view value) {
  const bool bare = !value.empty() && trim(value) == value && value.front() != '"' &&
                    std::none_of(value.begin(), value.end(), is_control);
  if (bare) return std::string(value);
  std::string out = "\"";
  for (const char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (is_control(c)) {
          constexpr std::string_view kHex = "0123456789abcdef";
          const auto u = static_cast<unsigned char>(c);
          out += "\\x";
          out += kHex[u >> 4];
          out += kHex[u & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::optional<std::string> decode_value(std::string_view text) {
  if (text.empty() || text.front() != '"') return std::string(text);
  if (text.size() < 2 || text.back() != '"') return std::nullopt;
  text = text.substr(1, text.size() - 2);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    switch (text[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'x': {
        unsigned code = 0;
        if (i + 2 >= text.size()) return std::nullopt;
        const auto [ptr, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, code, 16);
        if (ec != std::errc{} || ptr != text.data() + i + 3) return std::nullopt;
        out += static_cast<char>(code);
        i += 2;
        break;
      }
      default: return std::nullopt;
    }
  }
  return out;
}

class Loader {
 public:
  Loader(const fs::path& file, Settings& settings, std::vector<std::string>* warnings)
      : file_(file.string()), settings_(settings), warnings_(warnings) {}

  void parse(std::string_view content) {
    // Editors on other systems may have added a byte-order mark.
    if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
    std::size_t line_number = 0;
    while (!content.empty()) {
      ++line_number;
      const auto newline = content.find('\n');
      const std::string_view raw = content.substr(0, newline);
      content.remove_prefix(newline == std::string_view::npos ? content.size() : newline + 1);
      line_ = line_number;
      parse_line(trim(raw));
    }
  }

 private:
  void warn(const std::string& text) {
    if (warnings_) warnings_->push_back(file_ + ":" + std::to_string(line_) + ": " + text);
  }
  void bad_value(std::string_view key, std::string_view value, std::string_view expected, std::string_view kept) {
    warn(std::string(key) + " = '" + std::string(value) + "': expected " + std::string(expected) + "; using " +
         std::string(kept));
  }

  void parse_line(std::string_view line) {
    if (line.empty() || line.front() == '#' || line.front() == ';') return;
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) {
      warn("'" + std::string(line) + "': expected key = value; line ignored");
      return;
    }
    const std::string_view key = trim(line.substr(0, equals));
    const std::string_view value = trim(line.substr(equals + 1));
    const SettingRow* row = find_setting(key);
    // Unknown keys: written by a newer vhist, or a setting that no longer exists. Not an error.
    if (!row || !row->remembered) return;
    if (std::holds_alternative<std::vector<std::string>*>(row->field(settings_))) {
      const auto item = decode_value(value);
      if (!item || item->empty()) {
        warn(std::string(key) + " = " + std::string(value) + ": expected a file path; entry ignored");
      } else {
        set_setting(*row, settings_, *item);
      }
      return;
    }
    if (const std::string expected = set_setting(*row, settings_, value); !expected.empty()) {
      bad_value(key, value, expected, setting_text(*row, settings_));
    }
  }

  std::string file_;
  Settings& settings_;
  std::vector<std::string>* warnings_;
  std::size_t line_ = 0;
};

// The line (or, for a list, the lines) of one remembered row.
std::string render_row(const SettingRow& row, const Settings& s) {
  std::string out;
  Settings copy = s;
  const FieldRef field = row.field(copy);
  if (const auto* list = std::get_if<std::vector<std::string>*>(&field)) {
    for (const auto& item : **list) out.append(row.name).append(" = ").append(encode_value(item)).append("\n");
  } else {
    out.append(row.name).append(" = ").append(setting_text(row, s)).append("\n");
  }
  return out;
}

std::string render(const Settings& s) {
  std::string out = "# vhist viewer settings\n";
  out += "# Rewritten by vhist when it exits: edit it while vhist is not running.\n";
  for (const SettingRow& row : setting_rows()) {
    if (row.remembered) out += render_row(row, s);
  }
  return out;
}

// `old` (the file as it was) with each remembered setting's value replaced by the one in `s`, in
// place: comments, blank lines, unknown keys and lines that are not `key = value` stay as they
// were and where they were; a list (recent files) is written where its first line was; a
// setting written twice keeps its first place; settings the file lacked are appended.
std::string merge(std::string_view old, const Settings& s) {
  std::string out;
  if (old.starts_with("\xEF\xBB\xBF")) old.remove_prefix(3);
  std::vector<const SettingRow*> done;
  while (!old.empty()) {
    const auto newline = old.find('\n');
    const std::string_view raw = old.substr(0, newline);
    old.remove_prefix(newline == std::string_view::npos ? old.size() : newline + 1);
    const std::string_view line = trim(raw);
    const auto equals = line.find('=');
    const SettingRow* row = line.empty() || line.front() == '#' || line.front() == ';' || equals == std::string_view::npos
                                ? nullptr
                                : find_setting(trim(line.substr(0, equals)));
    if (!row || !row->remembered) {
      out.append(raw).append("\n");
    } else if (std::find(done.begin(), done.end(), row) == done.end()) {
      done.push_back(row);
      out += render_row(*row, s);
    }
  }
  for (const SettingRow& row : setting_rows()) {
    if (row.remembered && std::find(done.begin(), done.end(), &row) == done.end()) out += render_row(row, s);
  }
  return out;
}

// The settings file's text as it is on disk, to merge into; nullopt when there is none (or it is
// not a regular file: saving then fails as it would have). A regular file that cannot be read, is
// over kMaxFileBytes or holds NUL bytes (not text) is renamed to FILE.YYYYmmdd-HHMMSS.bak first,
// saying so in `notes`, so that replacing it loses nothing; `error` is set if that fails.
std::optional<std::string> existing_text(const fs::path& target, std::vector<std::string>* notes, std::string& error) {
  std::error_code ec;
  if (!fs::is_regular_file(target, ec)) return std::nullopt;
  std::string why;
  auto content = util::read_small_file(target.string(), kMaxFileBytes, why);
  if (content && content->find('\0') == std::string::npos) return content;
  if (content) why = "it holds NUL bytes: not text";
  const std::time_t now = std::time(nullptr);
  char stamp[32] = {};
  std::tm local{};
  localtime_r(&now, &local);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const fs::path backup = target.string() + "." + stamp + ".bak";
  fs::rename(target, backup, ec);
  if (ec) {
    error = "Cannot keep the unreadable settings file " + util::quoted(target.string()) + " (" + why + ") as " +
            util::quoted(backup.string()) + ": " + ec.message() + "; it was left as it is";
    return std::nullopt;
  }
  if (notes) {
    notes->push_back(util::quoted(target.string()) + " could not be read (" + why + "): kept as " +
                     util::quoted(backup.string()) + " and replaced by the current settings");
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(ScaleMode mode) {
  switch (mode) {
    case ScaleMode::automatic: return "auto";
    case ScaleMode::logarithmic: return "log";
    case ScaleMode::fixed: return "fixed";
  }
  return "auto";
}

std::string_view to_string(Layout layout) {
  switch (layout) {
    case Layout::split: return "split";
    case Layout::overlay: return "overlay";
    case Layout::stacked: return "stacked";
  }
  return "split";
}

std::string_view to_string(Palette palette) {
  switch (palette) {
    case Palette::classic: return "classic";
    case Palette::colorblind: return "colorblind";
    case Palette::mono: return "mono";
  }
  return "classic";
}

std::string_view to_string(CdfMode mode) {
  switch (mode) {
    case CdfMode::off: return "off";
    case CdfMode::over: return "over";
    case CdfMode::instead: return "instead";
  }
  return "off";
}

std::optional<CdfMode> parse_cdf_mode(std::string_view name) {
  for (const auto mode : {CdfMode::off, CdfMode::over, CdfMode::instead}) {
    if (name == to_string(mode)) return mode;
  }
  return std::nullopt;
}

std::optional<ScaleMode> parse_scale_mode(std::string_view name) {
  for (const auto mode : {ScaleMode::automatic, ScaleMode::logarithmic, ScaleMode::fixed}) {
    if (name == to_string(mode)) return mode;
  }
  return std::nullopt;
}

std::optional<Layout> parse_layout(std::string_view name) {
  for (const auto layout : {Layout::split, Layout::overlay, Layout::stacked}) {
    if (name == to_string(layout)) return layout;
  }
  return std::nullopt;
}

std::optional<Palette> parse_palette(std::string_view name) {
  for (const auto palette : {Palette::classic, Palette::colorblind, Palette::mono}) {
    if (name == to_string(palette)) return palette;
  }
  return std::nullopt;
}

fs::path settings_path() {
  const auto usable = [](const char* value) { return value && *value && fs::path(value).is_absolute(); };
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); usable(config)) {
    return fs::path(config) / "vhist" / "settings.ini";
  }
  if (const char* home = std::getenv("HOME"); usable(home)) {
    return fs::path(home) / ".config" / "vhist" / "settings.ini";
  }
  return {};
}

Settings parse_settings(std::string_view content, const std::string& name, std::vector<std::string>* warnings) {
  Settings settings;
  Loader(name, settings, warnings).parse(content);
  return settings;
}

std::string render_settings(const Settings& settings) { return render(settings); }

Settings load_settings(const fs::path& file, std::vector<std::string>* warnings) {
  Settings settings;
  if (file.empty()) return settings;
  std::error_code ec;
  const auto status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) return settings;
  std::string error;
  const auto content = util::read_small_file(file.string(), kMaxFileBytes, error);
  if (!content) {
    if (warnings) {
      warnings->push_back(file.string() + ": cannot be read (" + error + "); using the defaults (on quit the file is "
                          "kept as " + file.filename().string() + ".DATE-TIME.bak before the settings are saved)");
    }
    return settings;
  }
  Loader(file, settings, warnings).parse(*content);
  return settings;
}

std::string save_settings(const Settings& settings, const fs::path& file, std::vector<std::string>* notes) {
  if (file.empty()) return "No settings file (neither XDG_CONFIG_HOME nor HOME is set)";
  std::error_code ec;
  fs::path target = file;
  if (fs::is_symlink(file, ec)) {
    if (auto resolved = fs::weakly_canonical(file, ec); !ec) target = std::move(resolved);
  }
  if (const auto folder = target.parent_path(); !folder.empty()) {
    fs::create_directories(folder, ec);
    if (ec) return "Cannot create " + folder.string() + ": " + ec.message();
  }
  std::string kept_error;
  const std::optional<std::string> existing = existing_text(target, notes, kept_error);
  if (!kept_error.empty()) return kept_error;
  const std::string text = existing && !trim(*existing).empty() ? merge(*existing, settings) : render(settings);
  // The one atomic-write rule (vhist/util/files.h); a symbolic link (a dotfiles setup) is kept
  // and the file it points to replaced.
  const std::string error = util::write_file_atomically(file.string(), text, {.follow_symlink = true});
  if (!error.empty()) return "Cannot save the settings: " + error;
  return {};
}

namespace {

bool is_url(const std::string& path) { return path.find("://") != std::string::npos; }

}  // namespace

void remember_recent(Settings& settings, const std::string& given) {
  if (given.empty()) return;
  std::string path = given;
  if (!is_url(given) && std::filesystem::path(given).is_relative()) {
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(given, ec);
    if (!ec) path = absolute.lexically_normal().string();
  }
  auto& recent = settings.recent_files;
  std::erase(recent, path);
  recent.insert(recent.begin(), path);
  if (recent.size() > kMaxRecentFiles) recent.resize(kMaxRecentFiles);
}

}  // namespace vhist::viewer

namespace vhist::viewer {

void absolutize_recent(Settings& settings) {
  std::vector<std::string> fixed;
  for (const std::string& entry : settings.recent_files) {
    std::string path = entry;
    std::error_code ec;
    if (!is_url(entry) && std::filesystem::path(entry).is_relative() && std::filesystem::exists(entry, ec)) {
      const auto absolute = std::filesystem::absolute(entry, ec);
      if (!ec) path = absolute.lexically_normal().string();
    }
    if (std::find(fixed.begin(), fixed.end(), path) == fixed.end()) fixed.push_back(std::move(path));
  }
  settings.recent_files = std::move(fixed);
}

float slower(float speed) { return std::clamp(speed / 1.1f, kMinSpeed, kMaxSpeed); }
float faster(float speed) { return std::clamp(speed * 1.1f, kMinSpeed, kMaxSpeed); }

}  // namespace vhist::viewer
