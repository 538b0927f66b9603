#include "client/allocate_message_queue_strategy.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "client/allocate_md5.h"

namespace apogee::client {
namespace {

// Java's argument checks, shared by the strategies that take the standard inputs.
Status CheckInputs(std::string_view current_cid, const std::vector<protocol::MessageQueue>& mq_all,
                   const std::vector<std::string>& cid_all) {
  if (current_cid.empty()) return Status::InvalidArgument("allocate: currentCID is empty");
  if (mq_all.empty()) return Status::InvalidArgument("allocate: mqAll is empty");
  if (cid_all.empty()) return Status::InvalidArgument("allocate: cidAll is empty");
  return Status::OK();
}

// cidAll.indexOf(currentCID): the first match, -1 when absent.
int IndexOf(const std::vector<std::string>& cid_all, std::string_view cid) {
  auto it = std::find(cid_all.begin(), cid_all.end(), cid);
  return it == cid_all.end() ? -1 : static_cast<int>(it - cid_all.begin());
}

// Java's String.split("@"): pieces between separators, trailing empty pieces removed.
std::vector<std::string_view> JavaSplitAt(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t at = s.find('@', start);
    if (at == std::string_view::npos) {
      parts.push_back(s.substr(start));
      break;
    }
    parts.push_back(s.substr(start, at - start));
    start = at + 1;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

}  // namespace

Result<std::vector<protocol::MessageQueue>> AllocateMessageQueueAveragely::Allocate(
    std::string_view, std::string_view current_cid,
    const std::vector<protocol::MessageQueue>& mq_all,
    const std::vector<std::string>& cid_all) const {
  APOGEE_RETURN_IF_ERROR(CheckInputs(current_cid, mq_all, cid_all));
  std::vector<protocol::MessageQueue> result;
  const int index = IndexOf(cid_all, current_cid);
  if (index < 0) return result;
  const int n = static_cast<int>(mq_all.size());
  const int c = static_cast<int>(cid_all.size());
  const int mod = n % c;
  const bool gets_extra = mod > 0 && index < mod;
  const int average = n <= c ? 1 : (gets_extra ? n / c + 1 : n / c);
  const int start = gets_extra ? index * average : index * average + mod;
  const int range = std::min(average, n - start);
  for (int i = 0; i < range; ++i) result.push_back(mq_all[(start + i) % n]);
  return result;
}

Result<std::vector<protocol::MessageQueue>> AllocateMessageQueueAveragelyByCircle::Allocate(
    std::string_view, std::string_view current_cid,
    const std::vector<protocol::MessageQueue>& mq_all,
    const std::vector<std::string>& cid_all) const {
  APOGEE_RETURN_IF_ERROR(CheckInputs(current_cid, mq_all, cid_all));
  std::vector<protocol::MessageQueue> result;
  const int index = IndexOf(cid_all, current_cid);
  if (index < 0) return result;
  const size_t c = cid_all.size();
  for (size_t i = static_cast<size_t>(index); i < mq_all.size(); i += c) {
    result.push_back(mq_all[i]);
  }
  return result;
}

uint32_t AllocateMessageQueueConsistentHash::RingHash(std::string_view key) {
  const std::array<uint8_t, 16> digest = Md5Digest(key);
  return (uint32_t{digest[0]} << 24) | (uint32_t{digest[1]} << 16) | (uint32_t{digest[2]} << 8) |
         uint32_t{digest[3]};
}

Result<std::vector<protocol::MessageQueue>> AllocateMessageQueueConsistentHash::Allocate(
    std::string_view, std::string_view current_cid,
    const std::vector<protocol::MessageQueue>& mq_all,
    const std::vector<std::string>& cid_all) const {
  APOGEE_RETURN_IF_ERROR(CheckInputs(current_cid, mq_all, cid_all));
  std::vector<protocol::MessageQueue> result;
  if (IndexOf(cid_all, current_cid) < 0) return result;

  // Java adds the consumers in cid_all order into a TreeMap, so on a hash collision the later
  // virtual node wins; a repeated id continues its replica numbering (getExistingReplicas).
  std::map<uint32_t, const std::string*> ring;
  std::map<std::string_view, int> replicas;
  for (const std::string& cid : cid_all) {
    int& existing = replicas[cid];
    for (int k = 0; k < virtual_node_count_; ++k) {
      ring[RingHash(cid + "-" + std::to_string(existing + k))] = &cid;
    }
    existing += virtual_node_count_;
  }
  if (ring.empty()) return result;
  for (const protocol::MessageQueue& mq : mq_all) {
    auto it = ring.lower_bound(RingHash(protocol::ToString(mq)));
    if (it == ring.end()) it = ring.begin();
    if (*it->second == current_cid) result.push_back(mq);
  }
  return result;
}

Result<std::vector<protocol::MessageQueue>> AllocateMessageQueueByConfig::Allocate(
    std::string_view, std::string_view, const std::vector<protocol::MessageQueue>&,
    const std::vector<std::string>&) const {
  return queues_;
}

Result<std::vector<protocol::MessageQueue>> AllocateMessageQueueByMachineRoom::Allocate(
    std::string_view, std::string_view current_cid,
    const std::vector<protocol::MessageQueue>& mq_all,
    const std::vector<std::string>& cid_all) const {
  std::vector<protocol::MessageQueue> result;
  const int index = IndexOf(cid_all, current_cid);
  if (index < 0) return result;
  std::vector<const protocol::MessageQueue*> premq;
  for (const protocol::MessageQueue& mq : mq_all) {
    std::vector<std::string_view> parts = JavaSplitAt(mq.broker_name);
    if (parts.size() == 2 && consumer_idcs_.count(std::string(parts[0])) > 0) {
      premq.push_back(&mq);
    }
  }
  const int c = static_cast<int>(cid_all.size());
  const int mod = static_cast<int>(premq.size()) / c;
  const int rem = static_cast<int>(premq.size()) % c;
  for (int i = mod * index; i < mod * index + mod; ++i) result.push_back(*premq[i]);
  if (rem > index) result.push_back(*premq[index + mod * c]);
  return result;
}

Result<std::vector<protocol::MessageQueue>> AllocateMachineRoomNearby::Allocate(
    std::string_view consumer_group, std::string_view current_cid,
    const std::vector<protocol::MessageQueue>& mq_all,
    const std::vector<std::string>& cid_all) const {
  APOGEE_RETURN_IF_ERROR(CheckInputs(current_cid, mq_all, cid_all));
  std::vector<protocol::MessageQueue> result;
  if (IndexOf(cid_all, current_cid) < 0) return result;

  // Rooms in sorted order (Java's TreeMap), members in input order.
  std::map<std::string, std::vector<protocol::MessageQueue>> room_queues;
  for (const protocol::MessageQueue& mq : mq_all) {
    std::string room = resolver_.broker_deploy_in(mq);
    if (room.empty()) {
      return Status::InvalidArgument("allocate: machine room is null for " +
                                     protocol::ToString(mq));
    }
    room_queues[room].push_back(mq);
  }
  std::map<std::string, std::vector<std::string>> room_consumers;
  for (const std::string& cid : cid_all) {
    std::string room = resolver_.consumer_deploy_in(cid);
    if (room.empty()) {
      return Status::InvalidArgument("allocate: machine room is null for consumer " + cid);
    }
    room_consumers[room].push_back(cid);
  }

  const std::string current_room = resolver_.consumer_deploy_in(current_cid);
  auto own = room_queues.find(current_room);
  if (own != room_queues.end()) {
    if (!own->second.empty()) {
      APOGEE_ASSIGN_OR_RETURN(auto mine, inner_->Allocate(consumer_group, current_cid, own->second,
                                                          room_consumers[current_room]));
      result.insert(result.end(), mine.begin(), mine.end());
    }
    room_queues.erase(own);
  }
  for (const auto& [room, queues] : room_queues) {
    if (room_consumers.count(room) > 0) continue;
    APOGEE_ASSIGN_OR_RETURN(auto shared,
                            inner_->Allocate(consumer_group, current_cid, queues, cid_all));
    result.insert(result.end(), shared.begin(), shared.end());
  }
  return result;
}

Result<std::shared_ptr<const AllocateMessageQueueStrategy>> MakeAllocateStrategy(
    std::string_view name) {
  if (name.empty() || name == "AVG") {
    return std::shared_ptr<const AllocateMessageQueueStrategy>(
        std::make_shared<AllocateMessageQueueAveragely>());
  }
  if (name == "AVG_BY_CIRCLE") {
    return std::shared_ptr<const AllocateMessageQueueStrategy>(
        std::make_shared<AllocateMessageQueueAveragelyByCircle>());
  }
  if (name == "CONSISTENT_HASH") {
    return std::shared_ptr<const AllocateMessageQueueStrategy>(
        std::make_shared<AllocateMessageQueueConsistentHash>());
  }
  return Status::InvalidArgument("unknown allocate strategy '" + std::string(name) +
                                 "' (expected AVG, AVG_BY_CIRCLE or CONSISTENT_HASH)");
}

}  // namespace apogee::client
