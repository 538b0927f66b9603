// The in-memory offset table both offset stores share: a mutex-guarded map with Java's
// compareAndIncreaseOnly rule.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>

#include "protocol/lock_batch_body.h"

namespace apogee::client {

class OffsetTable {
 public:
  void Update(const protocol::MessageQueue& mq, int64_t offset, bool increase_only);
  std::optional<int64_t> Get(const protocol::MessageQueue& mq) const;
  void Remove(const protocol::MessageQueue& mq);
  // Entries of `topic` (all when empty).
  std::map<protocol::MessageQueue, int64_t> Clone(std::string_view topic) const;
  // Entries whose queue is in `keep`; the others are dropped from the table when
  // `drop_others`.
  std::map<protocol::MessageQueue, int64_t> Select(const std::set<protocol::MessageQueue>& keep,
                                                   bool drop_others);
  void PutAll(const std::map<protocol::MessageQueue, int64_t>& offsets);

 private:
  mutable std::mutex mu_;
  std::map<protocol::MessageQueue, int64_t> table_;
};

}  // namespace apogee::client
