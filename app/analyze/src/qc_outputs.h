// `vhist qc`'s outputs from a finished scan: the events as JSON Lines or CSV (with the header's
// provenance first and the summary last), and thumbnails of events' worst frames.
#pragma once

#include "vhist/qc/checks.h"
#include "vhist/qc/timeline.h"
#include "vhist/records/record_writer.h"
#include "vhist/records/source_header.h"

#include <string>
#include <utility>
#include <vector>

namespace vhist::app {

// The provenance's facts that a batch row keeps as columns (qc_row.h), typed; `provenance`
// below says the same for a person.
struct InputFacts {
  long long size = -1;  // the input's bytes; -1 when it is not a file
  std::string modified, sha256, streams, run, command, profile;
};

struct QcRun {
  SourceHeader header;
  std::vector<std::pair<std::string, std::string>> provenance;  // for a person: (label, value)
  InputFacts facts;
  const qc::Timeline* timeline = nullptr;
  std::vector<qc::Event> events;
  qc::Thresholds thresholds;
  std::vector<std::string> notes;  // what was not checked and why
  bool passed = true;
  bool whole_input = true;
  bool partial = false;  // the input is damaged: judged as far as it decodes (status 2)
};

// The events file's text: JSON Lines (a "qc" header object, one "event" per line, a
// "qc_summary" last) or CSV (a header row, one row per event, '#' lines for the provenance and
// the summary).
std::string events_text(const QcRun& run, RecordFormat format);

// A PNG thumbnail (at most `width` pixels wide, upright and at the display's aspect) of the
// frame numbered `frame` at `pts` seconds of `input` (read again from there); empty, with
// `error` set, when it cannot be read.
std::string thumbnail_png(const std::string& input, int stream, std::int64_t frame, double pts, std::uint32_t width,
                          std::string& error);

}  // namespace vhist::app
