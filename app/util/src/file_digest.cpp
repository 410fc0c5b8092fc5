#include "vhist/util/file_digest.h"

#include "vhist/util/unique_fd.h"

#include <fcntl.h>
#include <nettle/sha2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

namespace vhist::util {

namespace {

std::string iso_utc(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

FileDigest::FileDigest(const std::string& path) : thread_([this, path] { run(path); }) {}

FileDigest::~FileDigest() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void FileDigest::run(std::string path) {
  // A pipe or a device is never opened here: a second reader would take the decoder's bytes.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    error_ = S_ISREG(st.st_mode) ? std::string(std::strerror(errno)) : "not a regular file";
    return;
  }
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    error_ = !fd ? std::string(std::strerror(errno)) : "not a regular file";
    return;
  }
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::vector<std::uint8_t> buf(1 << 20);
  for (;;) {
    if (stop_) return;
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error_ = std::strerror(errno);
      return;
    }
    if (n == 0) break;
    sha256_update(&ctx, static_cast<std::size_t>(n), buf.data());
  }
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  for (const std::uint8_t b : digest) hex_ += std::string{kHex[b >> 4], kHex[b & 15]};
}

std::string FileDigest::sha256(std::string& error) {
  if (thread_.joinable()) thread_.join();
  error = error_;
  return hex_;
}

bool file_facts(const std::string& path, long long& size, std::string& modified) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  size = static_cast<long long>(st.st_size);
  modified = iso_utc(st.st_mtime);
  return true;
}

std::string utc_now() { return iso_utc(std::time(nullptr)); }

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace vhist::util
