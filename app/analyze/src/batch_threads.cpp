#include "batch_threads.h"

#include "analysis_run.h"
#include "messages.h"

#include <algorithm>
#include <filesystem>

namespace vhist::app {

BatchThreads::~BatchThreads() { stop_all(); }

std::string BatchThreads::open_device(const AnalyzeOptions& options) {
  if (device_tried_) return device_error_;
  device_tried_ = true;
  MessageCapture capture;  // open_analysis_device says why it failed: that is every row's error
  context_ = open_analysis_device(options, "vhist qc");
  if (!context_) device_error_ = last_message(capture.text());
  return device_error_;
}

std::string BatchThreads::start(const BatchItem& item, std::size_t index) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(item.row).parent_path(), ec);
  if (ec) return "cannot make the directory for " + item.row + ": " + ec.message();
  std::filesystem::remove(item.row, ec);  // an earlier run's row must not pass for this one's
  Worker& w = workers_.emplace_back();
  w.line = parse_command_line(qc_arguments(item, forward_));
  w.item = index;
  w.end.item = index;
  if (w.line.end.done) {  // checked by finish_batch_options already
    const std::string error = w.line.end.error;
    workers_.pop_back();
    return error;
  }
  if (const std::string error = open_device(w.line.qc.scan); !error.empty()) {
    workers_.pop_back();
    return error;
  }
  try {
    w.thread = std::thread(&BatchThreads::work, this, std::ref(w));
  } catch (const std::system_error& e) {
    workers_.pop_back();
    return std::string("cannot start a thread: ") + e.what();
  }
  return {};
}

void BatchThreads::work(Worker& w) {
  const auto started = std::chrono::steady_clock::now();
  int status = 1;
  std::string text;
  {
    MessageCapture capture;
    try {
      status = run_qc_shared(w.line.qc, *context_, [&w](std::int64_t done, std::int64_t expected) {
        w.done.store(done, std::memory_order_relaxed);
        w.expected.store(expected, std::memory_order_relaxed);
      });
    } catch (const std::exception& e) {
      say("vhist qc: %s\n", e.what());
    }
    text = capture.text();
  }
  const std::lock_guard lock(mutex_);
  w.end.status = status;
  w.end.error = last_message(text);
  w.end.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  w.ended = true;
  ended_.notify_all();
}

std::vector<ChildEnd> BatchThreads::wait(std::chrono::milliseconds timeout) {
  std::vector<ChildEnd> ends;
  std::unique_lock lock(mutex_);
  ended_.wait_for(lock, timeout, [this] {
    return std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.ended; });
  });
  for (auto it = workers_.begin(); it != workers_.end();) {
    if (!it->ended) {
      ++it;
      continue;
    }
    it->thread.join();  // it has left its run: only the return is left
    frames_done_ += it->done.load();
    ends.push_back(std::move(it->end));
    it = workers_.erase(it);
  }
  return ends;
}

double BatchThreads::running_share() const {
  double share = 0;
  for (const Worker& w : workers_) {
    const std::int64_t expected = w.expected.load(std::memory_order_relaxed);
    if (expected > 0) share += std::min(1.0, static_cast<double>(w.done.load()) / static_cast<double>(expected));
  }
  return share;
}

std::int64_t BatchThreads::frames() const {
  std::int64_t frames = frames_done_;
  for (const Worker& w : workers_) frames += w.done.load(std::memory_order_relaxed);
  return frames;
}

void BatchThreads::stop_all() {
  for (Worker& w : workers_) {
    if (w.thread.joinable()) w.thread.join();
  }
  workers_.clear();
}

}  // namespace vhist::app
