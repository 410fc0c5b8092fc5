// UniqueFd: owns a POSIX file descriptor and closes it with the object. For code that needs what
// streams do not offer (fsync, ioctl, O_NONBLOCK opens). Move-only; not thread-safe.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace vhist::util {

class UniqueFd {
 public:
  // Takes over `fd` (a negative value: owns nothing, e.g. a failed open(2)).
  explicit UniqueFd(int fd = -1) noexcept : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  explicit operator bool() const noexcept { return valid(); }

  // Gives up ownership without closing; returns the descriptor.
  int release() noexcept { return std::exchange(fd_, -1); }
  // Closes the owned descriptor (errors ignored) and takes over `fd`.
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  // Closes now and reports the result: 0, or the errno of close(2) (on some file systems a failed
  // write shows up only here). The descriptor is given up either way; closing nothing gives EBADF.
  int close() noexcept {
    const int fd = release();
    if (fd < 0) return EBADF;
    return ::close(fd) == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

}  // namespace vhist::util
