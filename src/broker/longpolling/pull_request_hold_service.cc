#include "broker/longpolling/pull_request_hold_service.h"

#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "base/logging.h"

namespace apogee::broker {

PullRequestHoldService::PullRequestHoldService(const Clock* clock, MaxOffsetFunction max_offset,
                                               std::shared_ptr<remoting::Executor> executor,
                                               PullRequestHoldOptions options)
    : ServiceThread("PullRequestHoldService"),
      clock_(clock),
      max_offset_(std::move(max_offset)),
      executor_(std::move(executor)),
      options_(options) {}

PullRequestHoldService::~PullRequestHoldService() { Shutdown(); }

std::string PullRequestHoldService::Key(std::string_view topic, int32_t queue_id) {
  std::string key(topic);
  key.push_back('@');
  key.append(std::to_string(queue_id));
  return key;
}

size_t PullRequestHoldService::Cost(const HeldPullRequest& request) {
  // The entry, its strings and the closures' shared state, roughly.
  constexpr size_t kEntryOverhead = 512;
  return kEntryOverhead + request.topic.size() + request.bytes;
}

void PullRequestHoldService::Forget(const std::vector<HeldPullRequest>& gone) {
  for (const HeldPullRequest& r : gone) {
    --held_count_;
    held_bytes_ -= Cost(r);
  }
}

Status PullRequestHoldService::SuspendPullRequest(HeldPullRequest request) {
  request.suspend_steady_ms = clock_->SteadyMillis();
  std::string key = Key(request.topic, request.queue_id);
  const size_t cost = Cost(request);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (options_.max_held_requests != 0 && held_count_ >= options_.max_held_requests) {
      return Status::Busy(fmt::format("{} pull requests are held, the limit (pullHoldMaxRequests)",
                                      held_count_));
    }
    if (options_.max_held_bytes != 0 && held_bytes_ + cost > options_.max_held_bytes) {
      return Status::Busy(fmt::format(
          "held pull requests take {} bytes, the limit is {} (pullHoldMaxBytes)", held_bytes_,
          options_.max_held_bytes));
    }
    ++held_count_;
    held_bytes_ += cost;
    table_[std::move(key)].push_back(std::move(request));
  }
  // The new deadline may be earlier than the one the service thread sleeps towards.
  Wakeup();
  return Status::OK();
}

void PullRequestHoldService::NotifyMessageArriving(std::string_view topic, int32_t queue_id,
                                                   int64_t next_queue_offset) {
  const int64_t now = clock_->SteadyMillis();
  std::vector<HeldPullRequest> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(Key(topic, queue_id));
    if (it == table_.end()) return;
    std::vector<HeldPullRequest> keep;
    for (HeldPullRequest& r : it->second) {
      if (r.channel && !r.channel->IsActive()) {  // nobody to answer
        --held_count_;
        held_bytes_ -= Cost(r);
        continue;
      }
      if (next_queue_offset > r.pull_from_offset || now >= r.suspend_steady_ms + r.timeout_ms) {
        ready.push_back(std::move(r));
      } else {
        keep.push_back(std::move(r));
      }
    }
    Forget(ready);
    if (keep.empty()) {
      table_.erase(it);
    } else {
      it->second = std::move(keep);
    }
  }
  Dispatch(std::move(ready));
}

void PullRequestHoldService::CheckHoldRequests() {
  std::vector<std::pair<std::string, int32_t>> queues;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, requests] : table_) {
      if (!requests.empty()) queues.emplace_back(requests.front().topic, requests.front().queue_id);
    }
  }
  for (const auto& [topic, queue_id] : queues) {
    NotifyMessageArriving(topic, queue_id, max_offset_(topic, queue_id));
  }
}

size_t PullRequestHoldService::HeldCount() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_count_;
}

uint64_t PullRequestHoldService::HeldBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_bytes_;
}

int64_t PullRequestHoldService::NextWaitMillis() const {
  const int64_t period =
      options_.long_polling_enable ? options_.long_polling_check_ms : options_.short_polling_time_ms;
  int64_t earliest = std::numeric_limits<int64_t>::max();
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, requests] : table_) {
      for (const HeldPullRequest& r : requests) {
        earliest = std::min(earliest, r.suspend_steady_ms + r.timeout_ms);
      }
    }
  }
  if (earliest == std::numeric_limits<int64_t>::max()) return period;
  const int64_t until = earliest - clock_->SteadyMillis();
  return std::clamp<int64_t>(until, 1, period);
}

void PullRequestHoldService::Run() {
  while (!stopped()) {
    WaitForRunning(NextWaitMillis());
    if (stopped()) break;
    CheckHoldRequests();
  }
}

void PullRequestHoldService::Dispatch(std::vector<HeldPullRequest> ready) {
  for (HeldPullRequest& r : ready) {
    if (!r.wakeup) continue;
    if (executor_) {
      // Keep a copy: TryExecute consumes the task only when it accepts it.
      std::function<void()> task = r.wakeup;
      if (executor_->TryExecute(std::move(task))) continue;
      if (r.reject) {
        GetLogger("broker")->warn("pull executor full; held pull of {}:{} answered SYSTEM_BUSY",
                                  r.topic, r.queue_id);
        r.reject();
        continue;
      }
      GetLogger("broker")->warn("pull executor full; re-executing a held pull of {}:{} inline",
                                r.topic, r.queue_id);
    }
    r.wakeup();
  }
}

}  // namespace apogee::broker
