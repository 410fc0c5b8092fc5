// The command line as tables: each command (`vhist`, `vhist analyze`, `vhist-bench`) lists its
// options as rows (spellings, value name, help, help group, and how the value's text is applied),
// and one function turns rows into CLI11 options. The help of each command is generated from its
// rows; a bad value is rejected with the row's own words ("--bins needs a power of two from 16 to
// 1024, not '300'"). The value parsers are cli.h's (the fuzzed ones).
//
// The options that more than one command takes are rows here once (shared groups): the input,
// the Vulkan device, the camera's format, size and rate, and the start time.
#pragma once

#include "vhist/hwdec/hwdec_mode.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace vhist::cli {

// One command-line option of a command whose parsed values land in a `Target`.
template <typename Target>
struct CliRow {
  std::string_view flags;       // CLI11 spellings: "--bins" or "-o,--output"
  std::string_view value_name;  // "N", "WxH", ...; empty: a flag that takes no value
  std::string_view help;
  std::string_view group;  // the help section the option is listed in
  // Applies the value's text (empty for a flag); returns "" or what the value must be, as in
  // "a positive whole number" (the error reads "--frames needs a positive whole number, not 'x'").
  std::string (*set)(Target&, std::string_view);
  bool hidden = false;  // accepted but not listed in the help (deprecated spellings)
};

// A row's `set` for a flag (no value): turns `field` on; nothing to reject.
inline std::string set_flag(bool& field) {
  field = true;
  return {};
}

// Applies a value's text; returns "" or what the value must be.
using ApplyValue = std::function<std::string(std::string_view)>;

// Adds one option to `app` (see CliRow). `apply` runs after parsing, in the order options were
// added, so a later row may override what an earlier one set.
void add_option(CLI::App& app, std::string_view flags, std::string_view value_name, std::string_view help,
                std::string_view group, bool hidden, ApplyValue apply);

template <typename Target>
void add_rows(CLI::App& app, std::span<const CliRow<Target>> rows, Target& target) {
  for (const CliRow<Target>& row : rows) {
    add_option(app, row.flags, row.value_name, row.help, row.group, row.hidden,
               [&target, set = row.set](std::string_view text) { return set(target, text); });
  }
}

// What the commands share (each spelled the same in every command that takes it).
struct CommonOptions {
  std::string input;
  std::string device;  // "": VHIST_DEVICE, else the best device
  std::string camera_format;
  std::uint32_t camera_width = 0, camera_height = 0;
  double camera_fps = 0;
  std::optional<double> start;  // seconds
  int stream = -1;               // --stream: the video stream's index in the file; -1: the best
  hwdec::HwdecMode hwdec = hwdec::HwdecMode::no;  // --hwdec (hwdec_mode.h)
};

// The shared groups. "Input": INPUT (positional), --stream; "Device": --device; "Camera": --camera-format,
// --camera-size, --camera-fps; "Time": --start (and, for the viewer, its older spelling --paused-at,
// accepted but no longer listed).
std::span<const CliRow<CommonOptions>> input_rows();
std::span<const CliRow<CommonOptions>> device_rows();
// "Decoding": --hwdec auto|no|nvdec (hwdec_mode.h).
std::span<const CliRow<CommonOptions>> decode_rows();
std::span<const CliRow<CommonOptions>> camera_rows();
std::span<const CliRow<CommonOptions>> time_rows();
std::span<const CliRow<CommonOptions>> viewer_time_rows();  // time_rows() and --paused-at

// The end of parsing a command line.
struct ParseEnd {
  bool done = false;  // true: do not run (help was asked for, or the command line is wrong)
  int status = 0;     // with done: 0 after help, 2 for a bad command line
  std::string help;   // with done and status 0: the help text to print on stdout
  std::string error;  // with done and status 2: what is wrong, one line, without the program's name
};

// Parses `args` (without the program name) into the options of `app` and its subcommands.
// Never prints and never exits. Arguments left over are an error: "unknown option '--x'" for one
// that looks like an option, else "more than one input given ('a' and 'b')" (`input` is the
// first input, for that message).
ParseEnd parse_args(CLI::App& app, const std::vector<std::string>& args,
                    const std::function<std::string()>& input = nullptr);

// Common CLI11 settings for every command: the help flag, "last one wins" for repeated options,
// extras collected (parse_args reports them), the help's footer.
void configure_app(CLI::App& app, std::string_view footer);

// `text` broken into lines of at most `width` characters at spaces (CLI11 indents the lines after
// a newline in an option's help under its first line).
std::string wrap(std::string_view text, std::size_t width = 74);

// Helpers for rows: apply a parsed value or say what was expected.
std::string set_positive(std::int64_t& field, std::string_view text, std::uint32_t max);
std::string set_text(std::string& field, std::string_view text, std::string_view expected);

}  // namespace vhist::cli
