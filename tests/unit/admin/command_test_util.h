// Runs mqadmin sub-commands against a FakeTransport with a one-broker cluster
// ("DefaultCluster" / "broker-a" at 10.0.0.1:10911) already answering the NameServer's
// cluster and route requests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "admin/command_registry.h"
#include "fake_transport.h"
#include "protocol/request_code.h"
#include "protocol/route_data.h"
#include "protocol/topic_config.h"

namespace apogee::admin::testing {

inline constexpr char kBrokerAddr[] = "10.0.0.1:10911";

struct CommandResult {
  int exit_code = 0;
  std::string out;
  std::string err;
};

class CommandHarness {
 public:
  CommandHarness() : registry_(BuildMQAdminRegistry()) {
    protocol::ClusterInfo info;
    protocol::BrokerData b{"DefaultCluster", "broker-a", {{0, kBrokerAddr}}};
    info.broker_addr_table["broker-a"] = b;
    info.cluster_addr_table["DefaultCluster"] = {"broker-a"};
    transport_->OnBody(protocol::request_code::kGetBrokerClusterInfo, protocol::EncodeClusterInfo(info));
    transport_->On(protocol::request_code::kGetRouteinfoByTopic,
                   [b](const std::string&, const protocol::RemotingCommand& req) {
                     std::string topic(req.ext_fields.Get("topic").value_or(""));
                     if (topic.rfind("%", 0) == 0) {
                       return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kTopicNotExist,
                                                                      "No topic route info in name server for the topic: " + topic);
                     }
                     protocol::TopicRouteData route;
                     route.queue_datas.push_back({"broker-a", 4, 4, 6, 0});
                     route.broker_datas.push_back(b);
                     protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
                     r.body = protocol::EncodeTopicRouteData(route, protocol::MapKeyStyle::kQuoted);
                     return r;
                   });
  }

  FakeTransport& transport() { return *transport_; }

  CommandResult Run(std::vector<std::string> argv, std::string env_namesrv = "ns1:9876") {
    std::ostringstream out, err;
    CommandContext ctx(
        &out,
        [this](std::string_view addr, const acl::Credentials&) -> Result<std::unique_ptr<AdminTransport>> {
          return std::unique_ptr<AdminTransport>(new Borrowed(transport_.get(), /*no_namesrv=*/addr.empty()));
        },
        env_namesrv);
    int code = registry_.Run(argv, ctx, err);
    return {code, out.str(), err.str()};
  }

  const CommandRegistry& registry() const { return registry_; }

 private:
  // Hands the harness' transport to the context without giving up ownership. Built for no
  // NameServer address (neither -n nor NAMESRV_ADDR), it lists none, as the real one would.
  class Borrowed : public AdminTransport {
   public:
    Borrowed(AdminTransport* t, bool no_namesrv) : t_(t), no_namesrv_(no_namesrv) {}
    Result<protocol::RemotingCommand> InvokeNamesrv(protocol::RemotingCommand r, Millis m) override {
      return t_->InvokeNamesrv(std::move(r), m);
    }
    Result<protocol::RemotingCommand> Invoke(std::string_view a, protocol::RemotingCommand r, Millis m) override {
      return t_->Invoke(a, std::move(r), m);
    }
    std::vector<std::string> NameServers() const override {
      return no_namesrv_ ? std::vector<std::string>{} : t_->NameServers();
    }

   private:
    AdminTransport* t_;
    bool no_namesrv_;
  };

  std::unique_ptr<FakeTransport> transport_ = std::make_unique<FakeTransport>();
  CommandRegistry registry_;
};

}  // namespace apogee::admin::testing
