// Client-side queue allocation (Java's AllocateMessageQueueStrategy and its
// implementations in client/consumer/rebalance; docs/protocol/store_ha.md §10).
//
// Every consumer of a group runs the same strategy over the same sorted inputs and keeps
// its own share, so the results must be bit-identical to Java's: a mixed group of Java,
// ali-ons and Apogee consumers only splits queues cleanly if each computes the same table.
// The caller (RebalanceImpl) sorts mq_all by protocol::MessageQueue order (topic, brokerName,
// queueId) and cid_all by string order before calling Allocate, as Java does.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "protocol/lock_batch_body.h"

namespace apogee::client {

class AllocateMessageQueueStrategy {
 public:
  virtual ~AllocateMessageQueueStrategy() = default;

  // Java's getName(): "AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "CONFIG", "MACHINE_ROOM",
  // "MACHINE_ROOM_NEARBY-<inner>". Reported in ConsumerRunningInfo.
  virtual std::string Name() const = 0;

  // The queues of mq_all that current_cid should consume. InvalidArgument when current_cid,
  // mq_all or cid_all is empty (Java throws); an empty list when current_cid is not in cid_all.
  virtual Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const = 0;
};

// Contiguous blocks; the first n % c consumers get one extra queue ("AVG", the default).
class AllocateMessageQueueAveragely final : public AllocateMessageQueueStrategy {
 public:
  std::string Name() const override { return "AVG"; }
  Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const override;
};

// Round-robin: queue k goes to consumer k % c ("AVG_BY_CIRCLE").
class AllocateMessageQueueAveragelyByCircle final : public AllocateMessageQueueStrategy {
 public:
  std::string Name() const override { return "AVG_BY_CIRCLE"; }
  Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const override;
};

// Java's ConsistentHashRouter ring: `virtual_node_count` nodes per consumer keyed
// "<clientId>-<k>", hashed with the first four MD5 bytes; each queue goes to the first node
// at or after the hash of its toString() ("CONSISTENT_HASH").
class AllocateMessageQueueConsistentHash final : public AllocateMessageQueueStrategy {
 public:
  explicit AllocateMessageQueueConsistentHash(int virtual_node_count = 10)
      : virtual_node_count_(virtual_node_count < 0 ? 0 : virtual_node_count) {}
  std::string Name() const override { return "CONSISTENT_HASH"; }
  Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const override;

  // The ring position of `key`: MD5(key) bytes 0..3 as an unsigned big-endian number.
  static uint32_t RingHash(std::string_view key);

 private:
  int virtual_node_count_;
};

// A fixed list chosen by the application, whatever the inputs ("CONFIG").
class AllocateMessageQueueByConfig final : public AllocateMessageQueueStrategy {
 public:
  explicit AllocateMessageQueueByConfig(std::vector<protocol::MessageQueue> queues)
      : queues_(std::move(queues)) {}
  std::string Name() const override { return "CONFIG"; }
  Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const override;

 private:
  std::vector<protocol::MessageQueue> queues_;
};

// Brokers named "<idc>@<name>" whose idc is in the configured set are shared out in blocks
// of |premq| / c, the remainder one each to the first consumers ("MACHINE_ROOM").
class AllocateMessageQueueByMachineRoom final : public AllocateMessageQueueStrategy {
 public:
  explicit AllocateMessageQueueByMachineRoom(std::set<std::string> consumer_idcs)
      : consumer_idcs_(std::move(consumer_idcs)) {}
  std::string Name() const override { return "MACHINE_ROOM"; }
  Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const override;

 private:
  std::set<std::string> consumer_idcs_;
};

// Tells which machine room a broker queue and a consumer live in (Java's
// MachineRoomResolver). An empty string means "unknown", which is an error as in Java.
struct MachineRoomResolver {
  std::function<std::string(const protocol::MessageQueue&)> broker_deploy_in;
  std::function<std::string(std::string_view client_id)> consumer_deploy_in;
};

// Queues of the current consumer's room go to that room's consumers through `inner`;
// queues of rooms without consumers go to everyone through `inner`
// ("MACHINE_ROOM_NEARBY-<inner>").
class AllocateMachineRoomNearby final : public AllocateMessageQueueStrategy {
 public:
  AllocateMachineRoomNearby(std::shared_ptr<const AllocateMessageQueueStrategy> inner,
                            MachineRoomResolver resolver)
      : inner_(std::move(inner)), resolver_(std::move(resolver)) {}
  std::string Name() const override { return "MACHINE_ROOM_NEARBY-" + inner_->Name(); }
  Result<std::vector<protocol::MessageQueue>> Allocate(
      std::string_view consumer_group, std::string_view current_cid,
      const std::vector<protocol::MessageQueue>& mq_all,
      const std::vector<std::string>& cid_all) const override;

 private:
  std::shared_ptr<const AllocateMessageQueueStrategy> inner_;
  MachineRoomResolver resolver_;
};

// The strategy for a name accepted by the consumers' options ("AVG", "AVG_BY_CIRCLE",
// "CONSISTENT_HASH"); the others need configuration and are built directly.
Result<std::shared_ptr<const AllocateMessageQueueStrategy>> MakeAllocateStrategy(
    std::string_view name);

}  // namespace apogee::client
