#include "store/recovery_progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "base/logging.h"

namespace apogee::store {
namespace {

std::string Bytes(int64_t n) {
  const double v = static_cast<double>(n);
  if (n >= (int64_t{1} << 30)) return fmt::format("{:.1f} GiB", v / (1 << 30));
  if (n >= (int64_t{1} << 20)) return fmt::format("{:.1f} MiB", v / (1 << 20));
  if (n >= 1024) return fmt::format("{:.1f} KiB", v / 1024);
  return fmt::format("{} B", n);
}

}  // namespace

RecoveryProgress::RecoveryProgress(int64_t start, int64_t end, const Clock* clock,
                                   std::function<void(const std::string&)> report)
    : start_(start),
      end_(std::max(start, end)),
      clock_(clock),
      report_(std::move(report)),
      begin_ms_(clock->SteadyMillis()),
      last_report_ms_(begin_ms_) {
  if (!report_) {
    report_ = [](const std::string& line) { GetLogger("store")->info("{}", line); };
  }
}

void RecoveryProgress::Update(int64_t offset) {
  scanned_.store(std::max<int64_t>(0, offset - start_), std::memory_order_relaxed);
  if (++calls_ % 4096 != 0) return;
  const int64_t now = clock_->SteadyMillis();
  if (now - last_report_ms_ < 1000) return;
  last_report_ms_ = now;
  report_(Format(scanned(), total(), now - begin_ms_));
}

std::string RecoveryProgress::Format(int64_t done, int64_t total, int64_t elapsed_ms) {
  const int64_t pct = total > 0 ? done * 100 / total : 100;
  std::string line = fmt::format("recovering CommitLog: {} of {} ({}%)", Bytes(done), Bytes(total), pct);
  if (elapsed_ms > 0 && done > 0) {
    const double rate = static_cast<double>(done) * 1000.0 / static_cast<double>(elapsed_ms);
    const int64_t eta_s = static_cast<int64_t>(static_cast<double>(std::max<int64_t>(0, total - done)) / rate);
    line += fmt::format(", {}/s, ETA {} s", Bytes(static_cast<int64_t>(rate)), eta_s);
  }
  return line;
}

}  // namespace apogee::store
