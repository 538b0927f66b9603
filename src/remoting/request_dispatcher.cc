#include "remoting/request_dispatcher.h"

#include <fmt/format.h>

#include <exception>
#include <mutex>

#include "base/logging.h"
#include "protocol/response_code.h"

namespace apogee::remoting {

namespace response_code = protocol::response_code;

void RequestDispatcher::RegisterProcessor(int32_t request_code,
                                          std::shared_ptr<RequestProcessor> processor,
                                          std::shared_ptr<Executor> executor) {
  std::unique_lock lock(mu_);
  table_[request_code] = Registration{std::move(processor), std::move(executor)};
}

void RequestDispatcher::RegisterDefaultProcessor(std::shared_ptr<RequestProcessor> processor,
                                                 std::shared_ptr<Executor> executor) {
  std::unique_lock lock(mu_);
  default_ = Registration{std::move(processor), std::move(executor)};
}

void RequestDispatcher::AddListener(std::shared_ptr<ChannelEventListener> listener) {
  std::unique_lock lock(mu_);
  listeners_.push_back(std::move(listener));
}

std::optional<RequestDispatcher::Registration> RequestDispatcher::Lookup(int32_t code) const {
  std::shared_lock lock(mu_);
  auto it = table_.find(code);
  if (it != table_.end()) return it->second;
  return default_;
}

void RequestDispatcher::SetResponseObserver(std::shared_ptr<ResponseObserver> observer) {
  std::unique_lock lock(mu_);
  // The previous observer stays alive in case a connection still holds its pointer.
  if (observer_ && observer != observer_) retired_observers_.push_back(observer_);
  observer_ = std::move(observer);
  observer_raw_.store(observer_.get(), std::memory_order_release);
}

void RequestDispatcher::SetRequestGuard(RequestGuard guard) {
  std::unique_lock lock(mu_);
  guard_ = guard ? std::make_shared<const RequestGuard>(std::move(guard)) : nullptr;
}

std::shared_ptr<const RequestGuard> RequestDispatcher::Guard() const {
  std::shared_lock lock(mu_);
  return guard_;
}

std::vector<std::shared_ptr<ChannelEventListener>> RequestDispatcher::Listeners() const {
  std::shared_lock lock(mu_);
  return listeners_;
}

void RequestDispatcher::Dispatch(const ChannelPtr& channel, protocol::RemotingCommand request,
                                 std::shared_ptr<RequestTracker> tracker) const {
  Responder responder(channel, request);
  auto finished = [&tracker] {
    if (tracker) tracker->RequestFinished();
  };
  auto registration = Lookup(request.code);
  if (!registration) {
    std::string remark = fmt::format("request type {} not supported", request.code);
    GetLogger("remoting")->warn("{} from {}", remark, channel->RemoteAddress());
    responder.SendCode(response_code::kRequestCodeNotSupported, std::move(remark));
    return finished();
  }
  if (registration->processor->RejectRequest()) {
    responder.SendCode(response_code::kSystemBusy,
                       "[REJECTREQUEST]system busy, start flow control for a while");
    return finished();
  }
  // Decided before the request moves into the task.
  const bool inline_here =
      !registration->executor || registration->processor->ServesInline(request);
  // The responder moves into the task and on into the processor (copying it would put its
  // "responded" flag on the heap for every request); answers the task cannot give through
  // it use a fresh one for the same request.
  const int32_t code = request.code;
  auto fresh_responder = [channel, opaque = request.opaque, code,
                          serialize_type = request.serialize_type, oneway = request.IsOneway()] {
    return Responder(channel, opaque, code, serialize_type, oneway);
  };
  auto run = [processor = registration->processor, guard = Guard(), request = std::move(request),
              responder = std::move(responder), tracker, fresh_responder]() mutable {
    try {
      if (guard) {
        // As Java runs the RPC hooks: on the processor's thread, before the processor.
        if (Status allowed = (*guard)(*responder.channel(), request); !allowed.ok()) {
          GetLogger("remoting")
              ->warn("request code {} from {} refused: {}", request.code,
                     responder.channel()->RemoteAddress(), allowed.message());
          responder.SendCode(response_code::kNoPermission, allowed.message());
          if (tracker) tracker->RequestFinished();
          return;
        }
      }
      processor->ProcessRequest(std::move(request), std::move(responder));
    } catch (const std::exception& e) {
      // Processors report errors through the response; an exception is a bug, but the
      // client still deserves an answer. As Java (NettyRemotingAbstract answers SYSTEM_ERROR
      // with the text whatever the processor did before it threw): a processor that had
      // answered already makes this a second answer, which clients drop as unknown.
      GetLogger("remoting")
          ->error("processor for request code {} threw: {}", fresh_responder().request_code(),
                  e.what());
      fresh_responder().SendCode(response_code::kSystemError, e.what());
    }
    if (tracker) tracker->RequestFinished();
  };
  if (inline_here) {
    run();
    return;
  }
  if (!registration->executor->TryExecute(std::move(run))) {
    GetLogger("remoting")
        ->warn("executor full, request code {} from {} rejected", code, channel->RemoteAddress());
    fresh_responder().SendCode(response_code::kSystemBusy,
                               "[OVERLOAD]system busy, start flow control for a while");
    finished();
  }
}

void RequestDispatcher::NotifyConnected(const ChannelPtr& channel) const {
  for (const auto& l : Listeners()) l->OnChannelConnected(channel);
}
void RequestDispatcher::NotifyClosed(const ChannelPtr& channel) const {
  for (const auto& l : Listeners()) l->OnChannelClosed(channel);
}
void RequestDispatcher::NotifyIdle(const ChannelPtr& channel) const {
  for (const auto& l : Listeners()) l->OnChannelIdle(channel);
}

}  // namespace apogee::remoting
