// The server side of a request: a RequestProcessor gets each request plus a Responder,
// and answers when it is ready, from any thread (after an fsync, a slave's ack, or a
// long-polling hold of 15 s). Mirrors RocketMQ's NettyRequestProcessor +
// AsyncNettyRequestProcessor, with the asynchronous form as the only form.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

#include "protocol/remoting_command.h"
#include "remoting/channel.h"

namespace apogee::remoting {

// Sends the response to one request. Copyable; every copy refers to the same request.
// Fills in the request's opaque, the response flag and the request's serialization
// (responses mirror the request, docs/protocol/remoting.md §2.4). For a oneway request
// Send() drops the response, so processors need not care. Sending twice is a bug and
// is logged; the second response is dropped. Thread-safety: Send on any thread; copy a
// Responder on the thread that holds it.
class Responder {
 public:
  Responder(ChannelPtr channel, const protocol::RemotingCommand& request);
  Responder(ChannelPtr channel, int32_t opaque, int32_t request_code,
            protocol::SerializeType serialize_type, bool oneway);
  // A copy shares the "responded" flag with the original (a held pull's wake-up and its
  // rejection both hold one; only the first answers).
  Responder(const Responder& other);
  Responder& operator=(const Responder& other);
  Responder(Responder&& other) noexcept;
  Responder& operator=(Responder&& other) noexcept;
  ~Responder() = default;

  void Send(protocol::RemotingCommand response) const;
  // Shorthand for Send(MakeResponse(request, code, remark)).
  void SendCode(int32_t code, std::optional<std::string> remark = std::nullopt) const;

  const ChannelPtr& channel() const { return channel_; }
  bool oneway() const { return oneway_; }
  int32_t request_code() const { return request_code_; }
  bool responded() const;

 private:
  // Marks the request answered; false when it already was.
  bool MarkResponded() const;
  // Moves the flag to the heap on the first copy, so the copies share it.
  const std::shared_ptr<std::atomic<bool>>& SharedFlag() const;

  ChannelPtr channel_;
  int32_t opaque_;
  int32_t request_code_;
  protocol::SerializeType serialize_type_;
  bool oneway_;
  // Most requests have one Responder, moved from the dispatcher to the processor to the
  // put's completion: its flag lives in the object (no allocation per request) until the
  // first copy. The first copy is made on the holder's thread, before any other thread
  // sees either; from then on every copy reads shared_responded_.
  mutable bool responded_here_ = false;
  mutable std::shared_ptr<std::atomic<bool>> shared_responded_;
};

// Thread-safety: ProcessRequest is called on the registered executor's threads (or the
// IO thread when registered inline), concurrently for different requests.
class RequestProcessor {
 public:
  virtual ~RequestProcessor() = default;
  virtual void ProcessRequest(protocol::RemotingCommand request, Responder responder) = 0;
  // Java's rejectRequest(): true answers SYSTEM_BUSY without calling ProcessRequest
  // (e.g. the store is overloaded).
  virtual bool RejectRequest() const { return false; }
  // True runs this request inline on the IO thread although the processor is registered
  // with an executor: the processor knows this one is cheap and cannot block (a pull whose
  // messages are in memory), so the hop to the pool and back would cost more than the work.
  // Called on the IO thread before the request guard; must itself be cheap.
  virtual bool ServesInline(const protocol::RemotingCommand& /*request*/) const { return false; }
};

using ProcessFunction = std::function<void(protocol::RemotingCommand, Responder)>;

// Checks a request before its processor runs (RocketMQ's server-side RPCHook
// doBeforeRequest; the broker's and NameServer's ACL). OK lets it through; an error
// refuses it: the dispatcher answers NO_PERMISSION with the message as remark (oneway
// requests are dropped). Runs where the processor would (its executor or the IO thread),
// concurrently for different requests.
using RequestGuard =
    std::function<Status(const Channel& channel, const protocol::RemotingCommand& request)>;

// Changes a request just before a client sends it (the client-side RPCHook: the ACL
// signature). Runs on the calling thread.
using RequestHook = std::function<void(protocol::RemotingCommand* request)>;

// A processor from a function, for small handlers and tests.
std::shared_ptr<RequestProcessor> MakeProcessor(ProcessFunction function);

}  // namespace apogee::remoting
