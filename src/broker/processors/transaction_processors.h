// The transaction family: END_TRANSACTION (37), the half / op topics and the check-back
// service that sends CHECK_TRANSACTION_STATE to producers; also APOGEE_REDRIVE_DLQ_MESSAGE.
//
// CreateTransactionProcessors is called once by BrokerController, after the client and
// send/pull families (it uses their producer and offset managers). The check service is
// started and stopped through the context's start / shutdown hooks.
#pragma once

namespace apogee::broker {

struct BrokerContext;
struct BrokerProcessors;

void CreateTransactionProcessors(BrokerContext& context, BrokerProcessors* out);

}  // namespace apogee::broker
