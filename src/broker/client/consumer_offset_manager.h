// ConsumerOffsetManager: the committed consume offset of every (topic, group, queue) on
// this broker (Java's ConsumerOffsetManager), persisted as
// <storePathRootDir>/config/consumerOffset.json in fastjson's shape
// (docs/protocol/store_ha.md §5.7):
//
//   {"offsetTable":{"TopicTest@group_a":{0:250,1:248}}}
//
// Keys are "topic@group"; queue ids are written as bare integers as fastjson does, and
// both the bare and the quoted form are read. An offset is the next queue offset the group
// will consume. Written through ConfigFile (tmp + fsync + .bak + rename) every
// flushConsumerOffsetInterval (5 s) when something changed, and at shutdown.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "base/scheduler.h"
#include "base/status.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

class ConfigFile;

// Java's TOPIC_GROUP_SEPARATOR.
inline constexpr char kTopicGroupSeparator = '@';

class ConsumerOffsetManager {
 public:
  // `env` must outlive this; `path` is consumerOffset.json.
  ConsumerOffsetManager(env::Env* env, std::string path);
  ~ConsumerOffsetManager();  // stops the flusher; does not persist (call Shutdown)
  ConsumerOffsetManager(const ConsumerOffsetManager&) = delete;
  ConsumerOffsetManager& operator=(const ConsumerOffsetManager&) = delete;

  // Reads consumerOffset.json (or its .bak); a missing file is a fresh start.
  Status Load();
  // Writes the table now.
  Status Persist();
  // Persists every `interval_ms` while the table has changed since the last write.
  void StartPeriodicPersist(int64_t interval_ms, Scheduler* scheduler);
  // Stops the periodic writer and persists once more (errors are returned).
  Status Shutdown();

  void CommitOffset(std::string_view group, std::string_view topic, int32_t queue_id,
                    int64_t offset);
  // The committed offset, or -1 when the group never committed one for the queue.
  int64_t QueryOffset(std::string_view group, std::string_view topic, int32_t queue_id) const;
  // Every queue of (group, topic); empty when unknown.
  std::map<int32_t, int64_t> QueryOffsets(std::string_view group, std::string_view topic) const;
  // Groups that have offsets for `topic`, and topics a group has offsets for.
  std::set<std::string> WhichGroupByTopic(std::string_view topic) const;
  std::set<std::string> WhichTopicByConsumer(std::string_view group) const;
  // Drops every offset of `group` (DELETE_SUBSCRIPTIONGROUP with cleanOffset).
  void RemoveGroup(std::string_view group);
  // Drops every group's offsets of `topic` (DELETE_TOPIC_IN_BROKER, as 5.x's
  // cleanOffsetByTopic), so a re-created topic starts without stale offsets.
  void RemoveTopic(std::string_view topic);
  // The whole table keyed "topic@group".
  std::map<std::string, std::map<int32_t, int64_t>> AllOffsets() const;

  // Java 5's pullOffsetTable (memory only, never persisted): the next offset the group's
  // last successful pull of the queue returned, i.e. what it has fetched, consumed or
  // not. Metrics read it for the in-flight and ready message counts. Dropped with the
  // group or topic as the committed offsets are.
  void CommitPullOffset(std::string_view group, std::string_view topic, int32_t queue_id,
                        int64_t offset);
  // -1 when the group has not pulled the queue since the broker started.
  int64_t QueryPullOffset(std::string_view group, std::string_view topic, int32_t queue_id) const;

  // consumerOffset.json content (bare integer keys, as fastjson writes them).
  std::string Encode() const;
  // Replaces the table from either key form. Corruption naming the entry otherwise.
  Status Decode(std::string_view json);

 private:

  // Persist() when the table changed since the last successful write.
  Status PersistIfChanged();

  std::unique_ptr<ConfigFile> file_;
  mutable std::mutex mu_;
  std::map<std::string, std::map<int32_t, int64_t>, std::less<>> table_;  // guarded by mu_
  std::map<std::string, std::map<int32_t, int64_t>, std::less<>> pull_table_;  // guarded by mu_
  uint64_t version_ = 0;                                                  // guarded by mu_
  std::atomic<uint64_t> persisted_version_{0};
  std::mutex persist_mu_;  // serializes Encode + write so the newest table lands last
  ScheduledJob flusher_;  // quick lane: one small file write when offsets moved
};

}  // namespace apogee::broker
