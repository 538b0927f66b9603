#include "admin/progress.h"

#include <unistd.h>

#include <iostream>
#include <utility>

namespace apogee::admin {

TerminalProgress::TerminalProgress(std::string label, size_t total)
    : TerminalProgress(std::move(label), total, &std::cerr, isatty(STDERR_FILENO) == 1) {}

TerminalProgress::TerminalProgress(std::string label, size_t total, std::ostream* out, bool enabled)
    : label_(std::move(label)), total_(total), out_(out), enabled_(enabled && total > 1) {}

TerminalProgress::~TerminalProgress() { Finish(); }

void TerminalProgress::Finish() {
  if (!enabled_ || last_width_ == 0) return;
  *out_ << '\r' << std::string(last_width_, ' ') << '\r' << std::flush;
  enabled_ = false;
}

void TerminalProgress::Step(std::string_view what) {
  ++done_;
  if (!enabled_) return;
  std::string line = label_ + ": " + std::to_string(done_) + "/" + std::to_string(total_) + " ";
  line.append(what);
  const size_t width = line.size();
  if (width < last_width_) line.append(last_width_ - width, ' ');  // cover the longer line
  *out_ << '\r' << line << std::flush;
  last_width_ = width;
}

}  // namespace apogee::admin
