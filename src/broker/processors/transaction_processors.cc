#include "broker/processors/transaction_processors.h"

#include <memory>
#include <utility>

#include "base/clock.h"
#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/processors/dlq_redrive_processor.h"
#include "broker/processors/end_transaction_processor.h"
#include "broker/processors/processor_table.h"
#include "broker/transaction/transaction_check_service.h"
#include "broker/transaction/transactional_message_service.h"
#include "message/host_address.h"

namespace apogee::broker {

namespace {

// Everything the family owns, created once and kept alive by its hooks.
struct TransactionFamily {
  std::unique_ptr<TransactionalMessageService> service;
  std::unique_ptr<DefaultTransactionCheckListener> listener;
  std::unique_ptr<TransactionCheckService> check_service;
};

message::HostAddress StoreHostOf(const BrokerContext& context) {
  Result<message::HostAddress> host = message::HostAddress::Parse(context.broker_addr);
  if (host.ok()) return *host;
  const int32_t port = context.config->Get()->listen_port;
  GetLogger("transaction")
      ->error("broker address '{}' is not ip:port ({}); transaction records use 127.0.0.1:{}",
              context.broker_addr, host.status().ToString(), port);
  return message::HostAddress::IPv4(127, 0, 0, 1, port);
}

}  // namespace

void CreateTransactionProcessors(BrokerContext& context, BrokerProcessors* out) {
  auto family = std::make_shared<TransactionFamily>();
  const message::HostAddress store_host = StoreHostOf(context);
  family->service = std::make_unique<TransactionalMessageService>(
      context.store, context.consumer_offset_manager.get(), store_host, Clock::Real());
  family->listener = std::make_unique<DefaultTransactionCheckListener>(
      family->service.get(), context.producer_manager.get(), context.topic_config_manager);
  family->check_service = std::make_unique<TransactionCheckService>(
      context.config, family->service.get(), family->listener.get());
  out->end_transaction =
      std::make_shared<EndTransactionProcessor>(&context, family->service.get());
  out->dlq_redrive = std::make_shared<DlqRedriveProcessor>(&context, store_host);
  context.AddStartHook([family, ctx = &context] {
    family->check_service->Start(ctx->scheduler);
    return Status::OK();
  });
  // Stops checking before the store closes; the progress is in the consumer offsets,
  // which their owner persists at shutdown.
  context.AddShutdownHook([family] { family->check_service->Shutdown(); });
}

}  // namespace apogee::broker
