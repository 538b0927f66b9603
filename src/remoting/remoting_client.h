// RemotingClient: calls RocketMQ remoting servers by "host:port" address (RocketMQ's
// NettyRemotingClient). One connection per address, opened on first use (connect
// timeout 3 s) and opened again on the next call after it closes. Requests the server
// sends on that connection (broker -> client NOTIFY_CONSUMER_IDS_CHANGED,
// CHECK_TRANSACTION_STATE, ...) go to the processors registered here.
//
// Errors name the address and what happened: Unavailable for connect refused / closed
// connection, Timeout "request code N to host:port timed out after T ms"; the connect
// time counts against a call's timeout.
//
// Thread-safety: every method may be called from any thread, except that InvokeSync
// and InvokeOneway must not be called on the client's IO threads (use InvokeAsync from
// callbacks). Callbacks run on an IO thread and must not block.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/tls_config.h"
#include "protocol/remoting_command.h"
#include "remoting/channel.h"
#include "remoting/executor.h"
#include "remoting/frame_decoder.h"
#include "remoting/request_processor.h"
#include "remoting/sync_waiter.h"

namespace apogee::remoting {

struct RemotingClientOptions {
  size_t io_threads = 1;
  // NettySystemConfig.connectTimeoutMillis.
  std::chrono::milliseconds connect_timeout = std::chrono::seconds(3);
  uint32_t max_frame_length = kDefaultMaxFrameLength;
  // com.rocketmq.remoting.client.channel.maxIdleTimeSeconds (120 s); zero disables.
  std::chrono::milliseconds channel_max_idle = std::chrono::seconds(120);
  // Applied to every request InvokeSync / InvokeAsync / InvokeOneway send (the ACL
  // signature; none by default). Requests sent through GetChannel() are not touched.
  RequestHook before_request;
  // Connect with TLS (Java's tls.enable / ClientConfig.useTLS) using the tls.client.*
  // settings of `tls`. A context that cannot be built (a missing certificate) fails every
  // call with the reason.
  bool use_tls = false;
  TlsConfig tls;
  // A TLS handshake not done this long after connecting closes the connection.
  std::chrono::milliseconds tls_handshake_timeout =
      std::chrono::milliseconds(kDefaultTlsHandshakeTimeoutMillis);
  // How long InvokeSync polls for its answer before sleeping (sync_waiter.h); zero: never.
  std::chrono::microseconds sync_wait_spin = kDefaultSyncWaitSpin;
};

class RemotingClient {
 public:
  explicit RemotingClient(RemotingClientOptions options = {});
  ~RemotingClient();  // Shutdown()
  RemotingClient(const RemotingClient&) = delete;
  RemotingClient& operator=(const RemotingClient&) = delete;

  // Processors for requests the server sends to this client; null executor = inline.
  void RegisterProcessor(int32_t request_code, std::shared_ptr<RequestProcessor> processor,
                         std::shared_ptr<Executor> executor = nullptr);
  void AddChannelEventListener(std::shared_ptr<ChannelEventListener> listener);

  // Starts the IO threads. Invoke* before Start() fail with Unavailable.
  void Start();
  // Closes every connection (pending calls fail) and joins the IO threads. Idempotent.
  void Shutdown();

  // Sends `request` (opaque assigned here) and waits for the response.
  Result<protocol::RemotingCommand> InvokeSync(std::string_view address,
                                               protocol::RemotingCommand request,
                                               std::chrono::milliseconds timeout);
  // Sends `request`; `callback` runs exactly once, on an IO thread.
  void InvokeAsync(std::string_view address, protocol::RemotingCommand request,
                   std::chrono::milliseconds timeout, ResponseCallback callback);
  // As above, the answer going to `handler` (ResponseHandler: one object per call).
  void InvokeAsync(std::string_view address, protocol::RemotingCommand request,
                   std::chrono::milliseconds timeout, ResponseHandlerPtr handler);
  // Sends `request` with the oneway flag and waits until it is written to the socket
  // (Java's invokeOneway also waits for the write), at most `timeout`.
  Status InvokeOneway(std::string_view address, protocol::RemotingCommand request,
                      std::chrono::milliseconds timeout);

  // The connection to `address`, opening it if needed (waits up to the connect timeout).
  Result<ChannelPtr> GetChannel(std::string_view address);
  // Closes the connection to `address` if there is one (e.g. after a failover).
  void CloseChannel(std::string_view address);
  // Addresses with an open connection.
  std::vector<std::string> ConnectedAddresses() const;

 private:
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace apogee::remoting
