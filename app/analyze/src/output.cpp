#include "output.h"

#include "vhist/util/files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace vhist::app {

std::string output_conflict(const std::string& input, const std::string& output) {
  if (output == "-") {
    // `vhist analyze clip.mp4 >> clip.mp4`: the shell opened it without truncating.
    if (!util::same_file(STDOUT_FILENO, input)) return {};
    return "standard output is the input " + util::quoted(input) +
           " itself (redirected to it): writing the records there would destroy the video; redirect to another file";
  }
  if (!util::same_file(input, output)) return {};
  return "-o " + util::quoted(output) + " is the input " + util::quoted(input) +
         " itself (the same file, through a link or not): writing the records there would destroy the "
         "video; give another output file";
}

std::unique_ptr<Output> Output::open(const std::string& name, std::string& error) {
  auto out = std::make_unique<Output>();
  out->name_ = name;
  if (name == "-") {
    static char buffer[1 << 16];
    out->stream_ = stdout;
    std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    return out;
  }
  out->file_ = util::AtomicFile::create(name, error);
  if (!out->file_) {
    error = "cannot write " + util::quoted(name) + ": " + error;
    return nullptr;
  }
  return out;
}

void Output::write(std::string_view bytes) {
  if (file_) {
    if (const std::string err = file_->write(bytes); !err.empty()) {
      throw std::runtime_error(err + "; " + where() + " is left as it was");
    }
    return;
  }
  if (std::fwrite(bytes.data(), 1, bytes.size(), stream_) != bytes.size()) {
    if (errno == EPIPE) throw OutputClosed{};
    throw std::runtime_error("cannot write the output: " + std::string(std::strerror(errno)));
  }
}

void Output::flush() {
  if (!stream_) return;
  if (std::fflush(stream_) != 0) {
    if (errno == EPIPE) throw OutputClosed{};
    throw std::runtime_error("cannot write the output: " + std::string(std::strerror(errno)));
  }
}

void Output::finish(bool complete) {
  if (!file_) return;
  // Without commit, the AtomicFile removes its temporary when it goes.
  std::unique_ptr<util::AtomicFile> file = std::move(file_);
  if (!complete) return;
  if (const std::string err = file->commit(); !err.empty()) {
    throw std::runtime_error(err + "; " + util::quoted(name_) + " is left as it was");
  }
}

std::string Output::where() const { return name_ == "-" ? "standard output" : util::quoted(name_); }

}  // namespace vhist::app
