// PullRequestHoldService: long polling (Java's PullRequestHoldService;
// docs/protocol/remoting.md §9.4). A pull that found nothing new and carries the suspend flag
// is parked here per (topic, queue) instead of being answered; it is re-executed (once, with
// suspension no longer allowed, so it answers whatever it finds) when
//   * a message arrives for its queue past the offset it asked for (the store's
//     message-arriving listener, through BrokerContext::arrival_observers, broker_services.h), or
//   * its suspend timeout passes (it then answers PULL_NOT_FOUND), or
//   * the periodic check finds new data (every 5 s with longPollingEnable, else every
//     shortPollingTimeMills), covering arrivals the listener did not report.
// Unlike Java, whose check runs only every 5 s, the service wakes at the earliest
// deadline, so a hold never outlasts its timeout by more than scheduling delay. Requests
// whose connection closed are dropped without an answer.
//
// Threads: one service thread for the checks. Re-executions are handed to the executor
// given at construction (the pull executor), or run on the notifying thread when there is
// none; when it is full the request is answered SYSTEM_BUSY (its `reject`), so the reput
// thread that notifies never runs pulls. Never under the service's lock.
// Thread-safety: every public method may be called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "base/service_thread.h"
#include "remoting/channel.h"
#include "remoting/executor.h"

namespace apogee::broker {

// One parked pull.
struct HeldPullRequest {
  std::string topic;
  int32_t queue_id = 0;
  // The queue offset the client asked for: new data means max offset > this.
  int64_t pull_from_offset = 0;
  // How long it may stay parked; SuspendPullRequest stamps the start
  // (suspend_steady_ms) from the service's clock.
  int64_t timeout_ms = 0;
  int64_t suspend_steady_ms = 0;
  // Null-safe: a request without a channel is never considered gone.
  remoting::ChannelPtr channel;
  // Runs the pull again with suspension disallowed; it sends the response.
  std::function<void()> wakeup;
  // What holding it costs (the request's header and body; the service adds its own
  // per-entry overhead), for max_held_bytes.
  size_t bytes = 0;
  // Answers SYSTEM_BUSY instead, when the pull executor is full: a woken pull never runs on
  // the notifying thread (the store's reput thread). Null: run `wakeup` there after all.
  std::function<void()> reject;
};

struct PullRequestHoldOptions {
  bool long_polling_enable = true;
  // The check period: 5 s with long polling (Java's fixed value), else this.
  int64_t short_polling_time_ms = 1000;
  int64_t long_polling_check_ms = 5000;
  // Caps on what is held at once; 0 = unlimited (pullHoldMaxRequests, pullHoldMaxBytes).
  size_t max_held_requests = 100000;
  uint64_t max_held_bytes = 256ull * 1024 * 1024;
};

class PullRequestHoldService : public ServiceThread {
 public:
  // The queue's next offset to be written (MessageStore::GetMaxOffsetInQueue).
  using MaxOffsetFunction = std::function<int64_t(std::string_view topic, int32_t queue_id)>;

  // `clock` must outlive this; `executor` may be null (re-execute inline).
  PullRequestHoldService(const Clock* clock, MaxOffsetFunction max_offset,
                         std::shared_ptr<remoting::Executor> executor,
                         PullRequestHoldOptions options = {});
  ~PullRequestHoldService() override;

  // Parks `request`, or refuses (Busy, naming the limit; the request is not kept) when the
  // caps are reached.
  Status SuspendPullRequest(HeldPullRequest request);

  // New messages of (topic, queue) were dispatched; `next_queue_offset` is the queue's
  // max offset now. Wakes the requests that wait for an offset below it, and those whose
  // timeout passed.
  void NotifyMessageArriving(std::string_view topic, int32_t queue_id, int64_t next_queue_offset);

  // One pass over every queue with held requests (what the service thread does
  // periodically and at the earliest deadline). Public for tests with a ManualClock.
  void CheckHoldRequests();

  // Requests held now, and their estimated bytes.
  size_t HeldCount() const;
  uint64_t HeldBytes() const;

 protected:
  void Run() override;

 private:
  static std::string Key(std::string_view topic, int32_t queue_id);
  static size_t Cost(const HeldPullRequest& request);
  // Takes the dispatched requests out of the totals (under mu_).
  void Forget(const std::vector<HeldPullRequest>& gone);
  // Milliseconds until the earliest deadline, capped by the check period.
  int64_t NextWaitMillis() const;
  void Dispatch(std::vector<HeldPullRequest> ready);

  const Clock* clock_;
  MaxOffsetFunction max_offset_;
  std::shared_ptr<remoting::Executor> executor_;
  PullRequestHoldOptions options_;
  mutable std::mutex mu_;
  std::map<std::string, std::vector<HeldPullRequest>> table_;  // guarded by mu_
  size_t held_count_ = 0;                                       // guarded by mu_
  uint64_t held_bytes_ = 0;                                     // guarded by mu_
};

}  // namespace apogee::broker
