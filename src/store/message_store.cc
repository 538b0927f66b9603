#include "store/message_store.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <ctime>

#include "base/logging.h"
#include "env/disk_usage.h"
#include "message/message_format.h"
#include "message/properties.h"
#include "store/commit_log.h"
#include "store/consume_queue_table.h"
#include "store/disk_guard.h"
#include "store/dispatch_queue_cache.h"
#include "store/dispatch_request.h"
#include "store/file_allocator.h"
#include "store/flush_service.h"
#include "store/index_file.h"
#include "store/index_service.h"
#include "store/reput_service.h"
#include "store/store_checkpoint.h"
#include "store/store_format.h"

namespace apogee::store {
namespace {

// A put that waits for the group commit alone lets the flush write its record (one pwrite for
// the whole group, CommitLog::WriteMode). With a replica wait the record is written now, so the
// slave can fetch it while the flush runs; a put that does not wait is written now, so it is
// readable without waiting for a flush it did not ask for.
CommitLog::WriteMode WriteModeFor(bool waits_for_flush_alone) {
  return waits_for_flush_alone ? CommitLog::WriteMode::kWithNextFlush : CommitLog::WriteMode::kNow;
}

// Java scans at most 16000 bytes of ConsumeQueue per pull (maxFilterMessageCount).
constexpr int kMaxCqEntriesScannedPerGet = 16000 / kCqUnitSize;
// GetMessages reads the ConsumeQueue in chunks of at least this many entries.
constexpr int kMinCqEntriesPerChunk = 16;
// Java's DELETE_FILES_BATCH_MAX.
constexpr int kDeleteFilesBatchMax = 10;

PutResult Refused(PutStatus status) {
  PutResult r;
  r.status = status;
  return r;
}

// Read once: glibc answers _SC_PHYS_PAGES with a sysinfo() system call, and every pull
// asks (GetMessages, CheckInDisk*).
int64_t PhysicalMemoryBytes() {
  static const int64_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return int64_t{8} << 30;
    return int64_t{pages} * page_size;
  }();
  return bytes;
}

bool KeyMatches(std::string_view properties, std::string_view key) {
  if (message::FindProperty(properties, message::kPropertyUniqClientMessageIdKeyIdx) == key) {
    return true;
  }
  std::string_view keys = message::FindProperty(properties, message::kPropertyKeys).value_or("");
  while (!keys.empty()) {
    size_t sp = keys.find(message::kKeySeparator);
    if (keys.substr(0, sp) == key) return true;
    if (sp == std::string_view::npos) break;
    keys.remove_prefix(sp + 1);
  }
  return false;
}

// CPU time of the calling thread (recovery's phases, RecoveryReport).
int64_t ThreadCpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1000000 + ts.tv_nsec / 1000;
}

}  // namespace

MessageStore::MessageStore(const StoreConfig& config, env::Env* env, const Clock* clock)
    : config_(config), env_(env), clock_(clock) {}

MessageStore::~MessageStore() { Shutdown(); }

Result<std::unique_ptr<MessageStore>> MessageStore::Open(const StoreConfig& config,
                                                         env::Env* env, const Clock* clock) {
  APOGEE_RETURN_IF_ERROR(config.Validate());
  std::unique_ptr<MessageStore> store(new MessageStore(config, env, clock));
  APOGEE_ASSIGN_OR_RETURN(store->delay_levels_, DelayLevelTable::Parse(config.message_delay_level));
  APOGEE_RETURN_IF_ERROR(store->Load());
  APOGEE_RETURN_IF_ERROR(store->Recover());
  return store;
}

Status MessageStore::Load() {
  auto log = GetLogger("store");
  const std::string root = config_.RootDir();
  APOGEE_RETURN_IF_ERROR(env_->CreateDirs(root));
  Result<std::unique_ptr<env::FileLock>> lock = env_->LockFile(config_.LockPath());
  if (!lock.ok()) {
    if (lock.status().Is(StatusCode::kBusy)) {
      return Status::Busy(fmt::format(
          "Lock failed, MQ already started: the store directory {} is in use by another "
          "broker (lock file {})",
          root, config_.LockPath()));
    }
    return lock.status().Prefixed("taking the store lock");
  }
  lock_ = std::move(*lock);
  last_exit_ok_ = !env_->FileExists(config_.AbortPath());
  if (!last_exit_ok_) same_boot_ = AbortMarkerFromThisBoot();
  log->info("opening store {} ({} exit{})", root, last_exit_ok_ ? "clean" : "ABNORMAL",
            same_boot_ ? ", same boot: the page cache survived" : "");

  allocator_ = std::make_unique<FileAllocator>(config_.PreWriteCommitLogFiles(),
                                               FileAllocator::kPreWriteAhead,
                                               config_.flush_type() == FlushDiskType::kSyncFlush
                                                   ? MappedFile::PreWriteMode::kSyncedPageByPage
                                                   : MappedFile::PreWriteMode::kPageCacheOnly);
  commit_log_ = std::make_unique<CommitLog>(env_, config_, clock_, allocator_.get());
  APOGEE_RETURN_IF_ERROR(commit_log_->Load().Prefixed("loading the CommitLog"));
  APOGEE_ASSIGN_OR_RETURN(checkpoint_, StoreCheckpoint::Open(env_, config_.CheckpointPath()));
  consume_queues_ = std::make_unique<ConsumeQueueTable>(env_, config_.ConsumeQueueDir(),
                                                        config_.ConsumeQueueFileSize());
  APOGEE_RETURN_IF_ERROR(consume_queues_->Load());
  dispatch_queues_ = std::make_unique<DispatchQueueCache>(consume_queues_.get());
  index_ = std::make_unique<IndexService>(env_, config_.IndexDir(), config_.max_hash_slot_num,
                                          config_.max_index_num, checkpoint_.get(), clock_);
  APOGEE_RETURN_IF_ERROR(index_->Load(last_exit_ok_, same_boot_).Prefixed("loading index files"));
  DiskGuard::Options disk;
  disk.commit_log_dir = config_.CommitLogDir();
  disk.root_dir = root;
  disk.commit_log_file_size = config_.mapped_file_size_commit_log;
  disk.consume_queue_file_size = config_.ConsumeQueueFileSize();
  disk.index_file_size =
      config_.message_index_enable
          ? IndexFile::FileSizeFor(config_.max_hash_slot_num, config_.max_index_num)
          : 0;
  disk.warning_ratio = config_.disk_space_warning_level_ratio;
  disk.config_margin_bytes = std::min<int64_t>(8 << 20, config_.mapped_file_size_commit_log);
  disk_guard_ = std::make_unique<DiskGuard>(
      env_, std::move(disk), [allocator = allocator_.get()] { return allocator->PreparedBytes(); });
  commit_log_->set_disk_guard(disk_guard_.get());
  reput_ = std::make_unique<ReputService>(
      commit_log_.get(), [this] { return ReadableLimit(); },
      [this](const DispatchRequest& r) { return Dispatch(r); },
      [this] { AfterDispatchBatch(); });
  return Status::OK();
}

bool MessageStore::AbortMarkerFromThisBoot() {
  // kill -9 loses no page of a MAP_SHARED mapping; a kernel crash or power loss can lose any.
  // The boot id tells them apart. Anything unreadable, empty (a marker written by an older
  // build, or on an Env without boot ids) or different counts as a reboot: trust nothing more
  // than after a power loss.
  Result<std::string> now = env_->BootId();
  if (!now.ok() || now->empty()) return false;
  Result<std::string> marker = env::ReadFileToString(env_, config_.AbortPath());
  if (!marker.ok()) return false;
  std::string_view id = *marker;
  while (!id.empty() && id.back() == '\n') id.remove_suffix(1);
  return id == *now;
}

Status MessageStore::Recover() {
  auto log = GetLogger("store");
  const int64_t begin_ms = SteadyMillis();
  int64_t max_cq_phy = -1;
  for (auto& cq : consume_queues_->All()) {
    APOGEE_RETURN_IF_ERROR(cq->Recover());
    max_cq_phy = std::max(max_cq_phy, cq->max_phy_offset());
  }
  int64_t min_ts = config_.message_index_enable && config_.message_index_safe
                       ? checkpoint_->MinTimestampIndex()
                       : checkpoint_->MinTimestamp();
  int64_t start = last_exit_ok_ ? commit_log_->NormalRecoveryStart(max_cq_phy)
                                : commit_log_->AbnormalRecoveryStart(min_ts);
  const int64_t scan_begin_ms = SteadyMillis();
  const int64_t scan_begin_cpu = ThreadCpuMicros();
  APOGEE_ASSIGN_OR_RETURN(
      RecoveryScan scan,
      commit_log_->Recover(start, [](const message::RecordView&, int64_t) { return Status::OK(); }));
  const int64_t end = scan.end_offset;
  const int64_t dispatch_begin_ms = SteadyMillis();
  const int64_t dispatch_begin_cpu = ThreadCpuMicros();
  for (auto& cq : consume_queues_->All()) {
    if (cq->max_phy_offset() > end) APOGEE_RETURN_IF_ERROR(cq->TruncateDirty(end));
  }
  APOGEE_RETURN_IF_ERROR(index_->TruncateFrom(end));

  const int64_t cl_min = commit_log_->MinOffset();
  int64_t dispatch_from = last_exit_ok_ && max_cq_phy >= 0 ? max_cq_phy : start;
  if (config_.message_index_enable) dispatch_from = std::min(dispatch_from, index_->RebuildFrom());
  dispatch_from = std::clamp(dispatch_from, cl_min, std::max(cl_min, end));
  reput_->set_reput_from(dispatch_from);
  reput_->set_skip_corrupt(false);
  Status s = reput_->DoReput();
  reput_->set_skip_corrupt(true);
  if (!s.ok()) {
    // The ConsumeQueues disagree with the CommitLog in a way re-dispatching the tail cannot
    // mend: rebuild them from the whole CommitLog.
    log->warn("re-dispatch after recovery failed ({}); rebuilding every ConsumeQueue from "
              "CommitLog offset {}",
              s.ToString(), cl_min);
    for (auto& cq : consume_queues_->All()) APOGEE_RETURN_IF_ERROR(cq->Destroy());
    dispatch_from = cl_min;
    reput_->set_reput_from(cl_min);
    APOGEE_RETURN_IF_ERROR(reput_->DoReput().Prefixed("rebuilding ConsumeQueues"));
  }
  for (auto& cq : consume_queues_->All()) {
    commit_log_->SetQueueOffset(cq->topic(), cq->queue_id(), cq->MaxOffset());
    cq->CorrectMinOffset(cl_min);
  }
  // What recovery rebuilt must be durable before new writes are accepted: the flushed
  // positions it set count it as such.
  const int64_t flush_begin_ms = SteadyMillis();
  const int64_t flush_begin_cpu = ThreadCpuMicros();
  if (dispatch_from < end) {
    for (auto& cq : consume_queues_->All()) {
      for (int i = 0; i < 1 << 20; ++i) {
        APOGEE_ASSIGN_OR_RETURN(bool more, cq->Flush(0));
        if (!more) break;
      }
    }
    if (config_.message_index_enable) APOGEE_RETURN_IF_ERROR(index_->Flush());
  }
  recovery_.last_exit_ok = last_exit_ok_;
  recovery_.same_boot = same_boot_;
  recovery_.commit_log_start = start;
  recovery_.commit_log_end = end;
  recovery_.scanned_bytes = scan.bytes;
  recovery_.dispatched_from = dispatch_from;
  recovery_.stop_reason = scan.stop_reason;
  recovery_.elapsed_ms = SteadyMillis() - begin_ms;
  recovery_.scan_ms = dispatch_begin_ms - scan_begin_ms;
  recovery_.dispatch_ms = flush_begin_ms - dispatch_begin_ms;
  recovery_.flush_ms = SteadyMillis() - flush_begin_ms;
  recovery_.scan_cpu_us = dispatch_begin_cpu - scan_begin_cpu;
  recovery_.dispatch_cpu_us = flush_begin_cpu - dispatch_begin_cpu;
  recovery_.flush_cpu_us = ThreadCpuMicros() - flush_begin_cpu;
  recovery_.skipped_records = reput_->skipped_records();
  log->info(
      "store recovered in {} ms (scan {} ms, re-dispatch {} ms, flush {} ms): CommitLog [{}, {}), "
      "scanned {} bytes from {}, re-dispatched from {} ({}), {} record(s) that cannot be indexed "
      "skipped",
      recovery_.elapsed_ms, recovery_.scan_ms, recovery_.dispatch_ms, recovery_.flush_ms, cl_min, end, scan.bytes, start, dispatch_from, scan.stop_reason,
      recovery_.skipped_records);
  return Status::OK();
}

Result<int64_t> MessageStore::TruncateTo(int64_t phy_offset, int64_t* messages_cut) {
  if (started_.load()) return Status::Aborted("TruncateTo after Start");
  if (messages_cut != nullptr) *messages_cut = 0;
  const int64_t end = commit_log_->MaxOffset();
  if (phy_offset >= end) return int64_t{0};
  if (phy_offset < commit_log_->MinOffset()) {
    return Status::InvalidArgument(fmt::format(
        "cannot truncate the CommitLog to {}: its oldest file starts at {}", phy_offset,
        commit_log_->MinOffset()));
  }
  APOGEE_RETURN_IF_ERROR(commit_log_->files().TruncateDirtyFiles(phy_offset, /*zero_tail=*/true));
  for (auto& cq : consume_queues_->All()) {
    if (cq->max_phy_offset() > phy_offset) {
      const int64_t before = cq->MaxOffset();
      APOGEE_RETURN_IF_ERROR(cq->TruncateDirty(phy_offset));
      if (messages_cut != nullptr) *messages_cut += std::max<int64_t>(0, before - cq->MaxOffset());
    }
    commit_log_->SetQueueOffset(cq->topic(), cq->queue_id(), cq->MaxOffset());
  }
  APOGEE_RETURN_IF_ERROR(index_->TruncateFrom(phy_offset));
  if (reput_->reput_from() > phy_offset) reput_->set_reput_from(phy_offset);
  recovery_.commit_log_end = phy_offset;
  GetLogger("store")->warn("CommitLog truncated from {} to {} ({} bytes cut)", end, phy_offset,
                           end - phy_offset);
  return end - phy_offset;
}

Status MessageStore::Start() {
  if (started_.exchange(true)) return Status::OK();
  // The abort marker goes down first: a crash from here on is an abnormal exit. It holds this
  // boot's id (empty where there is none), which tells the next start whether only the
  // process died (AbortMarkerFromThisBoot).
  Result<std::string> boot_id = env_->BootId();
  APOGEE_ASSIGN_OR_RETURN(auto abort,
                          env_->OpenFile(config_.AbortPath(), env::OpenMode::kCreateIfMissing));
  APOGEE_RETURN_IF_ERROR(abort->Truncate(0));
  if (boot_id.ok()) APOGEE_RETURN_IF_ERROR(abort->Write(0, *boot_id + "\n"));
  APOGEE_RETURN_IF_ERROR(abort->Sync());
  APOGEE_RETURN_IF_ERROR(abort->Close());
  APOGEE_RETURN_IF_ERROR(env_->SyncDir(config_.RootDir()));

  allocator_->Start();
  auto on_error = [this](const Status& s) {
    const std::string reason = "CommitLog flush failed: " + s.ToString();
    // The reason before the flag: whoever sees the store unwritable also reads why (a reader
    // between the two read an empty reason; MessageStoreTest.AsyncFlushErrorStopsLaterAcks).
    {
      std::lock_guard<std::mutex> lock(state_mu_);
      if (unwritable_reason_.empty()) unwritable_reason_ = reason;
    }
    flush_failed_ = true;
    GetLogger("store")->error("store no longer accepts writes: {}", reason);
  };
  if (config_.flush_type() == FlushDiskType::kSyncFlush) {
    // Each group commit syncs a few records: keep the page-cache folios they land in at 4 KiB
    // so a sync writes those pages, not the 2 MiB folios readahead builds
    // (MappedFile::SetWriteTailPageByPage; docs/benchmarks.md, "SYNC_FLUSH regression").
    commit_log_->files().SetPageByPageWriteTail();
    // Under SYNC_FLUSH only durable bytes are readable: each flush wakes the reput.
    group_commit_ = std::make_unique<GroupCommitService>(commit_log_.get(), checkpoint_.get(),
                                                         clock_, on_error, [this] { reput_->Wakeup(); },
                                                         &flush_stats_);
    group_commit_->Start();
  } else {
    flush_real_time_ = std::make_unique<FlushRealTimeService>(
        commit_log_.get(), checkpoint_.get(), clock_, config_.flush_interval_commit_log,
        config_.flush_commit_log_least_pages, config_.flush_commit_log_thorough_interval,
        on_error, &flush_stats_);
    flush_real_time_->Start();
  }
  // Records from here on were admitted by the DiskGuard, which counts the ConsumeQueue
  // files they start until dispatch has created them.
  guard_counts_from_ = commit_log_->MaxOffset();
  (void)CheckDiskSpace();
  reput_->Start();
  last_cq_thorough_ms_ = clock_->SteadyMillis();
  if (scheduler_ == nullptr) {
    own_scheduler_ = std::make_unique<Scheduler>("StoreSched");
    scheduler_ = own_scheduler_.get();
  }
  // flushIntervalConsumeQueue and cleanResourceInterval are read at every run, so a config
  // that changes them (none does at run time today) keeps Java's meaning.
  cq_flusher_ = scheduler_->Every(
      "FlushConsumeQueueService", Scheduler::LaneKind::kQuick, config_.flush_interval_consume_queue,
      [this] { return static_cast<int64_t>(config_.flush_interval_consume_queue); },
      [this] {
        int64_t now = clock_->SteadyMillis();
        bool thorough = now - last_cq_thorough_ms_ >= config_.flush_consume_queue_thorough_interval;
        if (thorough) last_cq_thorough_ms_ = now;
        FlushConsumeQueues(thorough);
        return Status::OK();
      });
  cleaner_ = scheduler_->Every(
      "CleanCommitLogService", Scheduler::LaneKind::kBlocking, config_.clean_resource_interval,
      [this] { return static_cast<int64_t>(config_.clean_resource_interval); },
      [this] { return CleanExpiredFiles(false).Prefixed("retention pass failed"); });
  GetLogger("store")->info("store started ({}, {})", config_.flush_disk_type, config_.broker_role);
  if (config_.clean_unexpired_file_forcibly_enable && config_.clean_file_forcibly_enable) {
    GetLogger("store")->warn(
        "cleanUnexpiredFileForciblyEnable=true: when the disk passes "
        "diskSpaceCleanForciblyRatio ({}%), CommitLog files younger than fileReservedTime are "
        "deleted, ACKNOWLEDGED MESSAGES NO CONSUMER HAS READ INCLUDED (Java's behaviour). "
        "Without it, writes are refused instead.",
        config_.disk_space_clean_forcibly_ratio);
  }
  return Status::OK();
}

void MessageStore::Shutdown() {
  if (shutdown_.exchange(true)) return;
  if (!started_) {
    lock_.reset();
    return;
  }
  auto log = GetLogger("store");
  cleaner_.Cancel();
  // Answers every pending SYNC_FLUSH put after a final flush.
  if (group_commit_) group_commit_->Shutdown();
  if (flush_real_time_) flush_real_time_->Shutdown();
  reput_->Shutdown();
  Status reput = reput_->DoReput();  // catch up with what the final flush made readable
  cq_flusher_.Cancel();
  FlushConsumeQueues(/*thorough=*/true);
  Status index = index_->Flush();
  allocator_->Shutdown();
  allocator_->DiscardPrepared();
  bool clean = !flush_failed_ && reput.ok() && index.ok() && reput_->DispatchBehindBytes() <= 0;
  if (clean) {
    Status s = env_->DeleteFile(config_.AbortPath());
    if (s.ok()) s = env_->SyncDir(config_.RootDir());
    if (!s.ok()) log->error("cannot remove the abort marker: {}", s.ToString());
  } else {
    log->warn("store shut down with errors; the next start will run crash recovery");
  }
  lock_.reset();
  log->info("store shut down");
}

void MessageStore::Halt() {
  if (shutdown_.exchange(true)) return;
  if (started_) {
    if (group_commit_) group_commit_->Abandon();
    if (flush_real_time_) flush_real_time_->Abandon();
    cleaner_.Cancel();
    if (group_commit_) group_commit_->Shutdown();
    if (flush_real_time_) flush_real_time_->Shutdown();
    reput_->Shutdown();
    cq_flusher_.Cancel();
    allocator_->Shutdown();
  }
  lock_.reset();
  GetLogger("store")->info("store halted (simulated crash)");
}

int64_t MessageStore::ReadableLimit() const {
  return config_.flush_type() == FlushDiskType::kSyncFlush ? commit_log_->FlushedOffset()
                                                            : commit_log_->MaxOffset();
}

int64_t MessageStore::SkippedRecords() const { return reput_ ? reput_->skipped_records() : 0; }

int64_t MessageStore::LastSkippedRecordOffset() const {
  return reput_ ? reput_->last_skipped_offset() : -1;
}

Status MessageStore::Dispatch(const DispatchRequest& r) {
  if (ShouldDispatchToConsumeQueue(r.sys_flag)) {
    APOGEE_ASSIGN_OR_RETURN(ConsumeQueue * cq, dispatch_queues_->Get(r.topic, r.queue_id));
    // A scheduled record's tag code is its delivery time (docs/protocol/store_ha.md §8.3).
    const int64_t tag_code =
        r.delay_level > 0 ? r.store_timestamp + delay_levels_.DelayMillis(r.delay_level)
                          : r.tag_code;
    APOGEE_RETURN_IF_ERROR(cq->PutEntry(CqEntry{r.phy_offset, r.size, tag_code}, r.queue_offset));
    if (r.phy_offset >= guard_counts_from_ &&
        commit_log_->NewConsumeQueueFiles(r.queue_offset, 1)) {
      disk_guard_->OnConsumeQueueFileCreated();  // the one the put was admitted with
    }
    if (arriving_listener_) {
      bool seen = false;
      for (auto& t : touched_queues_) {
        if (t.second == r.queue_id && t.first == r.topic) {
          seen = true;
          break;
        }
      }
      if (!seen) touched_queues_.emplace_back(std::string(r.topic), r.queue_id);
    }
  }
  if (config_.message_index_enable) APOGEE_RETURN_IF_ERROR(index_->BuildIndex(r));
  dispatched_store_ts_.store(r.store_timestamp, std::memory_order_relaxed);
  return Status::OK();
}

void MessageStore::AfterDispatchBatch() {
  if (!arriving_listener_) return;
  for (auto& [topic, queue_id] : touched_queues_) {
    arriving_listener_(topic, queue_id, GetMaxOffsetInQueue(topic, queue_id));
  }
  touched_queues_.clear();
}

void MessageStore::FlushConsumeQueues(bool thorough) {
  int least = thorough ? 0 : config_.flush_consume_queue_least_pages;
  // Captured before flushing: every entry dispatched up to this time is durable after.
  int64_t logics_ts = dispatched_store_ts_.load();
  bool ok = true;
  for (auto& cq : consume_queues_->All()) {
    for (int i = 0; i < 4; ++i) {  // a flush may need to cross into the next file
      Result<bool> r = cq->Flush(least);
      if (!r.ok()) {
        GetLogger("store")->error("ConsumeQueue flush failed: {}", r.status().ToString());
        ok = false;
        break;
      }
      if (!*r) break;
    }
  }
  // Only a thorough pass makes every entry durable; only then may the checkpoint claim
  // the dispatch time (Java's FlushConsumeQueueService does the same).
  if (!ok || !thorough) return;
  if (logics_ts > 0) checkpoint_->set_logics_msg_timestamp(logics_ts);
  Status s = checkpoint_->Flush();
  if (!s.ok()) GetLogger("store")->error("checkpoint flush failed: {}", s.ToString());
}

void MessageStore::MarkUnwritable(const std::string& reason) {
  std::lock_guard<std::mutex> lock(state_mu_);
  if (unwritable_reason_.empty()) {
    unwritable_reason_ = reason;
    GetLogger("store")->error("store no longer accepts writes: {}", reason);
  }
}

bool MessageStore::writable() const {
  return started_ && !shutdown_ && !flush_failed_ && !(disk_guard_ && disk_guard_->full());
}

std::string MessageStore::unwritable_reason() const {
  if (!started_) return "store not started";
  if (shutdown_) return "store shut down";
  if (!flush_failed_ && disk_guard_ && disk_guard_->full()) return disk_guard_->reason();
  std::lock_guard<std::mutex> lock(state_mu_);
  return unwritable_reason_;
}

// ---- append ----

MessageStore::Appended MessageStore::AppendOne(message::RecordFields fields, bool wait) {
  // A full disk is not checked here: the CommitLog asks the DiskGuard under its put lock,
  // which re-reads the free space now and then, so writes resume once space is back.
  if (config_.role() == BrokerRole::kSlave || !started_ || shutdown_ || flush_failed_) {
    return {Refused(PutStatus::kServiceNotAvailable)};
  }
  return AfterAppend(commit_log_->Append(std::move(fields), WriteModeFor(WaitsForFlushAlone(wait))),
                     wait);
}

MessageStore::Appended MessageStore::AppendMany(std::vector<message::RecordFields> batch,
                                                bool wait) {
  if (config_.role() == BrokerRole::kSlave || !started_ || shutdown_ || flush_failed_) {
    return {Refused(PutStatus::kServiceNotAvailable)};
  }
  return AfterAppend(
      commit_log_->AppendBatch(std::move(batch), WriteModeFor(WaitsForFlushAlone(wait))), wait);
}

MessageStore::Appended MessageStore::AfterAppend(PutResult result, bool wait) {
  if (result.status != PutStatus::kPutOk) {
    // A file that cannot be created usually means a full disk: check now rather than at
    // the next retention pass, so later puts are refused with SERVICE_NOT_AVAILABLE.
    if (result.status == PutStatus::kCreateMappedFileFailed) (void)CheckDiskSpace();
    return {std::move(result)};
  }
  const bool sync_flush = config_.flush_type() == FlushDiskType::kSyncFlush;
  if (sync_flush && !wait) {
    group_commit_->Wakeup();
  } else if (!sync_flush && !config_.flush_commit_log_timed) {
    flush_real_time_->Wakeup();
  }
  // Under ASYNC_FLUSH the record is readable now: the reput dispatches it without waiting
  // for a poll (under SYNC_FLUSH the group commit wakes it once the record is durable).
  if (!sync_flush) reput_->Wakeup();
  const bool complete = !MustWait(wait);
  return {std::move(result), complete};
}

bool MessageStore::WaitsForFlushAlone(bool wait) const {
  return wait && config_.flush_type() == FlushDiskType::kSyncFlush &&
         !(replica_waiter_ && config_.role() == BrokerRole::kSyncMaster);
}

void MessageStore::SubmitFlushWait(const PutResult& result, std::function<void(PutStatus)> done) {
  group_commit_->Submit(result.wrote_offset.value() + result.wrote_bytes,
                        clock_->SteadyMillis() + config_.sync_flush_timeout, std::move(done));
}

bool MessageStore::MustWait(bool wait) const {
  if (!wait) return false;
  return config_.flush_type() == FlushDiskType::kSyncFlush ||
         (replica_waiter_ && config_.role() == BrokerRole::kSyncMaster);
}

std::future<PutResult> MessageStore::PutMessage(message::RecordFields fields,
                                                bool wait_store_msg_ok) {
  auto promise = std::make_shared<std::promise<PutResult>>();
  std::future<PutResult> future = promise->get_future();
  PutMessage(std::move(fields), wait_store_msg_ok,
             [promise](const PutResult& r) { promise->set_value(r); });
  return future;
}

void MessageStore::WaitForPut(const PutResult& result, bool wait, PutCallback done) {
  const int64_t next_offset = result.wrote_offset.value() + result.wrote_bytes;
  const bool sync_flush = config_.flush_type() == FlushDiskType::kSyncFlush;
  const bool wait_flush = sync_flush && wait;
  const bool wait_replica = wait && replica_waiter_ && config_.role() == BrokerRole::kSyncMaster;
  if (!wait_flush && !wait_replica) {
    // The role changed since the append (a failover): nothing left to wait for.
    done(result);
    return;
  }
  if (!wait_replica) {
    // SYNC_FLUSH alone (the common case): nothing to join, so no shared state per put; the
    // flush outcome is the put's.
    group_commit_->Submit(next_offset, clock_->SteadyMillis() + config_.sync_flush_timeout,
                          [r = PutResult(result), done = std::move(done)](PutStatus flush) mutable {
                            r.status = flush;
                            done(r);
                          });
    return;
  }
  // The flush and the replica wait run at the same time (CommitLog.asyncPutMessage in
  // 4.7+); the put completes when both answered. A failed flush that stops the store wins;
  // otherwise the replica outcome wins over a flush timeout (Java applies it last).
  struct Join {
    std::atomic<int> left;
    std::atomic<PutStatus> flush{PutStatus::kPutOk};
    std::atomic<PutStatus> replica{PutStatus::kPutOk};
    PutResult result;
    PutCallback done;
  };
  auto join = std::make_shared<Join>();
  join->left = (wait_flush ? 1 : 0) + (wait_replica ? 1 : 0);
  join->result = result;
  join->done = std::move(done);
  auto finish = [join] {
    if (join->left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    const PutStatus flush = join->flush.load();
    const PutStatus replica = join->replica.load();
    join->result.status = flush;
    if (flush != PutStatus::kServiceNotAvailable && replica != PutStatus::kPutOk) {
      join->result.status = replica;
    }
    join->done(join->result);
  };
  if (wait_replica) {
    replica_waiter_(next_offset, [join, finish](PutStatus replica) {
      join->replica.store(replica);
      finish();
    });
  }
  if (wait_flush) {
    group_commit_->Submit(next_offset, clock_->SteadyMillis() + config_.sync_flush_timeout,
                          [join, finish](PutStatus flush) {
                            join->flush.store(flush);
                            finish();
                          });
  }
}

// ---- read ----

GetMessageResult MessageStore::GetMessages(std::string_view topic, int32_t queue_id,
                                           int64_t offset, int32_t max_count, int64_t max_bytes,
                                           const TagCodeFilter& filter) const {
  GetMessageResult result;
  std::shared_ptr<ConsumeQueue> cq = consume_queues_->Find(topic, queue_id);
  if (!cq) {
    result.status = GetStatus::kNoMatchedLogicQueue;
    result.next_begin_offset = 0;
    return result;
  }
  const int64_t min = cq->MinOffset();
  const int64_t max = cq->MaxOffset();
  result.min_offset = min;
  result.max_offset = max;
  if (max == 0) {
    result.status = GetStatus::kNoMessageInQueue;
    result.next_begin_offset = 0;
    return result;
  }
  if (offset < min) {
    result.status = GetStatus::kOffsetTooSmall;
    result.next_begin_offset = min;
    return result;
  }
  if (offset == max) {
    result.status = GetStatus::kOffsetOverflowOne;
    result.next_begin_offset = offset;
    return result;
  }
  if (offset > max) {
    result.status = GetStatus::kOffsetOverflowBadly;
    result.next_begin_offset = min == 0 ? min : max;
    return result;
  }
  const int64_t cl_min = commit_log_->MinOffset();
  const int64_t cl_max = commit_log_->MaxOffset();
  const int64_t memory = InMemoryBytes();
  bool filtered = false;
  bool removed = false;
  int64_t next = offset;
  int scanned = 0;
  const MappedFile* last_file = nullptr;
  while (scanned < kMaxCqEntriesScannedPerGet &&
         static_cast<int32_t>(result.messages.size()) < max_count) {
    // Entries in chunks a little larger than what is still wanted: asking for the whole
    // scan budget (800) decoded and copied 25 times the 32 entries a pull takes.
    // (64-bit: a client may ask for INT32_MAX messages.)
    const int64_t wanted = int64_t{max_count} - static_cast<int64_t>(result.messages.size());
    const int chunk = static_cast<int>(std::min<int64_t>(
        kMaxCqEntriesScannedPerGet - scanned,
        std::max<int64_t>(wanted + wanted / 4, kMinCqEntriesPerChunk)));
    std::vector<CqEntry> entries = cq->GetEntries(next, chunk);
    if (entries.empty()) break;
    bool full = false;
    for (const CqEntry& e : entries) {
      if (static_cast<int32_t>(result.messages.size()) >= max_count) {
        full = true;
        break;
      }
      if (e.size == kCqBlankEntrySize) {  // pre-fill before the queue's first message
        ++next;
        ++scanned;
        continue;
      }
      const bool in_disk = cl_max - e.phy_offset > memory;
      const int64_t byte_cap = std::min<int64_t>(
          max_bytes, in_disk ? config_.max_transfer_bytes_on_message_in_disk
                             : config_.max_transfer_bytes_on_message_in_memory);
      const int32_t count_cap = in_disk ? config_.max_transfer_count_on_message_in_disk
                                        : config_.max_transfer_count_on_message_in_memory;
      if (!result.messages.empty() &&
          (result.total_bytes + e.size > byte_cap ||
           static_cast<int32_t>(result.messages.size()) >= count_cap)) {
        full = true;
        break;
      }
      ++next;
      ++scanned;
      if (e.phy_offset < cl_min) {
        removed = true;
        continue;
      }
      if (filter && !filter(e.tag_code)) {
        filtered = true;
        continue;
      }
      // Most records of one pull lie in the file of the one before, which the result holds.
      const uint8_t* data =
          last_file != nullptr ? CommitLog::RecordIn(*last_file, e.phy_offset, e.size) : nullptr;
      if (data == nullptr) {
        Result<SelectedBuffer> buf = commit_log_->GetRecord(e.phy_offset, e.size);
        if (!buf.ok()) {
          removed = true;
          continue;
        }
        data = buf->data;
        if (buf->file.get() != last_file) {
          last_file = buf->file.get();
          result.keepalive.push_back(std::move(buf->file));
        }
      }
      result.suggest_pulling_from_slave = in_disk;
      result.messages.push_back(MessageRef{data, e.size, e.phy_offset, next - 1});
      result.total_bytes += e.size;
    }
    if (full) break;
  }
  result.next_begin_offset = next;
  if (!result.messages.empty()) {
    result.status = GetStatus::kFound;
  } else if (filtered) {
    result.status = GetStatus::kNoMatchedMessage;
  } else if (removed) {
    result.status = GetStatus::kMessageWasRemoving;
  } else {
    result.status = GetStatus::kOffsetFoundNull;
  }
  return result;
}

Result<QueryMessageResult> MessageStore::GetMessageByOffset(int64_t phy_offset) const {
  std::shared_ptr<MappedFile> holder;
  message::RecordDecodeResult r = commit_log_->DecodeAt(phy_offset, false, &holder);
  if (r.status != message::RecordStatus::kMessage) {
    return Status::NotFound(fmt::format("no message at CommitLog offset {} ({})", phy_offset,
                                        message::RecordStatusName(r.status)));
  }
  APOGEE_ASSIGN_OR_RETURN(SelectedBuffer buf,
                          commit_log_->GetRecord(phy_offset, static_cast<int32_t>(r.size)));
  QueryMessageResult out;
  out.messages.push_back(MessageRef{buf.data, static_cast<int32_t>(buf.size), phy_offset,
                                    r.record.queue_offset});
  out.keepalive.push_back(std::move(buf.file));
  return out;
}

QueryMessageResult MessageStore::QueryMessages(std::string_view topic, std::string_view key,
                                               int32_t max_num, int64_t begin_ms,
                                               int64_t end_ms) const {
  QueryMessageResult out;
  size_t limit = static_cast<size_t>(std::max(0, max_num));
  std::vector<int64_t> offsets = index_->QueryOffsets(topic, key, limit, begin_ms, end_ms);
  for (int64_t phy : offsets) {
    std::shared_ptr<MappedFile> holder;
    message::RecordDecodeResult r = commit_log_->DecodeAt(phy, false, &holder);
    if (r.status != message::RecordStatus::kMessage) continue;
    // The index holds hashes: confirm the topic and the key on the record itself.
    if (r.record.topic != topic || !KeyMatches(r.record.properties, key)) continue;
    Result<SelectedBuffer> buf = commit_log_->GetRecord(phy, static_cast<int32_t>(r.size));
    if (!buf.ok()) continue;
    out.messages.push_back(MessageRef{buf->data, static_cast<int32_t>(buf->size), phy,
                                      r.record.queue_offset});
    out.index_last_update_phy_offset = std::max(out.index_last_update_phy_offset, phy);
    out.index_last_update_timestamp =
        std::max(out.index_last_update_timestamp, r.record.store_timestamp);
    out.keepalive.push_back(std::move(buf->file));
  }
  return out;
}

int64_t MessageStore::GetMinOffsetInQueue(std::string_view topic, int32_t queue_id) const {
  auto cq = consume_queues_->Find(topic, queue_id);
  return cq ? cq->MinOffset() : 0;
}

int64_t MessageStore::GetMaxOffsetInQueue(std::string_view topic, int32_t queue_id) const {
  auto cq = consume_queues_->Find(topic, queue_id);
  return cq ? cq->MaxOffset() : 0;
}

int64_t MessageStore::GetOffsetInQueueByTime(std::string_view topic, int32_t queue_id,
                                             int64_t timestamp_ms) const {
  auto cq = consume_queues_->Find(topic, queue_id);
  if (!cq) return 0;
  return cq->OffsetByTime(timestamp_ms, [this](int64_t phy, int32_t) -> std::optional<int64_t> {
    message::RecordDecodeResult r = commit_log_->DecodeAt(phy, false, nullptr);
    if (r.status != message::RecordStatus::kMessage) return std::nullopt;
    return r.record.store_timestamp;
  });
}

int64_t MessageStore::GetMessageStoreTimestamp(std::string_view topic, int32_t queue_id,
                                               int64_t queue_offset) const {
  int64_t phy = GetCommitLogOffsetInQueue(topic, queue_id, queue_offset);
  if (phy < 0) return -1;
  message::RecordDecodeResult r = commit_log_->DecodeAt(phy, false, nullptr);
  return r.status == message::RecordStatus::kMessage ? r.record.store_timestamp : -1;
}

int64_t MessageStore::GetEarliestMessageTime(std::string_view topic, int32_t queue_id) const {
  return GetMessageStoreTimestamp(topic, queue_id, GetMinOffsetInQueue(topic, queue_id));
}

int64_t MessageStore::GetEarliestMessageTime() const {
  std::shared_ptr<MappedFile> first = commit_log_->files().FirstFile();
  if (!first) return -1;
  return commit_log_->FirstStoreTimestampOfFile(*first).value_or(-1);
}

int64_t MessageStore::InMemoryBytes() const {
  return PhysicalMemoryBytes() / 100 * config_.access_message_in_memory_max_ratio;
}

bool MessageStore::CheckInDiskByCommitOffset(int64_t phy_offset) const {
  return commit_log_->MaxOffset() - phy_offset > InMemoryBytes();
}

bool MessageStore::CheckInDiskByConsumeOffset(std::string_view topic, int32_t queue_id,
                                              int64_t consume_offset) const {
  const int64_t phy = GetCommitLogOffsetInQueue(topic, queue_id, consume_offset);
  return phy >= 0 && CheckInDiskByCommitOffset(phy);
}

int64_t MessageStore::GetCommitLogOffsetInQueue(std::string_view topic, int32_t queue_id,
                                                int64_t queue_offset) const {
  auto cq = consume_queues_->Find(topic, queue_id);
  if (!cq) return -1;
  std::optional<CqEntry> e = cq->GetEntry(queue_offset);
  if (!e || e->size == kCqBlankEntrySize) return -1;
  return e->phy_offset;
}

// ---- replication ----

int64_t MessageStore::MaxPhyOffset() const { return commit_log_->MaxOffset(); }
int64_t MessageStore::MinPhyOffset() const { return commit_log_->MinOffset(); }

Result<RawSegment> MessageStore::ReadRaw(int64_t offset, size_t max_bytes) const {
  APOGEE_ASSIGN_OR_RETURN(SelectedBuffer buf, commit_log_->GetData(offset));
  RawSegment seg;
  seg.offset = offset;
  seg.data = buf.view().substr(0, max_bytes);
  seg.keepalive = std::move(buf.file);
  return seg;
}

Status MessageStore::AppendRaw(int64_t offset, std::string_view data) {
  if (shutdown_) return Status::Unavailable("store shut down");
  APOGEE_RETURN_IF_ERROR(commit_log_->AppendRaw(offset, data));
  reput_->Wakeup();
  return Status::OK();
}

void MessageStore::SetMessageArrivingListener(MessageArrivingListener listener) {
  arriving_listener_ = std::move(listener);
}

void MessageStore::SetReplicaWaiter(ReplicaWaiter waiter) { replica_waiter_ = std::move(waiter); }

int64_t MessageStore::DispatchBehindBytes() const { return reput_->DispatchBehindBytes(); }

int64_t MessageStore::FlushBehindBytes() const {
  return std::max<int64_t>(0, commit_log_->MaxOffset() - commit_log_->FlushedOffset());
}

Status MessageStore::DeleteTopic(std::string_view topic) {
  commit_log_->RemoveQueueOffsets(topic);
  return consume_queues_->DeleteTopic(topic);
}

// ---- retention ----

Status MessageStore::CheckDiskSpace() { return disk_guard_->Refresh(); }

Status MessageStore::CleanExpiredFiles(bool force) {
  APOGEE_RETURN_IF_ERROR(CheckDiskSpace());
  // In percent; an unmeasurable disk (-1) triggers no space-driven cleaning.
  const double used = 100.0 * env::DiskUsedRatioOf(env_, config_.CommitLogDir());
  time_t secs = static_cast<time_t>(clock_->NowMillis() / 1000);
  struct tm local {};
  localtime_r(&secs, &local);
  std::vector<int> hours = config_.DeleteHours();
  bool is_time = std::find(hours.begin(), hours.end(), local.tm_hour) != hours.end();
  bool is_space = used > config_.DiskMaxUsedSpaceRatio();
  bool clean_at_once = force || (config_.clean_file_forcibly_enable &&
                                 used > config_.disk_space_clean_forcibly_ratio);
  if (!is_time && !is_space && !clean_at_once) return Status::OK();
  int64_t expire_before =
      clock_->NowMillis() - int64_t{config_.file_reserved_time} * 3600 * 1000;
  // A nearly full disk deletes expired files at any hour, but never younger ones unless
  // asked (cleanUnexpiredFileForciblyEnable, Java's way): writes are refused instead, so
  // nothing acknowledged and unread is lost to make room for more.
  const bool ignore_age = force || (clean_at_once && config_.clean_unexpired_file_forcibly_enable);
  APOGEE_ASSIGN_OR_RETURN(int deleted, commit_log_->DeleteExpiredFiles(
                                           expire_before, kDeleteFilesBatchMax, ignore_age));
  if (deleted == 0) return Status::OK();
  const int64_t cl_min = commit_log_->MinOffset();
  for (auto& cq : consume_queues_->All()) {
    APOGEE_RETURN_IF_ERROR(cq->DeleteExpiredFiles(cl_min).status());
  }
  APOGEE_RETURN_IF_ERROR(index_->DeleteExpiredFiles(cl_min).status());
  return CheckDiskSpace();
}

}  // namespace apogee::store
