#include "broker/processors/client_processors.h"

#include <memory>

#include "broker/broker_context.h"
#include "broker/broker_services.h"
#include "broker/client/client_housekeeping.h"
#include "broker/processors/client_manage_processor.h"
#include "broker/processors/processor_table.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/subscription_group_manager.h"
#include "remoting/request_processor.h"

namespace apogee::broker {
namespace {

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

void CreateClientProcessors(BrokerContext& context, const BrokerServices& services,
                            BrokerProcessors* out) {
  // One housekeeping instance listens to both servers' channels (the table adds it).
  out->client_housekeeping = services.client_housekeeping;
  auto processor = std::make_shared<ClientManageProcessor>(
      context.config, services.consumers.get(), services.producers.get(),
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
