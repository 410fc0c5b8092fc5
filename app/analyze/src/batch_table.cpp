#include "batch_table.h"

#include "qc_row.h"

#include "vhist/report/html_report.h"
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

std::string text_of(const ordered_json& row, const char* column) {
  const auto it = row.find(column);
  if (it == row.end() || it->is_null()) return {};
  return it->is_string() ? it->get<std::string>() : it->dump();
}

report::BatchIndexRow index_row(const std::string& dir, const ordered_json& row) {
  report::BatchIndexRow r;
  r.key = text_of(row, "key");
  const std::string report = r.key + ".report.html";
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::path(dir) / report, ec)) r.report = report;
  r.status = text_of(row, "status");
  r.verdict = text_of(row, "qc");
  r.failing = text_of(row, "qc_failing");
  r.error = text_of(row, "error");
  r.codec = text_of(row, "codec");
  if (!text_of(row, "width").empty()) {
    r.picture = text_of(row, "width") + "x" + text_of(row, "height") + ", " + text_of(row, "bits") + "-bit " +
                text_of(row, "pixel_format");
  }
  if (!text_of(row, "matrix").empty()) {
    r.colour = text_of(row, "matrix") + " " + text_of(row, "range") + ", " + text_of(row, "primaries") + ", " +
               text_of(row, "transfer");
  }
  r.input = text_of(row, "input");
  if (const auto d = row.find("duration"); d != row.end() && d->is_number()) r.duration = d->get<double>();
  if (const auto f = row.find("frames"); f != row.end() && f->is_number()) r.frames = f->get<long long>();
  return r;
}

}  // namespace

std::string write_index(const std::string& dir, const std::vector<ordered_json>& rows) {
  std::vector<report::BatchIndexRow> index;
  for (const ordered_json& row : rows) index.push_back(index_row(dir, row));
  const std::string title = std::filesystem::path(dir).lexically_normal().filename().string();
  return util::write_file_atomically((std::filesystem::path(dir) / "index.html").string(),
                                     report::batch_index_html(index, title.empty() ? dir : title));
}

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
