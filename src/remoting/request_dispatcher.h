// RequestDispatcher: what a server or a client does with an incoming request: find the
// processor registered for its code (or the default one), run it on the registered
// executor or inline, and answer REQUEST_CODE_NOT_SUPPORTED / SYSTEM_BUSY /
// SYSTEM_ERROR itself when nobody can (RocketMQ's NettyRemotingAbstract
// processRequestCommand). Also fans connection events out to listeners.
//
// Thread-safety: all methods may be called from any thread; registration normally
// happens before start but is safe later (a shared lock guards the table).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "protocol/remoting_command.h"
#include "remoting/channel.h"
#include "remoting/executor.h"
#include "remoting/request_processor.h"
#include "remoting/response_observer.h"

namespace apogee::remoting {

// Learns when a dispatched request no longer occupies the server: its processor returned
// (an asynchronous answer may still follow) or it was answered without one. A connection
// uses it to bound the requests it has in flight.
class RequestTracker {
 public:
  virtual ~RequestTracker() = default;
  // Any thread; exactly once per Dispatch given this tracker.
  virtual void RequestFinished() = 0;
};

class RequestDispatcher {
 public:
  // A null executor runs the processor inline on the IO thread.
  void RegisterProcessor(int32_t request_code, std::shared_ptr<RequestProcessor> processor,
                         std::shared_ptr<Executor> executor);
  // Used for codes with no processor of their own (the NameServer's
  // DefaultRequestProcessor, the broker's admin processor).
  void RegisterDefaultProcessor(std::shared_ptr<RequestProcessor> processor,
                                std::shared_ptr<Executor> executor);
  void AddListener(std::shared_ptr<ChannelEventListener> listener);
  // Set before the server starts (kept for the dispatcher's life); connections report
  // every response to it. Null (the default) reports nothing.
  void SetResponseObserver(std::shared_ptr<ResponseObserver> observer);
  ResponseObserver* response_observer() const { return observer_raw_.load(std::memory_order_acquire); }
  // Every request passes `guard` before its processor (none by default).
  void SetRequestGuard(RequestGuard guard);

  // Handles one decoded request that arrived on `channel`. `tracker` (may be null) gets
  // RequestFinished() once the processor returned or the request was refused.
  void Dispatch(const ChannelPtr& channel, protocol::RemotingCommand request,
                std::shared_ptr<RequestTracker> tracker = nullptr) const;

  void NotifyConnected(const ChannelPtr& channel) const;
  void NotifyClosed(const ChannelPtr& channel) const;
  void NotifyIdle(const ChannelPtr& channel) const;

 private:
  struct Registration {
    std::shared_ptr<RequestProcessor> processor;
    std::shared_ptr<Executor> executor;
  };
  std::optional<Registration> Lookup(int32_t code) const;
  std::shared_ptr<const RequestGuard> Guard() const;
  std::vector<std::shared_ptr<ChannelEventListener>> Listeners() const;

  mutable std::shared_mutex mu_;
  std::unordered_map<int32_t, Registration> table_;               // guarded by mu_
  std::optional<Registration> default_;                           // guarded by mu_
  std::shared_ptr<ResponseObserver> observer_;                    // guarded by mu_
  std::atomic<ResponseObserver*> observer_raw_{nullptr};          // observer_.get()
  std::vector<std::shared_ptr<ResponseObserver>> retired_observers_;  // guarded by mu_
  std::shared_ptr<const RequestGuard> guard_;                     // guarded by mu_
  std::vector<std::shared_ptr<ChannelEventListener>> listeners_;  // guarded by mu_
};

}  // namespace apogee::remoting
