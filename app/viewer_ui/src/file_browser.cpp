#include "vhist/viewer/file_browser.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace vhist::viewer {

namespace fs = std::filesystem;

namespace {

// Containers and raw elementary streams FFmpeg opens by extension; gif because FFmpeg decodes
// animated GIFs as video.
constexpr auto kVideoExtensions = std::to_array<std::string_view>(
    {"mp4", "mov", "mkv", "webm", "avi", "mxf", "ts", "m2ts", "mts", "nut", "flv", "wmv", "mpg", "mpeg", "m4v",
     "y4m", "h264", "264", "h265", "265", "hevc", "ivf", "gif"});

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Case-insensitive order in which digit runs compare as numbers, so clip2 comes before clip10 the
// way people number their files. ASCII only: locale-aware collation is not worth its surprises
// (it changes with the environment) for a file list.
int natural_compare(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      while (i < a.size() && a[i] == '0') ++i;
      while (j < b.size() && b[j] == '0') ++j;
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && is_digit(a[i_end])) ++i_end;
      while (j_end < b.size() && is_digit(b[j_end])) ++j_end;
      // Without leading zeros, a longer run of digits is a larger number.
      if (i_end - i != j_end - j) return i_end - i < j_end - j ? -1 : 1;
      if (const int c = a.substr(i, i_end - i).compare(b.substr(j, j_end - j)); c != 0) return c < 0 ? -1 : 1;
      i = i_end;
      j = j_end;
      continue;
    }
    const char ca = ascii_lower(a[i]), cb = ascii_lower(b[j]);
    if (ca != cb) return static_cast<unsigned char>(ca) < static_cast<unsigned char>(cb) ? -1 : 1;
    ++i;
    ++j;
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

std::string format_size(std::uintmax_t bytes) {
  constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.1f %s", value, kUnits[unit]);
  return text.data();
}

// "~" and "~/..." as a shell would read them: people type these into the path field.
fs::path expand_home(const std::string& text) {
  if (text == "~" || text.starts_with("~/")) {
    if (const char* home = std::getenv("HOME"); home && *home) {
      return fs::path(home) / text.substr(std::min<std::size_t>(text.size(), 2));
    }
  }
  return fs::path(text);
}

}  // namespace

bool FileBrowser::is_video_name(std::string_view file_name) {
  const auto dot = file_name.rfind('.');
  // ".mp4" alone is a hidden file named mp4, not an mp4 file.
  if (dot == std::string_view::npos || dot == 0) return false;
  std::string extension(file_name.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(), ascii_lower);
  return std::find(kVideoExtensions.begin(), kVideoExtensions.end(), extension) != kVideoExtensions.end();
}

std::vector<FileBrowser::Entry> FileBrowser::list(const fs::path& folder, bool show_all, bool show_hidden,
                                                  std::string* error) {
  std::vector<Entry> entries;
  if (error) error->clear();
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!show_hidden && name.starts_with('.')) continue;
    // status() follows links, so a link to a folder lists as a folder; a broken link, or an
    // entry deleted since the iterator read it, fails here and is left out.
    std::error_code entry_ec;
    const fs::file_status status = it->status(entry_ec);
    if (entry_ec) continue;
    if (fs::is_directory(status)) {
      entries.push_back({std::move(name), true, 0});
    } else if (fs::is_regular_file(status) && (show_all || is_video_name(name))) {
      std::uintmax_t size = it->file_size(entry_ec);
      if (entry_ec) size = 0;
      entries.push_back({std::move(name), false, size});
    }
  }
  if (ec && error) *error = "Cannot read " + folder.string() + ": " + ec.message();
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.folder != b.folder) return a.folder;
    if (const int c = natural_compare(a.name, b.name); c != 0) return c < 0;
    return a.name < b.name;  // names equal but for case or leading zeros: still a strict order
  });
  return entries;
}

void FileBrowser::open(const fs::path& start_folder) {
  std::error_code ec;
  fs::path folder = start_folder;
  // A file (the last video opened) or a path that is gone: start in its folder.
  if (!folder.empty() && !fs::is_directory(folder, ec)) folder = folder.parent_path();
  if (folder.empty() || !fs::is_directory(folder, ec)) folder = fs::current_path(ec);
  if (ec || folder.empty()) folder = "/";
  navigate(folder);
  open_ = true;
  open_requested_ = true;
}

void FileBrowser::navigate(const fs::path& folder) {
  std::error_code ec;
  fs::path target = folder.empty() ? fs::current_path(ec) : folder;
  if (target.is_relative()) {
    if (auto absolute = fs::absolute(target, ec); !ec) target = std::move(absolute);
  }
  // Resolves "..", "." and links so that Up goes to the real parent.
  if (auto canonical = fs::weakly_canonical(target, ec); !ec) {
    target = std::move(canonical);
  } else {
    target = target.lexically_normal();
  }
  // "/videos/" has an empty file name and would make Up go to "/videos".
  if (!target.has_filename() && target.has_relative_path()) target = target.parent_path();
  folder_ = std::move(target);
  path_text_ = folder_.string();
  scroll_to_top_ = true;
  refresh();
}

void FileBrowser::refresh() {
  entries_ = list(folder_, show_all_, show_hidden_, &error_);
  selected_ = -1;
}

std::optional<fs::path> FileBrowser::draw(const char* title) {
  if (open_requested_) {
    ImGui::OpenPopup(title);
    open_requested_ = false;
  }
  if (!open_) return std::nullopt;

  const ImVec2 work = ImGui::GetMainViewport()->WorkSize;
  ImGui::SetNextWindowSize(ImVec2(std::min(760.0f, work.x * 0.9f), std::min(520.0f, work.y * 0.9f)),
                           ImGuiCond_Appearing);
  bool keep_open = true;
  if (!ImGui::BeginPopupModal(title, &keep_open)) {
    // Closed with the title bar's close button, or by other code closing the popup stack.
    open_ = false;
    return std::nullopt;
  }
  bool cancelled = false;
  std::optional<fs::path> chosen = draw_body(true, cancelled);
  const bool escape = !ImGui::IsAnyItemActive() && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) &&
                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
  if (chosen || cancelled || escape) {
    ImGui::CloseCurrentPopup();
    open_ = false;
  }
  ImGui::EndPopup();
  return chosen;
}

std::optional<fs::path> FileBrowser::draw_contents() {
  if (folder_.empty()) navigate({});
  bool cancelled = false;
  return draw_body(false, cancelled);
}

std::optional<fs::path> FileBrowser::draw_path_row() {
  std::optional<fs::path> chosen;
  // Up, then the path field across the rest of the width.
  ImGui::BeginDisabled(!folder_.has_relative_path());
  const bool up = ImGui::Button("Up");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::InputText("##path", &path_text_, ImGuiInputTextFlags_EnterReturnsTrue)) {
    fs::path typed = expand_home(path_text_);
    if (typed.is_relative()) typed = folder_ / typed;
    std::error_code ec;
    const fs::file_status status = fs::status(typed, ec);
    if (fs::is_directory(status)) {
      navigate(typed);
    } else if (fs::is_regular_file(status)) {
      chosen = typed.lexically_normal();
    } else {
      // Shown in the list; folder_ stays, so Up and Refresh still work from there.
      error_ = "No folder or file " + typed.string() + (ec ? ": " + ec.message() : std::string());
      entries_.clear();
      selected_ = -1;
    }
  }
  if (up) navigate(folder_.parent_path());
  return chosen;
}

void FileBrowser::draw_entry(int i, int& activated) {
  const Entry& entry = entries_[static_cast<std::size_t>(i)];
  ImGui::PushID(i);
  // The name is drawn as plain text after an unlabelled Selectable: a label would treat "##"
  // inside a file name as the start of an ID and hide the rest.
  const float x = ImGui::GetCursorPosX();
  if (ImGui::Selectable("", selected_ == i, ImGuiSelectableFlags_AllowDoubleClick)) {
    selected_ = i;
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) activated = i;
  }
  ImGui::SameLine(x);
  const std::string label = entry.folder ? entry.name + "/" : entry.name;
  ImGui::TextUnformatted(label.c_str(), label.c_str() + label.size());
  if (!entry.folder) {
    const std::string size = format_size(entry.size);
    const float size_x = ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(size.c_str()).x;
    // Left out where a long name would run under it.
    if (size_x > x + ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().ItemSpacing.x) {
      ImGui::SameLine(size_x);
      ImGui::TextDisabled("%s", size.c_str());
    }
  }
  ImGui::PopID();
}

int FileBrowser::draw_list() {
  // The list fills the height left above one row of buttons.
  int activated = -1;
  const float footer = ImGui::GetFrameHeightWithSpacing();
  if (!ImGui::BeginListBox("##entries", ImVec2(-FLT_MIN, -footer))) return activated;
  if (scroll_to_top_) {
    ImGui::SetScrollY(0);
    scroll_to_top_ = false;
  }
  if (!error_.empty()) {
    ImGui::TextWrapped("%s", error_.c_str());
  } else if (entries_.empty()) {
    ImGui::TextDisabled(show_all_ ? "(empty folder)" : "(no videos here: tick All files to see every file)");
  }
  // Folders with thousands of files (camera card dumps) would otherwise cost every frame.
  ImGuiListClipper clipper;
  clipper.Begin(error_.empty() ? static_cast<int>(entries_.size()) : 0);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_entry(i, activated);
  }
  ImGui::EndListBox();
  return activated;
}

std::optional<fs::path> FileBrowser::draw_body(bool with_cancel, bool& cancelled) {
  std::optional<fs::path> chosen = draw_path_row();

  // Filters.
  if (ImGui::Checkbox("All files", &show_all_)) refresh();
  ImGui::SameLine();
  if (ImGui::Checkbox("Hidden files", &show_hidden_)) refresh();
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) navigate(folder_);

  int activated = draw_list();

  // Footer: the selection and the buttons.
  ImGui::BeginDisabled(selected_ < 0);
  if (ImGui::Button("Open")) activated = selected_;
  ImGui::EndDisabled();
  if (with_cancel) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) cancelled = true;
  }
  if (selected_ >= 0) {
    ImGui::SameLine();
    ImGui::TextUnformatted(entries_[static_cast<std::size_t>(selected_)].name.c_str());
  }

  // Acted on after drawing: navigating replaces entries_, which the list was reading.
  if (activated >= 0 && !chosen) {
    const Entry& entry = entries_[static_cast<std::size_t>(activated)];
    if (entry.folder) {
      navigate(folder_ / entry.name);
    } else {
      chosen = folder_ / entry.name;
    }
  }
  return chosen;
}

}  // namespace vhist::viewer
