#include "broker/processors/transaction_processors.h"

#include <memory>

#include "broker/broker_context.h"
#include "broker/broker_services.h"
#include "broker/processors/dlq_redrive_processor.h"
#include "broker/processors/end_transaction_processor.h"
#include "broker/processors/processor_table.h"

namespace apogee::broker {

void CreateTransactionProcessors(BrokerContext& context, const BrokerServices& services,
                                 BrokerProcessors* out) {
  out->end_transaction =
      std::make_shared<EndTransactionProcessor>(context.config, services.transactions.get());
  out->dlq_redrive = std::make_shared<DlqRedriveProcessor>(
      DlqRedriveProcessor::Deps{
          .config = context.config,
          .store = context.store,
          .offsets = services.consumer_offsets.get(),
          .groups = context.subscription_group_manager,
          .topics = context.topic_config_manager,
      },
      services.store_host);
}

}  // namespace apogee::broker
