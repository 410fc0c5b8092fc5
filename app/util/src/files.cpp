#include "vhist/util/files.h"

#include "link_paths.h"
#include "temp_file.h"

#include "vhist/util/scope_guard.h"
#include "vhist/util/text.h"
#include "vhist/util/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace vhist::util {

namespace detail {

std::string resolve_link(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved)) return resolved;
  return path;
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace detail

using detail::folder_of;
using detail::resolve_link;

namespace {

std::string open_failure(const std::string& path, int err) {
  if (err == ENOENT || err == ENOTDIR) return "cannot open " + quoted(path) + ": no such file";
  if (err == EACCES || err == EPERM) return "cannot open " + quoted(path) + ": permission denied";
  return "cannot open " + quoted(path) + ": " + std::strerror(err);
}

// Writes all of `bytes` to `fd`; 0 or the errno of the failing write(2).
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

std::string quoted(std::string_view path) { return "'" + printable(path) + "'"; }

std::string check_local_file(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return open_failure(path, errno);
  if (S_ISDIR(st.st_mode)) return quoted(path) + " is a directory, not " + std::string(what);
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) return open_failure(path, errno);
  if (S_ISREG(st.st_mode) && st.st_size == 0) return quoted(path) + " is empty (0 bytes)";
  return {};
}

std::optional<std::string> read_small_file(const std::string& path, std::size_t max_bytes, std::string& error) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "not a regular file";
    return std::nullopt;
  }
  std::string content;
  std::array<char, 1 << 16> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return std::nullopt;
    }
    if (n == 0) return content;
    content.append(buffer.data(), static_cast<std::size_t>(n));
    if (content.size() > max_bytes) {
      error = "larger than " + std::to_string(max_bytes) + " bytes";
      return std::nullopt;
    }
  }
}

namespace {

// An existing target that is neither a regular file nor a folder (/dev/null, a FIFO, a
// terminal): nothing to rename over, and renaming over it would replace the device with a file.
// Written directly.
std::string write_directly(const std::string& target, std::string_view bytes) {
  UniqueFd fd(::open(target.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd) return "cannot open " + quoted(target) + ": " + std::strerror(errno);
  if (const int err = write_all(fd.get(), bytes); err != 0) return "cannot write " + quoted(target) + ": " + std::strerror(err);
  if (const int err = fd.close(); err != 0) return "cannot close " + quoted(target) + ": " + std::strerror(err);
  return {};
}

}  // namespace

std::string write_file_atomically(const std::string& path, std::string_view bytes, const AtomicWriteOptions& options) {
  const std::string target = options.follow_symlink ? resolve_link(path) : path;
  if (struct stat st {}; ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    return write_directly(target, bytes);
  }
  std::string tmp;
  int create_error = 0;
  UniqueFd fd = create_temp(target, 0666, tmp, create_error);
  if (!fd) return "cannot create " + quoted(tmp) + ": " + std::strerror(create_error);
  ScopeGuard remove_tmp([&tmp] { ::unlink(tmp.c_str()); });
  if (const int err = write_all(fd.get(), bytes); err != 0) {
    return "cannot write " + quoted(tmp) + ": " + std::strerror(err);
  }
  if (::fsync(fd.get()) != 0) return "cannot flush " + quoted(tmp) + " to disk: " + std::strerror(errno);
  if (const int err = fd.close(); err != 0) return "cannot close " + quoted(tmp) + ": " + std::strerror(err);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    return "cannot rename " + quoted(tmp) + " to " + quoted(target) + ": " + std::strerror(errno);
  }
  remove_tmp.dismiss();
  // Best effort (see the header): the rename is done whatever the folder's fsync says.
  if (const UniqueFd folder(::open(folder_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); folder) {
    ::fsync(folder.get());
  }
  return {};
}

}  // namespace vhist::util
