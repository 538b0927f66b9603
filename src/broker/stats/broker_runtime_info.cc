#include "broker/stats/broker_runtime_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/failover_coordinator.h"
#include "broker/stats/broker_stats_manager.h"
#include "env/disk_usage.h"
#include "env/env.h"
#include "protocol/remoting_command.h"
#include "remoting/executor.h"
#include "store/message_store.h"

namespace apogee::broker {
namespace {

// The version Apogee speaks (kApogeeVersion = 401) under its MQVersion name.
constexpr std::string_view kVersionDesc = "V4_9_4";

std::string QueueSize(const std::shared_ptr<remoting::Executor>& executor) {
  auto* pool = dynamic_cast<remoting::ThreadPoolExecutor*>(executor.get());
  return std::to_string(pool != nullptr ? pool->queued() : 0);
}

}  // namespace

std::string FormatTpsTriple(double tps10, double tps60, double tps600) {
  return fmt::format("{:.2f} {:.2f} {:.2f}", tps10, tps60, tps600);
}

std::string FormatRuntime(int64_t elapsed_ms) {
  const int64_t seconds = std::max<int64_t>(0, elapsed_ms) / 1000;
  return fmt::format("[ {} days, {} hours, {} minutes, {} seconds ]", seconds / 86400,
                     seconds % 86400 / 3600, seconds % 3600 / 60, seconds % 60);
}

protocol::KVTable BuildBrokerRuntimeInfo(const BrokerContext& context,
                                         const BrokerStatsManager& stats, env::Env* env) {
  const auto settings = context.config->Get();
  const store::MessageStore& store = *context.store;
  const int64_t now = stats.clock()->NowMillis();
  auto triple = [now](const BrokerCounter& c) {
    return FormatTpsTriple(c.Tps(now, 10'000), c.Tps(now, 60'000), c.Tps(now, 600'000));
  };

  protocol::KVTable kv;
  auto& t = kv.table;
  t["brokerVersionDesc"] = std::string(kVersionDesc);
  t["brokerVersion"] = std::to_string(protocol::kApogeeVersion);
  t["bootTimestamp"] = std::to_string(stats.boot_timestamp());
  t["runtime"] = FormatRuntime(now - stats.boot_timestamp());
  t["brokerActive"] = "true";

  // BrokerStats: totals since start and at the last two midnights.
  const DayMarks put_marks = stats.put_marks();
  const DayMarks get_marks = stats.get_marks();
  t["msgPutTotalTodayNow"] = std::to_string(stats.puts().total());
  t["msgPutTotalTodayMorning"] = std::to_string(put_marks.today_morning);
  t["msgPutTotalYesterdayMorning"] = std::to_string(put_marks.yesterday_morning);
  t["msgGetTotalTodayNow"] = std::to_string(stats.transferred().total());
  t["msgGetTotalTodayMorning"] = std::to_string(get_marks.today_morning);
  t["msgGetTotalYesterdayMorning"] = std::to_string(get_marks.yesterday_morning);

  // StoreStatsService.getRuntimeInfo (Java spells the last key "getTransferedTps").
  const int64_t put_times = std::max<int64_t>(1, stats.puts().total());
  t["putTps"] = triple(stats.puts());
  t["getFoundTps"] = triple(stats.gets_found());
  t["getMissTps"] = triple(stats.gets_missed());
  t["getTransferedTps"] = triple(stats.transferred());
  t["getTotalTps"] = FormatTpsTriple(
      stats.gets_found().Tps(now, 10'000) + stats.gets_missed().Tps(now, 10'000),
      stats.gets_found().Tps(now, 60'000) + stats.gets_missed().Tps(now, 60'000),
      stats.gets_found().Tps(now, 600'000) + stats.gets_missed().Tps(now, 600'000));
  t["putMessageTimesTotal"] = std::to_string(put_times);
  t["putMessageSizeTotal"] = std::to_string(stats.put_bytes().total());
  t["putMessageAverageSize"] =
      fmt::format("{}", static_cast<double>(stats.put_bytes().total()) / put_times);
  t["putMessageEntireTimeMax"] = std::to_string(stats.put_latency_max_ms());
  t["putMessageFailedTimes"] = std::to_string(stats.put_failed());
  std::string distribution;
  const auto buckets = stats.PutLatencyDistribution();
  for (size_t i = 0; i < buckets.size(); ++i) {
    distribution += fmt::format("{}:{} ", kPutLatencyBucketNames[i], buckets[i]);
  }
  t["putMessageDistributeTime"] = std::move(distribution);

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
