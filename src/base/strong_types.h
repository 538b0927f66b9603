// Distinct types for numbers that Java keeps as plain long/int and that are easy to mix
// up: a CommitLog byte offset is not a ConsumeQueue index is not a queue id. Convert only
// at codec boundaries with .value().
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <ostream>

namespace apogee {

template <typename T, typename Tag>
class StrongType {
 public:
  using ValueType = T;
  constexpr StrongType() = default;
  constexpr explicit StrongType(T v) : value_(v) {}
  constexpr T value() const { return value_; }
  constexpr auto operator<=>(const StrongType&) const = default;

 private:
  T value_{};
};

// Offsets additionally support moving forward and measuring distance.
template <typename Tag>
class OffsetType : public StrongType<int64_t, Tag> {
 public:
  using StrongType<int64_t, Tag>::StrongType;
  constexpr OffsetType operator+(int64_t delta) const { return OffsetType(this->value() + delta); }
  constexpr OffsetType operator-(int64_t delta) const { return OffsetType(this->value() - delta); }
  constexpr int64_t operator-(OffsetType other) const { return this->value() - other.value(); }
  OffsetType& operator+=(int64_t delta) { return *this = *this + delta; }
  constexpr auto operator<=>(const OffsetType&) const = default;
};

struct PhyOffsetTag {};
struct QueueOffsetTag {};
struct QueueIdTag {};
struct BrokerIdTag {};
struct OpaqueTag {};

// Byte offset in the CommitLog, across all its files.
using PhyOffset = OffsetType<PhyOffsetTag>;
// Index of an entry in one topic-queue's ConsumeQueue.
using QueueOffset = OffsetType<QueueOffsetTag>;
using QueueId = StrongType<int32_t, QueueIdTag>;
// 0 is the master of a broker set, > 0 a slave.
using BrokerId = StrongType<int64_t, BrokerIdTag>;
// Request id matching a response to its request on one connection.
using Opaque = StrongType<int32_t, OpaqueTag>;

template <typename T, typename Tag>
std::ostream& operator<<(std::ostream& os, const StrongType<T, Tag>& v) {
  return os << v.value();
}

}  // namespace apogee

template <typename T, typename Tag>
struct std::hash<apogee::StrongType<T, Tag>> {
  size_t operator()(const apogee::StrongType<T, Tag>& v) const noexcept {
    return std::hash<T>()(v.value());
  }
};
template <typename Tag>
struct std::hash<apogee::OffsetType<Tag>> {
  size_t operator()(const apogee::OffsetType<Tag>& v) const noexcept {
    return std::hash<int64_t>()(v.value());
  }
};
