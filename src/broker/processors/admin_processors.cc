#include "broker/processors/admin_processors.h"

#include <memory>

#include "broker/processors/admin_broker_processor.h"
#include "broker/broker_context.h"
#include "broker/processors/processor_table.h"
#include "broker/processors/query_message_processor.h"

namespace apogee::broker {

void CreateAdminProcessors(BrokerContext& context, BrokerProcessors* out, env::Env* env) {
  out->admin = std::make_shared<AdminBrokerProcessor>(&context, env, context.stats);
  out->query_message = std::make_shared<QueryMessageProcessor>(context.store);
}

}  // namespace apogee::broker
