// AdminTransport: how mqadmin reaches NameServers and brokers — one synchronous
// request/response at a time. The production implementation (client_transport.h) sits on
// client::MQClientAPI; tests substitute a fake that answers canned commands, so every
// sub-command's output can be checked without a network.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::admin {

using Millis = std::chrono::milliseconds;

class AdminTransport {
 public:
  virtual ~AdminTransport() = default;

  // To the current NameServer, failing over to the next on connect/timeout errors.
  virtual Result<protocol::RemotingCommand> InvokeNamesrv(protocol::RemotingCommand request,
                                                          Millis timeout) = 0;
  // To one address (a broker, or one particular NameServer).
  virtual Result<protocol::RemotingCommand> Invoke(std::string_view addr,
                                                   protocol::RemotingCommand request,
                                                   Millis timeout) = 0;
  // The configured NameServers, in order (wipeWritePerm / updateKvConfig ask each one).
  virtual std::vector<std::string> NameServers() const = 0;
};

}  // namespace apogee::admin
