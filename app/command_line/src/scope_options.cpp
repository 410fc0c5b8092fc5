#include "vhist/command_line/scope_options.h"

#include "vhist/cli/cli.h"
#include "vhist/viewer/settings_table.h"

#include <CLI/CLI.hpp>

#include <tuple>

namespace vhist::app {

namespace {

std::string set_kind(ScopeOptions& o, std::string_view v) {
  for (const ScopeKind k : {ScopeKind::waveform, ScopeKind::parade, ScopeKind::vectorscope}) {
    if (v == scope_kind_name(k)) {
      o.kind = k;
      o.kind_given = true;
      return {};
    }
  }
  return "waveform, parade or vectorscope";
}

std::string set_mode(ScopeOptions& o, std::string_view v) {
  for (const ScopeMode m : {ScopeMode::luma, ScopeMode::rgb, ScopeMode::ycbcr}) {
    if (v == scope_mode_name(m)) {
      o.mode = m;
      return {};
    }
  }
  return "luma or rgb (waveform), rgb or ycbcr (parade)";
}

std::string set_size(ScopeOptions& o, std::string_view v) {
  const auto size = cli::parse_size(v);
  if (!size || size->first < kScopeMinWidth || size->second < kScopeMinHeight || size->first > kScopeMaxSide ||
      size->second > kScopeMaxSide) {
    return "WxH, from " + std::to_string(kScopeMinWidth) + "x" + std::to_string(kScopeMinHeight) + " (where the "
           "graticule's labels still fit) to " + std::to_string(kScopeMaxSide) + "x" + std::to_string(kScopeMaxSide);
  }
  o.width = size->first;
  o.height = size->second;
  return {};
}

constexpr cli::CliRow<ScopeOptions> kScopeRows[] = {
    {"--at", "T",
     "the frame drawn: the first whose time is at or after T, seconds (2.5) or [HH:]MM:SS[.fff] from the "
     "stream's start (required)",
     "Scope",
     [](ScopeOptions& o, std::string_view v) {
       const auto t = cli::parse_time(v);
       if (!t) return std::string("a time: seconds (2.5) or [HH:]MM:SS[.fff], minutes and seconds below 60");
       o.at = *t;
       return std::string();
     }},
    {"--kind", "K",
     "waveform (default: one plot, x the picture's columns, y the level), parade (R', G', B' side by side) or "
     "vectorscope (Cb right, Cr up)",
     "Scope", set_kind},
    {"--mode", "M",
     "waveform: luma (default) or rgb (R', G', B' over each other in their colours); parade: rgb (default: R', "
     "G', B' side by side) or ycbcr (the stored Y', Cb, Cr planes); as the viewer's waveform_view and parade_view",
     "Scope", set_mode},
    {"--roi", "X,Y,W,H",
     "the scope of the rectangle of W x H stored pixels whose top left pixel is (X, Y) only (the picture as "
     "stored, before rotation or sample aspect, as analyze --roi); it must lie inside the frame",
     "Scope",
     [](ScopeOptions& o, std::string_view v) {
       const auto n = cli::parse_rect(v);
       if (!n) return std::string(cli::kRectExpected);
       o.roi = PixelRect{(*n)[0], (*n)[1], (*n)[2], (*n)[3]};
       return std::string();
     }},
    {"--size", "WxH", "the PNG's size in pixels (default 1024x512; vectorscope 512x512)", "Output", set_size},
    {"-o,--output", "FILE",
     "write the PNG to FILE (replaced only when the PNG is whole), or - for standard output (required)", "Output",
     [](ScopeOptions& o, std::string_view v) { return cli::set_text(o.output, v, "a file name (or - for standard output)"); }},
    {"--engine", "E",
     "auto (default), gpu or cpu: who converts and counts the frame, as in the viewer (auto: the CPU engine on a "
     "CPU Vulkan device); the scope is drawn by the same GPU passes either way and the counts are equal",
     "Engine",
     [](ScopeOptions& o, std::string_view v) {
       if (v != "auto" && v != "gpu" && v != "cpu") return std::string("auto, gpu or cpu");
       o.engine = v;
       return std::string();
     }},
    {"-q,--quiet", "", "say nothing on stderr when all went well", "Output",
     [](ScopeOptions& o, std::string_view) { return cli::set_flag(o.quiet); }},
    {"-v,--verbose", "", "also report the device, the engine and how long each step took", "Output",
     [](ScopeOptions& o, std::string_view) { return cli::set_flag(o.verbose); }},
};

// The settings of the scopes' drawing `vhist scope` takes, under the viewer's names. Which
// scopes are shown and where (waveform, parade, vectorscope, scopes, scope_place) are --kind's
// and the PNG's; the views (waveform_view, parade_view) are --mode's.
constexpr viewer::SettingId kScopeSettings[] = {viewer::SettingId::scope_zoom,    viewer::SettingId::scope_gain,
                                                viewer::SettingId::scope_mapping, viewer::SettingId::scope_colour,
                                                viewer::SettingId::scope_legal,   viewer::SettingId::scope_units};

}  // namespace

std::string_view scope_kind_name(ScopeKind kind) {
  switch (kind) {
    case ScopeKind::waveform: return "waveform";
    case ScopeKind::parade: return "parade";
    case ScopeKind::vectorscope: return "vectorscope";
  }
  return "waveform";
}

std::string_view scope_mode_name(ScopeMode mode) {
  switch (mode) {
    case ScopeMode::luma: return "luma";
    case ScopeMode::rgb: return "rgb";
    case ScopeMode::ycbcr: return "ycbcr";
  }
  return "luma";
}

std::pair<std::uint32_t, std::uint32_t> default_scope_size(ScopeKind kind) {
  return kind == ScopeKind::vectorscope ? std::pair<std::uint32_t, std::uint32_t>{512, 512}
                                        : std::pair<std::uint32_t, std::uint32_t>{1024, 512};
}

std::span<const cli::CliRow<ScopeOptions>> scope_rows() { return kScopeRows; }

std::vector<const viewer::SettingRow*> scope_setting_rows() {
  std::vector<const viewer::SettingRow*> rows;
  for (const viewer::SettingId id : kScopeSettings) rows.push_back(&viewer::setting_row(id));
  return rows;
}

void add_scope_options(CLI::App& app, ScopeOptions& options) {
  cli::add_rows(app, cli::input_rows(), options.common);
  cli::add_rows(app, scope_rows(), options);
  for (const viewer::SettingRow* row : scope_setting_rows()) {
    cli::add_option(app, row->flag, row->value_name, row->help, "Scope drawing (the viewer's settings)", false,
                    [&options, row](std::string_view text) {
                      viewer::Settings scratch;
                      const std::string expected = viewer::set_from_command_line(*row, scratch, text);
                      if (expected.empty()) options.settings.emplace_back(row, std::string(text));
                      return expected;
                    });
  }
  cli::add_rows(app, cli::device_rows(), options.common);
}

std::string finish_scope_options(ScopeOptions& o) {
  if (o.common.input.empty()) return "no input file given: vhist scope FILE --at TIME -o scope.png";
  if (!o.at) return "no time given: --at T picks the frame (the first at or after T seconds)";
  if (o.output.empty()) return "no output given: -o scope.png (or -o - for standard output)";
  if (o.kind == ScopeKind::vectorscope && o.mode) {
    return "--mode " + std::string(scope_mode_name(*o.mode)) + " is a waveform's or a parade's; the vectorscope has "
           "no modes: leave --mode out";
  }
  if (o.kind == ScopeKind::waveform && o.mode == ScopeMode::ycbcr) {
    return "--mode ycbcr is a parade's (the Y', Cb and Cr planes side by side): use --kind parade, or --mode luma "
           "or rgb for a waveform";
  }
  if (o.kind == ScopeKind::parade && o.mode == ScopeMode::luma) {
    return "--mode luma is a waveform's (a parade shows three plots): use --kind waveform, or --mode rgb or ycbcr "
           "for a parade";
  }
  if (!o.mode && o.kind == ScopeKind::waveform) o.mode = ScopeMode::luma;
  if (!o.mode && o.kind == ScopeKind::parade) o.mode = ScopeMode::rgb;
  if (o.width == 0) std::tie(o.width, o.height) = default_scope_size(o.kind);
  return {};
}

const char* scope_help_footer() {
  return R"(Draws one frame of INPUT (a local video file) as a scope into a PNG, with the same GPU passes
and the same drawing as the viewer's scopes: the frame drawn is the first whose time is at or after
--at T (frames are decoded from the key frame before T). The counts are exact (equal to the CPU
reference); the graticule is labelled with the source's own matrix, range and transfer. stderr
says what was drawn: the frame's time and number, the source's colour, the column binning.

Examples:
  vhist scope clip.mp4 --at 2.5 -o waveform.png
  vhist scope clip.mp4 --at 1:02 --kind parade --mode ycbcr --size 1536x512 -o parade.png
  vhist scope clip.mp4 --at 2.5 --kind vectorscope --roi 480,270,960,540 -o - | display

Exit status: 0 the PNG was written; 1 no usable Vulkan device, or the PNG cannot be written;
2 bad usage or bad input (unknown kind, --at past the end, --roi outside the frame, a Y'CbCr
parade of an R'G'B' source, an unreadable input). On failure an existing FILE is left as it was.
)";
}

}  // namespace vhist::app
