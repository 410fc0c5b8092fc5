// The option tables: the command line they build (each kind of value, ranges rejected with the
// option's own words, the shared groups spelled the same in the viewer and analyze), the
// settings file written and read back through the settings table, the keys, and the generated
// help (every row of a command in its --help). No window, no GPU.
#include "vhist/command_line/command_line.h"
#include "vhist/picture/draw_style.h"
#include "vhist/viewer/settings_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace vhist {
namespace {

using app::Command;
using app::CommandLine;
using app::parse_command_line;
using viewer::Settings;
using viewer::SettingRow;

// The viewer's settings after its command line: the defaults with the command line's applied.
Settings settings_of(const CommandLine& line) {
  Settings s;
  viewer::apply_settings(line.viewer, s);
  return s;
}

CommandLine parse_ok(const std::vector<std::string>& args) {
  CommandLine line = parse_command_line(args);
  EXPECT_FALSE(line.end.done) << line.end.error;
  return line;
}

// The error of a rejected command line (status 2).
std::string rejection(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line(args);
  EXPECT_TRUE(line.end.done);
  EXPECT_EQ(line.end.status, 2);
  return line.end.error;
}

std::string long_flag(std::string_view flags) {
  const auto comma = flags.rfind(',');
  return std::string(comma == std::string_view::npos ? flags : flags.substr(comma + 1));
}

// --- each kind of value ---------------------------------------------------------------------------

TEST(OptionTable, ViewerValuesOfEachKind) {
  const CommandLine line = parse_ok({"clip.mp4", "--no-vsync", "--frames", "12", "--size", "640x360", "--start", "1:02.5",
                                     "--layout", "overlay", "--channels", "rg", "--cdf", "l:over,rgb:instead",
                                     "--split", "0.25", "--camera-fps", "12.5", "--screenshot", "shot.png",
                                     "--opacity", "0.5", "--speed", "2", "--bins", "64", "--scale", "log", "--guides", "on"});
  EXPECT_EQ(line.command, Command::viewer);
  EXPECT_EQ(line.viewer.common.input, "clip.mp4");
  EXPECT_TRUE(line.viewer.no_vsync);
  EXPECT_EQ(line.viewer.frames, 12);
  EXPECT_EQ(line.viewer.width, 640);
  EXPECT_EQ(line.viewer.height, 360);
  EXPECT_EQ(line.viewer.common.start, 62.5);
  EXPECT_EQ(line.viewer.common.camera_fps, 12.5);
  EXPECT_EQ(line.viewer.screenshot, "shot.png");
  const Settings s = settings_of(line);
  EXPECT_EQ(s.picture.layout, viewer::Layout::overlay);
  EXPECT_TRUE(s.picture.channels[0] && s.picture.channels[1]);
  EXPECT_FALSE(s.picture.channels[2] || s.picture.channels[3]);
  EXPECT_EQ(s.picture.cdf, (std::array<viewer::CdfMode, 4>{viewer::CdfMode::instead, viewer::CdfMode::instead,
                                                    viewer::CdfMode::instead, viewer::CdfMode::over}));
  EXPECT_TRUE(s.picture.split_view);
  EXPECT_EQ(s.picture.split_position, 0.25f);
  EXPECT_EQ(s.picture.equalize, EqualizeMode::luma);  // implied by --split
  EXPECT_EQ(s.picture.opacity, 0.5f);
  EXPECT_EQ(s.speed, 2.0f);
  EXPECT_EQ(s.picture.bins, 64u);
  EXPECT_EQ(s.picture.scale, viewer::ScaleMode::logarithmic);
  EXPECT_TRUE(s.picture.guides);
  EXPECT_FALSE(settings_of(parse_ok({"--guides", "off"})).picture.guides);
}

TEST(OptionTable, AnExplicitEqualizeWinsOverTheSplitsDefault) {
  for (const auto& args : {std::vector<std::string>{"--equalize", "channels", "--split", "0.5"},
                           std::vector<std::string>{"--split", "0.5", "--equalize", "channels"}}) {
    const Settings s = settings_of(parse_ok(args));
    EXPECT_EQ(s.picture.equalize, EqualizeMode::channels);
    EXPECT_TRUE(s.picture.split_view);
  }
}

TEST(OptionTable, TheLastOfARepeatedOptionWins) {
  EXPECT_EQ(settings_of(parse_ok({"--layout", "overlay", "--layout", "stacked"})).picture.layout, viewer::Layout::stacked);
}

TEST(OptionTable, PausedAtIsStillTheStart) {
  EXPECT_EQ(parse_ok({"--paused-at", "90"}).viewer.common.start, 90.0);
  EXPECT_EQ(parse_ok({"--start", "90"}).viewer.common.start, 90.0);
}

TEST(OptionTable, AnalyzeValues) {
  const CommandLine line = parse_ok({"analyze", "in.mkv", "--bins", "64", "-o", "out.csv", "--engine", "cpu", "-q",
                                     "--cdf", "--frames", "3", "--start", "2"});
  EXPECT_EQ(line.command, Command::analyze);
  EXPECT_EQ(line.analyze.common.input, "in.mkv");
  EXPECT_EQ(line.analyze.bins, 64u);
  EXPECT_EQ(line.analyze.output, "out.csv");
  EXPECT_EQ(line.analyze.format, app::RecordFormat::csv);  // from the extension
  EXPECT_EQ(line.analyze.engine, "cpu");
  EXPECT_TRUE(line.analyze.quiet);
  EXPECT_TRUE(line.analyze.cdf);
  EXPECT_EQ(line.analyze.frames, 3);
  EXPECT_EQ(line.analyze.start(), 2.0);
  EXPECT_EQ(parse_ok({"analyze", "in.mkv", "-o", "out.csv", "--format", "jsonl"}).analyze.format,
            app::RecordFormat::jsonl);
}

// --hwdec (issue 27): each value parsed, its name spelled back the same (the round trip the help
// and the messages rely on), the default mpv's (no); a bad value is rejected with the rule.
TEST(OptionTable, HwdecValuesRoundTrip) {
  using hwdec::HwdecMode;
  EXPECT_EQ(parse_ok({"analyze", "in.mkv"}).analyze.common.hwdec, HwdecMode::no);
  for (const HwdecMode mode : {HwdecMode::no, HwdecMode::automatic, HwdecMode::nvdec}) {
    const std::string name(hwdec::hwdec_name(mode));
    EXPECT_EQ(parse_ok({"analyze", "in.mkv", "--hwdec", name}).analyze.common.hwdec, mode) << name;
    EXPECT_EQ(hwdec::parse_hwdec(name), mode);
  }
  EXPECT_EQ(hwdec::hwdec_name(HwdecMode::automatic), "auto");
  EXPECT_EQ(parse_ok({"analyze", "in.mkv", "--hwdec", "nvdec", "--hwdec", "auto"}).analyze.common.hwdec,
            HwdecMode::automatic);  // the last wins, as for every option
  const std::string error = rejection({"analyze", "in.mkv", "--hwdec", "vaapi"});
  EXPECT_NE(error.find("--hwdec needs auto, no or nvdec, not 'vaapi'"), std::string::npos) << error;
  EXPECT_FALSE(hwdec::parse_hwdec("NVDEC"));
  EXPECT_FALSE(hwdec::parse_hwdec(""));
}

// The viewer takes --hwdec from the same row (issue 27): the same values, the same rule.
TEST(OptionTable, ViewerTakesHwdec) {
  using hwdec::HwdecMode;
  EXPECT_EQ(parse_ok({"clip.mp4"}).viewer.common.hwdec, HwdecMode::no);
  EXPECT_EQ(parse_ok({"clip.mp4", "--hwdec", "auto"}).viewer.common.hwdec, HwdecMode::automatic);
  EXPECT_EQ(parse_ok({"clip.mp4", "--hwdec", "nvdec"}).viewer.common.hwdec, HwdecMode::nvdec);
  const std::string error = rejection({"clip.mp4", "--hwdec", "vaapi"});
  EXPECT_NE(error.find("--hwdec needs auto, no or nvdec, not 'vaapi'"), std::string::npos) << error;
}

// --hwdec auto's choice by codec: H.264 goes to the CPU only on many threads (where it measured
// 434-458 frames a second at 4K on 16 threads against NVDEC's 180); HEVC, VP9 and AV1 never.
TEST(HwdecAuto, TheCpuTakesH264OnlyOnManyThreads) {
  EXPECT_TRUE(hwdec::cpu_decodes_faster("h264", 16));
  EXPECT_TRUE(hwdec::cpu_decodes_faster("h264", 12));
  EXPECT_FALSE(hwdec::cpu_decodes_faster("h264", 11));
  EXPECT_FALSE(hwdec::cpu_decodes_faster("h264", 2));
  for (const char* codec : {"hevc", "vp9", "av1", "mpeg2video", ""}) {
    EXPECT_FALSE(hwdec::cpu_decodes_faster(codec, 128)) << codec;
  }
}

// The threads counted are the run's decoder's: `vhist batch --jobs 7` on 16 cores gives each run
// 2 (--threads), on which H.264 stays on NVDEC; without --threads, every hardware thread.
TEST(HwdecAuto, CountsTheRunsOwnDecoderThreads) {
  EXPECT_EQ(hwdec::cpu_decoder_threads(2), 2u);
  EXPECT_EQ(hwdec::cpu_decoder_threads(0), std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_FALSE(hwdec::cpu_decodes_faster("h264", hwdec::cpu_decoder_threads(16 / 7)));
  EXPECT_TRUE(hwdec::cpu_decodes_faster("h264", hwdec::cpu_decoder_threads(16)));
}

// vhist scope: its own rows, the shared input and device groups, and the scope drawing's
// settings under the viewer's flags (applied to the PNG's style, not to the viewer's settings).
TEST(OptionTable, ScopeValues) {
  const CommandLine line = parse_ok({"scope", "in.mkv", "--at", "1:02.5", "--kind", "parade", "--mode", "ycbcr",
                                     "--roi", "10,20,300,200", "--size", "800x300", "-o", "-", "--engine", "gpu",
                                     "--scope-gain", "4", "--scope-units", "codes", "--device", "1", "--stream", "2"});
  EXPECT_EQ(line.command, Command::scope);
  EXPECT_EQ(line.program, "vhist scope");
  const app::ScopeOptions& o = line.scope;
  EXPECT_EQ(o.common.input, "in.mkv");
  EXPECT_EQ(o.at, 62.5);
  EXPECT_EQ(o.kind, app::ScopeKind::parade);
  EXPECT_EQ(o.mode, app::ScopeMode::ycbcr);
  EXPECT_EQ(o.roi, (PixelRect{10, 20, 300, 200}));
  EXPECT_EQ(o.width, 800u);
  EXPECT_EQ(o.height, 300u);
  EXPECT_EQ(o.output, "-");
  EXPECT_EQ(o.engine, "gpu");
  EXPECT_EQ(o.common.device, "1");
  EXPECT_EQ(o.common.stream, 2);
  ASSERT_EQ(o.settings.size(), 2u);
  Settings s;
  for (const auto& [row, text] : o.settings) EXPECT_EQ(viewer::set_from_command_line(*row, s, text), "");
  EXPECT_EQ(s.picture.scope_gain, 4.0f);
  EXPECT_EQ(s.picture.scope_units, viewer::LevelUnits::codes);
  // Defaults: the kind's mode and size.
  const CommandLine plain = parse_ok({"scope", "in.mkv", "--at", "2", "-o", "a.png"});
  EXPECT_EQ(plain.scope.kind, app::ScopeKind::waveform);
  EXPECT_EQ(plain.scope.mode, app::ScopeMode::luma);
  EXPECT_EQ(plain.scope.width, 1024u);
  const CommandLine vector = parse_ok({"scope", "in.mkv", "--at", "2", "--kind", "vectorscope", "-o", "a.png"});
  EXPECT_FALSE(vector.scope.mode.has_value());
  EXPECT_EQ(vector.scope.width, 512u);
  EXPECT_EQ(vector.scope.height, 512u);
  // Which scope and where are --kind's, not the viewer's rows.
  EXPECT_NE(rejection({"scope", "in.mkv", "--at", "2", "-o", "a.png", "--scopes", "all"}).find("--scopes"),
            std::string::npos);
  EXPECT_NE(rejection({"scope", "in.mkv", "--at", "2", "-o", "a.png", "--scope-gain", "x"}).find("--scope-gain"),
            std::string::npos);
}

TEST(OptionTable, DeviceTools) {
  EXPECT_EQ(parse_ok({"--list-devices"}).command, Command::list_devices);
  EXPECT_EQ(parse_ok({"--list-cameras"}).command, Command::list_cameras);
  EXPECT_EQ(parse_ok({"--version"}).command, Command::version);
  const CommandLine test = parse_ok({"--self-test", "--device", "llvm"});
  EXPECT_EQ(test.command, Command::self_test);
  EXPECT_EQ(test.viewer.common.device, "llvm");
  EXPECT_EQ(parse_ok({"self-test", "--device", "1"}).viewer.common.device, "1");
  EXPECT_EQ(parse_ok({"list-devices"}).command, Command::list_devices);
}

// --- bad values: what, why, what to do --------------------------------------------------------------

TEST(OptionTable, RangesAreRejectedWithTheOptionsWords) {
  struct Case {
    std::vector<std::string> args;
    std::vector<std::string> words;
  };
  const Case cases[] = {
      {{"analyze", "x.mp4", "--bins", "300"}, {"--bins", "power of two", "'300'"}},
      {{"analyze", "x.mp4", "--format", "xml"}, {"--format", "jsonl or csv", "'xml'"}},
      {{"analyze", "x.mp4", "--engine", "fast"}, {"--engine", "auto, gpu, cpu or none"}},
      {{"analyze", "x.mp4", "--start", "soon"}, {"--start", "time", "'soon'"}},
      {{"analyze", "x.mp4", "--start", "1:99"}, {"--start", "below 60", "'1:99'"}},
      {{"--", "a.mp4", "b.mp4"}, {"more than one input", "a.mp4", "b.mp4"}},
      {{"--opacity", "1.5"}, {"--opacity", "from 0 to 1", "'1.5'"}},
      {{"--speed", "8"}, {"--speed", "0.25 to 4"}},
      {{"--bins", "100"}, {"--bins", "power of two"}},
      {{"--size", "100x100"}, {"--size", "160x120"}},
      {{"--frames", "0"}, {"--frames", "positive whole number"}},
      {{"--split", "2"}, {"--split", "from 0 to 1"}},
      {{"--guides", "maybe"}, {"--guides", "on or off", "'maybe'"}},
      {{"--camera-fps", "0"}, {"--camera-fps", "frame rate"}},
      {{"--camera-size", "640"}, {"--camera-size", "WxH"}},
      {{"--layout", "sideways"}, {"--layout", "split, overlay or stacked", "'sideways'"}},
      {{"--cdf", "l:under"}, {"--cdf", "over, instead or off"}},
      {{"--channels", "rgbx"}, {"--channels", "r, g, b and l"}},
      {{"--no-such-option"}, {"unknown option", "--no-such-option"}},
      {{"a.mp4", "b.mp4"}, {"more than one input", "a.mp4", "b.mp4"}},
      {{"--frames"}, {"--frames", "needs a value"}},
      {{"analyze"}, {"no input"}},
  };
  for (const Case& c : cases) {
    const std::string error = rejection(c.args);
    for (const auto& word : c.words) EXPECT_NE(error.find(word), std::string::npos) << c.args.front() << ": " << error;
  }
}

// Issue 25: "--" ends the options, for the viewer and for analyze: a file whose name starts
// with a dash is an input after it, and an option after it is a file name too.
TEST(OptionTable, DoubleDashEndsTheOptions) {
  EXPECT_EQ(parse_ok({"--", "-weird.mp4"}).viewer.common.input, "-weird.mp4");
  EXPECT_EQ(parse_ok({"--frames", "3", "--", "-weird.mp4"}).viewer.common.input, "-weird.mp4");
  const CommandLine line = parse_ok({"analyze", "-o", "out.csv", "--", "-weird.mp4"});
  EXPECT_EQ(line.command, Command::analyze);
  EXPECT_EQ(line.analyze.common.input, "-weird.mp4");
  EXPECT_EQ(line.analyze.output, "out.csv");
  EXPECT_EQ(parse_ok({"analyze", "--", "--frames"}).analyze.common.input, "--frames");
  EXPECT_EQ(parse_ok({"analyze", "--", "--"}).analyze.common.input, "--");
  // Without the mark, a dash still starts an option.
  EXPECT_NE(rejection({"analyze", "-weird.mp4"}).find("unknown option"), std::string::npos);
}

// --- the shared groups --------------------------------------------------------------------------------

TEST(OptionTable, SharedGroupsAreSpelledTheSameInTheViewerAndAnalyze) {
  const std::vector<std::string> shared = {"--device",     "gpu0", "--camera-format", "MJPG", "--camera-size",
                                           "1280x720",     "--camera-fps", "30", "--start", "0:03"};
  std::vector<std::string> viewer_args = {"/dev/video0"};
  viewer_args.insert(viewer_args.end(), shared.begin(), shared.end());
  std::vector<std::string> analyze_args = {"analyze", "/dev/video0"};
  analyze_args.insert(analyze_args.end(), shared.begin(), shared.end());
  const cli::CommonOptions v = parse_ok(viewer_args).viewer.common;
  const cli::CommonOptions a = parse_ok(analyze_args).analyze.common;
  for (const cli::CommonOptions* o : {&v, &a}) {
    EXPECT_EQ(o->input, "/dev/video0");
    EXPECT_EQ(o->device, "gpu0");
    EXPECT_EQ(o->camera_format, "MJPG");
    EXPECT_EQ(o->camera_width, 1280u);
    EXPECT_EQ(o->camera_height, 720u);
    EXPECT_EQ(o->camera_fps, 30.0);
    EXPECT_EQ(o->start, 3.0);
  }
}

// --- settings.ini through the table -------------------------------------------------------------------

// A value for `row` other than its default, as settings.ini writes it.
std::string other_value(const SettingRow& row) {
  const Settings defaults;
  const std::string current = viewer::setting_text(row, defaults);
  if (current == "true") return "false";
  if (current == "false") return "true";
  const auto names = viewer::choice_names(row, defaults);
  if (!names.empty()) return std::string(names.back() == current ? names.front() : names.back());
  if (viewer::setting_id(row) == viewer::SettingId::recent) return "/videos/a.mp4";
  // A number: its range's other end ("1024" for bins, "4" for speed).
  const double end = std::stod(current) == row.max ? row.min : row.max;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", end);
  return buf;
}

TEST(OptionTable, EveryRememberedRowIsSavedAndLoadedBack) {
  int rows = 0;
  for (const SettingRow& row : viewer::setting_rows()) {
    if (!row.remembered) continue;
    ++rows;
    Settings s;
    const std::string value = other_value(row);
    ASSERT_EQ(viewer::set_setting(row, s, value), "") << row.name << " = " << value;
    ASSERT_NE(s, Settings{}) << row.name << ": " << value << " is its default";
    const std::string text = viewer::render_settings(s);
    EXPECT_NE(text.find("\n" + std::string(row.name) + " = "), std::string::npos) << text;
    std::vector<std::string> warnings;
    EXPECT_EQ(viewer::parse_settings(text, "settings.ini", &warnings), s) << row.name << "\n" << text;
    EXPECT_TRUE(warnings.empty()) << warnings.front();
  }
  EXPECT_GE(rows, 20);  // channels, CDFs, histogram, playback and window rows
}

TEST(OptionTable, RowsOfThisRunOnlyAreNotSaved) {
  Settings s;
  s.picture.equalize = EqualizeMode::channels;
  s.picture.split_view = true;
  s.picture.split_position = 0.3f;
  const std::string text = viewer::render_settings(s);
  for (const char* name : {"equalize", "split_view", "split_position"}) {
    EXPECT_EQ(text.find(name), std::string::npos) << text;
  }
  // ... and not read either.
  EXPECT_EQ(viewer::parse_settings("equalize = luma\nsplit_view = true\n", "settings.ini"), Settings{});
}

// --- keys -------------------------------------------------------------------------------------------

TEST(OptionTable, KeysChangeTheirSettings) {
  const auto press = [](int key, Settings& s) {
    int found = 0;
    for (const SettingRow& row : viewer::setting_rows()) {
      if (row.key == key) {
        viewer::press_key(row, s);
        ++found;
      }
    }
    EXPECT_EQ(found, 1) << "key " << key;
  };
  Settings s;
  press('1', s);
  EXPECT_FALSE(s.picture.channels[0]);
  press('1', s);
  EXPECT_TRUE(s.picture.channels[0]);
  press('4', s);
  EXPECT_FALSE(s.picture.channels[3]);
  press('C', s);
  EXPECT_EQ(s.picture.cdf, (std::array<viewer::CdfMode, 4>{viewer::CdfMode::over, viewer::CdfMode::over,
                                                    viewer::CdfMode::over, viewer::CdfMode::over}));
  press('E', s);
  EXPECT_EQ(s.picture.equalize, EqualizeMode::luma);
  press('E', s);
  press('E', s);
  EXPECT_EQ(s.picture.equalize, EqualizeMode::off);
  press('V', s);  // V since issue 15: S is the screenshot, as in mpv
  EXPECT_TRUE(s.picture.split_view);
  EXPECT_EQ(s.picture.equalize, EqualizeMode::luma);  // the split view needs an equalized side
  press(viewer::kKeyTab, s);
  EXPECT_FALSE(s.show_panel);
  press('G', s);
  EXPECT_TRUE(s.picture.guides);
  press(']', s);
  EXPECT_FLOAT_EQ(s.speed, 1.1f);
  press('[', s);
  press('[', s);
  EXPECT_FLOAT_EQ(s.speed, 1.0f / 1.1f);
}

// The picture's options are declared once, in picture_options.h: the viewer's settings start from
// the renderer's defaults, and the renderer's default style (headless) differs only in the fit.
TEST(OptionTable, SettingsStartFromThePictureOptionsDefaults) {
  EXPECT_TRUE(Settings{}.picture == viewer::PictureOptions{});
  viewer::PictureOptions headless = viewer::DrawStyle{};
  EXPECT_EQ(headless.fit, viewer::FitMode::cover);
  headless.fit = viewer::PictureOptions{}.fit;
  EXPECT_TRUE(headless == viewer::PictureOptions{});
  // The viewer's style carries the options as set, none dropped on the way.
  Settings s = settings_of(parse_ok({"--zebra", "both", "--bins", "64", "--fit", "1:1", "--channels", "gl"}));
  EXPECT_TRUE(static_cast<const viewer::PictureOptions&>(viewer::DrawStyle(s.picture)) == s.picture);
  EXPECT_FALSE(s.picture == viewer::PictureOptions{});
}

// Each SettingId is the row of its name (the build checks it too), and back.
TEST(OptionTable, EachSettingIdIsItsRow) {
  const auto rows = viewer::setting_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto id = static_cast<viewer::SettingId>(i);
    EXPECT_EQ(&viewer::setting_row(id), &rows[i]);
    EXPECT_EQ(viewer::setting_id(rows[i]), id);
    EXPECT_EQ(viewer::find_setting(rows[i].name), &rows[i]);
  }
  EXPECT_EQ(viewer::setting_row(viewer::SettingId::zebra).name, "zebra");
  EXPECT_EQ(viewer::setting_row(viewer::SettingId::channel_l).name, "channel_l");
  EXPECT_EQ(viewer::setting_row(viewer::SettingId::match).name, "match");
  EXPECT_EQ(viewer::setting_row(viewer::SettingId::recent).name, "recent");
}

// The fit mode: auto by default; --fit and settings.ini take auto, fit, cover and 1:1 (a bad
// name is refused with the choices); A steps through them in that order and back to auto.
TEST(OptionTable, FitModeFromTheCommandLineTheFileAndTheKey) {
  EXPECT_EQ(Settings{}.picture.fit, viewer::FitMode::automatic);
  EXPECT_EQ(settings_of(parse_ok({"--fit", "1:1"})).picture.fit, viewer::FitMode::actual);
  EXPECT_EQ(settings_of(parse_ok({"--fit", "cover"})).picture.fit, viewer::FitMode::cover);
  const std::string error = rejection({"--fit", "wide"});
  for (const char* word : {"--fit", "auto, fit, cover or 1:1", "'wide'"}) {
    EXPECT_NE(error.find(word), std::string::npos) << error;
  }
  EXPECT_EQ(viewer::parse_settings("fit = 1:1\n", "settings.ini").picture.fit, viewer::FitMode::actual);
  const SettingRow* row = &viewer::setting_row(viewer::SettingId::fit);
  EXPECT_EQ(row->key, 'A');
  Settings s;
  for (const auto want : {viewer::FitMode::fit, viewer::FitMode::cover, viewer::FitMode::actual,
                          viewer::FitMode::automatic}) {
    viewer::press_key(*row, s);
    EXPECT_EQ(s.picture.fit, want);
  }
}

// --- the generated help -------------------------------------------------------------------------------

// The keys are named as people type them (Space, Right, Shift+K), and what they do in words:
// no internal names (GLFW_KEY_..., setting names such as channel_r).
TEST(OptionTable, HelpNamesKeysAsTyped) {
  const std::string help = app::vhist_help();
  const auto at = help.find("\nKeys:");
  ASSERT_NE(at, std::string::npos) << help;
  const std::string keys = help.substr(at, help.find("\n\n", at + 1) - at);
  for (const char* typed : {"Space play/pause", "Left/Right seek 5 s", "Up/Down seek 60 s", "Shift+K", "Tab ",
                            "Backspace", "mouse wheel", "I stats page", "1 red histogram on/off"}) {
    EXPECT_NE(keys.find(typed), std::string::npos) << typed << "\n" << keys;
  }
  for (const char* internal : {"GLFW", "KEY_", "channel_r", "show_panel", "speed_down", "light_axis", "split_view",
                               "space play", "shift+", "left/right"}) {
    EXPECT_EQ(keys.find(internal), std::string::npos) << internal << "\n" << keys;
  }
}

// The settings' defaults in words: a switch "(default on)" or "(default off)", never "true" or
// "false" after "on or off" (the settings file reads on/off as well as true/false).
TEST(OptionTable, HelpGivesSwitchDefaultsAsOnOrOff) {
  const std::string help = app::vhist_help();
  EXPECT_EQ(help.find("(default true)"), std::string::npos) << help;
  EXPECT_EQ(help.find("(default false)"), std::string::npos) << help;
  EXPECT_NE(help.find("on or off (default off)"), std::string::npos) << help;  // guides, end_scale
  EXPECT_NE(help.find("on or off (default on)"), std::string::npos) << help;   // tone_map
  Settings s;
  EXPECT_TRUE(s.picture.tone_map);
  for (const char* text : {"on", "off"}) {
    EXPECT_EQ(viewer::set_setting(viewer::setting_row(viewer::SettingId::tone_map), s, text), "");
    EXPECT_EQ(s.picture.tone_map, std::string_view(text) == "on");
  }
}

TEST(OptionTable, EveryRowIsInItsCommandsHelp) {
  const std::string vhist_help = app::vhist_help();
  const std::string analyze_help = app::analyze_help();
  ASSERT_FALSE(vhist_help.empty());
  ASSERT_FALSE(analyze_help.empty());
  for (const SettingRow& row : viewer::setting_rows()) {
    if (!row.flag.empty()) {
      EXPECT_NE(vhist_help.find(std::string(row.flag) + " "), std::string::npos) << row.flag;
    }
    if (row.field) {
      EXPECT_NE(vhist_help.find("  " + std::string(row.name) + " "), std::string::npos) << row.name;
    }
    if (row.key) {
      const std::string words(row.key_help.empty() ? row.name : row.key_help);
      EXPECT_NE(vhist_help.find(viewer::key_name(row.key) + " " + words), std::string::npos) << row.name;
    }
  }
  const auto expect_rows = [](const std::string& help, auto rows, const char* command) {
    for (const auto& row : rows) {
      const std::string flag = long_flag(row.flags);
      const bool listed = help.find(flag) != std::string::npos;
      EXPECT_EQ(listed, !row.hidden) << command << ": " << flag << "\n" << help;
    }
  };
  expect_rows(vhist_help, viewer::viewer_run_rows(), "vhist");
  expect_rows(analyze_help, app::analyze_rows(), "vhist analyze");
  for (const auto rows : {cli::device_rows(), cli::camera_rows(), cli::time_rows()}) {
    expect_rows(vhist_help, rows, "vhist");
    expect_rows(analyze_help, rows, "vhist analyze");
  }
  expect_rows(vhist_help, cli::viewer_time_rows(), "vhist");
  const std::string scope_help = app::scope_help();
  expect_rows(scope_help, app::scope_rows(), "vhist scope");
  for (const auto rows : {cli::input_rows(), cli::device_rows()}) expect_rows(scope_help, rows, "vhist scope");
  for (const SettingRow* row : app::scope_setting_rows()) {
    EXPECT_NE(scope_help.find(std::string(row->flag) + " "), std::string::npos) << row->flag;
  }
  EXPECT_NE(vhist_help.find("scope"), std::string::npos);
  EXPECT_NE(vhist_help.find("analyze"), std::string::npos);
  for (const char* tool : {"--list-devices", "--list-cameras", "--self-test", "--version"}) {
    EXPECT_NE(vhist_help.find(tool), std::string::npos) << tool;
  }
}

TEST(OptionTable, HelpIsAskedForNotAnError) {
  for (const auto& args : {std::vector<std::string>{"--help"}, std::vector<std::string>{"-h"},
                           std::vector<std::string>{"analyze", "--help"}, std::vector<std::string>{"clip.mp4", "-h"}}) {
    const CommandLine line = parse_command_line(args);
    EXPECT_TRUE(line.end.done);
    EXPECT_EQ(line.end.status, 0);
    EXPECT_NE(line.end.help.find("Usage"), std::string::npos);
  }
  EXPECT_NE(app::analyze_help().find("vhist analyze"), std::string::npos);
}

// `vhist help COMMAND` prints what `vhist COMMAND --help` prints (the man page's sections).
TEST(OptionTable, HelpCommandPrintsTheCommandsHelp) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"analyze", app::analyze_help()}, {"scope", app::scope_help()}, {"qc", app::qc_help()}, {"batch", app::batch_help()}};
  for (const auto& [name, help] : commands) {
    const CommandLine line = parse_command_line({"help", name});
    EXPECT_TRUE(line.end.done) << name;
    EXPECT_EQ(line.end.status, 0) << name;
    EXPECT_EQ(line.end.help, help) << name;
    EXPECT_NE(help.find("vhist " + name), std::string::npos) << name;
  }
  EXPECT_EQ(parse_command_line({"help"}).end.help, app::vhist_help());
  const CommandLine bad = parse_command_line({"help", "frobnicate"});
  EXPECT_EQ(bad.end.status, 2);
  EXPECT_NE(bad.end.error.find("vhist help [analyze|scope|qc|batch]"), std::string::npos) << bad.end.error;
  // The qc help names the decode_error check among those --fail takes.
  EXPECT_NE(app::qc_help().find("decode_error"), std::string::npos);
}

}  // namespace
}  // namespace vhist
