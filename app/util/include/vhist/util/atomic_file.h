// AtomicFile: a file written as a stream (analyze's records) that replaces its destination only
// when complete, by the same rule as write_file_atomically (files.h), and same_file: whether two
// paths name one file (the output that would overwrite the input).
//
// Not thread-safe: one thread writes one AtomicFile. Messages are one line for a person, naming
// the file (control characters escaped, text.h) and the error with its errno name:
//   "cannot write 'out.jsonl.4711-0.tmp': No space left on device (ENOSPC)".
#pragma once

#include "vhist/util/unique_fd.h"

#include <memory>
#include <string>
#include <string_view>

namespace vhist::util {

// Whether `a` and `b` name the same file: the same device and inode, symbolic links followed
// (so also a hard link, a symlink to it, or "./x" and "x"). False when either does not exist.
bool same_file(const std::string& a, const std::string& b);
// The same for the file open as `fd` (standard output redirected to a file) and `path`.
bool same_file(int fd, const std::string& path);

class AtomicFile {
 public:
  // Starts writing `path`. When `path` is a symbolic link, the file it points to is the one
  // replaced (the link stays). The bytes go to a new temporary file next to it,
  // "PATH.<pid>-<n>.tmp", created with O_EXCL (never someone else's file) and mode 0666 & ~umask,
  // or the mode of the file it will replace. When `path` exists and is not a regular file (a
  // FIFO, /dev/null, a terminal) there is nothing to rename over: it is written directly.
  // Returns null with `error` set when it cannot start ("cannot create 'x.tmp': Permission
  // denied (EACCES)", "'out' is a directory").
  static std::unique_ptr<AtomicFile> create(const std::string& path, std::string& error);

  // Without commit(), or when commit() failed: the temporary file is removed and `path` is as
  // it was.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends all of `bytes`; empty, or what failed ("cannot write 'x.tmp': ... (ENOSPC)"). After
  // a failure the file is abandoned: commit() refuses it.
  [[nodiscard]] std::string write(std::string_view bytes);

  // fsync, close (both checked: a full disk or NFS may report only there), rename over `path`,
  // fsync the folder (best effort). Empty on success; else what failed, the temporary file is
  // removed and `path` left as it was.
  [[nodiscard]] std::string commit();

  // The file replaced (links followed) and the temporary written (== target() when direct).
  const std::string& target() const { return target_; }
  const std::string& temp_path() const { return temp_; }
  bool direct() const { return direct_; }

 private:
  AtomicFile() = default;
  std::string target_;
  std::string temp_;
  UniqueFd fd_;
  bool direct_ = false;
  bool failed_ = false;
  bool done_ = false;
};

}  // namespace vhist::util
