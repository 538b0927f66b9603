// KeyIndex: a hash index over a vector of (key, value) pairs that stays in insertion
// order, for the string maps a peer fills (a command's extFields, a message's
// properties). Small maps (the usual dozen entries) are searched linearly and pay
// nothing extra; from kIndexFrom entries on, positions are kept in an open-addressing
// table, so filling a map of n keys costs O(n) instead of O(n^2) (issue 12: a header of
// 100k keys took 12.5 s to decode with linear lookups).
//
// The index stores positions, not pointers, so the vector may reallocate freely. The
// owner reports every change: Added() after a push_back, Rebuild() after an erase or
// any reordering, Clear() when emptied.
// Thread-safety: none (part of its owner's state).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace apogee {

class KeyIndex {
 public:
  static constexpr size_t kIndexFrom = 16;
  static constexpr size_t npos = static_cast<size_t>(-1);

  // The position of `key` in `entries` (pairs whose .first converts to string_view).
  template <typename Entries>
  size_t Find(const Entries& entries, std::string_view key) const {
    if (slots_.empty()) {
      for (size_t i = 0; i < entries.size(); ++i) {
        if (std::string_view(entries[i].first) == key) return i;
      }
      return npos;
    }
    const size_t mask = slots_.size() - 1;
    for (size_t slot = Hash(key) & mask;; slot = (slot + 1) & mask) {
      const uint32_t held = slots_[slot];
      if (held == 0) return npos;
      if (std::string_view(entries[held - 1].first) == key) return held - 1;
    }
  }

  // The last entry of `entries` was just appended.
  template <typename Entries>
  void Added(const Entries& entries) {
    if (slots_.empty()) {
      if (entries.size() >= kIndexFrom) Rebuild(entries);
      return;
    }
    if (2 * entries.size() > slots_.size()) {
      Rebuild(entries);
      return;
    }
    Insert(entries.back().first, entries.size() - 1);
  }

  // Re-indexes every entry (after an erase); drops the index for a small map.
  template <typename Entries>
  void Rebuild(const Entries& entries) {
    slots_.clear();
    if (entries.size() < kIndexFrom) {
      slots_.shrink_to_fit();
      return;
    }
    size_t capacity = 64;
    while (capacity < 4 * entries.size()) capacity *= 2;
    slots_.assign(capacity, 0);
    for (size_t i = 0; i < entries.size(); ++i) Insert(entries[i].first, i);
  }

  void Clear() { std::vector<uint32_t>().swap(slots_); }

 private:
  static size_t Hash(std::string_view key) { return std::hash<std::string_view>{}(key); }
  void Insert(std::string_view key, size_t position) {
    const size_t mask = slots_.size() - 1;
    size_t slot = Hash(key) & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<uint32_t>(position + 1);
  }

  // Empty, or a power-of-two table of position + 1 (0 = free), at most half full.
  std::vector<uint32_t> slots_;
};

}  // namespace apogee
