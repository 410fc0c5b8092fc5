#include "batch_table.h"

#include "qc_row.h"

#include "vhist/util/files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace vhist::app {

using nlohmann::ordered_json;

namespace {

// A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break.
std::string csv_cell(const ordered_json& v) {
  if (v.is_null()) return {};
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string rows_csv(const std::vector<ordered_json>& rows) {
  std::string out;
  for (std::string_view c : row_columns()) out += (out.empty() ? "" : ",") + std::string(c);
  out += "\n";
  for (const ordered_json& row : rows) {
    std::string line;
    bool first = true;
    for (std::string_view c : row_columns()) {
      const auto it = row.find(std::string(c));
      line += (first ? "" : ",") + (it == row.end() ? std::string() : csv_cell(*it));
      first = false;
    }
    out += line + "\n";
  }
  return out;
}

ordered_json read_row(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  std::stringstream text;
  text << in.rdbuf();
  ordered_json row = ordered_json::parse(text.str(), nullptr, false);
  return row.is_object() && row.value("type", "") == "row" ? row : ordered_json(nullptr);
}

std::string write_tables(const std::string& dir, const std::vector<ordered_json>& rows) {
  std::string jsonl;
  for (const ordered_json& row : rows) jsonl += row_line(row);
  const std::string base = (std::filesystem::path(dir) / "summary").string();
  if (std::string error = util::write_file_atomically(base + ".jsonl", jsonl); !error.empty()) return error;
  return util::write_file_atomically(base + ".csv", rows_csv(rows));
}

}  // namespace vhist::app
