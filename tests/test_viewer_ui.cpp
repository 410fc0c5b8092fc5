// The viewer's settings file and file browser, without a window: the browser's listing directly,
// and its ImGui drawing in a headless ImGui context (a font atlas built in memory, no renderer)
// with simulated mouse clicks.
#include "vhist/viewer/file_browser.h"
#include "vhist/viewer/settings.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace vhist::viewer {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system temp folder, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "vhist-ui-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = fs::canonical(pattern);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const fs::path& p) const { return path_ / p; }

 private:
  fs::path path_;
};

// Sets (or, with nullptr, unsets) an environment variable for the scope, restoring it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void set(const char* value) {
    if (value) {
      ::setenv(name_.c_str(), value, 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }
  std::string name_;
  std::optional<std::string> old_;
};

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

std::string read_text(const fs::path& path) {
  // Not istreambuf_iterator: GCC 12 reports a false null dereference in it under -O2.
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Settings non_default_settings() {
  Settings s;
  s.picture.channels[0] = false;
  s.picture.channels[1] = true;
  s.picture.channels[2] = false;
  s.picture.channels[3] = false;
  s.picture.scale = ScaleMode::logarithmic;
  s.picture.bins = 1024;
  s.picture.layout = Layout::stacked;
  s.picture.palette = Palette::colorblind;
  s.picture.cdf = {CdfMode::over, CdfMode::off, CdfMode::instead, CdfMode::over};
  s.picture.opacity = 0.1f;  // not exact in binary: the text must still read back as the same float
  s.loop = false;
  s.speed = 0.25f;
  s.show_panel = false;
  s.vsync = false;
  s.window_width = 1913;
  s.window_height = 161;
  s.recent_files = {"/videos/plain.mp4",
                    "/videos/with spaces and = sign.mkv",
                    "  leading and trailing spaces  ",
                    "\"quoted\".mov",
                    "# not a comment.webm",
                    "/a/new\nline\tand\x01control.mp4",
                    "back\\slash.mp4",
                    "/vidéos/ünïcode.mp4"};
  return s;
}

// --- settings -------------------------------------------------------------------------------

TEST(ViewerSettings, EnumNamesRoundTrip) {
  for (const auto m : {ScaleMode::automatic, ScaleMode::logarithmic, ScaleMode::fixed}) {
    EXPECT_EQ(parse_scale_mode(to_string(m)), m);
  }
  for (const auto l : {Layout::split, Layout::overlay, Layout::stacked}) EXPECT_EQ(parse_layout(to_string(l)), l);
  for (const auto p : {Palette::classic, Palette::colorblind, Palette::mono}) {
    EXPECT_EQ(parse_palette(to_string(p)), p);
  }
  for (const auto m : {CdfMode::off, CdfMode::over, CdfMode::instead}) EXPECT_EQ(parse_cdf_mode(to_string(m)), m);
  EXPECT_EQ(to_string(CdfMode::instead), "instead");
  EXPECT_EQ(parse_cdf_mode("under"), std::nullopt);
  EXPECT_EQ(to_string(ScaleMode::automatic), "auto");
  EXPECT_EQ(to_string(ScaleMode::logarithmic), "log");
  EXPECT_EQ(to_string(Layout::overlay), "overlay");
  EXPECT_EQ(to_string(Palette::colorblind), "colorblind");
  EXPECT_EQ(parse_scale_mode("automatic"), std::nullopt);
  EXPECT_EQ(parse_scale_mode("Auto"), std::nullopt);
  EXPECT_EQ(parse_layout(""), std::nullopt);
  EXPECT_EQ(parse_palette("grey"), std::nullopt);
}

TEST(ViewerSettings, MissingFileGivesDefaults) {
  TempDir dir;
  std::vector<std::string> warnings;
  EXPECT_EQ(load_settings(dir / "nothing-here.ini", &warnings), Settings{});
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(load_settings(dir / "no-folder" / "settings.ini", &warnings), Settings{});
  EXPECT_EQ(load_settings(fs::path(), &warnings), Settings{});
  EXPECT_TRUE(warnings.empty());
}

TEST(ViewerSettings, SaveThenLoadGivesTheSameSettings) {
  TempDir dir;
  const fs::path file = dir / "settings.ini";
  const Settings saved = non_default_settings();
  ASSERT_EQ(save_settings(saved, file), "");
  std::vector<std::string> warnings;
  EXPECT_EQ(load_settings(file, &warnings), saved);
  EXPECT_TRUE(warnings.empty()) << warnings.front();

  const std::string text = read_text(file);
  EXPECT_TRUE(text.starts_with("# vhist viewer settings\n")) << text;
  EXPECT_NE(text.find("\nscale = log\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nrecent = /videos/plain.mp4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nrecent = /videos/with spaces and = sign.mkv\n"), std::string::npos) << text;

  // The defaults round-trip too (no recent files at all).
  ASSERT_EQ(save_settings(Settings{}, file), "");
  EXPECT_EQ(load_settings(file, &warnings), Settings{});
  EXPECT_TRUE(warnings.empty());
}

// Saving rewrites the file in place: comments, blank lines, unknown keys (a newer vhist's) and
// lines that are not settings stay where they were; each setting's line gets the new value; a
// setting the file lacked is appended; a duplicate keeps its first place (issue 25).
TEST(ViewerSettings, SaveKeepsCommentsUnknownKeysAndTheirOrder) {
  TempDir dir;
  const fs::path file = dir / "settings.ini";
  const std::string before =
      "# my own notes\n"
      "; an ini-style comment\n"
      "future_key = keep me\n"
      "\n"
      "scale = linear\n"
      "not a setting line\n"
      "recent = /old/one.mp4\n"
      "# between\n"
      "scale = sqrt\n"
      "recent = /old/two.mp4\n"
      "zz_unknown=1\n";
  write_file(file, before);
  const Settings saved = non_default_settings();
  ASSERT_EQ(save_settings(saved, file), "");
  std::vector<std::string> warnings;
  EXPECT_EQ(load_settings(file, &warnings), saved);
  const std::string text = read_text(file);
  const std::string expected_start = "# my own notes\n; an ini-style comment\nfuture_key = keep me\n\nscale = log\n"
                                     "not a setting line\nrecent = /videos/plain.mp4\n";
  EXPECT_TRUE(text.starts_with(expected_start)) << text;
  const std::size_t between = text.find("\n# between\nzz_unknown=1\n");
  EXPECT_NE(between, std::string::npos) << text;
  EXPECT_EQ(text.find("/old/"), std::string::npos) << text;
  EXPECT_EQ(text.find("scale = sqrt"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nscale ="), text.rfind("\nscale =")) << "scale written twice:\n" << text;
  EXPECT_NE(text.find("\nbins = ", between), std::string::npos) << "settings the file lacked are appended:\n" << text;
  // Saving again changes nothing.
  ASSERT_EQ(save_settings(saved, file), "");
  EXPECT_EQ(read_text(file), text);
}

// A settings file that cannot be read (over 1 MiB, NUL bytes) is not replaced silently: it is
// renamed to settings.ini.DATE-TIME.bak, byte for byte, and the note says so.
TEST(ViewerSettings, UnreadableFileIsBackedUpBeforeItIsReplaced) {
  for (const std::string& content : {"# big\n" + std::string((1 << 20) + 1, '#'), std::string("bins = 64\n\0\x01garbage", 19)}) {
    TempDir dir;
    const fs::path file = dir / "settings.ini";
    write_file(file, content);
    std::vector<std::string> warnings;
    (void)load_settings(file, &warnings);
    std::vector<std::string> notes;
    ASSERT_EQ(save_settings(non_default_settings(), file, &notes), "");
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("could not be read"), std::string::npos) << notes[0];
    std::vector<fs::path> backups;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      if (entry.path().extension() == ".bak") backups.push_back(entry.path());
    }
    ASSERT_EQ(backups.size(), 1u);
    EXPECT_TRUE(backups[0].filename().string().starts_with("settings.ini.")) << backups[0];
    EXPECT_NE(notes[0].find(backups[0].string()), std::string::npos) << notes[0];
    EXPECT_EQ(read_text(backups[0]), content);
    EXPECT_EQ(load_settings(file), non_default_settings());
  }
}

TEST(ViewerSettings, SaveCreatesTheFolderAndLeavesNoTemporaryFile) {
  TempDir dir;
  const fs::path file = dir / "config" / "vhist" / "settings.ini";
  ASSERT_EQ(save_settings(non_default_settings(), file), "");
  ASSERT_EQ(save_settings(Settings{}, file), "");  // replaces the existing file
  EXPECT_EQ(load_settings(file), Settings{});
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(file.parent_path())) names.push_back(entry.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"settings.ini"});
  EXPECT_FALSE(fs::exists(dir / "config" / "vhist" / "settings.ini.tmp"));
}

TEST(ViewerSettings, SaveThroughASymlinkKeepsTheLink) {
  TempDir dir;
  fs::create_directory(dir / "dotfiles");
  write_file(dir / "dotfiles" / "vhist.ini", "bins = 64\n");
  fs::create_symlink(dir / "dotfiles" / "vhist.ini", dir / "settings.ini");
  ASSERT_EQ(save_settings(non_default_settings(), dir / "settings.ini"), "");
  EXPECT_TRUE(fs::is_symlink(dir / "settings.ini"));
  EXPECT_EQ(load_settings(dir / "dotfiles" / "vhist.ini"), non_default_settings());
}

TEST(ViewerSettings, SaveReportsAnUnusableFolder) {
  TempDir dir;
  // A file where the folder should be stops even root (chmod would not).
  write_file(dir / "blocker", "x");
  const std::string error = save_settings(Settings{}, dir / "blocker" / "settings.ini");
  EXPECT_FALSE(error.empty());
  EXPECT_NE(error.find("blocker"), std::string::npos) << error;
  EXPECT_FALSE(save_settings(Settings{}, fs::path()).empty());
  // The target is a folder: the rename fails and the temporary file is removed.
  fs::create_directory(dir / "taken.ini");
  write_file(dir / "taken.ini" / "inside", "x");
  EXPECT_FALSE(save_settings(Settings{}, dir / "taken.ini").empty());
  EXPECT_FALSE(fs::exists(dir / "taken.ini.tmp"));
}

TEST(ViewerSettings, BadValuesKeepTheDefaultAndWarn) {
  TempDir dir;
  const fs::path file = dir / "settings.ini";
  write_file(file,
             "# vhist viewer settings\n"
             "channel_r = maybe\n"
             "scale = logarithmic\n"
             "bins = 300\n"
             "layout = sideways\n"
             "palette =\n"
             "cdf_l = sometimes\n"
             "opacity = lots\n"
             "loop = TRUE\n"
             "speed = 8\n"
             "window_width = 100\n"
             "window_height = 720px\n"
             "recent = \"unterminated\n"
             "this line has no equals sign\n"
             "some_future_key = 42\n"
             "vsync = false\n");
  std::vector<std::string> warnings;
  const Settings loaded = load_settings(file, &warnings);
  Settings expected;
  expected.vsync = false;  // good lines around the bad ones still count
  EXPECT_EQ(loaded, expected);
  ASSERT_EQ(warnings.size(), 13u);
  // Each warning names the file and line, the key and the value, and what was expected.
  EXPECT_NE(warnings[0].find(file.string() + ":2:"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("channel_r"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("maybe"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("on or off"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("logarithmic"), std::string::npos) << warnings[1];
  EXPECT_NE(warnings[1].find("auto, log or fixed"), std::string::npos) << warnings[1];
  EXPECT_NE(warnings[2].find("bins = '300'"), std::string::npos) << warnings[2];
  EXPECT_NE(warnings[2].find("power of two"), std::string::npos) << warnings[2];
  EXPECT_NE(warnings[2].find("using 256"), std::string::npos) << warnings[2];
  EXPECT_NE(warnings[5].find("cdf_l = 'sometimes'"), std::string::npos) << warnings[5];
  EXPECT_NE(warnings[5].find("off, over or instead"), std::string::npos) << warnings[5];
  EXPECT_NE(warnings[8].find("speed"), std::string::npos) << warnings[8];
  EXPECT_NE(warnings[9].find("window_width"), std::string::npos) << warnings[9];
  EXPECT_NE(warnings[12].find(":14:"), std::string::npos) << warnings[12];
  for (const auto& w : warnings) EXPECT_EQ(w.find("some_future_key"), std::string::npos) << w;

  // Without a warnings list the same file loads the same way.
  EXPECT_EQ(load_settings(file), expected);
}

TEST(ViewerSettings, RangesAreChecked) {
  TempDir dir;
  const fs::path file = dir / "settings.ini";
  const auto load_one = [&](const std::string& line, std::size_t expected_warnings) {
    write_file(file, line + "\n");
    std::vector<std::string> warnings;
    Settings s = load_settings(file, &warnings);
    EXPECT_EQ(warnings.size(), expected_warnings) << line;
    return s;
  };
  EXPECT_EQ(load_one("bins = 16", 0).picture.bins, 16u);
  EXPECT_EQ(load_one("bins = 1024", 0).picture.bins, 1024u);
  for (const char* bad : {"8", "2048", "0", "-256", "256x", "255", "4294967296", "0x100", ""}) {
    EXPECT_EQ(load_one(std::string("bins = ") + bad, 1).picture.bins, 256u) << bad;
  }
  EXPECT_EQ(load_one("speed = 0.25", 0).speed, 0.25f);
  EXPECT_EQ(load_one("speed = 4", 0).speed, 4.0f);
  EXPECT_EQ(load_one("speed = +2", 0).speed, 2.0f);
  for (const char* bad : {"0.2", "4.01", "nan", "inf", "-1", "1,5", "99999999999999999999", "1e38"}) {
    EXPECT_EQ(load_one(std::string("speed = ") + bad, 1).speed, 1.0f) << bad;
  }
  EXPECT_EQ(load_one("window_width = 160", 0).window_width, 160);
  EXPECT_EQ(load_one("window_height = 16384", 0).window_height, 16384);
  EXPECT_EQ(load_one("window_width = 159", 1).window_width, 1280);
  EXPECT_EQ(load_one("window_height = 16385", 1).window_height, 720);
  // Opacity out of range is clamped rather than reset (and still reported).
  EXPECT_EQ(load_one("opacity = 1.5", 1).picture.opacity, 1.0f);
  EXPECT_EQ(load_one("opacity = -0.25", 1).picture.opacity, 0.0f);
  EXPECT_EQ(load_one("opacity = 0", 0).picture.opacity, 0.0f);
  EXPECT_EQ(load_one("opacity = nan", 1).picture.opacity, 0.75f);
}

TEST(ViewerSettings, HandEditedFilesAreRead) {
  TempDir dir;
  const fs::path file = dir / "settings.ini";
  // A byte-order mark, CRLF line ends, odd spacing, ';' comments and other spellings of booleans.
  write_file(file,
             "\xEF\xBB\xBF# vhist viewer settings\r\n"
             "\r\n"
             "  channel_r=no\r\n"
             "channel_g\t=\toff\r\n"
             "; old-style comment\r\n"
             "channel_b = 0\r\n"
             "loop = yes\r\n"
             "palette = mono   \r\n"
             "bins = 64\r\n"
             "bins = 128\r\n"  // the last one wins
             "recent = /videos/a.mp4\r\n");
  std::vector<std::string> warnings;
  const Settings s = load_settings(file, &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_FALSE(s.picture.channels[0]);
  EXPECT_FALSE(s.picture.channels[1]);
  EXPECT_FALSE(s.picture.channels[2]);
  EXPECT_TRUE(s.picture.channels[3]);
  EXPECT_TRUE(s.loop);
  EXPECT_EQ(s.picture.palette, Palette::mono);
  EXPECT_EQ(s.picture.bins, 128u);
  EXPECT_EQ(s.recent_files, std::vector<std::string>{"/videos/a.mp4"});
}

TEST(ViewerSettings, AFolderInsteadOfAFileWarnsAndGivesDefaults) {
  TempDir dir;
  fs::create_directory(dir / "settings.ini");
  std::vector<std::string> warnings;
  EXPECT_EQ(load_settings(dir / "settings.ini", &warnings), Settings{});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("cannot be read"), std::string::npos) << warnings[0];
}

TEST(ViewerSettings, RecentFilesInTheFileAreDeduplicatedAndLimited) {
  TempDir dir;
  const fs::path file = dir / "settings.ini";
  std::string text = "# vhist viewer settings\nrecent = /v/0.mp4\nrecent = /v/1.mp4\nrecent = /v/0.mp4\n";
  for (int i = 2; i < 14; ++i) text += "recent = /v/" + std::to_string(i) + ".mp4\n";
  write_file(file, text);
  const Settings s = load_settings(file);
  ASSERT_EQ(s.recent_files.size(), kMaxRecentFiles);
  for (std::size_t i = 0; i < kMaxRecentFiles; ++i) {
    EXPECT_EQ(s.recent_files[i], "/v/" + std::to_string(i) + ".mp4");
  }
}

// A relative path opened is remembered absolute, so the recent list opens it from any folder.
TEST(ViewerSettings, RememberRecentMakesPathsAbsolute) {
  const fs::path dir = fs::temp_directory_path() / ("vhist_recent_" + std::to_string(::getpid()));
  fs::create_directories(dir / "clips");
  const fs::path old_cwd = fs::current_path();
  fs::current_path(dir);
  Settings s;
  remember_recent(s, "clips/a.mp4");
  remember_recent(s, "./b.mp4");
  remember_recent(s, "https://example.org/c.m3u8");  // a URL stays as given
  fs::current_path(old_cwd);
  ASSERT_EQ(s.recent_files.size(), 3u);
  EXPECT_EQ(s.recent_files[2], (dir / "clips" / "a.mp4").string());
  EXPECT_EQ(s.recent_files[1], (dir / "b.mp4").string());
  EXPECT_EQ(s.recent_files[0], "https://example.org/c.m3u8");
  fs::remove_all(dir);
}

// Relative entries an older vhist saved become absolute on load when they name a file from the
// current folder; the others (gone, or made elsewhere) stay as they were.
TEST(ViewerSettings, RelativeRecentEntriesThatResolveBecomeAbsolute) {
  const fs::path dir = fs::temp_directory_path() / ("vhist_recent_fix_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "here.mp4") << "x";
  const fs::path old_cwd = fs::current_path();
  fs::current_path(dir);
  Settings s = parse_settings("recent = here.mp4\nrecent = gone.mp4\nrecent = /v/abs.mp4\n", "settings.ini");
  absolutize_recent(s);
  fs::current_path(old_cwd);
  EXPECT_EQ(s.recent_files, (std::vector<std::string>{(dir / "here.mp4").string(), "gone.mp4", "/v/abs.mp4"}));
  fs::remove_all(dir);
}

// [ and ] as in mpv: a tenth slower or faster, within 0.25..4.
TEST(ViewerSettings, SpeedStepsAsMpv) {
  EXPECT_FLOAT_EQ(faster(1.0f), 1.1f);
  EXPECT_FLOAT_EQ(slower(1.1f), 1.0f);
  EXPECT_FLOAT_EQ(slower(1.0f), 1.0f / 1.1f);
  EXPECT_FLOAT_EQ(faster(3.9f), 4.0f);
  EXPECT_FLOAT_EQ(slower(0.26f), 0.25f);
}

TEST(ViewerSettings, RememberRecentKeepsOrderWithoutCopies) {
  Settings s;
  remember_recent(s, "/a.mp4");
  remember_recent(s, "/b.mp4");
  remember_recent(s, "/c.mp4");
  EXPECT_EQ(s.recent_files, (std::vector<std::string>{"/c.mp4", "/b.mp4", "/a.mp4"}));
  remember_recent(s, "/a.mp4");  // opened again: moves to the front
  EXPECT_EQ(s.recent_files, (std::vector<std::string>{"/a.mp4", "/c.mp4", "/b.mp4"}));
  remember_recent(s, "/a.mp4");
  EXPECT_EQ(s.recent_files, (std::vector<std::string>{"/a.mp4", "/c.mp4", "/b.mp4"}));
  remember_recent(s, "");
  EXPECT_EQ(s.recent_files.size(), 3u);
  for (int i = 0; i < 20; ++i) remember_recent(s, "/" + std::to_string(i) + ".mp4");
  ASSERT_EQ(s.recent_files.size(), kMaxRecentFiles);
  EXPECT_EQ(s.recent_files.front(), "/19.mp4");
  EXPECT_EQ(s.recent_files.back(), "/10.mp4");
  remember_recent(s, "/15.mp4");
  EXPECT_EQ(s.recent_files.size(), kMaxRecentFiles);
  EXPECT_EQ(s.recent_files[0], "/15.mp4");
  EXPECT_EQ(s.recent_files[1], "/19.mp4");
  EXPECT_EQ(std::count(s.recent_files.begin(), s.recent_files.end(), "/15.mp4"), 1);
}

TEST(ViewerSettings, SettingsPathFollowsXdgConfigHome) {
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", "/xdg/config");
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(settings_path(), fs::path("/xdg/config/vhist/settings.ini"));
  }
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(settings_path(), fs::path("/home/someone/.config/vhist/settings.ini"));
  }
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", "");
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(settings_path(), fs::path("/home/someone/.config/vhist/settings.ini"));
  }
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", "relative/config");  // the spec says to ignore relative ones
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(settings_path(), fs::path("/home/someone/.config/vhist/settings.ini"));
  }
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
    ScopedEnv home("HOME", nullptr);
    EXPECT_EQ(settings_path(), fs::path());
  }
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", "/xdg/config");
    ScopedEnv home("HOME", nullptr);
    EXPECT_EQ(settings_path(), fs::path("/xdg/config/vhist/settings.ini"));
  }
}

// --- file browser listing -------------------------------------------------------------------

TEST(FileBrowserList, VideoNamesByExtension) {
  for (const char* name : {"a.mp4", "A.MP4", "clip.Mkv", "x.webm", "x.m2ts", "x.y4m", "x.h264", "x.265", "x.hevc",
                           "x.ivf", "x.gif", "archive.tar.mov", "x.mpeg", "x.ts", "x.nut"}) {
    EXPECT_TRUE(FileBrowser::is_video_name(name)) << name;
  }
  for (const char* name : {"", "mp4", ".mp4", "a.", "a.txt", "a.mp4.txt", "a.mp44", "a.mp", "notes", "a.png"}) {
    EXPECT_FALSE(FileBrowser::is_video_name(name)) << name;
  }
}

class FileBrowserFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* folder : {"b-folder", "A-folder", "clips10", "clips2", ".cache"}) {
      fs::create_directory(dir_ / folder);
    }
    for (const char* file : {"clip2.mp4", "Clip10.mkv", "clip1.MOV", "z.webm", "notes.txt", ".hidden.mp4"}) {
      write_file(dir_ / file, "");
    }
    write_file(dir_ / "sized.mp4", std::string(1234, 'x'));
    fs::create_directory_symlink(dir_ / "A-folder", dir_ / "link-to-folder");
    fs::create_symlink(dir_ / "nowhere.mp4", dir_ / "broken-link.mp4");
    ASSERT_EQ(::mkfifo((dir_ / "pipe.mp4").c_str(), 0600), 0);
  }

  static std::vector<std::string> names(const std::vector<FileBrowser::Entry>& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back(e.folder ? e.name + "/" : e.name);
    return out;
  }

  TempDir dir_;
};

TEST_F(FileBrowserFolder, FoldersFirstThenVideosInNaturalOrder) {
  std::string error = "stale";
  const auto entries = FileBrowser::list(dir_.path(), false, false, &error);
  EXPECT_EQ(error, "");
  // Links are followed (a link to a folder is a folder); the broken link and the FIFO are left out.
  EXPECT_EQ(names(entries), (std::vector<std::string>{"A-folder/", "b-folder/", "clips2/", "clips10/",
                                                      "link-to-folder/", "clip1.MOV", "clip2.mp4", "Clip10.mkv",
                                                      "sized.mp4", "z.webm"}));
  const auto sized = std::find_if(entries.begin(), entries.end(), [](const auto& e) { return e.name == "sized.mp4"; });
  ASSERT_NE(sized, entries.end());
  EXPECT_EQ(sized->size, 1234u);
  EXPECT_FALSE(sized->folder);
  EXPECT_EQ(entries.front().size, 0u);
}

TEST_F(FileBrowserFolder, AllFilesAndHiddenFiles) {
  const auto all = names(FileBrowser::list(dir_.path(), true, false, nullptr));
  EXPECT_NE(std::find(all.begin(), all.end(), "notes.txt"), all.end());
  EXPECT_EQ(std::find(all.begin(), all.end(), ".hidden.mp4"), all.end());
  EXPECT_EQ(std::find(all.begin(), all.end(), "pipe.mp4"), all.end());

  const auto hidden = names(FileBrowser::list(dir_.path(), false, true, nullptr));
  EXPECT_EQ(hidden.front(), ".cache/");
  EXPECT_NE(std::find(hidden.begin(), hidden.end(), ".hidden.mp4"), hidden.end());
  EXPECT_EQ(std::find(hidden.begin(), hidden.end(), "notes.txt"), hidden.end());

  const auto everything = FileBrowser::list(dir_.path(), true, true, nullptr);
  EXPECT_EQ(everything.size(), 13u);
  // Folders first throughout.
  const auto first_file = std::find_if(everything.begin(), everything.end(), [](const auto& e) { return !e.folder; });
  EXPECT_TRUE(std::all_of(first_file, everything.end(), [](const auto& e) { return !e.folder; }));
}

TEST_F(FileBrowserFolder, UnreadableFoldersGiveAMessage) {
  std::string error;
  EXPECT_TRUE(FileBrowser::list(dir_ / "no-such-folder", true, true, &error).empty());
  EXPECT_NE(error.find("no-such-folder"), std::string::npos) << error;
  EXPECT_TRUE(FileBrowser::list(dir_ / "notes.txt", true, true, &error).empty());  // a file, not a folder
  EXPECT_NE(error.find("notes.txt"), std::string::npos) << error;
  EXPECT_TRUE(FileBrowser::list(dir_ / "no-such-folder", true, true, nullptr).empty());
  // An empty folder is not an error.
  EXPECT_TRUE(FileBrowser::list(dir_ / "clips2", true, true, &error).empty());
  EXPECT_EQ(error, "");
}

TEST_F(FileBrowserFolder, OpenStartsInTheFolderOfAFile) {
  FileBrowser browser;
  EXPECT_FALSE(browser.is_open());
  browser.open(dir_ / "clip2.mp4");
  EXPECT_TRUE(browser.is_open());
  EXPECT_EQ(browser.folder(), dir_.path());
  browser.open(dir_ / "clips2" / "..");
  EXPECT_EQ(browser.folder(), dir_.path());
  browser.open(dir_ / "gone" / "deeper" / "file.mp4");  // nothing of it exists: the working folder
  EXPECT_EQ(browser.folder(), fs::current_path());
}

// --- file browser drawing -------------------------------------------------------------------

// A headless ImGui context: a built font atlas and a display size are all NewFrame needs.
class ImGuiFrames : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini written into the test's folder
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.0f / 60;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    ASSERT_NE(pixels, nullptr);
    // Keys 0..2 stand for Escape, Enter and End, so that tests can press them.
    io.KeyMap[ImGuiKey_Escape] = 0;
    io.KeyMap[ImGuiKey_Enter] = 1;
    io.KeyMap[ImGuiKey_End] = 2;
  }
  void TearDown() override { ImGui::DestroyContext(context_); }

  std::optional<fs::path> frame(FileBrowser& browser) {
    ImGui::NewFrame();
    auto chosen = browser.draw();
    ImGui::Render();
    const ImDrawData* data = ImGui::GetDrawData();
    EXPECT_NE(data, nullptr);
    if (data) vertices_ += data->TotalVtxCount;
    return chosen;
  }

  // Press and release at `pos`, twice when `double_click`; returns a file chosen meanwhile.
  std::optional<fs::path> click(FileBrowser& browser, ImVec2 pos, bool double_click) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = pos;
    // An idle half second first: presses closer in time and place to the previous ones would
    // count as the third and fourth click of a triple or quadruple click.
    io.DeltaTime = 0.5f;
    std::optional<fs::path> chosen = frame(browser);
    io.DeltaTime = 1.0f / 60;
    for (int i = 0; i < (double_click ? 2 : 1); ++i) {
      io.MouseDown[0] = true;
      if (auto c = frame(browser)) chosen = c;
      io.MouseDown[0] = false;
      if (auto c = frame(browser)) chosen = c;
    }
    return chosen;
  }

  // Clicks into the path field (the first row of the popup, right of Up), goes to the end of the
  // text, types `text` and presses Enter; returns a file chosen meanwhile.
  std::optional<fs::path> type_into_path(FileBrowser& browser, const char* text) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float frame_height = ImGui::GetFontSize() + 2 * style.FramePadding.y;
    // The popup is 760 x 520, centred on the 1280 x 720 display; its title bar is one frame high.
    const float row_y = (720 - 520) / 2.0f + frame_height + style.WindowPadding.y + frame_height / 2;
    std::optional<fs::path> chosen = click(browser, ImVec2(640, row_y), false);
    ImGuiIO& io = ImGui::GetIO();
    for (const int key : {2, -1, 1, -1}) {
      if (key == 1) io.AddInputCharactersUTF8(text);
      for (bool& down : io.KeysDown) down = false;
      if (key >= 0) io.KeysDown[key] = true;
      if (auto c = frame(browser)) chosen = c;
    }
    return chosen;
  }

  ImGuiContext* context_ = nullptr;
  long long vertices_ = 0;
};

TEST_F(ImGuiFrames, DrawsAFolderWithoutCrashing) {
  TempDir dir;
  fs::create_directory(dir / "sub");
  for (const char* file : {"a.mp4", "b.mkv", "c.txt", "odd ## name %s.mp4"}) write_file(dir / file, "data");
  FileBrowser browser;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(frame(browser), std::nullopt);  // closed: draws nothing
  EXPECT_EQ(vertices_, 0);
  browser.open(dir.path());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(frame(browser), std::nullopt);
  EXPECT_TRUE(browser.is_open());
  EXPECT_GT(vertices_, 0);

  // Drawn into a window of its own instead of a popup.
  FileBrowser embedded;
  for (int i = 0; i < 3; ++i) {
    ImGui::NewFrame();
    ImGui::Begin("Files");
    EXPECT_EQ(embedded.draw_contents(), std::nullopt);
    ImGui::End();
    ImGui::Render();
  }
  EXPECT_EQ(embedded.folder(), fs::current_path());
}

TEST_F(ImGuiFrames, FolderThatDisappears) {
  TempDir dir;
  fs::create_directory(dir / "sub");
  write_file(dir / "sub" / "a.mp4", "data");
  FileBrowser browser;
  browser.open(dir / "sub");
  EXPECT_EQ(frame(browser), std::nullopt);
  fs::remove_all(dir / "sub");
  // Until Refresh the stale listing keeps drawing; opening again falls back to the parent.
  EXPECT_EQ(frame(browser), std::nullopt);
  browser.open(dir / "sub");
  EXPECT_EQ(browser.folder(), dir.path());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(frame(browser), std::nullopt);
  EXPECT_TRUE(browser.is_open());
}

TEST_F(ImGuiFrames, EscapeCloses) {
  TempDir dir;
  FileBrowser browser;
  browser.open(dir.path());
  for (int i = 0; i < 3; ++i) frame(browser);
  ImGui::GetIO().KeysDown[0] = true;
  EXPECT_EQ(frame(browser), std::nullopt);
  ImGui::GetIO().KeysDown[0] = false;
  EXPECT_FALSE(browser.is_open());
  EXPECT_EQ(frame(browser), std::nullopt);
  EXPECT_FALSE(browser.is_open());
  // And opens again.
  browser.open(dir.path());
  frame(browser);
  EXPECT_TRUE(browser.is_open());
}

// Double-clicks down a column through the middle of the popup: the first row is the folder
// "clips", which it enters, and then the only row is b.mp4, which it returns.
TEST_F(ImGuiFrames, DoubleClicksEnterAFolderAndChooseAFile) {
  TempDir dir;
  fs::create_directory(dir / "clips");
  write_file(dir / "clips" / "b.mp4", "data");
  write_file(dir / "a.mp4", "data");
  FileBrowser browser;
  browser.open(dir.path());
  for (int i = 0; i < 3; ++i) frame(browser);

  std::optional<fs::path> chosen;
  fs::path folder = browser.folder();
  std::vector<fs::path> visited;
  for (float y = 0; y < 720 && !chosen && browser.is_open(); y += 3) {
    chosen = click(browser, ImVec2(640, y), true);
    if (browser.folder() != folder) {
      folder = browser.folder();
      visited.push_back(folder);
      y = 0;  // the new listing starts at the top again
    }
  }
  EXPECT_EQ(visited, std::vector<fs::path>{dir / "clips"});
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(*chosen, dir / "clips" / "b.mp4");
  EXPECT_FALSE(browser.is_open());
  EXPECT_EQ(frame(browser), std::nullopt);  // returned once only
}

TEST_F(ImGuiFrames, TypedPathsEnterFoldersChooseFilesOrShowAnError) {
  TempDir dir;
  fs::create_directory(dir / "clips");
  write_file(dir / "clips" / "b.mp4", "data");
  FileBrowser browser;
  browser.open(dir.path());
  for (int i = 0; i < 3; ++i) frame(browser);

  EXPECT_EQ(type_into_path(browser, "/clips"), std::nullopt);
  EXPECT_EQ(browser.folder(), dir / "clips");
  EXPECT_TRUE(browser.is_open());
  const auto chosen = type_into_path(browser, "/b.mp4");
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(*chosen, dir / "clips" / "b.mp4");
  EXPECT_FALSE(browser.is_open());

  // A path that does not exist shows a message in the list and stays in the folder.
  browser.open(dir.path());
  for (int i = 0; i < 3; ++i) frame(browser);
  EXPECT_EQ(type_into_path(browser, "/missing"), std::nullopt);
  EXPECT_EQ(browser.folder(), dir.path());
  EXPECT_TRUE(browser.is_open());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(frame(browser), std::nullopt);
}

}  // namespace
}  // namespace vhist::viewer
