// The transaction family: END_TRANSACTION (37) and APOGEE_REDRIVE_DLQ_MESSAGE. The half /
// op bookkeeping (TransactionalMessageService) and the check-back service that sends
// CHECK_TRANSACTION_STATE to producers are built and started by the controller
// (broker_services.h); this family only creates the processors.
#pragma once

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;
struct BrokerServices;

void CreateTransactionProcessors(BrokerContext& context, const BrokerServices& services,
                                 BrokerProcessors* out);

}  // namespace apogee::broker
