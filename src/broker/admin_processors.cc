#include "broker/admin_processors.h"

#include <memory>
#include <string_view>
#include <utility>

#include "base/clock.h"
#include "broker/admin_broker_processor.h"
#include "broker/broker_context.h"
#include "broker/broker_runtime_info.h"
#include "broker/query_message_processor.h"
#include "env/env.h"
#include "protocol/request_code.h"
#include "remoting/remoting_server.h"

namespace apogee::broker {

namespace req = protocol::request_code;

namespace {

// The arrival hook with the runtime statistics in front of the previous hook (long
// polling). A named type so that the second Register call (fast server) can find the
// statistics the first one created, through std::function::target.
struct StatsChainHook {
  std::shared_ptr<BrokerRuntimeStats> stats;
  MessageArrivingHook next;

  void operator()(std::string_view topic, int32_t queue_id, int64_t next_queue_offset) const {
    stats->OnMessageArriving(topic, queue_id, next_queue_offset);
    if (next) next(topic, queue_id, next_queue_offset);
  }
};

std::shared_ptr<BrokerRuntimeStats> RuntimeStatsOf(BrokerContext& context) {
  if (const auto* chained = context.message_arriving_hook.target<StatsChainHook>()) {
    return chained->stats;
  }
  auto stats = std::make_shared<BrokerRuntimeStats>(Clock::Real());
  context.message_arriving_hook = StatsChainHook{stats, std::move(context.message_arriving_hook)};
  return stats;
}

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
};

}  // namespace

void RegisterAdminProcessors(BrokerContext& context, remoting::RemotingServer& server) {
  RegisterAdminProcessors(context, server, env::Env::Default());
}

void RegisterAdminProcessors(BrokerContext& context, remoting::RemotingServer& server,
                             env::Env* env) {
  auto admin = std::make_shared<AdminBrokerProcessor>(&context, env, RuntimeStatsOf(context));
  for (int32_t code : kAdminCodes) server.RegisterProcessor(code, admin, context.executors.admin);

  auto query = std::make_shared<QueryMessageProcessor>(&context);
  server.RegisterProcessor(req::kQueryMessage, query, context.executors.query_message);
  server.RegisterProcessor(req::kViewMessageById, query, context.executors.query_message);
}

}  // namespace apogee::broker
