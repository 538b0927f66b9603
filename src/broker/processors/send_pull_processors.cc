#include "broker/processors/send_pull_processors.h"

#include <memory>

#include "broker/broker_context.h"
#include "broker/broker_services.h"
#include "broker/processors/consumer_manage_processor.h"
#include "broker/processors/processor_table.h"
#include "broker/processors/pull_message_processor.h"
#include "broker/processors/send_message_processor.h"

namespace apogee::broker {

void CreateSendPullProcessors(BrokerContext& context, const BrokerServices& services,
                              BrokerProcessors* out) {
  out->send = std::make_shared<SendMessageProcessor>(SendMessageProcessor::Deps{
      .config = context.config,
      .store = context.store,
      .topics = context.topic_config_manager,
      .groups = context.subscription_group_manager,
      .stats = context.stats.get(),
      .broker_addr = context.broker_addr,
      .may_acknowledge = context.may_acknowledge,
  });
  out->consumer_manage = std::make_shared<ConsumerManageProcessor>(ConsumerManageProcessor::Deps{
      .store = context.store,
      .offsets = services.consumer_offsets.get(),
      .groups = context.subscription_group_manager,
      .topics = context.topic_config_manager,
  });
  // Pulls are served by the main port only (processor_table.h); its hold service is the
  // broker's one long-polling service.
  out->pull = std::make_shared<PullMessageProcessor>(
      PullMessageProcessor::Deps{
          .config = context.config,
          .store = context.store,
          .topics = context.topic_config_manager,
          .groups = context.subscription_group_manager,
          .offsets = services.consumer_offsets.get(),
          .consumers = services.consumers.get(),
          .stats = context.stats.get(),
      },
      services.pull_hold);
}

}  // namespace apogee::broker
