#include "batch_children.h"

#include "stop_signals.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <thread>

extern char** environ;

namespace vhist::app {

namespace {

constexpr std::size_t kKeptError = 4096;  // the end of a child's standard error kept for its row

// This executable, by its /proc link: it still runs when the file was replaced (an upgrade).
constexpr const char* kSelf = "/proc/self/exe";
// How long stop_all() waits for children to end after SIGTERM before SIGKILL.
constexpr auto kStopGrace = std::chrono::seconds(5);

}  // namespace

std::vector<std::string> qc_arguments(const BatchItem& item, const std::vector<std::string>& forward) {
  std::vector<std::string> args = {"qc", item.input, "-q", "--records", item.records, "-o", item.events,
                                   "--row", item.row, "--row-key", item.key};
  if (!item.report.empty()) args.insert(args.end(), {"--report", item.report});
  args.insert(args.end(), forward.begin(), forward.end());
  return args;
}

std::string last_message(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return {};
  const std::size_t start = text.rfind('\n', end);
  std::string line = text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
  const std::string prefix = "vhist qc: ";
  if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
  return line;
}

BatchChildren::~BatchChildren() { stop_all(); }

std::string BatchChildren::start(const BatchItem& item, std::size_t index) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(item.row).parent_path(), ec);
  if (ec) return "cannot make the directory for " + item.row + ": " + ec.message();
  int err[2], progress[2];
  if (::pipe2(err, O_CLOEXEC) != 0) return std::string("cannot make a pipe: ") + std::strerror(errno);
  if (::pipe2(progress, O_CLOEXEC) != 0) {
    ::close(err[0]), ::close(err[1]);
    return std::string("cannot make a pipe: ") + std::strerror(errno);
  }
  // A row left from an earlier run must not pass for this one's if it is interrupted.
  std::filesystem::remove(item.row, ec);
  std::vector<std::string> args = qc_arguments(item, forward_);
  args.insert(args.begin(), "vhist");
  args.insert(args.end(), {"--progress-fd", "3"});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawn_file_actions_adddup2(&actions, progress[1], 3);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, kSelf, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(err[1]), ::close(progress[1]);
  if (spawned != 0) {
    ::close(err[0]), ::close(progress[0]);
    return std::string("cannot start vhist qc: ") + std::strerror(spawned);
  }
  Child c;
  c.pid = pid, c.err = err[0], c.progress = progress[0], c.item = index;
  c.started = std::chrono::steady_clock::now();
  children_.push_back(std::move(c));
  return {};
}

void BatchChildren::read_from(Child& c, int fd) {
  char buffer[4096];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n <= 0) {
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    ::close(fd);
    (fd == c.err ? c.err : c.progress) = -1;
    return;
  }
  if (fd == c.err) {
    c.err_text.append(buffer, static_cast<std::size_t>(n));
    if (c.err_text.size() > 2 * kKeptError) c.err_text.erase(0, c.err_text.size() - kKeptError);
    return;
  }
  c.progress_text.append(buffer, static_cast<std::size_t>(n));
  for (std::size_t nl; (nl = c.progress_text.find('\n')) != std::string::npos;) {
    long long done = 0, expected = -1;
    if (std::sscanf(c.progress_text.substr(0, nl).c_str(), "%lld %lld", &done, &expected) == 2) {
      c.done = done, c.expected = expected;
    }
    c.progress_text.erase(0, nl + 1);
  }
}

ChildEnd BatchChildren::reap(Child& c, int wait_status) {
  ChildEnd end;
  end.item = c.item;
  end.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.started).count();
  if (WIFEXITED(wait_status)) {
    end.status = WEXITSTATUS(wait_status);
  } else {
    const int sig = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : SIGKILL;
    end.status = 128 + sig;
    end.error = "vhist qc was killed by signal " + std::to_string(sig) + " (" + std::string(signal_name(sig)) + ")";
  }
  if (end.error.empty()) end.error = last_message(c.err_text);
  if (c.err >= 0) ::close(c.err);
  if (c.progress >= 0) ::close(c.progress);
  frames_done_ += c.done;
  return end;
}

std::vector<ChildEnd> BatchChildren::wait(std::chrono::milliseconds timeout) {
  std::vector<pollfd> fds;
  for (const Child& c : children_) {
    for (int fd : {c.err, c.progress}) {
      if (fd >= 0) fds.push_back({fd, POLLIN, 0});
    }
  }
  ::poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
  for (const pollfd& p : fds) {
    if ((p.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    for (Child& c : children_) {
      if (c.err == p.fd || c.progress == p.fd) read_from(c, p.fd);
    }
  }
  std::vector<ChildEnd> ended;
  for (auto it = children_.begin(); it != children_.end();) {
    int status = 0;
    // Reaped once its pipes are closed (every message read), or when it is gone.
    const pid_t r = (it->err < 0 && it->progress < 0) ? ::waitpid(it->pid, &status, 0) : ::waitpid(it->pid, &status, WNOHANG);
    if (r == it->pid || (r < 0 && errno == ECHILD)) {  // ECHILD: reaped by someone else
      while (it->err >= 0) read_from(*it, it->err);  // what it said before it ended
      ended.push_back(reap(*it, status));
      it = children_.erase(it);
    } else {
      ++it;
    }
  }
  return ended;
}

double BatchChildren::running_share() const {
  double share = 0;
  for (const Child& c : children_) {
    if (c.expected > 0) share += std::min(1.0, static_cast<double>(c.done) / static_cast<double>(c.expected));
  }
  return share;
}

std::int64_t BatchChildren::frames() const {
  std::int64_t frames = frames_done_;
  for (const Child& c : children_) frames += c.done;
  return frames;
}

void BatchChildren::stop_all() {
  for (const Child& c : children_) ::kill(c.pid, SIGTERM);
  // A child stuck where SIGTERM cannot reach it (a driver call, a hard NFS read) is killed.
  const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
  for (Child& c : children_) {
    int status = 0;
    while (true) {
      const pid_t r = ::waitpid(c.pid, &status, WNOHANG);
      if (r == c.pid || (r < 0 && errno != EINTR)) break;
      if (std::chrono::steady_clock::now() >= deadline) ::kill(c.pid, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (c.err >= 0) ::close(c.err);
    if (c.progress >= 0) ::close(c.progress);
  }
  children_.clear();
}

}  // namespace vhist::app
