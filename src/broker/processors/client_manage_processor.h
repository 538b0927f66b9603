// ClientManageProcessor: the broker side of the client-management requests (Java's
// ClientManageProcessor for HEART_BEAT / UNREGISTER_CLIENT / CHECK_CLIENT_CONFIG, the
// consumer-list part of ConsumerManageProcessor, and the lock part of
// AdminBrokerProcessor). Each handler takes the request and the channel it came on and
// returns the response; CreateClientProcessors wraps them as processors and the table in
// processor_table.cc maps them to request codes and executors.
//
// HEART_BEAT, for each consumer group of the body: the subscription group is looked up
// and auto-created when allowed (SubscriptionGroupManager), the retry topic
// %RETRY%<group> is created with the group's retryQueueNums and perm READ|WRITE
// (pitfall 15), then the member is registered with ConsumerManager (which triggers
// NOTIFY_CONSUMER_IDS_CHANGED through its listener). Each producer group registers the
// channel with ProducerManager.
//
// Thread-safety: handlers may run concurrently on any threads; the managers are
// thread-safe and the pointers are fixed at construction.
#pragma once

#include "protocol/remoting_command.h"
#include "remoting/channel.h"

namespace apogee::broker {

class BrokerConfig;
class ConsumerManager;
class ProducerManager;
class SubscriptionGroupManager;
class TopicConfigManager;

class ClientManageProcessor {
 public:
  // Every pointer must outlive the processor.
  ClientManageProcessor(const BrokerConfig* config, ConsumerManager* consumer_manager,
                        ProducerManager* producer_manager,
                        SubscriptionGroupManager* subscription_group_manager,
                        TopicConfigManager* topic_config_manager);

  // HEART_BEAT (34). SYSTEM_ERROR naming the problem when the body is missing or bad.
  protocol::RemotingCommand HeartBeat(const protocol::RemotingCommand& request,
                                      const remoting::ChannelPtr& channel);
  // UNREGISTER_CLIENT (35). Empty group names (the C++ client sends "") mean none.
  protocol::RemotingCommand UnregisterClient(const protocol::RemotingCommand& request,
                                             const remoting::ChannelPtr& channel);
  // CHECK_CLIENT_CONFIG (46): TAG subscriptions pass; others need enablePropertyFilter.
  protocol::RemotingCommand CheckClientConfig(const protocol::RemotingCommand& request);
  // GET_CONSUMER_LIST_BY_GROUP (38): sorted client ids, SYSTEM_ERROR
  // "no consumer for this group, <group>" when there are none.
  protocol::RemotingCommand GetConsumerListByGroup(const protocol::RemotingCommand& request);
  // LOCK_BATCH_MQ (41) / UNLOCK_BATCH_MQ (42).
  protocol::RemotingCommand LockBatchMq(const protocol::RemotingCommand& request);
  protocol::RemotingCommand UnlockBatchMq(const protocol::RemotingCommand& request);

 private:
  const BrokerConfig* config_;
  ConsumerManager* consumer_manager_;
  ProducerManager* producer_manager_;
  SubscriptionGroupManager* subscription_group_manager_;
  TopicConfigManager* topic_config_manager_;
};

}  // namespace apogee::broker
