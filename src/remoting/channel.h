// Channel: one remoting connection as the rest of the system sees it, on either side
// (a client's connection accepted by a server, or a client's connection to a server).
// Both sides may send requests on it (RocketMQ's broker -> consumer requests such as
// NOTIFY_CONSUMER_IDS_CHANGED use the consumer's own connection) and responses are told
// apart by flag bit 0.
//
// Thread-safety: every method may be called from any thread. Completion callbacks run
// on the channel's IO thread and must not block. Lifetime: a Channel object stays valid
// while someone holds the shared_ptr, after the connection has closed too (then sends
// fail or are dropped).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::remoting {

// Gets the response, or Timeout / Unavailable (connection closed, not connected) with
// the address and request code in the message.
using ResponseCallback = std::function<void(Result<protocol::RemotingCommand>)>;
// ResponseCallback as one object the caller allocates with what it needs for the answer (a
// producer's whole async send), where a std::function would be one more allocation per call
// beside the caller's own state. The pending request owns it and hands that ownership back
// with the answer, so the caller may keep the object for another call (a retry).
class ResponseHandler {
 public:
  virtual ~ResponseHandler() = default;
  // Called exactly once per call it was given to; `self` owns this object.
  virtual void OnResponse(std::unique_ptr<ResponseHandler> self,
                          Result<protocol::RemotingCommand> response) = 0;
  // Runs `handler`'s OnResponse with `handler` as its owner.
  static void Deliver(std::unique_ptr<ResponseHandler> handler,
                      Result<protocol::RemotingCommand> response) {
    ResponseHandler* raw = handler.get();
    raw->OnResponse(std::move(handler), std::move(response));
  }
};
using ResponseHandlerPtr = std::unique_ptr<ResponseHandler>;
// Gets OK once the frame was handed to the socket, or the reason it was not.
using WriteCallback = std::function<void(Status)>;

class Channel {
 public:
  virtual ~Channel() = default;

  // Unique per process, for keys in tables (NameServer's broker live table).
  virtual uint64_t id() const = 0;
  // "ip:port" of the peer; for a client channel, the address it was asked to connect to.
  virtual const std::string& RemoteAddress() const = 0;
  virtual const std::string& LocalAddress() const = 0;
  virtual bool IsActive() const = 0;

  // Sends `request` (its opaque is assigned here, flags cleared) and calls `callback`
  // exactly once with the response or an error after `timeout`.
  virtual void InvokeAsync(protocol::RemotingCommand request, std::chrono::milliseconds timeout,
                           ResponseCallback callback) = 0;
  // Blocking form of InvokeAsync. Must not be called on an IO thread (returns an
  // error instead of deadlocking).
  virtual Result<protocol::RemotingCommand> InvokeSync(protocol::RemotingCommand request,
                                                       std::chrono::milliseconds timeout) = 0;
  // Sends `request` with the oneway flag; the peer never answers. `on_written`, if
  // given, learns whether the frame reached the socket.
  virtual void InvokeOneway(protocol::RemotingCommand request, WriteCallback on_written = nullptr) = 0;

  // Sends a response as is (Responder fills opaque, flag and serialization; use that).
  virtual void SendResponse(protocol::RemotingCommand response) = 0;

  // Closes the connection; pending requests fail with Unavailable and listeners get
  // OnChannelClosed.
  virtual void Close() = 0;
};

using ChannelPtr = std::shared_ptr<Channel>;

// Connection events (RocketMQ's ChannelEventListener). Called on the channel's IO
// thread: implementations must be quick and must not block.
class ChannelEventListener {
 public:
  virtual ~ChannelEventListener() = default;
  virtual void OnChannelConnected(const ChannelPtr& channel) {}
  // Once per channel, whatever the cause (peer closed, Close(), malformed frame, idle).
  virtual void OnChannelClosed(const ChannelPtr& channel) {}
  // No read and no write for the idle time; the channel is closed right after.
  virtual void OnChannelIdle(const ChannelPtr& channel) {}
};

}  // namespace apogee::remoting
