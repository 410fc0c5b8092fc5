// A small file browser drawn with Dear ImGui, for picking a video to open without a desktop file
// dialog (vhist draws its whole UI itself and must not depend on GTK or a portal). The listing is
// a static function apart from ImGui so that tests can check it without a UI.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::viewer {

class FileBrowser {
 public:
  // Opens the browser at `start_folder` (a file's folder when it names a file; the working folder
  // when it is empty or missing). The popup itself is opened by the next draw(): ImGui::OpenPopup
  // must be called from the same ID stack as BeginPopupModal.
  void open(const std::filesystem::path& start_folder);

  // Draws the modal popup `title` while it is open; call every frame. Returns the chosen file on
  // the frame it is chosen (double-click, Open, or Enter on a file path typed in the path field),
  // and closes the popup then.
  std::optional<std::filesystem::path> draw(const char* title = "Open video");

  // Draws the browser's contents into the current ImGui window instead of a popup (a docked
  // panel); returns a chosen file like draw(). Uses the folder of the last open() call.
  std::optional<std::filesystem::path> draw_contents();

  bool is_open() const { return open_; }
  const std::filesystem::path& folder() const { return folder_; }

  // One row of a listing. `name` is the plain file name (the UI adds '/' to folders); `size` is
  // the file size in bytes, 0 for folders and when it cannot be read.
  struct Entry {
    std::string name;
    bool folder;
    std::uintmax_t size;
  };

  // The sub-folders and then the files of `folder`, each group sorted by name (ignoring case),
  // links followed. Files are limited to video names (is_video_name) unless `show_all`; names
  // starting with '.' are left out unless `show_hidden`; other kinds (sockets, FIFOs, broken
  // links) are always left out. When the folder cannot be read, returns what was read (usually
  // nothing) and sets *error to a message; *error is cleared otherwise. Never throws.
  static std::vector<Entry> list(const std::filesystem::path& folder, bool show_all, bool show_hidden,
                                 std::string* error);

  // Whether the extension of `file_name` (any case) is one of the video containers and raw
  // streams vhist can usually decode.
  static bool is_video_name(std::string_view file_name);

 private:
  void navigate(const std::filesystem::path& folder);
  void refresh();
  // The path row, filters, list and buttons; sets `cancelled` when Cancel (shown only when
  // `with_cancel`) is pressed.
  std::optional<std::filesystem::path> draw_body(bool with_cancel, bool& cancelled);
  // The Up button and the path field; a file typed there and entered is returned.
  std::optional<std::filesystem::path> draw_path_row();
  // The listing; returns the index of an entry double-clicked, else -1.
  int draw_list();
  // One entry of the listing (selecting it; `activated` set on a double click).
  void draw_entry(int index, int& activated);

  std::filesystem::path folder_;
  std::string path_text_;  // the editable path field; may differ from folder_ while typing
  std::vector<Entry> entries_;
  std::string error_;
  int selected_ = -1;  // index into entries_, -1 for none
  bool show_all_ = false;
  bool show_hidden_ = false;
  bool open_ = false;
  bool open_requested_ = false;
  bool scroll_to_top_ = false;
};

}  // namespace vhist::viewer
