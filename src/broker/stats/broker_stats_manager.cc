#include "broker/stats/broker_stats_manager.h"

#include <ctime>
#include <utility>

namespace apogee::broker {
namespace {

constexpr int64_t kLongestWindowMs = 600'000;
constexpr int64_t kSampleSpacingMs = 1'000;

void RaiseMax(std::atomic<int64_t>* max, int64_t value) {
  int64_t seen = max->load(std::memory_order_relaxed);
  while (value > seen && !max->compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

// Days since the epoch in local time, for the midnight marks.
int64_t LocalDay(int64_t now_ms) {
  const time_t secs = static_cast<time_t>(now_ms / 1000);
  struct tm local {};
  localtime_r(&secs, &local);
  return (static_cast<int64_t>(secs) + local.tm_gmtoff) / 86'400;
}

}  // namespace

const std::array<const char*, kPutLatencyBuckets> kPutLatencyBucketNames = {
    "[<=0ms]",  "[0~10ms]", "[10~50ms]", "[50~100ms]", "[100~200ms]", "[200~500ms]", "[500ms~1s]",
    "[1~2s]",   "[2~3s]",   "[3~4s]",    "[4~5s]",     "[5~10s]",     "[10s~]"};

size_t PutLatencyBucket(int64_t latency_ms) {
  // StoreStatsService.setPutMessageEntireTimeMax: value <= 0, < 10, < 50, ...
  if (latency_ms <= 0) return 0;
  for (size_t i = 1; i < kPutLatencyUpperMs.size(); ++i) {
    if (latency_ms < kPutLatencyUpperMs[i]) return i;
  }
  return kPutLatencyBuckets - 1;
}

// ---- BrokerCounter ----

BrokerCounter::BrokerCounter(int64_t now_ms) { samples_.emplace_back(now_ms, 0); }

void BrokerCounter::Sample(int64_t now_ms) {
  const int64_t total = this->total();
  std::lock_guard<std::mutex> lock(mu_);
  if (now_ms - samples_.back().first >= kSampleSpacingMs) {
    samples_.emplace_back(now_ms, total);
  }
  // Keep exactly one sample at or before the start of the longest window.
  while (samples_.size() > 2 && samples_[1].first <= now_ms - kLongestWindowMs) {
    samples_.pop_front();
  }
}

double BrokerCounter::Tps(int64_t now_ms, int64_t window_ms) const {
  const int64_t live = total();
  std::lock_guard<std::mutex> lock(mu_);
  std::pair<int64_t, int64_t> base = samples_.front();
  for (const auto& sample : samples_) {
    if (sample.first > now_ms - window_ms) break;
    base = sample;
  }
  const int64_t elapsed = now_ms - base.first;
  if (elapsed <= 0) return 0;
  return static_cast<double>(live - base.second) * 1000.0 / static_cast<double>(elapsed);
}

// ---- BrokerStatsManager ----

BrokerStatsManager::BrokerStatsManager(const Clock* clock)
    : clock_(clock),
      boot_timestamp_(clock->NowMillis()),
      puts_(boot_timestamp_),
      put_bytes_(boot_timestamp_),
      gets_found_(boot_timestamp_),
      gets_missed_(boot_timestamp_),
      transferred_(boot_timestamp_),
      transferred_bytes_(boot_timestamp_),
      last_day_(LocalDay(boot_timestamp_)) {}

BrokerStatsManager::~BrokerStatsManager() { Shutdown(); }

void PutRecorder::Done(const store::PutResult& result) const {
  if (owner_ == nullptr) return;
  if (!store::PutStatusStored(result.status)) {
    owner_->OnPutFailed();
    return;
  }
  owner_->RecordPut(nums_, size_, result.msg_num, result.wrote_bytes,
                    owner_->clock_->NowMillis() - begin_ms_);
}

PutRecorder BrokerStatsManager::BeginPut(std::string_view topic) {
  PutRecorder r;
  r.owner_ = this;
  r.begin_ms_ = clock_->NowMillis();
  r.nums_ = topic_put_nums_.Get(topic, {}, r.begin_ms_);
  r.size_ = topic_put_size_.Get(topic, {}, r.begin_ms_);
  return r;
}

void BrokerStatsManager::OnPut(std::string_view topic, int32_t msgs, int64_t bytes,
                               int64_t latency_ms) {
  const int64_t now = clock_->NowMillis();
  RecordPut(topic_put_nums_.Get(topic, {}, now), topic_put_size_.Get(topic, {}, now), msgs, bytes,
            latency_ms);
}

void BrokerStatsManager::RecordPut(StatsItem* nums, StatsItem* size, int32_t msgs, int64_t bytes,
                                   int64_t latency_ms) {
  nums->Add(msgs, 1);
  size->Add(bytes, 1);
  puts_.Add(msgs);
  put_bytes_.Add(bytes);
  put_latency_[PutLatencyBucket(latency_ms)].fetch_add(1, std::memory_order_relaxed);
  RaiseMax(&put_latency_max_, latency_ms);
  put_latency_hist_.Observe(static_cast<double>(latency_ms));
  // A batch's messages are counted at their average size.
  if (msgs > 0) message_size_.Observe(static_cast<double>(bytes) / msgs, msgs);
}

void BrokerStatsManager::OnGet(std::string_view topic, std::string_view group, bool found,
                               int32_t msgs, int64_t bytes) {
  if (!found) {
    gets_missed_.Add(1);
    return;
  }
  const int64_t now = clock_->NowMillis();
  group_get_nums_.Get(topic, group, now)->Add(msgs, 1);
  group_get_size_.Get(topic, group, now)->Add(bytes, 1);
  gets_found_.Add(1);
  transferred_.Add(msgs);
  transferred_bytes_.Add(bytes);
}

void BrokerStatsManager::OnSendBack(std::string_view topic, std::string_view group) {
  sndbck_put_nums_.Get(topic, group, clock_->NowMillis())->Add(1, 1);
}

void BrokerStatsManager::Tick() {
  const int64_t now = clock_->NowMillis();
  for (BrokerCounter* c :
       {&puts_, &put_bytes_, &gets_found_, &gets_missed_, &transferred_, &transferred_bytes_}) {
    c->Sample(now);
  }
  for (StatsItemSet* set :
       {&topic_put_nums_, &topic_put_size_, &group_get_nums_, &group_get_size_, &sndbck_put_nums_}) {
    set->SampleAll(now);
  }
  const int64_t day = LocalDay(now);
  std::lock_guard<std::mutex> lock(day_mu_);
  if (day != last_day_) {
    // Java's BrokerStats.record at 00:00: yesterday's morning mark takes today's.
    last_day_ = day;
    put_marks_.yesterday_morning = put_marks_.today_morning;
    put_marks_.today_morning = puts_.total();
    get_marks_.yesterday_morning = get_marks_.today_morning;
    get_marks_.today_morning = transferred_.total();
  }
}

void BrokerStatsManager::Start(Scheduler* scheduler) {
  if (sampler_) return;
  sampler_ = scheduler->Every("BrokerStatsSampler", Scheduler::LaneKind::kQuick, kSampleSpacingMs,
                              [this] {
                                Tick();
                                return Status::OK();
                              });
}

void BrokerStatsManager::Shutdown() { sampler_.Cancel(); }

DayMarks BrokerStatsManager::put_marks() const {
  std::lock_guard<std::mutex> lock(day_mu_);
  return put_marks_;
}

DayMarks BrokerStatsManager::get_marks() const {
  std::lock_guard<std::mutex> lock(day_mu_);
  return get_marks_;
}

std::array<int64_t, kPutLatencyBuckets> BrokerStatsManager::PutLatencyDistribution() const {
  std::array<int64_t, kPutLatencyBuckets> out{};
  for (size_t i = 0; i < kPutLatencyBuckets; ++i) {
    out[i] = put_latency_[i].load(std::memory_order_relaxed);
  }
  return out;
}

const StatsItemSet* BrokerStatsManager::Set(std::string_view name) const {
  for (const StatsItemSet* set :
       {&topic_put_nums_, &topic_put_size_, &group_get_nums_, &group_get_size_, &sndbck_put_nums_}) {
    if (set->name() == name) return set;
  }
  return nullptr;
}

double BrokerStatsManager::GroupGetTps(std::string_view topic, std::string_view group) const {
  std::string key;
  key.reserve(topic.size() + 1 + group.size());
  key.append(topic).append("@").append(group);
  const StatsItem* item = group_get_nums_.Find(key);
  return item != nullptr ? item->Tps(clock_->NowMillis(), 60'000) : 0;
}

PutRecorder BeginPut(BrokerStatsManager* stats, std::string_view topic) {
  return stats != nullptr ? stats->BeginPut(topic) : PutRecorder();
}

void RecordGet(BrokerStatsManager* stats, std::string_view topic, std::string_view group,
               bool found, int32_t msgs, int64_t bytes) {
  if (stats != nullptr) stats->OnGet(topic, group, found, msgs, bytes);
}

}  // namespace apogee::broker
