#include "vhist/util/atomic_file.h"

#include "link_paths.h"
#include "temp_file.h"

#include "vhist/util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace vhist::util {

namespace {

// "No space left on device (ENOSPC)": the text, and the name a search finds.
std::string describe(int err) {
  std::string text = std::strerror(err);
  if (const char* name = ::strerrorname_np(err)) text += std::string(" (") + name + ")";
  return text;
}


}  // namespace

UniqueFd create_temp(const std::string& target, mode_t mode, std::string& temp, int& err) {
  static std::atomic<unsigned> counter{0};
  for (int tries = 0; tries < 100; ++tries) {
    temp = target + "." + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".tmp";
    UniqueFd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode));
    if (fd || errno != EEXIST) {
      err = fd ? 0 : errno;
      return fd;
    }
  }
  err = EEXIST;
  return UniqueFd();
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool same_file(int fd, const std::string& path) {
  struct stat sa {}, sb {};
  if (::fstat(fd, &sa) != 0 || ::stat(path.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::unique_ptr<AtomicFile> AtomicFile::create(const std::string& path, std::string& error) {
  std::unique_ptr<AtomicFile> file(new AtomicFile());
  file->target_ = detail::resolve_link(path);
  const std::string& target = file->target_;
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    error = quoted(path) + " is a directory";
    return nullptr;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A FIFO, a device, a terminal: written in place (renaming over /dev/null would replace it).
    file->direct_ = true;
    file->temp_ = target;
    file->fd_.reset(::open(target.c_str(), O_WRONLY | O_CLOEXEC));
    if (!file->fd_) {
      error = "cannot open " + quoted(path) + " for writing: " + describe(errno);
      return nullptr;
    }
    return file;
  }
  int err = 0;
  file->fd_ = create_temp(target, 0666, file->temp_, err);
  if (!file->fd_) {
    error = "cannot create " + quoted(file->temp_) + ": " + describe(err);
    return nullptr;
  }
  // The replacement keeps the permissions of the file it replaces (best effort: the owner's).
  if (exists) ::fchmod(file->fd_.get(), st.st_mode & 07777);
  return file;
}

AtomicFile::~AtomicFile() {
  if (!direct_ && !done_ && !temp_.empty()) ::unlink(temp_.c_str());
}

std::string AtomicFile::write(std::string_view bytes) {
  if (failed_ || done_ || !fd_) return "cannot write " + quoted(temp_) + ": the file was abandoned after an error";
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_.get(), bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      failed_ = true;
      return "cannot write " + quoted(temp_) + ": " + describe(err);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

std::string AtomicFile::commit() {
  if (failed_ || done_ || !fd_) return "cannot finish " + quoted(temp_) + ": the file was abandoned after an error";
  failed_ = true;  // until the end is reached
  if (direct_) {
    if (const int err = fd_.close(); err != 0) return "cannot close " + quoted(temp_) + ": " + describe(err);
    failed_ = false;
    done_ = true;
    return {};
  }
  if (::fsync(fd_.get()) != 0) return "cannot flush " + quoted(temp_) + " to disk: " + describe(errno);
  if (const int err = fd_.close(); err != 0) return "cannot close " + quoted(temp_) + ": " + describe(err);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    return "cannot rename " + quoted(temp_) + " to " + quoted(target_) + ": " + describe(errno);
  }
  failed_ = false;
  done_ = true;
  // Best effort: the rename is done whatever the folder's fsync says (as write_file_atomically).
  if (const UniqueFd folder(::open(detail::folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); folder) {
    ::fsync(folder.get());
  }
  return {};
}

}  // namespace vhist::util
