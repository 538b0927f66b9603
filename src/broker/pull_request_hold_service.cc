#include "broker/pull_request_hold_service.h"

#include <algorithm>
#include <limits>
#include <utility>

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

void PullRequestHoldService::SuspendPullRequest(HeldPullRequest request) {
  request.suspend_steady_ms = clock_->SteadyMillis();
  std::string key = Key(request.topic, request.queue_id);
  {
    std::lock_guard<std::mutex> lock(mu_);
    table_[std::move(key)].push_back(std::move(request));
  }
  // The new deadline may be earlier than the one the service thread sleeps towards.
  Wakeup();
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
      if (r.channel && !r.channel->IsActive()) continue;  // nobody to answer
      if (next_queue_offset > r.pull_from_offset || now >= r.suspend_steady_ms + r.timeout_ms) {
        ready.push_back(std::move(r));
      } else {
        keep.push_back(std::move(r));
      }
    }
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
  size_t n = 0;
  for (const auto& [key, requests] : table_) n += requests.size();
  return n;
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
      GetLogger("broker")->warn("pull executor full; re-executing a held pull of {}:{} inline",
                                r.topic, r.queue_id);
    }
    r.wakeup();
  }
}

}  // namespace apogee::broker
