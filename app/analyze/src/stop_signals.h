#pragma once
// analyze's stop signals: Ctrl-C, SIGTERM and SIGHUP end a run with the records so far, from the
// open of the input on. Any thread may ask; the handlers are installed by the main thread.

#include <string_view>

namespace vhist::app {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (no SA_RESTART, so a read blocked in the
// kernel returns, and each asks every open input to give up) and ignores SIGPIPE.
void install_stop_handlers();

bool stop_requested();            // a stop signal has come
int stop_signal();                // which one (0: none)
std::string_view signal_name(int sig);

// Says that a signal came while the input was being opened; returns 128 + its number.
int interrupted_while_opening();

}  // namespace vhist::app
