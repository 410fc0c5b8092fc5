#include "messages.h"

#include <cstdarg>
#include <cstdio>

#include "vhist/util/text.h"

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
  std::string& text = t_capture->text_;
  text += util::vformatted(format, args);
  if (text.size() > 2 * kKept) text.erase(0, text.size() - kKept);
  va_end(args);
}

}  // namespace vhist::app
