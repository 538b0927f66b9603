// The progress line of a CommitLog recovery scan: once a second while it runs, "recovering
// CommitLog: 1.2 GiB of 3.0 GiB (40%), 310 MB/s, ETA 6 s" through the store logger, so an
// operator watching a slow restart sees it move. Also what the recovery metrics read.
//
// Thread-safety: Update from the recovering thread; the getters from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "base/clock.h"

namespace apogee::store {

class RecoveryProgress {
 public:
  // Scanning [start, end) of the CommitLog; `report` receives each line (default: the
  // "store" logger at info).
  RecoveryProgress(int64_t start, int64_t end, const Clock* clock,
                   std::function<void(const std::string&)> report = {});

  // The scan reached `offset`. Cheap: looks at the clock every 4096 calls.
  void Update(int64_t offset);

  // "recovering CommitLog: <done> of <total> (<pct>%), <rate>, ETA <s>".
  static std::string Format(int64_t done, int64_t total, int64_t elapsed_ms);

  int64_t scanned() const { return scanned_.load(std::memory_order_relaxed); }
  int64_t total() const { return end_ - start_; }

 private:
  const int64_t start_;
  const int64_t end_;
  const Clock* clock_;
  std::function<void(const std::string&)> report_;
  const int64_t begin_ms_;
  int64_t last_report_ms_;
  uint32_t calls_ = 0;
  std::atomic<int64_t> scanned_{0};
};

}  // namespace apogee::store
