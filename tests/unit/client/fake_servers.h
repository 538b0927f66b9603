// Fake NameServer and broker for the producer-side client tests: real RemotingServers on
// loopback whose answers each test scripts, recording what they received.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/custom_header.h"
#include "protocol/namesrv_headers.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_server.h"
#include "remoting/request_processor.h"

namespace apogee::client::test {

using protocol::RemotingCommand;

// A server that records every request and answers through a per-code handler (default:
// SUCCESS with no body).
class FakeServer {
 public:
  using Handler = std::function<RemotingCommand(const RemotingCommand&)>;

  FakeServer() : server_(remoting::RemotingServerOptions{.listen_host = "127.0.0.1", .io_threads = 1}) {
    server_.RegisterDefaultProcessor(remoting::MakeProcessor(
        [this](RemotingCommand request, remoting::Responder responder) {
          Handler handler;
          {
            std::lock_guard<std::mutex> lock(mu_);
            requests_.push_back(request);
            auto it = handlers_.find(request.code);
            if (it != handlers_.end()) handler = it->second;
          }
          if (handler) {
            responder.Send(handler(request));
          } else {
            responder.SendCode(protocol::response_code::kSuccess);
          }
        }));
  }
  ~FakeServer() { server_.Shutdown(); }

  bool Start() { return server_.Start().ok(); }
  void Stop() { server_.Shutdown(); }
  std::string addr() const { return "127.0.0.1:" + std::to_string(server_.port()); }
  remoting::RemotingServer& server() { return server_; }

  void On(int32_t code, Handler handler) {
    std::lock_guard<std::mutex> lock(mu_);
    handlers_[code] = std::move(handler);
  }
  std::vector<RemotingCommand> Requests(int32_t code) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<RemotingCommand> out;
    for (const auto& r : requests_) {
      if (r.code == code) out.push_back(r);
    }
    return out;
  }
  size_t Count(int32_t code) const { return Requests(code).size(); }

 private:
  remoting::RemotingServer server_;
  mutable std::mutex mu_;
  std::map<int32_t, Handler> handlers_;
  std::vector<RemotingCommand> requests_;
};

// A route with one master per broker set: brokers = {name -> addr}, `queues` write and
// read queues each, perm 6.
inline protocol::TopicRouteData MakeRoute(const std::map<std::string, std::string>& brokers,
                                          int32_t queues = 4) {
  protocol::TopicRouteData route;
  for (const auto& [name, addr] : brokers) {
    route.queue_datas.push_back({name, queues, queues, 6, 0});
    protocol::BrokerData bd;
    bd.cluster = "DefaultCluster";
    bd.broker_name = name;
    bd.broker_addrs[0] = addr;
    route.broker_datas.push_back(bd);
  }
  return route;
}

// Makes `ns` answer GET_ROUTEINFO_BY_TOPIC from `routes` (topic -> route), TOPIC_NOT_EXIST
// for other topics.
inline void ServeRoutes(FakeServer& ns,
                        std::shared_ptr<std::map<std::string, protocol::TopicRouteData>> routes) {
  ns.On(protocol::request_code::kGetRouteinfoByTopic, [routes](const RemotingCommand& request) {
    auto header = protocol::DecodeCustomHeader<protocol::GetRouteInfoRequestHeader>(request);
    auto it = header.ok() ? routes->find(header->topic) : routes->end();
    if (it == routes->end()) {
      return RemotingCommand::MakeResponse(request, protocol::response_code::kTopicNotExist,
                                           "No topic route info in name server");
    }
    RemotingCommand response = RemotingCommand::MakeResponse(request, protocol::response_code::kSuccess);
    response.body = protocol::EncodeTopicRouteData(it->second, protocol::MapKeyStyle::kQuoted);
    return response;
  });
}

// A send answer as a broker gives it: SUCCESS (or `code`) with msgId, queueId, queueOffset.
inline RemotingCommand SendAnswer(const RemotingCommand& request, int32_t code = 0,
                                  int64_t queue_offset = 7) {
  RemotingCommand response = RemotingCommand::MakeResponse(request, code);
  auto header = protocol::DecodeSendMessageRequestHeader(request);
  protocol::SendMessageResponseHeader answer;
  answer.msg_id = "7F00000100002A9F0000000000000064";  // 127.0.0.1:10911 @ 100
  answer.queue_id = header.ok() ? header->queue_id : 0;
  answer.queue_offset = queue_offset;
  protocol::EncodeCustomHeader(answer, &response);
  response.ext_fields.Set("MSG_REGION", "DefaultRegion");
  response.ext_fields.Set("TRACE_ON", "true");
  return response;
}

}  // namespace apogee::client::test
