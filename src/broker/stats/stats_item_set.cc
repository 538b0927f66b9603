#include "broker/stats/stats_item_set.h"

#include <cstring>
#include <utility>

namespace apogee::broker {
namespace {

constexpr size_t kFirstTableSlots = 1024;

// FNV-1a over a, then "@b" when b is not empty: the hash of the joined key.
uint64_t HashKey(std::string_view a, std::string_view b) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ULL;
    }
  };
  mix(a);
  if (!b.empty()) {
    mix("@");
    mix(b);
  }
  return h;
}

bool KeyEquals(const std::string& key, std::string_view a, std::string_view b) {
  if (b.empty()) return key == a;
  return key.size() == a.size() + 1 + b.size() && key.compare(0, a.size(), a) == 0 &&
         key[a.size()] == '@' && key.compare(a.size() + 1, b.size(), b) == 0;
}

}  // namespace

// Open addressing with linear probing; never more than half full. When full, a table
// twice as large is chained in front and takes the new keys; older ones stay where they
// are, so a reader never sees an item move.
struct StatsItemSet::Table {
  explicit Table(size_t n, Table* older) : slots(n), mask(n - 1), next(older) {
    for (auto& s : slots) s.store(nullptr, std::memory_order_relaxed);
  }
  std::vector<std::atomic<StatsItem*>> slots;
  const size_t mask;
  Table* const next;  // older, smaller table
  size_t used = 0;    // guarded by the set's mutex
};

StatsItemSet::StatsItemSet(std::string name) : name_(std::move(name)) {
  tables_.push_back(std::make_unique<Table>(kFirstTableSlots, nullptr));
  head_.store(tables_.back().get(), std::memory_order_release);
}

StatsItemSet::~StatsItemSet() = default;

StatsItem* StatsItemSet::Probe(uint64_t hash, std::string_view a, std::string_view b) const {
  for (Table* t = head_.load(std::memory_order_acquire); t != nullptr; t = t->next) {
    for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
      StatsItem* item = t->slots[i].load(std::memory_order_acquire);
      if (item == nullptr) break;
      if (KeyEquals(item->key(), a, b)) return item;
    }
  }
  return nullptr;
}

StatsItem* StatsItemSet::Get(std::string_view a, std::string_view b, int64_t now_ms) {
  const uint64_t hash = HashKey(a, b);
  if (StatsItem* found = Probe(hash, a, b)) return found;

  std::lock_guard<std::mutex> lock(mu_);
  if (StatsItem* found = Probe(hash, a, b)) return found;  // created meanwhile
  Table* head = tables_.back().get();
  if ((head->used + 1) * 2 > head->slots.size()) {
    tables_.push_back(std::make_unique<Table>(head->slots.size() * 2, head));
    head = tables_.back().get();
    head_.store(head, std::memory_order_release);
  }
  std::string key(a);
  if (!b.empty()) {
    key += '@';
    key += b;
  }
  items_.push_back(std::make_unique<StatsItem>(std::move(key), now_ms));
  StatsItem* item = items_.back().get();
  size_t i = hash & head->mask;
  while (head->slots[i].load(std::memory_order_relaxed) != nullptr) i = (i + 1) & head->mask;
  head->slots[i].store(item, std::memory_order_release);
  ++head->used;
  return item;
}

const StatsItem* StatsItemSet::Find(std::string_view key) const {
  return Probe(HashKey(key, {}), key, {});
}

void StatsItemSet::ForEach(const std::function<void(const StatsItem&)>& fn) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& item : items_) fn(*item);
}

void StatsItemSet::SampleAll(int64_t now_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& item : items_) item->Sample(now_ms);
}

size_t StatsItemSet::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return items_.size();
}

}  // namespace apogee::broker
