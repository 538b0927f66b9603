// Outbound TCP connections with a deadline: resolve "host:port", connect, give up after
// the timeout (Java clients use 3000 ms, NettySystemConfig.connectTimeoutMillis).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <functional>
#include <memory>

#include "base/status.h"
#include "net/host_port.h"

namespace apogee::net {

// Receives the connected socket (TCP_NODELAY set), or Unavailable (refused, unreachable,
// unresolvable) / Timeout, each naming the target. Runs on `context`'s thread.
using ConnectHandler = std::function<void(Result<boost::asio::ip::tcp::socket>)>;

// Starts a connection attempt on `context`; `handler` is called exactly once. Safe from
// any thread. The socket belongs to `context`.
void AsyncConnect(const std::shared_ptr<boost::asio::io_context>& context, const HostPort& target,
                  std::chrono::milliseconds timeout, ConnectHandler handler);

}  // namespace apogee::net
