// MessageStore: the store's public face (Java's DefaultMessageStore). It owns the CommitLog,
// the ConsumeQueues, the IndexFiles, the checkpoint, the abort and lock files and the
// background services (flush, reput/dispatch, ConsumeQueue flush, retention), and offers a
// few narrow groups of calls:
//
//   lifecycle   Open (lock, load, recover) -> Start -> Shutdown
//   append      PutMessage: completes asynchronously when the flush policy (and, for
//               SYNC_MASTER, the replica hook) is met; no caller thread waits for a disk
//   read        GetMessages (by queue offset, count/byte limits, tag filter), GetMessageByOffset,
//               QueryMessages (by key and time range), queue offsets, times
//   replication ReplicationStore (replication.h) for the HA module
//
// The store knows nothing of the network or of RocketMQ response codes; the broker maps
// PutStatus/GetStatus in one place.
//
// Thread-safety: every public method may be called from any thread after Open().
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/clock.h"
#include "base/scheduler.h"
#include "base/status.h"
#include "env/env.h"
#include "message/message_record.h"
#include "store/delay_level_table.h"
#include "store/flush_stats.h"
#include "store/get_result.h"
#include "store/put_status.h"
#include "store/replication.h"
#include "store/store_config.h"

namespace apogee::store {

class CommitLog;
class ConsumeQueue;
class ConsumeQueueTable;
class DispatchQueueCache;
class DiskGuard;
class FileAllocator;
class GroupCommitService;
class FlushRealTimeService;
class IndexService;
class ReputService;
class StoreCheckpoint;

using PutCallback = std::function<void(const PutResult&)>;
// A tag-code filter for GetMessages (Java's MessageFilter.isMatchedByConsumeQueue); null
// matches everything. The exact tag string is the client's to re-check.
using TagCodeFilter = std::function<bool(int64_t tag_code)>;
// Called on the reput thread after new messages of a queue were dispatched (long polling).
using MessageArrivingListener =
    std::function<void(std::string_view topic, int32_t queue_id, int64_t next_queue_offset)>;
// SYNC_MASTER hook installed by HA: complete `done` once a replica has the CommitLog up to
// `next_offset` (PUT_OK) or with FLUSH_SLAVE_TIMEOUT / SLAVE_NOT_AVAILABLE.
using ReplicaWaiter = std::function<void(int64_t next_offset, std::function<void(PutStatus)> done)>;

struct RecoveryReport {
  bool last_exit_ok = true;
  // After an abnormal exit: the abort marker holds this boot's id, so only the process died
  // and the index files were repaired and kept instead of rebuilt (MessageStore::Load).
  bool same_boot = false;
  int64_t commit_log_start = 0;  // where the CommitLog scan began
  int64_t commit_log_end = 0;    // recovered end (torn tail cut here)
  int64_t scanned_bytes = 0;
  int64_t dispatched_from = 0;   // where ConsumeQueue/IndexFile rebuild began
  int64_t elapsed_ms = 0;
  // Where elapsed_ms went (bench/restart_after_kill.cc reports them per GiB rescanned):
  // the CommitLog scan (CRC checks, cut), the re-dispatch into ConsumeQueues and IndexFiles,
  // and the flush that makes the rebuilt state durable before writes are accepted.
  int64_t scan_ms = 0;
  int64_t dispatch_ms = 0;
  int64_t flush_ms = 0;
  // The same phases in CPU time of the recovering thread (recovery runs on the caller's
  // thread alone), which a loaded machine does not inflate.
  int64_t scan_cpu_us = 0;
  int64_t dispatch_cpu_us = 0;
  int64_t flush_cpu_us = 0;
  std::string stop_reason;
  // Records recovery could not index (ReputService::DoReput) and skipped.
  int64_t skipped_records = 0;
};

class MessageStore : public ReplicationStore {
 public:
  // Takes the lock file (refusing a directory another store holds), loads every file and
  // recovers: normally after a clean exit, by CRC scan and re-dispatch after a crash.
  static Result<std::unique_ptr<MessageStore>> Open(const StoreConfig& config, env::Env* env,
                                                    const Clock* clock = Clock::Real());
  ~MessageStore() override;
  MessageStore(const MessageStore&) = delete;
  MessageStore& operator=(const MessageStore&) = delete;

  // Runs the store's periodic jobs (ConsumeQueue flush, retention) on `scheduler`, which
  // must outlive the store's Shutdown()/Halt(); call before Start(). Without it the store
  // schedules them on a scheduler of its own.
  void SetScheduler(Scheduler* scheduler) { scheduler_ = scheduler; }
  // Starts the background services and writes the abort marker.
  Status Start();
  // Stops accepting puts, answers pending ones, flushes everything, removes the abort marker
  // and releases the lock. Idempotent.
  void Shutdown();
  // Crash simulation for tests: stops every thread without flushing anything, keeps the
  // abort marker and releases the lock, as if the process had been killed. Pending
  // SYNC_FLUSH puts complete with FLUSH_DISK_TIMEOUT.
  void Halt();

  // ---- append ----
  // Stores one message. `fields` gives the record content; queue offset, physical offset and
  // store timestamp are assigned by the store. `done` runs exactly once, possibly on the
  // calling thread (refusals, ASYNC_FLUSH) or on a store thread (SYNC_FLUSH, replicas).
  // `done` is any callable taking `const PutResult&`: it is made into a PutCallback (a heap
  // object for a big capture) only when the put must wait for the disk or a slave, so an
  // ASYNC_FLUSH put runs it from the caller's stack.
  template <typename Done>
  void PutMessage(message::RecordFields fields, bool wait_store_msg_ok, Done&& done) {
    Finish(AppendOne(std::move(fields), wait_store_msg_ok), wait_store_msg_ok,
           std::forward<Done>(done));
  }
  // Stores a batch (one topic and queue, consecutive queue offsets, one unit on disk; see
  // CommitLog::AppendBatch). `done` gets the first offsets and msg_num.
  template <typename Done>
  void PutMessages(std::vector<message::RecordFields> batch, bool wait_store_msg_ok, Done&& done) {
    Finish(AppendMany(std::move(batch), wait_store_msg_ok), wait_store_msg_ok,
           std::forward<Done>(done));
  }
  // The same, as a future (tools and tests).
  std::future<PutResult> PutMessage(message::RecordFields fields, bool wait_store_msg_ok = true);

  // ---- read ----
  GetMessageResult GetMessages(std::string_view topic, int32_t queue_id, int64_t offset,
                               int32_t max_count, int64_t max_bytes,
                               const TagCodeFilter& filter = nullptr) const;
  // The record stored at `phy_offset` (its size read from the record).
  Result<QueryMessageResult> GetMessageByOffset(int64_t phy_offset) const;
  // Messages of `topic` whose UNIQ_KEY or one of whose KEYS equals `key`, stored within
  // [begin_ms, end_ms], newest first, at most `max_num`.
  QueryMessageResult QueryMessages(std::string_view topic, std::string_view key, int32_t max_num,
                                   int64_t begin_ms, int64_t end_ms) const;
  int64_t GetMinOffsetInQueue(std::string_view topic, int32_t queue_id) const;
  int64_t GetMaxOffsetInQueue(std::string_view topic, int32_t queue_id) const;
  // Smallest queue offset stored at or after `timestamp_ms`.
  int64_t GetOffsetInQueueByTime(std::string_view topic, int32_t queue_id,
                                 int64_t timestamp_ms) const;
  // Store time of the message at `queue_offset`, or -1.
  int64_t GetMessageStoreTimestamp(std::string_view topic, int32_t queue_id,
                                   int64_t queue_offset) const;
  // Store time of the earliest message of a queue (-1 if none) / of the whole store.
  int64_t GetEarliestMessageTime(std::string_view topic, int32_t queue_id) const;
  int64_t GetEarliestMessageTime() const;
  // CommitLog offset of the message at `queue_offset`, or -1.
  int64_t GetCommitLogOffsetInQueue(std::string_view topic, int32_t queue_id,
                                    int64_t queue_offset) const;
  // Java's "in disk" test: whether the record at CommitLog offset `phy_offset` lies more
  // than accessMessageInMemoryMaxRatio % of physical memory behind the CommitLog's end (so
  // probably no longer in the page cache). GetMessages uses it to pick the transfer limits.
  bool CheckInDiskByCommitOffset(int64_t phy_offset) const;
  // The same for the message at `consume_offset` of a queue; false when the queue or the
  // entry does not exist (Java's checkInDiskByConsumeOffset). One ConsumeQueue entry read.
  bool CheckInDiskByConsumeOffset(std::string_view topic, int32_t queue_id,
                                  int64_t consume_offset) const;

  // ---- ReplicationStore ----
  int64_t MaxPhyOffset() const override;
  int64_t MinPhyOffset() const override;
  Result<RawSegment> ReadRaw(int64_t offset, size_t max_bytes) const override;
  Status AppendRaw(int64_t offset, std::string_view data) override;

  // ---- hooks and state ----
  void SetMessageArrivingListener(MessageArrivingListener listener);
  void SetReplicaWaiter(ReplicaWaiter waiter);
  // False after a flush error, when the disk is full or once shut down.
  bool writable() const;
  std::string unwritable_reason() const;
  int64_t DispatchBehindBytes() const;
  // CommitLog bytes written but not yet flushed (RocketMQ 5's flush-behind bytes).
  int64_t FlushBehindBytes() const;
  // Flush times and group-commit sizes since the store started (metrics).
  const FlushStats& flush_stats() const { return flush_stats_; }
  // CommitLog records dispatch skipped because they cannot be indexed (a topic or queue id
  // no ConsumeQueue can have), since the store opened, recovery included; -1 / the offset
  // of the last one. For metrics and `mqstore`.
  int64_t SkippedRecords() const;
  int64_t LastSkippedRecordOffset() const;
  const RecoveryReport& recovery_report() const { return recovery_; }
  const StoreConfig& config() const { return config_; }
  // Before Start: cuts the CommitLog back to `phy_offset` (a record boundary; the tail is
  // zeroed, later files deleted) with every ConsumeQueue entry and index entry at or past
  // it. A failover replica's data past the last offset it shares with a new master's epoch
  // history (never acknowledged) goes this way. Returns the bytes cut (0 when the CommitLog
  // already ends at or before `phy_offset`). `messages_cut`, when given, receives the number
  // of ConsumeQueue entries removed (the dispatched messages that were cut).
  Result<int64_t> TruncateTo(int64_t phy_offset, int64_t* messages_cut = nullptr);
  // Deletes the ConsumeQueues of the given topics (the CommitLog keeps its bytes).
  Status DeleteTopic(std::string_view topic);
  // Runs one retention pass now (as the retention thread does every cleanResourceInterval).
  Status CleanExpiredFiles(bool force);

 private:
  MessageStore(const StoreConfig& config, env::Env* env, const Clock* clock);

  Status Load();
  Status Recover();
  // True when the abort marker names the boot this process runs in (Start writes it).
  bool AbortMarkerFromThisBoot();
  Status Dispatch(const struct DispatchRequest& request);
  void AfterDispatchBatch();
  int64_t ReadableLimit() const;
  // accessMessageInMemoryMaxRatio % of physical memory: how far behind the CommitLog's end
  // a record still counts as in memory.
  int64_t InMemoryBytes() const;
  void MarkUnwritable(const std::string& reason);
  // A put's append: the result, and whether it is complete now (refused, failed, or nothing
  // to wait for) or must wait for WaitForPut.
  struct Appended {
    PutResult result;
    bool complete = true;
  };
  Appended AppendOne(message::RecordFields fields, bool wait);
  Appended AppendMany(std::vector<message::RecordFields> batch, bool wait);
  Appended AfterAppend(PutResult result, bool wait);
  // A put waiting for the group commit alone (SYNC_FLUSH, the common wait): its completion
  // and result in one object, handed to the flush as a pointer that a std::function holds
  // inline, so the wait costs one allocation instead of a PutCallback plus the flush's own
  // callback. The group commit runs every submitted callback exactly once (also when it
  // stops, with SERVICE_NOT_AVAILABLE or FLUSH_DISK_TIMEOUT), which frees it.
  template <typename Done>
  struct FlushWaiter {
    PutResult result;
    Done done;
  };
  template <typename Done>
  void Finish(const Appended& appended, bool wait, Done&& done) {
    if (appended.complete) {
      done(appended.result);
    } else if (WaitsForFlushAlone(wait)) {
      using Waiter = FlushWaiter<std::decay_t<Done>>;
      auto* waiter = new Waiter{appended.result, std::forward<Done>(done)};
      SubmitFlushWait(appended.result, [waiter](PutStatus flush) {
        std::unique_ptr<Waiter> owned(waiter);
        owned->result.status = flush;
        owned->done(owned->result);
      });
    } else {
      WaitForPut(appended.result, wait, PutCallback(std::forward<Done>(done)));
    }
  }
  // The waits of a stored put: the group commit's flush, the slave's copy, or both.
  void WaitForPut(const PutResult& result, bool wait, PutCallback done);
  bool MustWait(bool wait) const;
  bool WaitsForFlushAlone(bool wait) const;
  void SubmitFlushWait(const PutResult& result, std::function<void(PutStatus)> done);
  void FlushConsumeQueues(bool thorough);
  Status CheckDiskSpace();

  StoreConfig config_;
  DelayLevelTable delay_levels_;  // from config_.message_delay_level (validated in Open)
  env::Env* env_;
  const Clock* clock_;
  std::unique_ptr<env::FileLock> lock_;
  std::unique_ptr<FileAllocator> allocator_;
  std::unique_ptr<CommitLog> commit_log_;
  std::unique_ptr<DiskGuard> disk_guard_;
  std::unique_ptr<StoreCheckpoint> checkpoint_;
  std::unique_ptr<ConsumeQueueTable> consume_queues_;
  // Dispatch's queue lookups (only the dispatching thread: recovery, then the reput).
  std::unique_ptr<DispatchQueueCache> dispatch_queues_;
  std::unique_ptr<IndexService> index_;
  std::unique_ptr<ReputService> reput_;
  FlushStats flush_stats_;  // before the flush services, which write it until they stop
  std::unique_ptr<GroupCommitService> group_commit_;
  std::unique_ptr<FlushRealTimeService> flush_real_time_;
  std::unique_ptr<Scheduler> own_scheduler_;  // when no SetScheduler()
  Scheduler* scheduler_ = nullptr;
  ScheduledJob cq_flusher_;  // FlushConsumeQueueService: quick lane
  ScheduledJob cleaner_;     // CleanCommitLogService: blocking lane (unlinks big files)

  RecoveryReport recovery_;
  bool last_exit_ok_ = true;
  bool same_boot_ = false;  // see RecoveryReport::same_boot
  std::atomic<bool> started_{false};
  std::atomic<bool> shutdown_{false};
  std::atomic<bool> flush_failed_{false};
  mutable std::mutex state_mu_;
  std::string unwritable_reason_;  // guarded by state_mu_
  MessageArrivingListener arriving_listener_;  // set before Start
  ReplicaWaiter replica_waiter_;               // set before Start
  int64_t last_cq_thorough_ms_ = 0;            // cq flusher job only
  int64_t guard_counts_from_ = INT64_MAX;      // set in Start before the reput runs
  // Store time of the last dispatched record; the checkpoint takes it after a CQ flush.
  std::atomic<int64_t> dispatched_store_ts_{0};
  // Queues touched by the current reput batch, for the arrival listener (reput thread only).
  std::vector<std::pair<std::string, int32_t>> touched_queues_;
};

}  // namespace apogee::store
