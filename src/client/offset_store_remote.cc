#include "client/offset_store_remote.h"

#include "base/logging.h"

namespace apogee::client {

RemoteBrokerOffsetStore::RemoteBrokerOffsetStore(std::string group,
                                                 std::shared_ptr<OffsetBrokerAccess> broker)
    : group_(std::move(group)), broker_(std::move(broker)) {}

void RemoteBrokerOffsetStore::UpdateOffset(const protocol::MessageQueue& mq, int64_t offset,
                                           bool increase_only) {
  table_.Update(mq, offset, increase_only);
}

int64_t RemoteBrokerOffsetStore::ReadOffset(const protocol::MessageQueue& mq, ReadOffsetType type) {
  if (type != ReadOffsetType::kReadFromStore) {
    if (auto offset = table_.Get(mq)) return *offset;
    if (type == ReadOffsetType::kReadFromMemory) return kOffsetNotFound;
  }
  Result<int64_t> remote = broker_->QueryConsumerOffset(group_, mq);
  if (remote.ok()) {
    table_.Update(mq, *remote, false);
    return *remote;
  }
  // As Java: "no offset on the broker" lets consumeFromWhere decide; any other failure
  // (no route, timeout) makes the caller skip the queue this round and retry later.
  if (remote.status().code() == StatusCode::kNotFound) return kOffsetNotFound;
  GetLogger("client")->warn("query consumer offset of {} for group {} failed: {}",
                            protocol::ToString(mq), group_, remote.status().ToString());
  return kOffsetReadError;
}

void RemoteBrokerOffsetStore::PersistAll(const std::set<protocol::MessageQueue>& mqs) {
  if (mqs.empty()) return;
  // Queues this consumer no longer owns are dropped, as Java's unusedMQ handling.
  for (const auto& [mq, offset] : table_.Select(mqs, /*drop_others=*/true)) {
    Status s = broker_->UpdateConsumerOffset(group_, mq, offset, /*oneway=*/true);
    if (!s.ok()) {
      GetLogger("client")->warn("persist offset {} of {} for group {} failed: {}", offset,
                                protocol::ToString(mq), group_, s.ToString());
    }
  }
}

void RemoteBrokerOffsetStore::Persist(const protocol::MessageQueue& mq) {
  if (auto offset = table_.Get(mq)) {
    Status s = broker_->UpdateConsumerOffset(group_, mq, *offset, /*oneway=*/true);
    if (!s.ok()) {
      GetLogger("client")->warn("persist offset {} of {} for group {} failed: {}", *offset,
                                protocol::ToString(mq), group_, s.ToString());
    }
  }
}

void RemoteBrokerOffsetStore::RemoveOffset(const protocol::MessageQueue& mq) { table_.Remove(mq); }

std::map<protocol::MessageQueue, int64_t> RemoteBrokerOffsetStore::CloneOffsetTable(
    std::string_view topic) const {
  return table_.Clone(topic);
}

Status RemoteBrokerOffsetStore::UpdateConsumeOffsetToBroker(const protocol::MessageQueue& mq,
                                                            int64_t offset, bool oneway) {
  return broker_->UpdateConsumerOffset(group_, mq, offset, oneway);
}

}  // namespace apogee::client
