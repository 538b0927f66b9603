#include "client/offset_store_table.h"

namespace apogee::client {

void OffsetTable::Update(const protocol::MessageQueue& mq, int64_t offset, bool increase_only) {
  std::lock_guard lock(mu_);
  auto [it, inserted] = table_.try_emplace(mq, offset);
  if (inserted) return;
  if (!increase_only || offset > it->second) it->second = offset;
}

std::optional<int64_t> OffsetTable::Get(const protocol::MessageQueue& mq) const {
  std::lock_guard lock(mu_);
  auto it = table_.find(mq);
  if (it == table_.end()) return std::nullopt;
  return it->second;
}

void OffsetTable::Remove(const protocol::MessageQueue& mq) {
  std::lock_guard lock(mu_);
  table_.erase(mq);
}

std::map<protocol::MessageQueue, int64_t> OffsetTable::Clone(std::string_view topic) const {
  std::lock_guard lock(mu_);
  std::map<protocol::MessageQueue, int64_t> out;
  for (const auto& [mq, offset] : table_) {
    if (topic.empty() || mq.topic == topic) out.emplace(mq, offset);
  }
  return out;
}

std::map<protocol::MessageQueue, int64_t> OffsetTable::Select(
    const std::set<protocol::MessageQueue>& keep, bool drop_others) {
  std::lock_guard lock(mu_);
  std::map<protocol::MessageQueue, int64_t> out;
  for (auto it = table_.begin(); it != table_.end();) {
    if (keep.count(it->first) > 0) {
      out.emplace(*it);
      ++it;
    } else if (drop_others) {
      it = table_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

void OffsetTable::PutAll(const std::map<protocol::MessageQueue, int64_t>& offsets) {
  std::lock_guard lock(mu_);
  for (const auto& [mq, offset] : offsets) table_[mq] = offset;
}

}  // namespace apogee::client
