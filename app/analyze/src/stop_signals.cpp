#include "stop_signals.h"

#include "messages.h"

#include "vhist/media/media_source.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>

namespace vhist::app {

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};  // the signal that stopped the run: SIGINT, SIGTERM or SIGHUP

extern "C" void on_interrupt(int sig) {
  g_signal.store(sig);
  g_interrupted.store(true);
  media::interrupt_all_inputs();  // a read stalled in the open gives up too
}

}  // namespace

std::string_view signal_name(int sig) {
  return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

bool stop_requested() { return g_interrupted.load(); }
int stop_signal() { return g_signal.load(); }

// Ctrl-C, SIGTERM and a hangup (a closed terminal or SSH session) stop the run, from the open on
// (a FIFO whose writer stalls): the records written so far are flushed. No SA_RESTART, so a read
// blocked in the kernel returns. A closed pipe is seen as EPIPE on write and ends the run quietly.
void install_stop_handlers() {
  struct sigaction action{};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGHUP, &action, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

int interrupted_while_opening() {
  const int sig = g_signal.load();
  say("vhist analyze: interrupted (%s) while opening the input; no records written\n", std::string(signal_name(sig)).c_str());
  return 128 + sig;
}

}  // namespace vhist::app
