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
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "protocol/request_code.h"
#include "remoting/remoting_server.h"

namespace apogee::broker {
namespace {

namespace code = protocol::request_code;

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

void Register(remoting::RemotingServer& server, int32_t request_code,
              const std::shared_ptr<remoting::Executor>& executor,
              std::function<protocol::RemotingCommand(const protocol::RemotingCommand&,
                                                      const remoting::ChannelPtr&)>
                  handler) {
  server.RegisterProcessor(
      request_code,
      remoting::MakeProcessor([handler = std::move(handler)](protocol::RemotingCommand request,
                                                             remoting::Responder responder) {
        responder.Send(handler(request, responder.channel()));
      }),
      executor);
}

}  // namespace

void RegisterClientProcessors(BrokerContext& context, remoting::RemotingServer& server) {
  if (context.consumer_manager == nullptr) {
    auto listener = std::make_shared<NotifyConsumersListener>(context.config,
                                                              context.subscription_group_manager);
    context.consumer_manager = std::make_shared<ConsumerManager>(Clock::Real(), listener);
    context.producer_manager = std::make_shared<ProducerManager>(Clock::Real());
    // The scan runs once per broker, whatever the number of servers.
    auto scanner = std::make_shared<ClientHousekeeping>(context.consumer_manager.get(),
                                                        context.producer_manager.get());
    server.AddChannelEventListener(scanner);
    context.AddStartHook([scanner, ctx = &context] {
      scanner->Start(ctx->scheduler);
      return Status::OK();
    });
    context.AddShutdownHook([scanner] { scanner->Shutdown(); });
  } else {
    // Another server of the same broker: only its channel events are needed.
    server.AddChannelEventListener(std::make_shared<ClientHousekeeping>(
        context.consumer_manager.get(), context.producer_manager.get()));
  }

  auto processor = std::make_shared<ClientManageProcessor>(
      context.config, context.consumer_manager.get(), context.producer_manager.get(),
      context.subscription_group_manager, context.topic_config_manager);
  const BrokerExecutors& executors = context.executors;

  Register(server, code::kHeartBeat, executors.heartbeat,
           [processor](const auto& request, const auto& channel) {
             return processor->HeartBeat(request, channel);
           });
  Register(server, code::kUnregisterClient, executors.client_manage,
           [processor](const auto& request, const auto& channel) {
             return processor->UnregisterClient(request, channel);
           });
  Register(server, code::kCheckClientConfig, executors.client_manage,
           [processor](const auto& request, const auto&) {
             return processor->CheckClientConfig(request);
           });
  Register(server, code::kGetConsumerListByGroup, executors.consumer_manage,
           [processor](const auto& request, const auto&) {
             return processor->GetConsumerListByGroup(request);
           });
  // Java serves the locks from AdminBrokerProcessor, on the admin executor.
  Register(
      server, code::kLockBatchMq, executors.admin,
      [processor](const auto& request, const auto&) { return processor->LockBatchMq(request); });
  Register(
      server, code::kUnlockBatchMq, executors.admin,
      [processor](const auto& request, const auto&) { return processor->UnlockBatchMq(request); });
}

}  // namespace apogee::broker
