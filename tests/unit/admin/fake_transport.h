// FakeTransport: an AdminTransport that answers from handlers keyed by request code and
// records every call, so sub-commands can be tested without a network.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "admin/admin_transport.h"
#include "protocol/remoting_command.h"
#include "protocol/response_code.h"

namespace apogee::admin::testing {

struct Call {
  std::string addr;  // "NameServer" for InvokeNamesrv
  protocol::RemotingCommand request;
};

class FakeTransport : public AdminTransport {
 public:
  using Handler =
      std::function<protocol::RemotingCommand(const std::string& addr, const protocol::RemotingCommand& req)>;

  explicit FakeTransport(std::vector<std::string> name_servers = {"ns1:9876"})
      : name_servers_(std::move(name_servers)) {}

  void On(int32_t code, Handler handler) { handlers_[code] = std::move(handler); }
  // A SUCCESS answer with `body`.
  void OnBody(int32_t code, std::string body) {
    On(code, [body](const std::string&, const protocol::RemotingCommand& req) {
      protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
      r.body = body;
      return r;
    });
  }

  Result<protocol::RemotingCommand> InvokeNamesrv(protocol::RemotingCommand request, Millis) override {
    return Answer("NameServer", std::move(request));
  }
  Result<protocol::RemotingCommand> Invoke(std::string_view addr, protocol::RemotingCommand request,
                                           Millis) override {
    return Answer(std::string(addr), std::move(request));
  }
  std::vector<std::string> NameServers() const override { return name_servers_; }

  const std::vector<Call>& calls() const { return calls_; }
  std::vector<Call> CallsWithCode(int32_t code) const {
    std::vector<Call> out;
    for (const Call& c : calls_) {
      if (c.request.code == code) out.push_back(c);
    }
    return out;
  }

 private:
  Result<protocol::RemotingCommand> Answer(std::string addr, protocol::RemotingCommand request) {
    calls_.push_back({addr, request});
    auto it = handlers_.find(request.code);
    if (it == handlers_.end()) {
      return protocol::RemotingCommand::MakeResponse(request, protocol::response_code::kRequestCodeNotSupported,
                                                     "no fake handler");
    }
    return it->second(addr, request);
  }

  std::vector<std::string> name_servers_;
  std::map<int32_t, Handler> handlers_;
  std::vector<Call> calls_;
};

}  // namespace apogee::admin::testing
