#include "store/disk_guard.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "base/logging.h"
#include "env/disk_usage.h"

namespace apogee::store {
namespace {

bool IsUnder(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         (dir.back() == '/' || path[dir.size()] == '/'));
}

std::string MiB(int64_t bytes) { return fmt::format("{:.1f} MiB", bytes / 1048576.0); }

}  // namespace

DiskGuard::DiskGuard(env::Env* env, Options options,
                     std::function<int64_t()> prepared_commit_log_bytes)
    : env_(env),
      options_(std::move(options)),
      same_disk_(IsUnder(options_.commit_log_dir, options_.root_dir)),
      prepared_commit_log_bytes_(std::move(prepared_commit_log_bytes)) {}

int64_t DiskGuard::PendingCqFiles() const {
  return std::max<int64_t>(0, cq_files_admitted_.load(std::memory_order_relaxed) -
                                  cq_files_created_.load(std::memory_order_relaxed));
}

Status DiskGuard::Refresh() {
  const int64_t prepared = prepared_commit_log_bytes_ ? prepared_commit_log_bytes_() : 0;
  const int64_t need_cl = std::max<int64_t>(0, options_.commit_log_file_size - prepared);
  const int64_t pending = PendingCqFiles();
  const int64_t need_root = options_.index_file_size +
                            (pending + 1) * options_.consume_queue_file_size +
                            options_.config_margin_bytes;
  reserved_cl_.store(need_cl, std::memory_order_relaxed);
  reserved_root_.store(need_root, std::memory_order_relaxed);

  Result<env::DiskSpace> root = env_->GetDiskSpace(options_.root_dir);
  if (!root.ok()) return root.status();
  env::DiskSpace cl = *root;
  if (!same_disk_) {
    Result<env::DiskSpace> other = env_->GetDiskSpace(options_.commit_log_dir);
    if (!other.ok()) return other.status();
    cl = *other;
  }
  const int64_t root_free = static_cast<int64_t>(root->free_bytes);
  const int64_t cl_free = static_cast<int64_t>(cl.free_bytes);
  std::string why;
  int64_t budget = 0;
  auto describe_need = [&] {
    return fmt::format(
        "next CommitLog file {}, next IndexFile {}, {} ConsumeQueue file(s) of {} for messages "
        "not yet dispatched plus one, config {}",
        MiB(need_cl), MiB(options_.index_file_size), pending, MiB(options_.consume_queue_file_size),
        MiB(options_.config_margin_bytes));
  };
  if (same_disk_) {
    budget = root_free - need_root - need_cl;
    if (budget < 0) {
      why = fmt::format(
          "disk full: {} free on {}, the store keeps {} for the files it must "
          "create ({})",
          MiB(root_free), options_.root_dir, MiB(need_root + need_cl), describe_need());
    }
  } else {
    budget = root_free - need_root;
    if (budget < 0) {
      why = fmt::format("disk full: {} free on {}, the store keeps {} there ({})", MiB(root_free),
                        options_.root_dir, MiB(need_root), describe_need());
    } else if (cl_free < need_cl) {
      why = fmt::format("disk full: {} free on {}, the next CommitLog file needs {}", MiB(cl_free),
                        options_.commit_log_dir, MiB(need_cl));
    }
  }
  if (why.empty()) {
    for (const auto* space : {&*root, &cl}) {
      // In percent, as df and Java count it; an unmeasurable disk (-1) is never "full".
      const double used = 100.0 * env::DiskUsedRatio(*space);
      if (used > options_.warning_ratio) {
        why =
            fmt::format("disk full: {:.1f}% used, above diskSpaceWarningLevelRatio {}% ({} free)",
                        used, options_.warning_ratio, MiB(static_cast<int64_t>(space->free_bytes)));
        break;
      }
    }
  }
  budget_.store(std::max<int64_t>(0, budget), std::memory_order_release);
  const bool full = !why.empty();  // before `why` is moved from
  SetFull(full, std::move(why));
  return Status::OK();
}

bool DiskGuard::Admit(int64_t new_cq_files, int64_t now_ms) {
  int64_t last = last_refresh_ms_.load(std::memory_order_relaxed);
  if (last < 0 || now_ms - last >= kRefreshIntervalMs) {
    if (last_refresh_ms_.compare_exchange_strong(last, now_ms)) {
      Status s = Refresh();
      if (!s.ok()) GetLogger("store")->warn("cannot read free disk space: {}", s.ToString());
    }
  }
  if (full()) return false;
  if (new_cq_files <= 0) return true;
  const int64_t cost = new_cq_files * options_.consume_queue_file_size;
  if (budget_.fetch_sub(cost, std::memory_order_acq_rel) - cost < 0) {
    budget_.fetch_add(cost, std::memory_order_acq_rel);
    SetFull(true, fmt::format("disk full: no room for {} more ConsumeQueue file(s) of {} beyond "
                              "what the store keeps for the files it must create",
                              new_cq_files, MiB(options_.consume_queue_file_size)));
    return false;
  }
  cq_files_admitted_.fetch_add(new_cq_files, std::memory_order_relaxed);
  return true;
}

std::string DiskGuard::reason() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reason_;
}

void DiskGuard::SetFull(bool full, std::string reason) {
  const bool was = full_.exchange(full, std::memory_order_acq_rel);
  std::lock_guard<std::mutex> lock(mu_);
  if (full && !was) {
    GetLogger("store")->error("refusing writes: {}", reason);
  } else if (!full && was) {
    GetLogger("store")->info("disk space back: accepting writes again");
  }
  reason_ = std::move(reason);
}

}  // namespace apogee::store
