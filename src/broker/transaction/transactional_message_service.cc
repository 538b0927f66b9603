#include "broker/transaction/transactional_message_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "base/string_util.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/schedule/message_redirect.h"
#include "broker/topic_config_manager.h"
#include "broker/transaction/transaction_op.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "protocol/mix_all.h"
#include "protocol/system_topics.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace {

// Java's MAX_PROCESS_TIME_LIMIT: one round stops working on the queue after a minute.
constexpr int64_t kMaxProcessTimeMs = 60'000;
// Ops are read in pages of this many records (Java pulls 32 at a time).
constexpr int32_t kOpPageSize = 32;
constexpr int64_t kReadMaxBytes = 4 * 1024 * 1024;

Result<message::MessageExt> DecodeStored(const uint8_t* data, size_t size) {
  message::RecordDecodeResult decoded = message::DecodeRecord(data, size);
  if (decoded.status != message::RecordStatus::kMessage) {
    return Status::Corruption(fmt::format("record is {}: {}",
                                          message::RecordStatusName(decoded.status),
                                          decoded.reason));
  }
  // Bodies stay as stored: a compressed body is re-stored with its flag.
  return message::ToMessageExt(decoded.record, /*decompress=*/false);
}

int32_t CheckTimesOf(const message::MessageExt& msg) {
  std::optional<std::string_view> text =
      msg.properties.Get(message::kPropertyTransactionCheckTimes);
  if (!text) return 0;
  std::optional<int64_t> times = ParseInt64(*text);
  return times ? static_cast<int32_t>(*times) : 0;
}

// Java's getImmunityTime: seconds in the property, the timeout when it is not a number.
int64_t ImmunityTimeMs(std::string_view seconds_text, int64_t transaction_timeout_ms) {
  std::optional<int64_t> seconds = ParseInt64(seconds_text);
  return seconds ? *seconds * 1000 : transaction_timeout_ms;
}

}  // namespace

// What the op queue says, from the consume offset on (Java's removeMap + doneOpOffset).
struct TransactionalMessageService::OpScan {
  // half queue offset -> op queue offsets naming it.
  std::map<int64_t, std::vector<int64_t>> decided;
  // op queue offset -> how many of the half offsets it names are not yet passed.
  std::map<int64_t, int32_t> pending;
  std::set<int64_t> done_ops;
  // Half offsets below the half consume offset that ops named: only an immune copy
  // (TRAN_PREPARED_QUEUE_OFFSET) can still refer to them.
  std::set<int64_t> decided_before;
  int64_t next_op_offset = 0;

  void MarkPassed(int64_t half_offset) {
    auto it = decided.find(half_offset);
    if (it == decided.end()) return;
    for (int64_t op : it->second) {
      if (--pending[op] <= 0) {
        pending.erase(op);
        done_ops.insert(op);
      }
    }
    decided.erase(it);
  }

  // Java's calculateOpOffset: the op offset advances over a gap-free run of done ops.
  int64_t NewOpOffset(int64_t op_offset) const {
    int64_t next = op_offset;
    while (done_ops.count(next) > 0) ++next;
    return next;
  }
};

TransactionalMessageService::TransactionalMessageService(store::MessageStore* store,
                                                         ConsumerOffsetManager* offsets,
                                                         message::HostAddress store_host,
                                                         const Clock* clock)
    : store_(store), offsets_(offsets), store_host_(std::move(store_host)), clock_(clock) {}

Result<message::MessageExt> TransactionalMessageService::GetHalfMessage(
    int64_t commit_log_offset) const {
  Result<store::QueryMessageResult> found = store_->GetMessageByOffset(commit_log_offset);
  if (!found.ok() || found->messages.empty()) {
    return Status::NotFound(
        fmt::format("no message at commitLogOffset {}{}", commit_log_offset,
                    found.ok() ? "" : ": " + found.status().message()));
  }
  const store::MessageRef& ref = found->messages.front();
  Result<message::MessageExt> msg = DecodeStored(ref.data, static_cast<size_t>(ref.size));
  if (!msg.ok()) {
    return Status::NotFound(fmt::format("message at commitLogOffset {} is unreadable: {}",
                                        commit_log_offset, msg.status().message()));
  }
  if (msg->topic != protocol::kTransHalfTopic) {
    return Status::InvalidArgument(
        fmt::format("the message at commitLogOffset {} is not a half message (topic {})",
                    commit_log_offset, msg->topic));
  }
  return msg;
}

Status TransactionalMessageService::CheckPrepareMessage(
    const message::MessageExt& half, const protocol::EndTransactionRequestHeader& header) {
  std::string_view group = half.properties.Get(message::kPropertyProducerGroup).value_or("");
  if (group != header.producer_group) {
    return Status::InvalidArgument(
        fmt::format("The producer group wrong: the half message belongs to '{}', the request "
                    "names '{}'",
                    group, header.producer_group));
  }
  if (half.queue_offset != header.tran_state_table_offset) {
    return Status::InvalidArgument(
        fmt::format("The transaction state table offset wrong: the half message is at queue "
                    "offset {}, the request names {}",
                    half.queue_offset, header.tran_state_table_offset));
  }
  if (half.commit_log_offset != header.commit_log_offset) {
    return Status::InvalidArgument(
        fmt::format("The commit log offset wrong: the half message is at {}, the request "
                    "names {}",
                    half.commit_log_offset, header.commit_log_offset));
  }
  return Status::OK();
}

Result<message::MessageExt> TransactionalMessageService::BuildCommittedMessage(
    const message::MessageExt& half) {
  Result<RealTarget> target = ParseRealTarget(half.properties, protocol::kTransHalfTopic);
  if (!target.ok()) {
    return Status::InvalidArgument(fmt::format("half message at commitLogOffset {}: {}",
                                               half.commit_log_offset, target.status().message()));
  }
  message::MessageExt msg = half;
  msg.topic = std::string(target->topic);
  msg.queue_id = target->queue_id;
  msg.sys_flag = (half.sys_flag & ~message::kTransactionTypeMask) |
                 message::kTransactionCommitType;
  msg.prepared_transaction_offset = half.commit_log_offset;
  // 4.9.8 leaves these in the stored string by accident (it builds the string before
  // clearing them); consumers never need them, so the committed message goes without.
  msg.properties.Erase(message::kPropertyRealTopic);
  msg.properties.Erase(message::kPropertyRealQueueId);
  msg.properties.Erase(message::kPropertyTransactionPrepared);
  (void)msg.properties.Set(message::kPropertyWaitStoreMsgOk, "false");
  return msg;
}

message::MessageExt TransactionalMessageService::BuildOpMessage(
    const message::MessageExt& half) const {
  message::MessageExt op;
  op.topic = std::string(protocol::kTransOpHalfTopic);
  op.queue_id = half.queue_id;
  op.body = EncodeTransOpBody(half.queue_offset);
  (void)op.properties.Set(message::kPropertyTags, kTransOpRemoveTag);
  (void)op.properties.Set(message::kPropertyWaitStoreMsgOk, "false");
  op.born_timestamp = clock_->NowMillis();
  op.born_host = store_host_;
  op.store_host = store_host_;
  return op;
}

void TransactionalMessageService::Put(const message::MessageExt& msg,
                                      std::function<void(const store::PutResult&)> done) {
  std::string properties;
  message::RecordFields fields = message::RecordFieldsFromMessageExt(msg, &properties);
  fields.store_host = store_host_;
  store_->PutMessage(fields, /*wait_store_msg_ok=*/false, std::move(done));
}

store::PutResult TransactionalMessageService::PutAndWait(const message::MessageExt& msg) {
  std::string properties;
  message::RecordFields fields = message::RecordFieldsFromMessageExt(msg, &properties);
  fields.store_host = store_host_;
  return store_->PutMessage(fields, /*wait_store_msg_ok=*/false).get();
}

int64_t TransactionalMessageService::FetchConsumeOffset(std::string_view topic) const {
  int64_t offset =
      offsets_->QueryOffset(protocol::kTransSysConsumerGroup, topic, kTransHalfQueueId);
  if (offset < 0) offset = store_->GetMinOffsetInQueue(topic, kTransHalfQueueId);
  return offset;
}

Result<message::MessageExt> TransactionalMessageService::GetHalfMessageAt(
    int64_t queue_offset) const {
  store::GetMessageResult got = store_->GetMessages(protocol::kTransHalfTopic, kTransHalfQueueId,
                                                    queue_offset, 1, kReadMaxBytes);
  if (got.status != store::GetStatus::kFound || got.messages.empty()) {
    return Status::NotFound(fmt::format("no half message at queue offset {}: {}", queue_offset,
                                        store::GetStatusName(got.status)));
  }
  const store::MessageRef& ref = got.messages.front();
  APOGEE_ASSIGN_OR_RETURN(message::MessageExt msg,
                          DecodeStored(ref.data, static_cast<size_t>(ref.size)));
  msg.queue_offset = ref.queue_offset;
  return msg;
}

void TransactionalMessageService::ReadOps(int64_t op_offset, int64_t min_half_offset,
                                          OpScan* scan) const {
  auto logger = GetLogger("transaction");
  int64_t offset = op_offset;
  const int64_t max_offset =
      store_->GetMaxOffsetInQueue(protocol::kTransOpHalfTopic, kTransHalfQueueId);
  while (offset < max_offset) {
    store::GetMessageResult got = store_->GetMessages(
        protocol::kTransOpHalfTopic, kTransHalfQueueId, offset, kOpPageSize, kReadMaxBytes);
    if (got.status == store::GetStatus::kOffsetTooSmall) {
      // Retention removed old ops: what is gone cannot mark anything any more.
      for (int64_t gone = offset; gone < got.next_begin_offset; ++gone) scan->done_ops.insert(gone);
      offset = got.next_begin_offset;
      continue;
    }
    if (got.status != store::GetStatus::kFound || got.messages.empty()) break;
    for (const store::MessageRef& ref : got.messages) {
      Result<message::MessageExt> op = DecodeStored(ref.data, static_cast<size_t>(ref.size));
      Result<std::vector<int64_t>> halves =
          op.ok() ? DecodeTransOpBody(op->body) : Result<std::vector<int64_t>>(op.status());
      const bool remove_tag = op.ok() && op->tags() == kTransOpRemoveTag;
      if (!halves.ok() || !remove_tag) {
        // Java leaves such an op pending for ever, which pins the op offset; it can never
        // mark a half message, so it counts as done.
        logger->warn("transaction op at queue offset {} ignored: {}", ref.queue_offset,
                     halves.ok() ? "tag is not 'd'" : halves.status().message());
        scan->done_ops.insert(ref.queue_offset);
        continue;
      }
      int32_t pending = 0;
      for (int64_t half : *halves) {
        if (half < min_half_offset) {  // already passed by the half offset
          scan->decided_before.insert(half);
          continue;
        }
        scan->decided[half].push_back(ref.queue_offset);
        ++pending;
      }
      if (pending == 0) {
        scan->done_ops.insert(ref.queue_offset);
      } else {
        scan->pending[ref.queue_offset] = pending;
      }
    }
    offset = got.next_begin_offset;
  }
  scan->next_op_offset = offset;
}

TransactionCheckRoundStats TransactionalMessageService::Check(int64_t transaction_timeout_ms,
                                                              int32_t check_max,
                                                              int64_t file_reserved_ms,
                                                              TransactionCheckListener* listener) {
  auto logger = GetLogger("transaction");
  TransactionCheckRoundStats stats;
  const int64_t start_ms = clock_->NowMillis();
  const int64_t half_offset = FetchConsumeOffset(protocol::kTransHalfTopic);
  const int64_t op_offset = FetchConsumeOffset(protocol::kTransOpHalfTopic);
  stats.half_offset = half_offset;
  stats.op_offset = op_offset;
  if (half_offset < 0 || op_offset < 0) return stats;

  OpScan ops;
  ReadOps(op_offset, half_offset, &ops);

  const int64_t half_max =
      store_->GetMaxOffsetInQueue(protocol::kTransHalfTopic, kTransHalfQueueId);
  int64_t i = half_offset;
  int64_t new_offset = half_offset;
  while (i < half_max) {
    const int64_t now = clock_->NowMillis();
    if (now - start_ms > kMaxProcessTimeMs) {
      logger->info("transaction check round stops after {} ms at half offset {}", now - start_ms,
                   i);
      break;
    }
    if (ops.decided.count(i) > 0) {
      ops.MarkPassed(i);
      ++stats.decided;
      new_offset = ++i;
      continue;
    }
    Result<message::MessageExt> half = GetHalfMessageAt(i);
    if (!half.ok()) {
      const int64_t min_offset =
          store_->GetMinOffsetInQueue(protocol::kTransHalfTopic, kTransHalfQueueId);
      if (i < min_offset) {  // retention removed it
        new_offset = i = min_offset;
        continue;
      }
      logger->warn("transaction check stops at half offset {}: {}", i, half.status().message());
      break;
    }
    // Copies re-appended by this round (and anything newer) wait for the next round, which
    // also gives the producer an interval to answer the last allowed check before a discard.
    if (half->store_timestamp >= start_ms) break;
    const int64_t age_ms = now - half->born_timestamp;
    const int32_t check_times = CheckTimesOf(*half);
    if (check_times >= check_max || age_ms > file_reserved_ms) {
      Status discarded = listener->ResolveDiscardMessage(*half);
      if (!discarded.ok()) {
        logger->error("transaction check: discarding half offset {} failed ({}); retried next "
                      "round",
                      i, discarded.message());
        break;
      }
      ++stats.discarded;
      new_offset = ++i;
      continue;
    }
    std::optional<std::string_view> immunity_text =
        half->properties.Get(message::kPropertyCheckImmunityTimeInSeconds);
    if (immunity_text) {
      const int64_t immunity_ms = ImmunityTimeMs(*immunity_text, transaction_timeout_ms);
      if (age_ms < immunity_ms) {
        // Java's checkPrepareQueueOffset: a young message is moved to the end once, carrying
        // its first queue offset, so that an op naming that offset still finds it.
        std::optional<std::string_view> prepared =
            half->properties.Get(message::kPropertyTranPreparedQueueOffset);
        if (!prepared) {
          message::MessageExt copy = *half;
          (void)copy.properties.Set(message::kPropertyTranPreparedQueueOffset,
                                    std::to_string(half->queue_offset));
          store::PutResult put = PutAndWait(copy);
          if (!store::PutStatusStored(put.status)) {
            logger->error("transaction check: re-appending young half offset {} failed: {}", i,
                          store::PutStatusName(put.status));
            break;
          }
          new_offset = ++i;
          continue;
        }
        std::optional<int64_t> first_offset = ParseInt64(*prepared);
        if (first_offset && (ops.decided.count(*first_offset) > 0 ||
                             ops.decided_before.count(*first_offset) > 0)) {
          ops.MarkPassed(*first_offset);
          ++stats.decided;
          new_offset = ++i;
          continue;
        }
        break;  // still immune: wait
      }
    } else if (age_ms >= 0 && age_ms < transaction_timeout_ms) {
      break;  // half messages are in store order, the rest are younger still
    }

    // Undecided and old enough (or born "in the future", a clock jump): re-append with one
    // more check, then ask the producer about the copy.
    message::MessageExt copy = *half;
    (void)copy.properties.Set(message::kPropertyTransactionCheckTimes,
                              std::to_string(check_times + 1));
    store::PutResult put = PutAndWait(copy);
    if (!store::PutStatusStored(put.status)) {
      logger->error("transaction check: re-appending half offset {} failed: {}", i,
                    store::PutStatusName(put.status));
      break;
    }
    copy.queue_offset = put.queue_offset.value();
    copy.commit_log_offset = put.wrote_offset.value();
    copy.store_timestamp = put.store_timestamp;
    copy.offset_msg_id = message::CreateOffsetMsgId(store_host_, copy.commit_log_offset);
    listener->ResolveHalfMessage(copy);
    ++stats.checked;
    new_offset = ++i;
  }

  if (new_offset != half_offset) {
    offsets_->CommitOffset(protocol::kTransSysConsumerGroup, protocol::kTransHalfTopic,
                           kTransHalfQueueId, new_offset);
  }
  const int64_t new_op_offset = ops.NewOpOffset(op_offset);
  if (new_op_offset != op_offset) {
    offsets_->CommitOffset(protocol::kTransSysConsumerGroup, protocol::kTransOpHalfTopic,
                           kTransHalfQueueId, new_op_offset);
  }
  stats.half_offset = new_offset;
  stats.op_offset = new_op_offset;
  return stats;
}

}  // namespace apogee::broker
