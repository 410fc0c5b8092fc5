// libFuzzer target for text parsing: the command-line value parsers (app/cli.h), vhist's whole
// command line as the option tables build it (app/command_line.h, CLI11), and the viewer's
// settings file (app/viewer_ui: vhist/viewer/settings.h), all driven by the same tables as the program. The first
// byte picks the parser; the rest is its text. Besides not crashing, a few properties are
// checked: results stay inside their documented ranges, and settings written by save's renderer
// load back equal.
#include "vhist/cli/cli.h"
#include "vhist/command_line/command_line.h"
#include "vhist/viewer/settings.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "property failed: %s\n", what);
    std::abort();
  }
}

// The text as command-line arguments: split at NUL bytes and newlines.
std::vector<std::string> split_args(std::string_view text) {
  std::vector<std::string> args;
  std::string current;
  for (const char c : text) {
    if (c == '\0' || c == '\n') {
      args.push_back(std::exchange(current, {}));
    } else {
      current += c;
    }
  }
  if (!current.empty()) args.push_back(current);
  return args;
}

void check_command_line(std::string_view text) {
  using namespace vhist;
  const app::CommandLine line = app::parse_command_line(split_args(text));
  if (line.end.done) {
    check(line.end.status == 0 || line.end.status == 2, "command line: status 0 (help) or 2");
    check(line.end.status != 2 || !line.end.error.empty(), "command line: an error says what");
    return;
  }
  viewer::Settings settings;
  viewer::apply_settings(line.viewer, settings);
  check(settings.picture.bins >= viewer::kMinBins && settings.picture.bins <= viewer::kMaxBins, "command line bins in range");
  check(settings.picture.opacity >= 0 && settings.picture.opacity <= 1, "command line opacity in [0, 1]");
  check(settings.picture.split_position >= 0 && settings.picture.split_position <= 1, "command line split in [0, 1]");
  check(line.viewer.frames == -1 || line.viewer.frames > 0, "command line frames positive");
  check(line.command != app::Command::analyze || !line.analyze.common.input.empty(), "analyze has an input");
  const app::ScopeOptions& scope = line.scope;
  check(line.command != app::Command::scope ||
            (!scope.common.input.empty() && scope.at && !scope.output.empty() && scope.width >= app::kScopeMinWidth &&
             scope.height >= app::kScopeMinHeight && scope.width <= app::kScopeMaxSide &&
             scope.height <= app::kScopeMaxSide && (scope.kind == app::ScopeKind::vectorscope) != scope.mode.has_value()),
        "scope has an input, a time, an output, a size in range and a mode exactly when not a vectorscope");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace vhist;
  if (size == 0) return 0;
  const std::uint8_t which = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  // Bytes 0x80 and up: a whole command line (the earlier parsers keep their bytes, so the
  // committed regression inputs still reach the parser they were found in).
  if (which >= 0x80) {
    check_command_line(text);
    return 0;
  }
  switch (which % 7) {
    case 0:
      if (const auto s = cli::parse_size(text)) check(s->first > 0 && s->second > 0, "parse_size > 0");
      break;
    case 1:
      if (const auto v = cli::parse_uint(text, 1, 1000)) check(*v >= 1 && *v <= 1000, "parse_uint in range");
      break;
    case 2:
      if (const auto t = cli::parse_time(text)) {
        check(std::isfinite(*t) && *t >= 0, "parse_time finite, >= 0");
        // After a colon, minutes and seconds are below 60 (issue 25: "1:99" was 159 s).
        for (std::size_t colon = text.find(':'); colon != std::string::npos; colon = text.find(':', colon + 1)) {
          const std::string field(text.substr(colon + 1));
          check(std::strtod(field.c_str(), nullptr) < 60, "parse_time: below 60 after a colon");
        }
      }
      break;
    case 3:
      if (const auto r = cli::parse_rate(text)) check(*r > 0 && *r <= 1000, "parse_rate in (0, 1000]");
      break;
    case 4:
      if (const auto f = cli::parse_fraction(text)) check(*f >= 0 && *f <= 1, "parse_fraction in [0, 1]");
      break;
    case 5:
      for (const auto& item : cli::split_list(text)) check(!item.empty(), "split_list: no empty items");
      break;
    default: {
      std::vector<std::string> warnings;
      const viewer::Settings s = viewer::parse_settings(text, "fuzz.ini", &warnings);
      check(s.picture.bins >= viewer::kMinBins && s.picture.bins <= viewer::kMaxBins, "settings bins in range");
      check(s.picture.opacity >= 0 && s.picture.opacity <= 1, "settings opacity in [0, 1]");
      check(s.speed >= viewer::kMinSpeed && s.speed <= viewer::kMaxSpeed, "settings speed in range");
      check(s.recent_files.size() <= viewer::kMaxRecentFiles, "settings recent files bounded");
      // What vhist writes, it reads back the same.
      const viewer::Settings again = viewer::parse_settings(viewer::render_settings(s), "fuzz.ini", nullptr);
      check(again == s, "settings round trip");
      break;
    }
  }
  return 0;
}
