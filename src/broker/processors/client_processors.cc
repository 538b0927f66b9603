#include "broker/processors/client_processors.h"

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/client/broker_to_client.h"
#include "broker/client/client_housekeeping.h"
#include "broker/processors/client_manage_processor.h"
#include "broker/processors/processor_table.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "remoting/request_processor.h"

namespace apogee::broker {
namespace {

// Java's DefaultConsumerIdsChangeListener (real-time mode): tells every member of a
// changed group to rebalance, when the broker's and the group's
// notifyConsumerIdsChangedEnable allow it.
class NotifyConsumersListener : public ConsumerIdsChangeListener {
 public:
  NotifyConsumersListener(const BrokerConfig* config, SubscriptionGroupManager* groups)
      : config_(config), groups_(groups) {}

  void OnConsumerIdsChanged(const std::string& group,
                            const std::vector<remoting::ChannelPtr>& channels) override {
    if (!config_->Get()->notify_consumer_ids_changed_enable) return;
    // Select, not Find: a notification must not create the group.
    std::optional<SubscriptionGroupConfig> group_config =
        groups_->SelectSubscriptionGroupConfig(group);
    if (group_config && !group_config->notify_consumer_ids_changed_enable) return;
    for (const remoting::ChannelPtr& channel : channels) {
      // Members whose connection is already closing (broker shutdown) cannot rebalance.
      if (channel->IsActive()) NotifyConsumerIdsChanged(channel, group);
    }
  }

 private:
  const BrokerConfig* config_;
  SubscriptionGroupManager* groups_;
};

// Adapts one ClientManageProcessor method to a request processor.
std::shared_ptr<remoting::RequestProcessor> Handler(
    std::function<protocol::RemotingCommand(const protocol::RemotingCommand&,
                                            const remoting::ChannelPtr&)>
        handler) {
  return remoting::MakeProcessor([handler = std::move(handler)](protocol::RemotingCommand request,
                                                                remoting::Responder responder) {
    responder.Send(handler(request, responder.channel()));
  });
}

}  // namespace

void CreateClientProcessors(BrokerContext& context, BrokerProcessors* out) {
  auto listener = std::make_shared<NotifyConsumersListener>(context.config,
                                                            context.subscription_group_manager);
  context.consumer_manager = std::make_shared<ConsumerManager>(Clock::Real(), listener);
  context.producer_manager = std::make_shared<ProducerManager>(Clock::Real());
  // One instance listens to both servers' channels; its scan runs once per broker.
  auto scanner = std::make_shared<ClientHousekeeping>(context.consumer_manager.get(),
                                                      context.producer_manager.get());
  out->client_housekeeping = scanner;
  context.AddStartHook([scanner, ctx = &context] {
    scanner->Start(ctx->scheduler);
    return Status::OK();
  });
  context.AddShutdownHook([scanner] { scanner->Shutdown(); });

  auto processor = std::make_shared<ClientManageProcessor>(
      context.config, context.consumer_manager.get(), context.producer_manager.get(),
      context.subscription_group_manager, context.topic_config_manager);
  out->heart_beat = Handler([processor](const auto& request, const auto& channel) {
    return processor->HeartBeat(request, channel);
  });
  out->unregister_client = Handler([processor](const auto& request, const auto& channel) {
    return processor->UnregisterClient(request, channel);
  });
  out->check_client_config = Handler([processor](const auto& request, const auto&) {
    return processor->CheckClientConfig(request);
  });
  out->consumer_list_by_group = Handler([processor](const auto& request, const auto&) {
    return processor->GetConsumerListByGroup(request);
  });
  out->lock_batch_mq = Handler(
      [processor](const auto& request, const auto&) { return processor->LockBatchMq(request); });
  out->unlock_batch_mq = Handler(
      [processor](const auto& request, const auto&) { return processor->UnlockBatchMq(request); });
}

}  // namespace apogee::broker
