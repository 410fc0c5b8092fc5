#include "batch_plan.h"

#include "batch_table.h"
#include "qc_row.h"

#include "vhist/util/files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include <sys/stat.h>

namespace vhist::app {

namespace fs = std::filesystem;

namespace {

struct Found {
  std::string input, key;
};

// A file or folder's identity: the same one through another path (a link) is seen as such.
using FileId = std::pair<dev_t, ino_t>;
std::optional<FileId> file_id(const fs::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return std::nullopt;
  return FileId{st.st_dev, st.st_ino};
}

bool wanted(const fs::path& p, const std::vector<std::string>& extensions) {
  std::string e = p.extension().string();
  if (e.empty()) return false;
  e.erase(0, 1);
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::find(extensions.begin(), extensions.end(), e) != extensions.end();
}

// A directory's video files, recursively (links followed, but not into a folder that contains
// the link: a loop), sorted; keys relative to it. A file reached through two paths is found
// twice; make_plan keeps the first key.
std::string search(const std::string& dir, const std::vector<std::string>& extensions, std::vector<Found>& out) {
  std::vector<Found> found;
  std::error_code ec;
  const auto options = fs::directory_options::follow_directory_symlink | fs::directory_options::skip_permission_denied;
  std::vector<FileId> ancestors;  // the folders above the entry, the directory argument first
  if (const auto id = file_id(dir)) ancestors.push_back(*id);
  fs::recursive_directory_iterator it(dir, options, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      ancestors.resize(std::min<std::size_t>(ancestors.size(), static_cast<std::size_t>(it.depth()) + 1));
      const auto id = file_id(it->path());
      if (!id || std::find(ancestors.begin(), ancestors.end(), *id) != ancestors.end()) {
        it.disable_recursion_pending();
      } else {
        ancestors.push_back(*id);
      }
      continue;
    }
    if (!it->is_regular_file(type_ec) || !wanted(it->path(), extensions)) continue;
    found.push_back({absolute_input(it->path().string()), it->path().lexically_relative(dir).string()});
  }
  if (ec) return "cannot search the directory " + util::quoted(dir) + ": " + ec.message();
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.key < b.key; });
  out.insert(out.end(), found.begin(), found.end());
  return {};
}

std::string read_list(const std::string& list, std::vector<std::string>& inputs) {
  std::ifstream file;
  if (list != "-") {
    file.open(list);
    if (!file) return "--list: cannot read " + util::quoted(list);
  }
  std::istream& in = list == "-" ? std::cin : file;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    inputs.push_back(line.substr(first));
  }
  return {};
}

// Whether the item's outputs are complete: the row (written last) is newer than the input, the
// records and the events, and it is this input's under this key (not another archive's that
// was run into the same directory).
bool complete(const BatchItem& item) {
  std::error_code ec;
  const auto row = fs::last_write_time(item.row, ec);
  if (ec) return false;
  for (const std::string* other : {&item.input, &item.records, &item.events, &item.report}) {
    if (other->empty()) continue;  // no report asked for
    const auto t = fs::last_write_time(*other, ec);
    if (ec || t > row) return false;
  }
  const nlohmann::ordered_json r = read_row(item.row);
  return !r.is_null() && r.value("input", "") == item.input && r.value("key", "") == item.key;
}

}  // namespace

std::vector<BatchItem> make_plan(const BatchOptions& o, std::string& error) {
  std::vector<std::string> inputs = o.inputs;
  if (!o.list.empty()) {
    if ((error = read_list(o.list, inputs)); !error.empty()) return {};
  }
  std::vector<Found> found;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      if ((error = search(input, o.extensions, found)); !error.empty()) return {};
    } else {  // a file, or a path that is not there: its row will say so
      found.push_back({absolute_input(input), fs::path(input).filename().string()});
    }
  }
  std::vector<BatchItem> plan;
  std::map<std::string, std::string> by_key;  // key -> input
  std::set<FileId> files;                      // the same file through two paths runs once
  for (const Found& f : found) {
    const std::string key = o.key.empty() ? f.key : o.key;
    if (const auto id = file_id(f.input); id && !files.insert(*id).second) continue;
    if (key == "summary") {
      error = "the input " + util::quoted(f.input) + " would write DIR/summary.jsonl, the summary table's name; "
              "rename it or give it through --key with another name";
      return {};
    }
    if (const auto seen = by_key.find(key); seen != by_key.end()) {
      if (seen->second == f.input) continue;  // the same file named twice
      error = "two inputs would write the same outputs " + util::quoted(key) + ".*: " + util::quoted(seen->second) +
              " and " + util::quoted(f.input) + "; give their directories instead of the files, or run them apart";
      return {};
    }
    by_key.emplace(key, f.input);
    const std::string base = (fs::path(o.out) / key).string();
    BatchItem item{f.input, key, base + ".jsonl", base + ".qc.jsonl", base + ".row.json",
                   o.report ? base + ".report.html" : std::string(), false};
    item.done = complete(item);
    plan.push_back(std::move(item));
  }
  return plan;
}

std::string plan_json(const BatchItem& item) {
  const nlohmann::ordered_json j = {{"input", item.input},   {"key", item.key}, {"records", item.records},
                                    {"events", item.events}, {"row", item.row}, {"report", item.report},
                                    {"done", item.done}};
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace vhist::app
