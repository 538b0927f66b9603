#include "broker/processors/schedule_processors.h"

#include <memory>

#include "broker/broker_context.h"
#include "broker/processors/processor_table.h"
#include "broker/processors/send_message_back_processor.h"

namespace apogee::broker {

void CreateScheduleProcessors(BrokerContext& context, BrokerProcessors* out) {
  out->send_back = std::make_shared<SendMessageBackProcessor>(SendMessageBackProcessor::Deps{
      .config = context.config,
      .store = context.store,
      .groups = context.subscription_group_manager,
      .topics = context.topic_config_manager,
      .stats = context.stats.get(),
  });
}

}  // namespace apogee::broker
