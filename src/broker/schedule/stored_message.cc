#include "broker/schedule/stored_message.h"

#include <fmt/format.h>

#include "broker/schedule/message_redirect.h"
#include "broker/topic_config_manager.h"
#include "message/message_record.h"
#include "protocol/system_topics.h"
#include "store/message_store.h"

namespace apogee::broker {

Result<message::MessageExt> LookMessageByOffset(const store::MessageStore& store,
                                                int64_t phy_offset) {
  Result<store::QueryMessageResult> found = store.GetMessageByOffset(phy_offset);
  if (!found.ok() || found->messages.empty()) {
    return Status::NotFound(fmt::format("look message by offset failed, {}{}", phy_offset,
                                        found.ok() ? "" : ": " + found.status().ToString()));
  }
  const store::MessageRef& ref = found->messages.front();
  message::RecordDecodeResult decoded =
      message::DecodeRecord(ref.data, static_cast<size_t>(ref.size));
  if (decoded.status != message::RecordStatus::kMessage) {
    return Status::Corruption(fmt::format("message at CommitLog offset {} does not decode: {} {}",
                                          phy_offset, message::RecordStatusName(decoded.status),
                                          decoded.reason));
  }
  return message::ToMessageExt(decoded.record, /*decompress=*/false);
}

}  // namespace apogee::broker

namespace apogee::broker {

DeliverOutcome DeliverParkedMessage(store::MessageStore* store, const store::MessageRef& ref,
                                    std::string* why) {
  auto explain = [why](std::string text) {
    if (why != nullptr) *why = std::move(text);
  };
  message::RecordDecodeResult decoded =
      message::DecodeRecord(ref.data, static_cast<size_t>(ref.size));
  if (decoded.status != message::RecordStatus::kMessage) {
    explain(fmt::format("record at CommitLog offset {} does not decode: {}", ref.phy_offset,
                        decoded.reason));
    return DeliverOutcome::kDiscarded;
  }
  Result<message::MessageExt> msg = message::ToMessageExt(decoded.record, /*decompress=*/false);
  if (!msg.ok()) {
    explain(msg.status().ToString());
    return DeliverOutcome::kDiscarded;
  }
  Status restored = RestoreRealTopic(RouteOf(&*msg));
  if (!restored.ok()) {
    explain(restored.ToString());
    return DeliverOutcome::kDiscarded;
  }
  if (msg->topic == protocol::kTransHalfTopic) {
    // Java refuses to deliver a delayed message into the half topic.
    explain(fmt::format("message at CommitLog offset {} names the half-transaction topic",
                        ref.phy_offset));
    return DeliverOutcome::kDiscarded;
  }
  std::string properties;
  message::RecordFields fields = message::RecordFieldsFromMessageExt(*msg, &properties);
  fields.queue_offset = 0;
  fields.physical_offset = 0;
  fields.store_timestamp = 0;
  store::PutResult result = store->PutMessage(fields, /*wait_store_msg_ok=*/false).get();
  if (result.status == store::PutStatus::kMessageIllegal ||
      result.status == store::PutStatus::kPropertiesSizeExceeded) {
    // The store will refuse this record every time: retrying would hold up every later
    // message of the parking queue forever.
    explain(fmt::format("store refuses the delivery of CommitLog offset {} to {} for good: {}",
                        ref.phy_offset, msg->topic, store::PutStatusName(result.status)));
    return DeliverOutcome::kDiscarded;
  }
  if (!store::PutStatusStored(result.status)) {
    explain(fmt::format("store refused the delivery of CommitLog offset {} to {}: {}",
                        ref.phy_offset, msg->topic, store::PutStatusName(result.status)));
    return DeliverOutcome::kRetryLater;
  }
  return DeliverOutcome::kDelivered;
}

}  // namespace apogee::broker
