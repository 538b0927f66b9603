// RemotingServer: accepts RocketMQ remoting connections and hands each request to the
// processor registered for its code (RocketMQ's NettyRemotingServer). Used by the
// NameServer and the broker (once per listening port).
//
// Each connection lives on one io_context of a pool (options.io_threads). Processors
// answer asynchronously through a Responder; each registration names the Executor it
// runs on, or none for inline on the IO thread. Unknown codes get
// REQUEST_CODE_NOT_SUPPORTED, a full executor SYSTEM_BUSY, oneway requests nothing.
// Malformed input closes only the connection that sent it.
//
// Thread-safety: Register*/AddChannelEventListener before Start() (safe later too);
// Start/Shutdown from the owning thread; everything else from any thread. The header
// includes no Asio or net/ headers, so users need only remoting and protocol.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tls_config.h"
#include "remoting/channel.h"
#include "remoting/executor.h"
#include "protocol/remoting_command.h"
#include "remoting/frame_decoder.h"
#include "remoting/limits.h"
#include "remoting/request_processor.h"

namespace apogee::remoting {

class RemotingServer;

struct RemotingServerOptions {
  std::string listen_host = "0.0.0.0";
  // 0 binds an ephemeral port; see RemotingServer::port().
  uint16_t listen_port = 0;
  // IO threads; 0 = one per hardware thread.
  size_t io_threads = 0;
  // Run this server's connections on the IO threads of another server instead of
  // io_threads of its own (the broker's main and fast ports share one pool). The threads
  // start with the first of them to Start() and stop with the last Shutdown(). The other
  // server must be constructed first and outlive this one.
  const RemotingServer* share_io_threads_with = nullptr;
  uint32_t max_frame_length = kDefaultMaxFrameLength;
  // serverChannelMaxIdleTimeSeconds (120 s); zero disables. Only complete frames and
  // finished writes count as activity.
  std::chrono::milliseconds channel_max_idle = std::chrono::seconds(120);

  // Resource limits (docs/security.md, "Resource limits"; ConnectionOptions explains
  // each). Zero disables a limit.
  protocol::DecodeLimits decode_limits;
  std::chrono::milliseconds frame_read_timeout = kDefaultFrameReadTimeout;
  size_t write_high_water = kDefaultWriteHighWaterMark;
  size_t write_low_water = kDefaultWriteLowWaterMark;
  std::chrono::milliseconds write_stall_timeout = kDefaultWriteStallTimeout;
  uint32_t max_requests_in_flight = kDefaultMaxRequestsInFlight;
  // Server-wide: bytes of partial frames, and of unsent responses, of all connections.
  uint64_t partial_frame_budget = kDefaultPartialFrameBudget;
  uint64_t write_budget = kDefaultWriteBudget;

  // TLS (docs/security.md, "TLS"): tls.server.mode and the tls.server.* settings. Off
  // unless asked for here (the servers' configs default to Java's permissive); a
  // certificate that cannot be loaded fails Start().
  TlsConfig tls{.server_mode = "disabled"};
};

// What the server's connections hold now (for tests, metrics and logs).
struct RemotingServerStats {
  size_t connections = 0;
  uint64_t partial_frame_bytes = 0;
  uint64_t unsent_bytes = 0;
};

class ResponseObserver;

class RemotingServer {
 public:
  explicit RemotingServer(RemotingServerOptions options);
  ~RemotingServer();  // Shutdown()
  RemotingServer(const RemotingServer&) = delete;
  RemotingServer& operator=(const RemotingServer&) = delete;

  // A null executor runs the processor inline on the IO thread.
  void RegisterProcessor(int32_t request_code, std::shared_ptr<RequestProcessor> processor,
                         std::shared_ptr<Executor> executor = nullptr);
  void RegisterDefaultProcessor(std::shared_ptr<RequestProcessor> processor,
                                std::shared_ptr<Executor> executor = nullptr);
  void AddChannelEventListener(std::shared_ptr<ChannelEventListener> listener);
  // Reports every response this server sends (metrics; remoting/response_observer.h).
  // Call before Start().
  void SetResponseObserver(std::shared_ptr<ResponseObserver> observer);
  // Every request must pass `guard` first (ACL); see RequestGuard.
  void SetRequestGuard(RequestGuard guard);

  // Binds, listens and starts the IO threads. Errors name the address.
  Status Start();
  // The bound port (useful with listen_port 0); 0 before Start().
  uint16_t port() const;
  // Live connections, for admin listings and tests.
  std::vector<ChannelPtr> Channels() const;
  RemotingServerStats Stats() const;
  // Stops accepting, closes every connection (listeners see OnChannelClosed, pending
  // server-initiated requests fail), and joins the IO threads. Executors belong to the
  // caller and are not shut down. Idempotent.
  void Shutdown();

 private:
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace apogee::remoting
