// Where `vhist analyze` writes its records: standard output, or a file (-o) that is replaced
// only when the output is complete (util::AtomicFile): a failed run leaves an existing file as
// it was, a full disk never leaves half a file in its place.
#pragma once

#include "vhist/util/atomic_file.h"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace vhist::app {

// The reader of standard output went away (`| head`): stop quietly, as a tool killed by SIGPIPE
// would.
struct OutputClosed {};

// Why `output` (-o) must not be written: it is the input itself (same device and inode, links
// followed, hard links included), so the records would destroy the video; for "-", standard
// output redirected to the input (`>> clip.mp4`). Empty when it may. Checked before anything is
// opened for writing.
std::string output_conflict(const std::string& input, const std::string& output);

class Output {
 public:
  // "-": standard output (fully buffered). Else the file `name`, written through a temporary
  // next to it. Null with `error` set when the file cannot be started.
  static std::unique_ptr<Output> open(const std::string& name, std::string& error);

  // Throws OutputClosed on EPIPE (standard output), else std::runtime_error naming the file and
  // the error (errno name included: ENOSPC) and saying the file is left as it was.
  void write(std::string_view bytes);
  // Standard output: fflush, with the same errors. A file: nothing (written unbuffered).
  void flush();
  // The end of the run. `complete`: the output is whole (records and summary): the file is put
  // in place; else the temporary is removed and an existing file left as it was. Throws
  // std::runtime_error when putting it in place fails (the file is then left as it was too).
  void finish(bool complete);

  // "standard output" or the file in quotes, for messages.
  std::string where() const;
  bool to_file() const { return name_ != "-"; }

 private:
  std::string name_;
  std::FILE* stream_ = nullptr;
  std::unique_ptr<util::AtomicFile> file_;
};

}  // namespace vhist::app
