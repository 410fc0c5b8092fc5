// `vhist batch`'s summary tables: the rows of every input, in plan order, as JSON Lines and as
// CSV (the columns of qc_row.h; null cells empty), each written atomically.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vhist::app {

// The rows as CSV: a header of the columns, then one line per row.
std::string rows_csv(const std::vector<nlohmann::ordered_json>& rows);
// Reads a row file written by `vhist qc --row`; a null object when it cannot be read.
nlohmann::ordered_json read_row(const std::string& path);
// DIR/summary.jsonl and DIR/summary.csv. Returns an error, empty if none.
std::string write_tables(const std::string& dir, const std::vector<nlohmann::ordered_json>& rows);

// vhist batch --report: DIR/index.html, a row per input linking its report (KEY.report.html, when
// there) beside it. Written to a temporary file and renamed. Returns an error, empty if none.
std::string write_index(const std::string& dir, const std::vector<nlohmann::ordered_json>& rows);

}  // namespace vhist::app
