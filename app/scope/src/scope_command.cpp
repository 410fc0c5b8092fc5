#include "vhist/scope/scope_command.h"

#include "scope_render.h"
#include "scope_style.h"

#include "vhist/media/camera.h"
#include "vhist/media/media_source.h"
#include "vhist/media/png.h"
#include "vhist/util/atomic_file.h"
#include "vhist/util/files.h"
#include "vhist/util/text.h"

#include "vhist/compute/colour_names.h"
#include "vhist/compute/engine.h"
#include "vhist/compute/source_measures.h"
#include "vhist/render/vk_check.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace vhist::app {

namespace {

using util::quoted;

// Why the run stops: the exit status and one line for a person.
struct ScopeFailure {
  int status = 2;
  std::string message;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// An output that is the input would destroy it: refused before anything is opened.
void check_output(const ScopeOptions& o) {
  if (o.output == "-") {
    if (util::same_file(STDOUT_FILENO, o.common.input)) {
      throw ScopeFailure{2, "standard output is the input " + quoted(o.common.input) +
                                " itself (redirected to it): the PNG would destroy the video; redirect to another file"};
    }
    if (::isatty(STDOUT_FILENO)) {
      throw ScopeFailure{2, "-o - writes the PNG to standard output, which is a terminal: redirect it to a file or a "
                            "pipe (> scope.png), or give -o scope.png"};
    }
    return;
  }
  if (util::same_file(o.common.input, o.output)) {
    throw ScopeFailure{2, "-o " + quoted(o.output) + " is the input " + quoted(o.common.input) +
                              " itself (the same file, through a link or not): the PNG would destroy the video; give "
                              "another output file"};
  }
}

std::unique_ptr<media::MediaSource> open_input(const ScopeOptions& o) {
  if (media::is_camera_path(o.common.input)) {
    throw ScopeFailure{2, quoted(o.common.input) + " is a camera: vhist scope draws a frame of a file at a time (--at); "
                          "watch a camera's scopes in the viewer (vhist " + o.common.input + ")"};
  }
  media::SourceOptions source_options;
  source_options.start = *o.at;
  source_options.stream = o.common.stream;
  source_options.queue_frames = 1;
  try {
    return media::MediaSource::open(o.common.input, source_options);
  } catch (const media::MediaError& e) {
    throw ScopeFailure{2, e.what()};
  }
}

std::string clip_length_text(const media::MediaInfo& info) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s", info.duration);
  return buf;
}

// The first frame at or after --at. Throws ScopeFailure when there is none.
media::DecodedFrame frame_at(media::MediaSource& source, const ScopeOptions& o) {
  const media::MediaInfo& info = source.info();
  const std::string at = "--at " + seconds_text(*o.at);
  if (info.duration > 0 && *o.at >= info.duration) {
    throw ScopeFailure{2, at + " is past the end of " + quoted(o.common.input) + ": the clip is " +
                              clip_length_text(info) + " long; give a time before its end"};
  }
  media::DecodedFrame frame;
  try {
    for (;;) {
      const auto status = source.next(frame, std::chrono::milliseconds(250));
      if (status == media::MediaSource::Status::frame) return frame;
      if (status == media::MediaSource::Status::end) break;
    }
  } catch (const media::MediaError& e) {
    throw ScopeFailure{2, e.what()};
  }
  const media::DecodeReport report = source.report();
  std::string why = report.first_error.empty() ? "" : " (" + report.first_error + ")";
  if (info.duration > 0) why += "; the clip is " + clip_length_text(info) + " long";
  throw ScopeFailure{2, "no video frame of " + quoted(o.common.input) + " at or after " + at + " could be decoded" +
                            why + "; give an earlier time"};
}

void check_frame(const media::DecodedFrame& frame, const ScopeOptions& o) {
  const VideoFormat& f = frame.format;
  if (o.roi) {
    if (const std::string err = check_rect(*o.roi, f.width, f.height); !err.empty()) {
      throw ScopeFailure{2, "--roi: " + err + " " + std::to_string(frame.index) + " of " + quoted(o.common.input) +
                                " (stored pixels, before any rotation): give a rectangle inside it"};
    }
  }
  if (o.mode == ScopeMode::ycbcr && !has_planes(f)) {
    throw ScopeFailure{2, quoted(o.common.input) + " is stored as R'G'B' (" + f.pixel_format +
                              "): it has no Y'CbCr planes for a Y'CbCr parade; use --mode rgb"};
  }
}

// The PNG to standard output, or through a temporary file renamed over -o.
void write_output(const ScopeOptions& o, const std::string& png) {
  if (o.output == "-") {
    for (std::size_t done = 0; done < png.size();) {
      const ssize_t n = ::write(STDOUT_FILENO, png.data() + done, png.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw ScopeFailure{1, "cannot write the PNG to standard output: " + std::string(std::strerror(errno))};
      done += static_cast<std::size_t>(n);
    }
    return;
  }
  std::string error;
  const auto file = util::AtomicFile::create(o.output, error);
  if (!file) throw ScopeFailure{1, "cannot write " + quoted(o.output) + ": " + error};
  if (error = file->write(png); error.empty()) error = file->commit();
  if (!error.empty()) throw ScopeFailure{1, error + "; " + quoted(o.output) + " is left as it was"};
}

// What was drawn, on stderr: the frame, the source's colour, the scope as its label line says
// (mode, column binning) and the region counted.
void report(const ScopeOptions& o, const media::DecodedFrame& frame, const std::vector<std::string>& titles) {
  const VideoFormat& f = frame.format;
  // The shape the scope's columns follow, when it is not the stored one.
  std::string shown;
  if (f.rotation != 0 || f.display_width() != f.width || f.display_height() != f.height) {
    const std::string why =
        f.rotation != 0 ? "turned " + std::to_string(f.rotation) + " degrees clockwise" : std::string("sample aspect");
    shown = ", shown " + std::to_string(f.display_width()) + "x" + std::to_string(f.display_height()) + " (" + why + ")";
  }
  // After a seek in a stream of variable rate the number is the time times the average rate.
  std::fprintf(stderr, "vhist scope: %s: frame %s%lld%s at %s (%ux%u %s, %u-bit%s; colour %s)\n",
               quoted(o.common.input).c_str(), frame.index_exact ? "" : "about ", static_cast<long long>(frame.index),
               frame.index_exact ? "" : " (its time times the average rate)", seconds_text(frame.pts).c_str(), f.width,
               f.height, util::printable(f.pixel_format).c_str(), f.bits, shown.c_str(),
               spoken_colour_summary(frame.colour).c_str());
  for (const std::string& title : titles) {
    std::fprintf(stderr, "vhist scope: %s; of %s\n", util::printable(title).c_str(), region_text(o, f).c_str());
  }
  std::fprintf(stderr, "vhist scope: wrote %s (%ux%u PNG)\n", o.output == "-" ? "standard output" : quoted(o.output).c_str(),
               o.width, o.height);
}

int run(const ScopeOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  check_output(o);
  // The device and the renderer are made while the input opens and the frame decodes; bad input
  // is still said first (the device's failure only once the frame is there).
  auto gpu_ready = start_gpu(o.common.device, parse_engine_choice(o.engine).value_or(EngineChoice::automatic),
                             o.width, o.height);
  std::unique_ptr<media::MediaSource> source = open_input(o);
  const media::DecodedFrame frame = frame_at(*source, o);
  source.reset();  // the decoder stops (it would decode frames ahead beside the drawing); the frame stays
  check_frame(frame, o);
  const double decode_ms = ms_since(t0);
  const std::unique_ptr<ScopeGpu> gpu = gpu_ready.get();
  const double ready_ms = ms_since(t0);
  ScopeGpu::Drawn drawn = gpu->draw(frame.format, frame.planes, scope_style(o, frame));
  if (const std::uint32_t n = gpu->context().validation_message_count(); n != 0) {
    throw ScopeFailure{1, std::to_string(n) + " Vulkan validation messages"};
  }
  const auto t1 = std::chrono::steady_clock::now();
  std::string error;
  // Unfiltered rows: half the encoding time, and smaller for a scope's flat areas and thin lines.
  const std::string png =
      media::encode_png({o.width, o.height, std::move(drawn.pixels)}, error, media::PngFilter::none);
  if (!error.empty()) throw ScopeFailure{1, "cannot make the PNG: " + error};
  write_output(o, png);
  if (o.verbose) {
    const auto& d = gpu->context().description();
    std::fprintf(stderr,
                 "vhist scope: device %s (%s), engine %s; open and decode %.0f ms, beside it device %.0f ms and "
                 "renderer %.0f ms (both ready at %.0f ms), draw %.0f ms recorded (host) + %.0f ms run, PNG %.0f ms, "
                 "total %.0f ms\n",
                 d.name.c_str(), d.driver.c_str(), std::string(engine_name(gpu->engine())).c_str(), decode_ms,
                 gpu->device_ms, gpu->renderer_ms, ready_ms, gpu->record_ms, gpu->run_ms, ms_since(t1), ms_since(t0));
  }
  if (!o.quiet) report(o, frame, drawn.titles);
  return 0;
}

}  // namespace

int run_scope(const ScopeOptions& options) {
  try {
    return run(options);
  } catch (const ScopeFailure& f) {
    std::fprintf(stderr, "vhist scope: %s\n", util::printable(f.message).c_str());
    return f.status;
  } catch (const ScopeInputError& e) {
    std::fprintf(stderr, "vhist scope: %s\n", util::printable(e.message).c_str());
    return 2;
  } catch (const ScopeDeviceError& e) {
    std::fprintf(stderr, "vhist scope: %s\n", util::printable(e.message).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vhist scope: %s\n", util::printable(render::failure_message(e)).c_str());
    return 1;
  }
}

}  // namespace vhist::app
