#include "messages.h"

#include <cstdarg>
#include <cstdio>

namespace vhist::app {

namespace {

constexpr std::size_t kKept = 8192;  // bytes of a capture's text kept (its end)
thread_local MessageCapture* t_capture = nullptr;

}  // namespace

MessageCapture::MessageCapture() : outer_(t_capture) { t_capture = this; }

MessageCapture::~MessageCapture() { t_capture = outer_; }

void say(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  if (t_capture == nullptr) {
    std::vfprintf(stderr, format, args);
    va_end(args);
    return;
  }
  std::va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length > 0) {
    std::string& text = t_capture->text_;
    const std::size_t at = text.size();
    text.resize(at + static_cast<std::size_t>(length) + 1);
    std::vsnprintf(text.data() + at, static_cast<std::size_t>(length) + 1, format, args);
    text.pop_back();  // vsnprintf's terminating zero
    if (text.size() > 2 * kKept) text.erase(0, text.size() - kKept);
  }
  va_end(args);
}

}  // namespace vhist::app
