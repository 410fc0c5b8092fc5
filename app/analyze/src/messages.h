// What `vhist analyze` and `vhist qc` say on standard error goes through say(): a batch's worker
// threads (`vhist batch --workers threads`) keep each input's messages for its row, as the
// standard error of a child process is kept. Internal to the analyze module.
#pragma once

#include <string>

namespace vhist::app {

// printf-style; to this thread's innermost MessageCapture when one is open, else to stderr.
void say(const char* format, ...) __attribute__((format(printf, 1, 2)));

// While it lives, what say() is given on this thread is kept here instead of written (the last
// 8 KiB of it: a row needs the last message).
class MessageCapture {
 public:
  MessageCapture();
  ~MessageCapture();
  MessageCapture(const MessageCapture&) = delete;
  MessageCapture& operator=(const MessageCapture&) = delete;

  const std::string& text() const noexcept { return text_; }

 private:
  friend void say(const char* format, ...);
  std::string text_;
  MessageCapture* outer_;
};

}  // namespace vhist::app
