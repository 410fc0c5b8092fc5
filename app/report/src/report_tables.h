// The report's tables: the provenance, the thresholds, the summary per check and the event table.
#pragma once

#include "vhist/report/html_report.h"

#include <string>

namespace vhist::report {

// At most this many rows per check in the event table (the events file lists them all).
inline constexpr std::size_t kMaxRowsPerCheck = 200;

std::string provenance_table(const ReportInput& input);
std::string thresholds_table(const qc::Thresholds& thresholds);
// Per check: events, frames in them, their share of the frames, whether it fails the run.
std::string summary_table(const ReportInput& input, std::size_t frames);
std::string event_table(const ReportInput& input);

}  // namespace vhist::report
