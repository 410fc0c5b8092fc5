// Local files: the checks made before opening an input, reading a small file whole, and the one
// atomic-write rule every file vhist writes follows (screenshots, settings.ini).
//
// All functions are thread-safe (no shared state); they report problems as one line of text
// meant for a person, empty when there is none, and throw only std::bad_alloc.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace vhist::util {

// `path` in single quotes, as messages show paths and names: 'shots/a.png'. Control characters
// and bytes that are not UTF-8 are escaped (printable, text.h): a name cannot act on a terminal.
std::string quoted(std::string_view path);

// What stands in the way of reading `path` as an input, before a library answers vaguely; empty
// when nothing. `what` names the kind of file expected, with its article ("a video file", "an
// image file"). The messages:
//   "cannot open 'PATH': no such file"            (ENOENT, ENOTDIR)
//   "cannot open 'PATH': permission denied"       (EACCES, EPERM, on stat or on open)
//   "cannot open 'PATH': <strerror>"              (anything else)
//   "'PATH' is a directory, not <what>"
//   "'PATH' is empty (0 bytes)"                   (a regular file only: devices and FIFOs pass)
// The file is opened (O_RDONLY | O_NONBLOCK) and closed again to check permission.
[[nodiscard]] std::string check_local_file(const std::string& path, std::string_view what);

// The whole content of the regular file `path`, at most `max_bytes` bytes. nullopt with `error`
// set when it cannot: strerror's text ("No such file or directory"), "not a regular file", or
// "larger than N bytes".
std::optional<std::string> read_small_file(const std::string& path, std::size_t max_bytes, std::string& error);

struct AtomicWriteOptions {
  // When `path` is a symbolic link, replace the file it points to and keep the link (a dotfiles
  // setup) instead of replacing the link with a plain file.
  bool follow_symlink = false;
};

// Writes `bytes` to `path` so that a crash or a full disk leaves either the old file or the whole
// new one, never a mix. The rule, the same for every file vhist writes:
//   1. write everything into PATH.tmp (created with mode 0666 & ~umask, truncated if it was there);
//   2. fsync(PATH.tmp): the data is on disk before the name points to it. An fsync error fails the
//      write (the stricter of the two rules vhist had: a file system that cannot sync is not
//      trusted with the replacement);
//   3. close, checked (NFS reports late write errors there);
//   4. rename(PATH.tmp, PATH), which replaces PATH atomically;
//   5. fsync the folder, so that the rename itself survives a crash. Best effort: the new file is
//      already in place, and an error here cannot undo that, so it is not reported.
// On a failure in steps 1-4, PATH is left as it was and PATH.tmp is removed. Returns what failed
// and why, naming the file, empty on success:
//   "cannot create 'shots/a.png.tmp': No such file or directory"
//   "cannot write 'a.png.tmp': No space left on device"
//   "cannot flush 'a.png.tmp' to disk: Input/output error"
//   "cannot close 'a.png.tmp': ..."
//   "cannot rename 'a.png.tmp' to 'a.png': Is a directory"
// Callers put what they were doing in front ("cannot write 'a.png': " + result).
// A `path` that exists and is neither a regular file nor a folder (/dev/null, a FIFO, a
// terminal) is written directly: there is nothing to rename over, and a rename would replace the
// device with a file. A folder fails at the rename (step 4).
[[nodiscard]] std::string write_file_atomically(const std::string& path, std::string_view bytes,
                                                const AtomicWriteOptions& options = {});

}  // namespace vhist::util
