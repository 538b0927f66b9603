// Progress of long mqadmin work on a terminal (resetOffsetByTime over many queues or
// brokers, redriveDlq, queryMsgByKey across brokers): one line on stderr rewritten in place,
// "<label>: 2/5 broker-b", erased when done. Nothing is written when stderr is not a
// terminal, so scripts and pipes see only the command's output.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace apogee::admin {

class TerminalProgress {
 public:
  // Writes to stderr when it is a terminal.
  TerminalProgress(std::string label, size_t total);
  // Writes to `out` when `enabled` (tests).
  TerminalProgress(std::string label, size_t total, std::ostream* out, bool enabled);
  ~TerminalProgress();  // erases the line
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  // Starting item `what` (the next of `total`).
  void Step(std::string_view what);
  // Erases the line (call before printing results); the destructor does it too.
  void Finish();

 private:
  std::string label_;
  size_t total_;
  size_t done_ = 0;
  std::ostream* out_;
  bool enabled_;
  size_t last_width_ = 0;
};

}  // namespace apogee::admin
