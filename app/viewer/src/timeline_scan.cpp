#include "timeline_scan.h"

#include "vhist/util/files.h"
#include "vhist/util/text.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

extern char** environ;

namespace vhist::viewer {

namespace {

// The fd the child writes its progress lines to (`--progress-fd 3`).
constexpr int kProgressFd = 3;
// The child's stderr kept for the message when it fails (its end).
constexpr std::size_t kMaxErrorBytes = 4096;

struct SpawnResult {
  pid_t pid = -1;
  int error = 0;
};

// posix_spawn from a thread of its own whose niceness (per thread on Linux) and policy the child
// inherits: the viewer's threads keep theirs, and nothing has to be lowered back (which an
// unprivileged process may not do).
SpawnResult spawn_low_priority(const std::vector<std::string>& args, int progress_write, int error_write) {
  SpawnResult result;
  // A test hook: VHIST_TEST_SCAN_PRIORITY=normal leaves the child at the viewer's priority, so
  // that a window test on a loaded machine waits for the scan's progress, not for an idle core
  // (tests/test_viewer_timeline.cpp; Timeline.ScanRunsAtIdlePriority checks the default).
  const char* hook = std::getenv("VHIST_TEST_SCAN_PRIORITY");
  const bool lower = hook == nullptr || std::string_view(hook) != "normal";
  std::thread spawner([&] {
    if (lower) {
      setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
      sched_param param{};
      if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &param) != 0) {
        pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
      }
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, error_write, 2);
    posix_spawn_file_actions_adddup2(&actions, progress_write, kProgressFd);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    result.error = posix_spawn(&result.pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
  });
  spawner.join();
  return result;
}

// A pipe whose ends are above the standard descriptors and kProgressFd (so that dup2 onto them in
// the child always makes a copy without close-on-exec), both close-on-exec in the viewer.
bool make_pipe(int ends[2]) {
  int raw[2];
  if (pipe2(raw, O_CLOEXEC) != 0) return false;
  for (int i = 0; i < 2; ++i) {
    ends[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
    close(raw[i]);
  }
  if (ends[0] < 0 || ends[1] < 0) {
    if (ends[0] >= 0) close(ends[0]);
    if (ends[1] >= 0) close(ends[1]);
    return false;
  }
  fcntl(ends[0], F_SETFL, O_NONBLOCK);
  return true;
}

// The last non-empty line of `text`.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return {};
  const std::size_t found = text.rfind('\n', end);
  const std::size_t start = found == std::string::npos ? 0 : found + 1;
  std::string line = text.substr(start, end - start + 1);
  if (line.starts_with("vhist: ")) line.erase(0, 7);
  return util::printable(line);
}

}  // namespace

std::string_view to_string(TimelineScan::State state) {
  switch (state) {
    case TimelineScan::State::none: return "none";
    case TimelineScan::State::live: return "live";
    case TimelineScan::State::scanning: return "scanning";
    case TimelineScan::State::ready: return "ready";
    case TimelineScan::State::failed: return "failed";
  }
  return "none";
}

TimelineScan::~TimelineScan() { stop(); }

void TimelineScan::start(const std::string& input, bool live, const std::string& executable) {
  stop();
  input_ = input;
  if (live) {
    state_ = State::live;
    message_ = "No timeline for live input";
    return;
  }
  identity_ = qc::identify_input(input);
  if (!identity_) {
    state_ = State::failed;
    message_ = "No timeline: cannot read the size and time of " + util::quoted(input);
    return;
  }
  cache_path_ = qc::timeline_cache_path(*identity_);
  std::string error;
  if (auto cached = qc::load_timeline(cache_path_, error); cached && cached->input == *identity_ && cached->complete) {
    file_ = std::move(*cached);
    from_cache_ = true;
    state_ = State::ready;
    ++version_;
    return;
  }
  // Missing, corrupt, another input's or cut short: scanned again (and not read by mistake
  // should the scan end without writing).
  std::error_code ec;
  std::filesystem::remove(cache_path_, ec);
  // This very vhist, by its own path (ps and top show it, not /proc/self/exe).
  std::string self = executable;
  if (self.empty()) self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (self.empty()) self = "/proc/self/exe";
  spawn(self);
}

void TimelineScan::spawn(const std::string& executable) {
  int progress[2], errors[2];
  if (!make_pipe(progress)) {
    state_ = State::failed;
    message_ = std::string("No timeline: cannot make a pipe for the scan: ") + std::strerror(errno);
    return;
  }
  if (!make_pipe(errors)) {
    close(progress[0]), close(progress[1]);
    state_ = State::failed;
    message_ = std::string("No timeline: cannot make a pipe for the scan: ") + std::strerror(errno);
    return;
  }
  const std::vector<std::string> args{executable, "qc", input_, "--timeline-file", cache_path_, "--progress-fd",
                                      std::to_string(kProgressFd), "-q"};
  const SpawnResult r = spawn_low_priority(args, progress[1], errors[1]);
  close(progress[1]), close(errors[1]);
  progress_fd_ = progress[0], error_fd_ = errors[0];
  if (r.error != 0) {
    close_pipes();
    state_ = State::failed;
    message_ = "No timeline: cannot start the scan (" + executable + "): " + std::strerror(r.error);
    return;
  }
  child_ = r.pid;
  ++spawned_;
  state_ = State::scanning;
  message_.clear();
}

void TimelineScan::close_pipes() {
  if (progress_fd_ >= 0) close(progress_fd_);
  if (error_fd_ >= 0) close(error_fd_);
  progress_fd_ = error_fd_ = -1;
}

void TimelineScan::stop() {
  if (child_ > 0) {
    kill(child_, SIGTERM);
    int status = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (waitpid(child_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > until) {
        kill(child_, SIGKILL);
        waitpid(child_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    child_ = -1;
  }
  close_pipes();
  state_ = State::none;
  input_.clear(), cache_path_.clear(), message_.clear(), child_errors_.clear(), partial_line_.clear();
  identity_.reset();
  if (file_) ++version_;
  file_.reset();
  done_ = expected_ = 0;
  from_cache_ = false;
}

void TimelineScan::read_progress() {
  char buffer[512];
  for (;;) {
    const ssize_t n = read(progress_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    partial_line_.append(buffer, static_cast<std::size_t>(n));
  }
  // The last complete line wins; a line cut at the buffer's end waits for its rest.
  for (std::size_t nl; (nl = partial_line_.find('\n')) != std::string::npos; partial_line_.erase(0, nl + 1)) {
    long long done = 0, expected = 0;
    if (std::sscanf(partial_line_.c_str(), "%lld %lld", &done, &expected) == 2 && done >= 0) {
      done_ = done;
      expected_ = std::max(expected, 0LL);
    }
  }
  if (partial_line_.size() > 256) partial_line_.clear();  // not the protocol: ignore it
}

void TimelineScan::read_errors() {
  char buffer[512];
  for (;;) {
    const ssize_t n = read(error_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    child_errors_.append(buffer, static_cast<std::size_t>(n));
  }
  if (child_errors_.size() > kMaxErrorBytes) child_errors_.erase(0, child_errors_.size() - kMaxErrorBytes);
}

bool TimelineScan::poll() {
  if (state_ != State::scanning) return false;
  const std::int64_t before = done_;
  read_progress();
  read_errors();
  int status = 0;
  const pid_t r = waitpid(child_, &status, WNOHANG);
  if (r == 0) return done_ != before;
  child_ = -1;
  read_progress();
  read_errors();
  close_pipes();
  finished(r < 0 ? -1 : status);
  return true;
}

// Whatever the exit status says about the checks (the scan's own notion of pass and fail), a
// timeline file for this input's identity is what was asked for; without one the child's last
// line on stderr says why.
void TimelineScan::finished(int status) {
  std::string error;
  auto loaded = qc::load_timeline(cache_path_, error);
  if (loaded && identity_ && loaded->input == *identity_) {
    file_ = std::move(*loaded);
    state_ = State::ready;
    ++version_;
    return;
  }
  state_ = State::failed;
  const std::string why = last_line(child_errors_);
  std::string how = "ended abnormally";
  if (status != -1 && WIFSIGNALED(status)) how = "was ended by signal " + std::to_string(WTERMSIG(status));
  if (status != -1 && WIFEXITED(status)) how = "failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  if (loaded) {
    message_ = "The file changed while it was scanned: reopen it to scan it again";
  } else if (!why.empty()) {
    message_ = "The timeline's scan " + how + ": " + why;
  } else {
    message_ = "The timeline's scan " + how + "; no timeline (" + error + ")";
  }
}

}  // namespace vhist::viewer
