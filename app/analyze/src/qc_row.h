// The summary row of one analysed file (`vhist qc --row`, the row of `vhist batch`'s table): its
// provenance, its exposure over every pixel of every frame, its light and its QC verdict, as one
// flat JSON object whose keys are the table's columns (docs/user-guide.md, "Batch"). The column
// list is kRowColumns, declared once, for the row and the table alike.
#pragma once

#include "qc_outputs.h"

#include "vhist/qc/file_totals.h"
#include "vhist/records/run_summary.h"

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <string_view>

namespace vhist::app {

// The table's columns, in order.
std::span<const std::string_view> row_columns();

struct RowFacts {
  std::string key;       // vhist batch's name for the input
  double duration = -1;  // seconds, -1 unknown
  std::int64_t frames = 0;
  std::string engine;
  double seconds = 0;    // the run's wall time
};

// The row of a file analysed to its end.
nlohmann::ordered_json ok_row(const QcRun& run, const RunSummary& summary, const qc::FileTotals& totals,
                              const RowFacts& facts);
// The row of a file that could not be analysed: every measure null, and vhist's message.
nlohmann::ordered_json error_row(const std::string& input, const std::string& key, const std::string& error,
                                 double seconds);

// A row as one line of JSON, newline included (invalid UTF-8 in names replaced, never thrown).
std::string row_line(const nlohmann::ordered_json& row);

// The path as an absolute one (lexically: links are kept as the user named them).
std::string absolute_input(const std::string& input);

}  // namespace vhist::app
