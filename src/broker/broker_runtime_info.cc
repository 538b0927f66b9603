#include "broker/broker_runtime_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/failover_coordinator.h"
#include "env/disk_usage.h"
#include "env/env.h"
#include "protocol/remoting_command.h"
#include "remoting/executor.h"
#include "store/message_store.h"

namespace apogee::broker {
namespace {

constexpr int64_t kLongestWindowMs = 600'000;
constexpr int64_t kSampleSpacingMs = 1'000;

// The version Apogee speaks (kApogeeVersion = 401) under its MQVersion name.
constexpr std::string_view kVersionDesc = "V4_9_4";

std::string QueueSize(const std::shared_ptr<remoting::Executor>& executor) {
  auto* pool = dynamic_cast<remoting::ThreadPoolExecutor*>(executor.get());
  return std::to_string(pool != nullptr ? pool->queued() : 0);
}

}  // namespace

BrokerRuntimeStats::BrokerRuntimeStats(const Clock* clock)
    : clock_(clock), boot_timestamp_(clock->NowMillis()) {
  samples_.emplace_back(boot_timestamp_, 0);
}

void BrokerRuntimeStats::OnMessageArriving(std::string_view topic, int32_t queue_id,
                                           int64_t next_queue_offset) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(std::string(topic), queue_id);
  auto it = last_offsets_.find(key);
  if (it == last_offsets_.end()) {
    last_offsets_.emplace(std::move(key), next_queue_offset);
  } else {
    // A queue deleted and recreated starts again from 0: no negative counts.
    if (next_queue_offset > it->second) put_total_ += next_queue_offset - it->second;
    it->second = next_queue_offset;
  }
  SampleLocked(clock_->NowMillis());
}

void BrokerRuntimeStats::SampleLocked(int64_t now_ms) {
  if (samples_.empty() || now_ms - samples_.back().first >= kSampleSpacingMs) {
    samples_.emplace_back(now_ms, put_total_);
  } else {
    samples_.back().second = put_total_;
  }
  // Keep exactly one sample at or before the start of the longest window.
  while (samples_.size() > 2 && samples_[1].first <= now_ms - kLongestWindowMs) {
    samples_.pop_front();
  }
}

int64_t BrokerRuntimeStats::put_total() const {
  std::lock_guard<std::mutex> lock(mu_);
  return put_total_;
}

double BrokerRuntimeStats::PutTps(int64_t window_ms) const {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t now = clock_->NowMillis();
  const int64_t start = now - window_ms;
  // The newest sample at or before the window start; the oldest one when the window
  // reaches back before it.
  std::pair<int64_t, int64_t> base = samples_.front();
  for (const auto& sample : samples_) {
    if (sample.first > start) break;
    base = sample;
  }
  const int64_t elapsed = now - base.first;
  if (elapsed <= 0) return 0;
  return static_cast<double>(put_total_ - base.second) * 1000.0 / static_cast<double>(elapsed);
}

std::string FormatTpsTriple(double tps10, double tps60, double tps600) {
  return fmt::format("{:.2f} {:.2f} {:.2f}", tps10, tps60, tps600);
}

std::string FormatRuntime(int64_t elapsed_ms) {
  const int64_t seconds = std::max<int64_t>(0, elapsed_ms) / 1000;
  return fmt::format("[ {} days, {} hours, {} minutes, {} seconds ]", seconds / 86400,
                     seconds % 86400 / 3600, seconds % 3600 / 60, seconds % 60);
}

protocol::KVTable BuildBrokerRuntimeInfo(const BrokerContext& context,
                                         const BrokerRuntimeStats& stats, env::Env* env) {
  const auto settings = context.config->Get();
  const store::MessageStore& store = *context.store;
  const int64_t now = stats.clock()->NowMillis();
  const int64_t put_total = stats.put_total();

  protocol::KVTable kv;
  auto& t = kv.table;
  t["brokerVersionDesc"] = std::string(kVersionDesc);
  t["brokerVersion"] = std::to_string(protocol::kApogeeVersion);
  t["bootTimestamp"] = std::to_string(stats.boot_timestamp());
  t["runtime"] = FormatRuntime(now - stats.boot_timestamp());
  t["brokerActive"] = "true";

  t["putTps"] = FormatTpsTriple(stats.PutTps(10'000), stats.PutTps(60'000), stats.PutTps(600'000));
  t["msgPutTotalTodayNow"] = std::to_string(put_total);
  t["msgPutTotalTodayMorning"] = "0";
  t["msgPutTotalYesterdayMorning"] = "0";
  // Pulls are not observed by this module (see the header).
  t["getTransferedTps"] = FormatTpsTriple(0, 0, 0);
  t["msgGetTotalTodayNow"] = "0";
  t["msgGetTotalTodayMorning"] = "0";
  t["msgGetTotalYesterdayMorning"] = "0";

  t["commitLogMinOffset"] = std::to_string(store.MinPhyOffset());
  t["commitLogMaxOffset"] = std::to_string(store.MaxPhyOffset());
  t["dispatchBehindBytes"] = std::to_string(std::max<int64_t>(0, store.DispatchBehindBytes()));
  t["commitLogDiskRatio"] = fmt::format("{}", env::DiskUsedRatioOf(env, settings->store.store_path_root_dir));
  t["earliestMessageTimeStamp"] = std::to_string(store.GetEarliestMessageTime());
  // The put lock is a short copy into mapped memory; its hold time is not exported.
  t["pageCacheLockTimeMills"] = "0";
  t["storeWritable"] = store.writable() ? "true" : "false";
  if (!store.writable()) t["storeUnwritableReason"] = store.unwritable_reason();

  t["sendThreadPoolQueueSize"] = QueueSize(context.executors.send);
  t["sendThreadPoolQueueCapacity"] = std::to_string(settings->send_thread_pool_queue_capacity);
  t["pullThreadPoolQueueSize"] = QueueSize(context.executors.pull);
  t["pullThreadPoolQueueCapacity"] = std::to_string(settings->pull_thread_pool_queue_capacity);
  t["queryThreadPoolQueueSize"] = QueueSize(context.executors.query_message);
  t["queryThreadPoolQueueCapacity"] = std::to_string(settings->query_thread_pool_queue_capacity);
  // Queued tasks carry no enqueue time, so the head's wait is not known.
  t["sendThreadPoolQueueHeadWaitTimeMills"] = "0";
  t["pullThreadPoolQueueHeadWaitTimeMills"] = "0";
  t["queryThreadPoolQueueHeadWaitTimeMills"] = "0";

  // No timer message store: nothing is behind (5.x clusterList parses these).
  t["timerReadBehind"] = "0";
  t["timerOffsetBehind"] = "0";
  t["timerCongestNum"] = "0";
  t["timerEnqueueTps"] = "0.0";
  t["timerDequeueTps"] = "0.0";

  // Failover with etcd (docs/failover.md): the role etcd gave, the epoch, fencing and the
  // divergence counters (what returning to a newer master cut from this CommitLog).
  if (context.failover != nullptr) {
    const FailoverSnapshot f = context.failover->Snapshot();
    t["failoverRole"] = f.role;
    t["failoverEpoch"] = std::to_string(f.epoch);
    t["failoverMasterAddr"] = f.master_addr;
    t["failoverFenced"] = f.fenced ? "true" : "false";
    t["failoverDivergentBytes"] = std::to_string(f.divergent_bytes);
    t["failoverDivergentMessages"] = std::to_string(f.divergent_messages);
    t["failoverDivergentBytesTotal"] = std::to_string(f.divergent_bytes_total);
    t["failoverDivergentMessagesTotal"] = std::to_string(f.divergent_messages_total);
    t["failoverDivergenceCount"] = std::to_string(f.divergence_count);
  }
  return kv;
}

}  // namespace apogee::broker
