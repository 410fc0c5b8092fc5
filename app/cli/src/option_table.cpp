#include "vhist/cli/option_table.h"

#include "vhist/cli/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <limits>

namespace vhist::cli {

namespace {

// "-o,--output" -> "--output": the spelling errors name.
std::string long_name(std::string_view flags) {
  const auto comma = flags.rfind(',');
  return std::string(comma == std::string_view::npos ? flags : flags.substr(comma + 1));
}

std::string set_size(std::uint32_t& width, std::uint32_t& height, std::string_view text) {
  const auto size = parse_size(text);
  if (!size) return "WxH (e.g. 640x360)";
  width = size->first;
  height = size->second;
  return {};
}

std::string set_start(CommonOptions& o, std::string_view text) {
  const auto t = parse_time(text);
  if (!t) return "a time: seconds (12.5) or [HH:]MM:SS[.fff], with minutes and seconds after a colon below 60";
  o.start = *t;
  return {};
}

constexpr CliRow<CommonOptions> kInput[] = {
    {"INPUT", "INPUT", "a local video file, or a camera such as /dev/video0", "Input",
     [](CommonOptions& o, std::string_view v) { return set_text(o.input, v, "a file name"); }},
    {"--stream", "N", "the video stream to read, by its index in the file (as ffprobe numbers them; vhist analyze -v "
                      "lists them); default: the best one",
     "Input", [](CommonOptions& o, std::string_view v) {
       const auto n = parse_uint(v, 0, 65535);
       if (!n) return std::string("a stream index (0, 1, ...)");
       o.stream = static_cast<int>(*n);
       return std::string();
     }},
};

constexpr CliRow<CommonOptions> kDevice[] = {
    {"--device", "SEL",
     "Vulkan device: an index from `vhist --list-devices` or part of its name (default: VHIST_DEVICE, else the "
     "first discrete GPU, integrated GPU, CPU)",
     "Device", [](CommonOptions& o, std::string_view v) {
       o.device = v;
       return std::string();
     }},
};

constexpr CliRow<CommonOptions> kDecode[] = {
    {"--hwdec", "MODE",
     "hardware decoding (as mpv's): no (the CPU; the default), auto (NVDEC when the Vulkan device is an NVIDIA GPU "
     "with a CUDA driver and the stream is one NVDEC decodes, H.264 excepted on 12 or more CPU threads, which decode "
     "it faster; else the CPU, saying why) or nvdec (NVDEC whenever it can, with a warning when it falls back). "
     "Frames decoded on NVDEC stay on the GPU; the numbers are the same either way",
     "Decoding", [](CommonOptions& o, std::string_view v) {
       const auto mode = hwdec::parse_hwdec(v);
       if (!mode) return std::string(hwdec::kHwdecExpected);
       o.hwdec = *mode;
       return std::string();
     }},
};

constexpr CliRow<CommonOptions> kCamera[] = {
    {"--camera-format", "F", "for a camera: its pixel format, a V4L2 fourcc (YUYV, NV12, MJPG ...)", "Camera",
     [](CommonOptions& o, std::string_view v) {
       return set_text(o.camera_format, v, "a pixel format (e.g. YUYV, NV12, MJPG)");
     }},
    {"--camera-size", "WxH", "for a camera: its frame size", "Camera",
     [](CommonOptions& o, std::string_view v) { return set_size(o.camera_width, o.camera_height, v); }},
    {"--camera-fps", "N", "for a camera: its frame rate", "Camera",
     [](CommonOptions& o, std::string_view v) {
       const auto fps = parse_rate(v);
       if (!fps) return std::string("a frame rate (e.g. 30 or 12.5)");
       o.camera_fps = *fps;
       return std::string();
     }},
};

constexpr CliRow<CommonOptions> kTime[] = {
    {"--start", "T", "begin at time T: seconds (12.5) or [HH:]MM:SS[.fff]", "Time", set_start},
};

constexpr CliRow<CommonOptions> kViewerTime[] = {
    {"--start", "T", "open paused at time T: seconds (12.5) or [HH:]MM:SS[.fff]", "Time", set_start},
    // The viewer's spelling before the commands shared their options.
    {"--paused-at", "T", "the same as --start", "Time", set_start, true},
};

}  // namespace

std::string wrap(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t line = 0;
  while (!text.empty()) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (line > 0 && line + 1 + word.size() > width) {
      out += '\n';
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
  }
  return out;
}

std::span<const CliRow<CommonOptions>> input_rows() { return kInput; }
std::span<const CliRow<CommonOptions>> device_rows() { return kDevice; }
std::span<const CliRow<CommonOptions>> camera_rows() { return kCamera; }
std::span<const CliRow<CommonOptions>> decode_rows() { return kDecode; }
std::span<const CliRow<CommonOptions>> time_rows() { return kTime; }
std::span<const CliRow<CommonOptions>> viewer_time_rows() { return kViewerTime; }

std::string set_positive(std::int64_t& field, std::string_view text, std::uint32_t max) {
  const auto n = parse_uint(text, 1, max);
  if (!n) return "a positive whole number";
  field = *n;
  return {};
}

std::string set_text(std::string& field, std::string_view text, std::string_view expected) {
  if (text.empty()) return std::string(expected);
  field = text;
  return {};
}

void add_option(CLI::App& app, std::string_view flags, std::string_view value_name, std::string_view help,
                std::string_view group, bool hidden, ApplyValue apply) {
  const std::string name = long_name(flags);
  CLI::Option* option = nullptr;
  if (value_name.empty()) {
    option = app.add_flag_callback(
        std::string(flags),
        [apply, name] {
          if (const std::string expected = apply(""); !expected.empty()) {
            throw CLI::ValidationError(name + ": " + expected);
          }
        },
        wrap(help));
  } else {
    option = app.add_option_function<std::string>(
        std::string(flags),
        [apply, name](const std::string& value) {
          if (const std::string expected = apply(value); !expected.empty()) {
            throw CLI::ValidationError(name + " needs " + expected + ", not '" + value + "'");
          }
        },
        wrap(help));
    // A positional's name is its value's name already.
    option->type_name(flags.starts_with('-') ? std::string(value_name) : std::string());
  }
  // CLI11 lists no option of the empty group.
  option->group(hidden ? std::string() : std::string(group));
}

void configure_app(CLI::App& app, std::string_view footer) {
  app.allow_extras();
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.get_formatter()->column_width(26);
  if (!footer.empty()) app.footer(std::string(footer));
}

ParseEnd parse_args(CLI::App& app, const std::vector<std::string>& args, const std::function<std::string()>& input) {
  ParseEnd end;
  // CLI11 takes the arguments last first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    end.done = true;
    end.help = app.help();
    return end;
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11 says "--frames: 1 required N missing".
    const std::string what = e.what();
    const auto colon = what.find(':');
    end.done = true;
    end.status = 2;
    end.error = colon == std::string::npos ? what : what.substr(0, colon) + " needs a value";
    return end;
  } catch (const CLI::ParseError& e) {
    end.done = true;
    end.status = 2;
    end.error = e.what();
    return end;
  }
  std::vector<std::string> extras = app.remaining(true);
  // "--" ends the options: CLI11 then takes what follows as positional ("vhist -- -clip.mp4")
  // but also keeps the mark itself among the extras. Only that one mark is dropped; a second
  // "--" after it is a positional like any other.
  if (const auto mark = std::find(extras.begin(), extras.end(), "--"); mark != extras.end()) extras.erase(mark);
  if (!extras.empty()) {
    const std::string& extra = extras.front();
    end.done = true;
    end.status = 2;
    if (extra.size() > 1 && extra.front() == '-') {
      end.error = "unknown option '" + extra + "'";
    } else {
      end.error = "more than one input given ('" + (input ? input() : std::string()) + "' and '" + extra + "')";
    }
  }
  return end;
}

}  // namespace vhist::cli
