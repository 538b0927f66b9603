// A named family of StatsItems keyed by a string (Java's StatsItemSet): "topic" for
// TOPIC_PUT_NUMS, "topic@group" for GROUP_GET_NUMS.
//
// The send and pull paths call Get() once per request: a lock-free probe of open-addressed
// tables of atomic pointers, hashing the key pieces in place (no concatenation, no
// allocation). Only the first sighting of a key takes the mutex and allocates its item.
// Items live as long as the set (a deleted topic's counters stay until restart, as they
// would between Java's hourly cleanups).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "broker/stats/stats_item.h"

namespace apogee::broker {

class StatsItemSet {
 public:
  explicit StatsItemSet(std::string name);
  ~StatsItemSet();
  StatsItemSet(const StatsItemSet&) = delete;
  StatsItemSet& operator=(const StatsItemSet&) = delete;

  const std::string& name() const { return name_; }

  // The item of key `a` (or "a@b" when `b` is given), created at `now_ms` on first use.
  StatsItem* Get(std::string_view a, std::string_view b, int64_t now_ms);
  // The item of the full key ("a" or "a@b"), or null.
  const StatsItem* Find(std::string_view key) const;

  // Calls `fn` for every item; creation of new items waits meanwhile.
  void ForEach(const std::function<void(const StatsItem&)>& fn) const;
  void SampleAll(int64_t now_ms);
  size_t size() const;

 private:
  struct Table;
  StatsItem* Probe(uint64_t hash, std::string_view a, std::string_view b) const;

  const std::string name_;
  std::atomic<Table*> head_;
  mutable std::mutex mu_;  // creation and iteration
  std::vector<std::unique_ptr<StatsItem>> items_;  // guarded by mu_
  std::vector<std::unique_ptr<Table>> tables_;     // guarded by mu_; newest last
};

}  // namespace apogee::broker
