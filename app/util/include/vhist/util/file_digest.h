// The SHA-256 of an input file for the QC provenance, computed while the run reads the file: a
// thread of its own reads it from start to end beside the decoder (the two share the page
// cache, so the file comes from disk once), not in a second pass after the run.
#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace vhist::util {

class FileDigest {
 public:
  // Starts reading `path` (a regular file; anything else gives no digest, with a reason).
  explicit FileDigest(const std::string& path);
  ~FileDigest();  // stops the thread early when the digest was not asked for
  FileDigest(const FileDigest&) = delete;
  FileDigest& operator=(const FileDigest&) = delete;

  // Waits for the end of the file: the digest in lower-case hex, or empty with `error` set.
  std::string sha256(std::string& error);

 private:
  void run(std::string path);

  std::atomic<bool> stop_{false};
  std::string hex_, error_;
  std::thread thread_;
};

// A file's facts for the provenance: size in bytes, modification time (UTC, ISO 8601 to the
// second: 2026-12-02T18:40:05Z); false when it cannot be read (`stat` fails).
bool file_facts(const std::string& path, long long& size, std::string& modified);

// Now, UTC, ISO 8601 to the second; and this machine's host name.
std::string utc_now();
std::string host_name();

}  // namespace vhist::util
