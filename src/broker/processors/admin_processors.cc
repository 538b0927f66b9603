#include "broker/processors/admin_processors.h"

#include <memory>
#include <string_view>
#include <utility>

#include "broker/processors/admin_broker_processor.h"
#include "broker/broker_context.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/processors/query_message_processor.h"
#include "env/env.h"
#include "protocol/request_code.h"
#include "remoting/remoting_server.h"

namespace apogee::broker {

namespace req = protocol::request_code;

namespace {

constexpr int32_t kAdminCodes[] = {
    req::kUpdateAndCreateTopic,           req::kDeleteTopicInBroker,
    req::kGetAllTopicConfig,              req::kUpdateBrokerConfig,
    req::kGetBrokerConfig,                req::kGetBrokerRuntimeInfo,
    req::kUpdateAndCreateSubscriptiongroup, req::kGetAllSubscriptiongroupConfig,
    req::kDeleteSubscriptiongroup,        req::kGetTopicStatsInfo,
    req::kGetConsumeStats,                req::kGetConsumerConnectionList,
    req::kGetProducerConnectionList,      req::kGetAllConsumerOffset,
    req::kGetAllDelayOffset,              req::kQueryTopicConsumeByWho,
    req::kInvokeBrokerToResetOffset,      req::kCloneGroupOffset,
    req::kGetBrokerEpochCache,
    req::kViewBrokerStatsData,           req::kGetBrokerConsumeStats,
};

}  // namespace

void RegisterAdminProcessors(BrokerContext& context, remoting::RemotingServer& server) {
  RegisterAdminProcessors(context, server, env::Env::Default());
}

void RegisterAdminProcessors(BrokerContext& context, remoting::RemotingServer& server,
                             env::Env* env) {
  EnsureBrokerStats(context);
  auto admin = std::make_shared<AdminBrokerProcessor>(&context, env, context.stats);
  for (int32_t code : kAdminCodes) server.RegisterProcessor(code, admin, context.executors.admin);

  auto query = std::make_shared<QueryMessageProcessor>(&context);
  server.RegisterProcessor(req::kQueryMessage, query, context.executors.query_message);
  server.RegisterProcessor(req::kViewMessageById, query, context.executors.query_message);
}

}  // namespace apogee::broker
