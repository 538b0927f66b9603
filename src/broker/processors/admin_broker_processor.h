// The admin request family (Java's AdminBrokerProcessor; docs/protocol/remoting.md §5.5): topic
// and subscription-group administration, broker config, runtime info, statistics,
// connections and consumer-offset tools, as used by mqadmin and the dashboard.
//
// Codes: UPDATE_AND_CREATE_TOPIC (17), DELETE_TOPIC_IN_BROKER (215), GET_ALL_TOPIC_CONFIG
// (21), UPDATE_BROKER_CONFIG (25), GET_BROKER_CONFIG (26), GET_BROKER_RUNTIME_INFO (28),
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200), GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201),
// DELETE_SUBSCRIPTIONGROUP (207), GET_TOPIC_STATS_INFO (202), GET_CONSUME_STATS (208),
// GET_CONSUMER_CONNECTION_LIST (203), GET_PRODUCER_CONNECTION_LIST (204),
// GET_ALL_CONSUMER_OFFSET (43), GET_ALL_DELAY_OFFSET (45), QUERY_TOPIC_CONSUME_BY_WHO (300),
// INVOKE_BROKER_TO_RESET_OFFSET (222), CLONE_GROUP_OFFSET (314), VIEW_BROKER_STATS_DATA (315).
//
// Every error answers the code Java answers, with a remark naming the topic, group or key.
// Changes that must reach the NameServers (topics, brokerPermission) do so through the
// managers' change listeners, which the controller wires to an immediate registration.
//
// Dependencies: unlike the other request processors, which take only what they use, this
// one keeps the whole BrokerContext: its codes read and change nearly every part of the
// broker (config, store, topics, groups, offsets, consumers, producers, statistics,
// failover, the registration trigger, the metrics), so a narrower list would be the
// context again under another name.
//
// Thread-safety: ProcessRequest may run concurrently on the admin executor; the managers
// it calls are thread-safe.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "protocol/admin_bodies.h"
#include "protocol/remoting_command.h"
#include "remoting/request_processor.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

struct BrokerContext;
class BrokerStatsManager;

class AdminBrokerProcessor : public remoting::RequestProcessor {
 public:
  // `context` and `env` (delayOffset.json is read through it) must outlive the processor.
  AdminBrokerProcessor(BrokerContext* context, env::Env* env,
                       std::shared_ptr<const BrokerStatsManager> stats);

  void ProcessRequest(protocol::RemotingCommand request, remoting::Responder responder) override;

 private:
  using Command = protocol::RemotingCommand;

  Command UpdateAndCreateTopic(const Command& request);
  Command DeleteTopic(const Command& request);
  Command GetAllTopicConfig(const Command& request);
  Command UpdateBrokerConfig(const Command& request);
  Command GetBrokerConfig(const Command& request);
  Command GetBrokerRuntimeInfo(const Command& request);
  // GET_BROKER_EPOCH_CACHE (mqadmin getBrokerEpoch): the epochs this broker's CommitLog
  // holds; refused without failover (etcdEndpoints), as Java refuses it outside controller mode.
  Command GetBrokerEpochCache(const Command& request);
  Command UpdateAndCreateSubscriptionGroup(const Command& request);
  Command GetAllSubscriptionGroup(const Command& request);
  Command DeleteSubscriptionGroup(const Command& request);
  Command GetTopicStatsInfo(const Command& request);
  Command GetConsumeStats(const Command& request);
  Command GetBrokerConsumeStats(const Command& request);
  std::pair<protocol::ConsumeStats, std::vector<protocol::ConsumeStats>> GroupConsumeStats(
      const std::string& group, const std::set<std::string>& topics, bool order_only) const;
  Command GetConsumerConnectionList(const Command& request);
  Command GetProducerConnectionList(const Command& request);
  Command GetAllConsumerOffset(const Command& request);
  Command GetAllDelayOffset(const Command& request);
  Command QueryTopicConsumeByWho(const Command& request);
  Command ResetOffset(const Command& request);
  Command CloneGroupOffset(const Command& request);
  Command ViewBrokerStatsData(const Command& request);

  BrokerContext* context_;
  env::Env* env_;
  std::shared_ptr<const BrokerStatsManager> stats_;
};

}  // namespace apogee::broker
