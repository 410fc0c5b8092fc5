#include "vhist/analyze/batch_command.h"

#include "batch_children.h"
#include "batch_plan.h"
#include "batch_table.h"
#include "batch_threads.h"
#include "qc_row.h"
#include "stop_signals.h"

#include "vhist/analyze/qc_command.h"
#include "vhist/command_line/command_line.h"
#include "vhist/qc/batch_tally.h"
#include "vhist/util/files.h"

#include <sched.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <filesystem>

namespace vhist::app {

using nlohmann::ordered_json;

namespace {

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

// Each child's own options: the batch's handed-on ones, and its share of the cores (--jobs
// processes each decoding and counting with every core would only contend).
std::vector<std::string> child_options(const BatchOptions& o) {
  std::vector<std::string> forward = o.forward;
  const bool threads_given = std::find(forward.begin(), forward.end(), "--threads") != forward.end();
  if (!threads_given && o.jobs > 1) {
    cpu_set_t allowed;  // the cores this process may use (a cpuset, taskset, Slurm), not the host's
    const int count = ::sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
    const unsigned cores = count > 0 ? static_cast<unsigned>(count) : std::max(1u, std::thread::hardware_concurrency());
    forward.insert(forward.end(), {"--threads", std::to_string(std::max(1u, cores / o.jobs))});
  }
  return forward;
}

// The row of an input whose `vhist qc` ended (not interrupted) with `status`: its row file when it
// judged the file (0 or 3, or 2 with a "partial" row: a damaged input judged as far as it
// decodes), else an error row with its last message. A run that failed after writing its row
// (validation messages) is not complete: the row file goes.
ordered_json ended_row(const BatchItem& item, int status, const std::string& message, double seconds) {
  ordered_json row = status == 0 || status == kFailedChecksStatus || status == 2 ? read_row(item.row) : ordered_json(nullptr);
  if (!row.is_null() && (status != 2 || row.value("status", "") == "partial")) return row;
  std::error_code ec;
  std::filesystem::remove(item.row, ec);
  const std::string why = message.empty() ? "vhist qc ended with status " + std::to_string(status) : message;
  return error_row(item.input, item.key, why, seconds);
}

// Runs the inputs not done, --jobs at a time; their rows land in `rows` (plan order).
class BatchRun {
 public:
  BatchRun(const BatchOptions& o, const std::vector<BatchItem>& plan, std::vector<ordered_json>& rows)
      : o_(o), plan_(plan), rows_(rows), terminal_(::isatty(STDERR_FILENO) == 1) {
    // A test hook: VHIST_TEST_BATCH_HOLD=N starts no input once N have finished, and waits for
    // a signal, so that a test interrupts a batch with some inputs done and some not, however
    // fast the machine (tests/test_batch.cpp).
    if (const char* hold = std::getenv("VHIST_TEST_BATCH_HOLD")) hold_after_ = std::strtoull(hold, nullptr, 10);
    if (o.threads) children_ = std::make_unique<BatchThreads>(child_options(o));
    else children_ = std::make_unique<BatchChildren>(child_options(o));
  }

  // Returns 0, or 128 + the signal that stopped the batch.
  int run(const std::vector<std::size_t>& todo) {
    total_ = todo.size();
    std::size_t next = 0;
    while (next < todo.size() || children_->running() > 0) {
      if (stop_requested()) {
        children_->stop_all();
        if (terminal_ && !o_.quiet) std::fputc('\n', stderr);
        std::fprintf(stderr, "vhist batch: interrupted (%s): %zu of %zu inputs done; run the same command again to "
                     "go on from there\n", std::string(signal_name(stop_signal())).c_str(), finished_, todo.size());
        return 128 + stop_signal();
      }
      while (next < todo.size() && children_->running() < o_.jobs && finished_ < hold_after_) start(todo[next++]);
      for (const ChildEnd& end : children_->wait(std::chrono::milliseconds(200))) finish(end);
      show_progress(todo.size());
    }
    if (terminal_ && !o_.quiet && !todo.empty()) std::fputc('\n', stderr);
    return 0;
  }

 private:
  void start(std::size_t index) {
    if (const std::string error = children_->start(plan_[index], index); !error.empty()) {
      finish_row(index, error_row(plan_[index].input, plan_[index].key, error, 0));
    }
  }

  void finish(const ChildEnd& end) {
    finish_row(end.item, ended_row(plan_[end.item], end.status, end.error, end.seconds));
  }

  void finish_row(std::size_t index, ordered_json row) {
    ++finished_;
    const bool error = row.value("status", "") != "ok";
    if (!error && !o_.quiet && !terminal_) {  // a log: a line per input
      const double seconds = row.value("seconds", 0.0);
      const std::int64_t frames = row.value("frames", std::int64_t{0});
      std::fprintf(stderr, "vhist batch: [%zu/%zu] %s: %s, %lld frames, %.1f fps\n", finished_, total_,
                   plan_[index].key.c_str(), row.value("qc", "") == "fail" ? "FAILED QC" : "passed",
                   static_cast<long long>(frames), seconds > 0 ? static_cast<double>(frames) / seconds : 0.0);
    }
    if (error && !o_.quiet) {
      if (terminal_) std::fputc('\n', stderr);
      const std::string why = row.value("error", std::string());
      if (why.find(plan_[index].input) != std::string::npos) std::fprintf(stderr, "vhist batch: %s\n", why.c_str());
      else std::fprintf(stderr, "vhist batch: %s: %s\n", util::quoted(plan_[index].input).c_str(), why.c_str());
    }
    rows_[index] = std::move(row);
  }

  void show_progress(std::size_t total) {
    if (o_.quiet || !terminal_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const double share = (static_cast<double>(finished_) + children_->running_share()) / static_cast<double>(total);
    const std::string eta = share > 0.01 ? clock_text(elapsed / share - elapsed) : std::string("--:--:--");
    std::fprintf(stderr, "\rvhist batch: %zu/%zu files, %.0f fps, ETA %s   ", finished_, total,
                 elapsed > 0 ? static_cast<double>(children_->frames()) / elapsed : 0.0, eta.c_str());
    std::fflush(stderr);
  }

  const BatchOptions& o_;
  const std::vector<BatchItem>& plan_;
  std::vector<ordered_json>& rows_;
  std::unique_ptr<BatchWorkers> children_;
  bool terminal_;
  std::size_t finished_ = 0, total_ = 0;
  std::size_t hold_after_ = SIZE_MAX;  // the test hook's N (VHIST_TEST_BATCH_HOLD); none: every input
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// What this process writes on standard error while it lives, kept (and fd 2 restored, however
// the scope is left). Without a temporary file, nothing is kept and fd 2 is left alone.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()), saved_(file_ != nullptr ? ::dup(STDERR_FILENO) : -1) {
    if (saved_ >= 0) std::fflush(stderr), ::dup2(::fileno(file_), STDERR_FILENO);
  }
  ~StderrCapture() {
    restore();
    if (file_ != nullptr) std::fclose(file_);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  std::string finish() {
    restore();
    std::string text;
    if (file_ == nullptr) return text;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text.append(buffer, n);
    return text;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_;
};

// --key: the one input analysed in this process (no child to start: callers such as a Dask task
// run one input per command), what `vhist qc` says on standard error kept for an error row and
// passed on unless -q. Returns 0, or 128 + the signal that stopped it.
int run_in_process(const BatchOptions& o, const BatchItem& item, ordered_json& row) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(item.row).parent_path(), ec);
  std::filesystem::remove(item.row, ec);  // an earlier run's row must not pass for this one's
  const CommandLine line = parse_command_line(qc_arguments(item, child_options(o)));
  if (line.end.done) {  // checked by finish_batch_options already
    row = error_row(item.input, item.key, line.end.error, 0);
    return 0;
  }
  const auto started = std::chrono::steady_clock::now();
  std::string text;
  int status = 1;
  {
    StderrCapture capture;
    try {
      status = run_qc(line.qc);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "vhist qc: %s\n", e.what());
    }
    text = capture.finish();
  }
  if (!o.quiet) std::fputs(text.c_str(), stderr);
  if (status > 128) return status;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  row = ended_row(item, status, last_message(text), seconds);
  return 0;
}

// The exit status the rows give: 1 when any input failed to run, else 3 when any failed QC
// (a damaged input, "partial", fails its decode_error check).
int rows_status(const std::vector<ordered_json>& rows) {
  bool failed_qc = false;
  for (const ordered_json& row : rows) {
    const std::string status = row.value("status", "");
    if (status != "ok" && status != "partial") return 1;
    failed_qc = failed_qc || row.value("qc", "") == "fail";
  }
  return failed_qc ? kFailedChecksStatus : 0;
}

// The batch's last line: what became of the inputs, and where the table is.
void report_counts(const std::vector<ordered_json>& rows, std::size_t skipped, const std::string& dir) {
  qc::BatchTally t;
  for (const ordered_json& row : rows) {
    const auto qc = row.find("qc");  // null in an error row
    t.add(row.value("status", ""), qc != row.end() && qc->is_string() ? qc->get<std::string>() : std::string());
  }
  const std::string damaged =
      t.partial == 0 ? "" : " (" + std::to_string(t.partial) + " of them damaged, judged as far as they decode)";
  std::fprintf(stderr, "vhist batch: %zu inputs: %zu passed, %zu failed QC%s, %zu could not be analysed (%zu complete "
               "before, not run again); the table is %s\n", rows.size(), t.passed, t.failed, damaged.c_str(), t.errors, skipped,
               util::quoted((std::filesystem::path(dir) / "summary.csv").string()).c_str());
}

// The batch (run_batch's body).
int run_plan(const BatchOptions& o) {
  std::signal(SIGCHLD, SIG_DFL);  // children are reaped here, whatever the launcher set
  std::string error;
  const std::vector<BatchItem> plan = make_plan(o, error);
  if (!error.empty() || plan.empty()) {
    std::fprintf(stderr, "vhist batch: %s\n", error.empty() ? "no inputs found (directories are searched for --ext's "
                 "extensions)" : error.c_str());
    return 2;
  }
  if (o.plan) {
    for (const BatchItem& item : plan) std::fputs((plan_json(item) + "\n").c_str(), stdout);
    return 0;
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    std::fprintf(stderr, "vhist batch: cannot make the output directory %s: %s\n", util::quoted(o.out).c_str(),
                 ec.message().c_str());
    return 1;
  }
  install_stop_handlers();
  std::vector<ordered_json> rows(plan.size());
  std::vector<std::size_t> todo;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    if (plan[k].done && !o.force) rows[k] = read_row(plan[k].row);  // its own (complete() checked)
    if (rows[k].is_null()) todo.push_back(k);
  }
  if (!o.key.empty()) {  // one input (finish_batch_options), in this process
    if (!todo.empty()) {
      if (const int stopped = run_in_process(o, plan.front(), rows.front()); stopped != 0) return stopped;
    }
    std::fputs(row_line(rows.front()).c_str(), stdout);
    return rows_status(rows);
  }
  if (const int stopped = BatchRun(o, plan, rows).run(todo); stopped != 0) return stopped;
  std::string table_error = write_tables(o.out, rows);
  if (table_error.empty() && o.report) table_error = write_index(o.out, rows);
  if (!table_error.empty()) {
    std::fprintf(stderr, "vhist batch: %s\n", table_error.c_str());
    return 1;
  }
  if (!o.quiet) report_counts(rows, plan.size() - todo.size(), o.out);
  return rows_status(rows);
}

}  // namespace

int run_batch(const BatchOptions& o) {
  try {
    return run_plan(o);
  } catch (const std::exception& e) {  // out of memory, a file system error not foreseen
    std::fprintf(stderr, "vhist batch: %s\n", e.what());
    return 1;
  }
}

}  // namespace vhist::app
