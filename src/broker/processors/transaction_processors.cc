#include "broker/processors/transaction_processors.h"

#include <memory>
#include <utility>

#include "base/clock.h"
#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/processors/dlq_redrive_processor.h"
#include "broker/processors/end_transaction_processor.h"
#include "broker/transaction/transaction_check_service.h"
#include "broker/transaction/transactional_message_service.h"
#include "message/host_address.h"
#include "protocol/request_code.h"
#include "remoting/remoting_server.h"

namespace apogee::broker {

namespace req = protocol::request_code;

namespace {

// Everything the family owns, created on the first Register call and shared by both
// servers.
struct TransactionFamily {
  std::unique_ptr<TransactionalMessageService> service;
  std::unique_ptr<DefaultTransactionCheckListener> listener;
  std::unique_ptr<TransactionCheckService> check_service;
  std::shared_ptr<EndTransactionProcessor> end_transaction;
  std::shared_ptr<DlqRedriveProcessor> dlq_redrive;
};

// The family's start hook, a named type so that the second Register call (fast server)
// finds the family the first one created through std::function::target.
struct TransactionFamilyStart {
  std::shared_ptr<TransactionFamily> family;
  const BrokerContext* context;

  Status operator()() const {
    family->check_service->Start(context->scheduler);
    return Status::OK();
  }
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

std::shared_ptr<TransactionFamily> FamilyOf(BrokerContext& context) {
  for (auto& hook : context.start_hooks) {
    if (const auto* start = hook.target<TransactionFamilyStart>()) return start->family;
  }
  auto family = std::make_shared<TransactionFamily>();
  const message::HostAddress store_host = StoreHostOf(context);
  family->service = std::make_unique<TransactionalMessageService>(
      context.store, context.consumer_offset_manager.get(), store_host, Clock::Real());
  family->listener = std::make_unique<DefaultTransactionCheckListener>(
      family->service.get(), context.producer_manager.get(), context.topic_config_manager);
  family->check_service = std::make_unique<TransactionCheckService>(
      context.config, family->service.get(), family->listener.get());
  family->end_transaction =
      std::make_shared<EndTransactionProcessor>(&context, family->service.get());
  family->dlq_redrive = std::make_shared<DlqRedriveProcessor>(&context, store_host);
  context.AddStartHook(TransactionFamilyStart{family, &context});
  // Stops checking before the store closes; the progress is in the consumer offsets,
  // which their owner persists at shutdown.
  context.AddShutdownHook([family] { family->check_service->Shutdown(); });
  return family;
}

}  // namespace

void RegisterTransactionProcessors(BrokerContext& context, remoting::RemotingServer& server,
                                   env::Env* env) {
  (void)env;  // the family keeps its state in topics and consumer offsets, not own files
  std::shared_ptr<TransactionFamily> family = FamilyOf(context);
  server.RegisterProcessor(req::kEndTransaction, family->end_transaction, context.executors.send);
  server.RegisterProcessor(req::kApogeeRedriveDlqMessage, family->dlq_redrive,
                           context.executors.admin);
}

}  // namespace apogee::broker
