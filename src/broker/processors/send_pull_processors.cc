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
  out->send = std::make_shared<SendMessageProcessor>(&context);
  out->consumer_manage = std::make_shared<ConsumerManageProcessor>(&context);
  // Pulls are served by the main port only (processor_table.h); its hold service is the
  // broker's one long-polling service.
  out->pull = std::make_shared<PullMessageProcessor>(&context, services.pull_hold);
}

}  // namespace apogee::broker
