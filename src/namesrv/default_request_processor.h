// DefaultRequestProcessor: every NameServer request, in one table from request code to
// handler (Java's DefaultRequestProcessor plus ClientRequestProcessor for routes).
// Errors answer Java's response codes with a remark naming the problem.
//
// Handlers do no network IO and never block on anything but the route table lock and,
// for KV changes, one small file write, so they may run on IO threads.
//
// Thread-safety: Process() may be called from many threads at once. The config, KV and
// route managers (and the clock) must outlive the processor.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "base/clock.h"
#include "namesrv/kv_config_manager.h"
#include "namesrv/namesrv_config.h"
#include "namesrv/route_info_manager.h"
#include "protocol/remoting_command.h"

namespace apogee::namesrv {

class DefaultRequestProcessor {
 public:
  DefaultRequestProcessor(NamesrvConfig* config, KvConfigManager* kv, RouteInfoManager* routes,
                          Clock* clock);
  DefaultRequestProcessor(const DefaultRequestProcessor&) = delete;
  DefaultRequestProcessor& operator=(const DefaultRequestProcessor&) = delete;

  // The response to `request`, which arrived over connection `channel` (0 = unknown).
  // Unknown codes answer REQUEST_CODE_NOT_SUPPORTED. A response is built for oneway
  // requests too; the caller must not send it.
  protocol::RemotingCommand Process(const protocol::RemotingCommand& request, ChannelId channel);

  // Every request code Process() handles.
  std::vector<int32_t> HandledCodes() const;

 private:
  using Handler = std::function<protocol::RemotingCommand(const protocol::RemotingCommand&,
                                                          ChannelId)>;
  using Cmd = protocol::RemotingCommand;

  Cmd PutKvConfig(const Cmd& req);
  Cmd GetKvConfig(const Cmd& req);
  Cmd DeleteKvConfig(const Cmd& req);
  Cmd GetKvListByNamespace(const Cmd& req);
  Cmd RegisterBroker(const Cmd& req, ChannelId channel);
  Cmd UnregisterBroker(const Cmd& req);
  Cmd BrokerHeartbeat(const Cmd& req);
  Cmd GetRouteInfoByTopic(const Cmd& req);
  Cmd GetBrokerClusterInfo(const Cmd& req);
  Cmd WipeWritePermOfBroker(const Cmd& req);
  Cmd AddWritePermOfBroker(const Cmd& req);
  Cmd GetAllTopicListFromNameserver(const Cmd& req);
  Cmd DeleteTopicInNamesrv(const Cmd& req);
  Cmd RegisterTopicInNamesrv(const Cmd& req);
  Cmd GetTopicsByCluster(const Cmd& req);
  Cmd GetSystemTopicListFromNs(const Cmd& req);
  Cmd GetUnitTopicList(const Cmd& req, int32_t code);
  Cmd UpdateNamesrvConfig(const Cmd& req);
  Cmd GetNamesrvConfig(const Cmd& req);
  Cmd QueryDataVersion(const Cmd& req);

  NamesrvConfig* const config_;
  KvConfigManager* const kv_;
  RouteInfoManager* const routes_;
  Clock* const clock_;
  const int64_t start_millis_;
  std::map<int32_t, Handler> handlers_;
};

}  // namespace apogee::namesrv
