// `vhist batch`'s plan: every input (files as given, directories searched by extension, the
// --list file's lines) with its key and output paths, and whether its outputs are complete.
#pragma once

#include "vhist/command_line/batch_options.h"

#include <string>
#include <vector>

namespace vhist::app {

struct BatchItem {
  std::string input;  // as found (absolute)
  std::string key;    // the path below its directory argument, or a file's name
  std::string records, events, row;  // DIR/KEY.jsonl, DIR/KEY.qc.jsonl, DIR/KEY.row.json
  std::string report;                // with --report: DIR/KEY.report.html; else empty
  bool done = false;  // the row is there, newer than the input, beside the records and events
};

// The plan, in input order (a directory's files sorted by path). Returns an error (and an empty
// plan) for a --list that cannot be read, a directory that cannot be searched, or two inputs
// that would write the same outputs.
std::vector<BatchItem> make_plan(const BatchOptions& options, std::string& error);

// The item as a JSON object on one line (--plan).
std::string plan_json(const BatchItem& item);

}  // namespace vhist::app
