#include "broker/processors/end_transaction_processor.h"

#include <string>
#include <utility>

#include <fmt/format.h>

#include "base/logging.h"
#include "broker/broker_config.h"
#include "broker/schedule/message_redirect.h"
#include "broker/store_status_mapping.h"
#include "broker/transaction/transactional_message_service.h"
#include "message/message_format.h"
#include "protocol/custom_header.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
using protocol::RemotingCommand;

namespace {

const char* DecisionName(int32_t commit_or_rollback) {
  switch (commit_or_rollback) {
    case message::kTransactionCommitType:
      return "COMMIT";
    case message::kTransactionRollbackType:
      return "ROLLBACK";
    default:
      return "UNKNOWN";
  }
}

}  // namespace

EndTransactionProcessor::EndTransactionProcessor(const BrokerConfig* config,
                                                 TransactionalMessageService* service)
    : config_(config), service_(service) {
  Result<store::DelayLevelTable> levels =
      store::DelayLevelTable::Parse(config_->Get()->store.message_delay_level);
  if (levels.ok()) {
    delay_levels_ = std::move(*levels);
  } else {
    // The store refuses to open with a bad table, so this only happens in odd tests.
    GetLogger("transaction")->error("messageDelayLevel unusable ({}): committed messages ignore "
                                    "DELAY",
                                    levels.status().message());
  }
}

void EndTransactionProcessor::ProcessRequest(RemotingCommand request,
                                             remoting::Responder responder) {
  auto logger = GetLogger("transaction");
  const std::shared_ptr<const BrokerSettings> settings = config_->Get();
  if (settings->store.role() == store::BrokerRole::kSlave) {
    responder.SendCode(rc::kSlaveNotAvailable,
                       "Store is slave mode, so end transaction is forbidden.");
    return;
  }
  Result<protocol::EndTransactionRequestHeader> decoded =
      protocol::DecodeCustomHeader<protocol::EndTransactionRequestHeader>(request);
  if (!decoded.ok()) {
    responder.SendCode(rc::kSystemError, decoded.status().message());
    return;
  }
  const protocol::EndTransactionRequestHeader header = std::move(*decoded);
  if (header.producer_group.empty()) {
    // A request without extFields passes the decoder's required checks.
    responder.SendCode(rc::kSystemError, "the custom field producerGroup is null");
    return;
  }
  const int32_t decision = header.commit_or_rollback;
  if (decision != message::kTransactionCommitType &&
      decision != message::kTransactionRollbackType) {
    // The producer does not know yet (LocalTransactionState.UNKNOW): the check-back asks
    // again later.
    logger->info("END_TRANSACTION for {} with state {} ignored (producer group '{}'{})",
                 header.msg_id, decision, header.producer_group,
                 header.from_transaction_check ? ", from a check" : "");
    responder.SendCode(rc::kSuccess);
    return;
  }

  Result<message::MessageExt> half = service_->GetHalfMessage(header.commit_log_offset);
  if (!half.ok()) {
    responder.SendCode(rc::kSystemError,
                       fmt::format("Find prepared transaction message failed: {}",
                                   half.status().message()));
    return;
  }
  if (Status checked = TransactionalMessageService::CheckPrepareMessage(*half, header);
      !checked.ok()) {
    responder.SendCode(rc::kSystemError, checked.message());
    return;
  }

  TransactionalMessageService* service = service_;
  auto write_op = [service, logger](const message::MessageExt& decided,
                                    std::function<void()> then) {
    service->Put(service->BuildOpMessage(decided),
                 [logger, offset = decided.queue_offset,
                  then = std::move(then)](const store::PutResult& put) {
                   if (!store::PutStatusStored(put.status)) {
                     // The check-back will ask the producer again; a commit may then be
                     // stored twice, as in Java.
                     logger->error("op record for half offset {} not stored: {}", offset,
                                   store::PutStatusName(put.status));
                   }
                   then();
                 });
  };

  if (decision == message::kTransactionRollbackType) {
    write_op(*half, [responder] { responder.SendCode(rc::kSuccess); });
    return;
  }

  Result<message::MessageExt> committed = TransactionalMessageService::BuildCommittedMessage(*half);
  if (!committed.ok()) {
    responder.SendCode(rc::kSystemError, committed.status().message());
    return;
  }
  MessageRoute route = RouteOf(&*committed);
  if (!RedirectDelayed(delay_levels_, route)) {
    Result<bool> timer =
        RedirectTimer(NowMillis(), settings->timer_max_delay_sec * 1000,
                      settings->timer_wheel_enable, route);
    if (!timer.ok()) {
      // The producer was told the send succeeded long ago: deliver now rather than never.
      logger->warn("committed message {}: timer properties ignored ({}); delivered now",
                   header.msg_id, timer.status().message());
    }
  }
  const int32_t max_size = settings->store.max_message_size;
  store::MessageStore* store = service_->store();
  service_->Put(*committed, [store, max_size, write_op, half = std::move(*half), responder,
                             logger, decision](const store::PutResult& put) {
    ResponseCodeAndRemark mapped = MapPutStatus(put.status, store->unwritable_reason(), max_size);
    if (!store::PutStatusStored(put.status)) {
      logger->error("{} of half offset {} failed: {}", DecisionName(decision), half.queue_offset,
                    store::PutStatusName(put.status));
      responder.SendCode(mapped.code, mapped.remark);
      return;
    }
    // Stored is success for the producer, whatever the flush policy said (Java's
    // sendFinalMessage).
    write_op(half, [responder] { responder.SendCode(rc::kSuccess); });
  });
}

}  // namespace apogee::broker
