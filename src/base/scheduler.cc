#include "base/scheduler.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "base/logging.h"

namespace apogee {
namespace scheduler_internal {

// One thread over a deadline queue: (deadline, id) pairs in a set, so the earliest is
// first and a cancelled or hurried job is removed by its key.
class Lane {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit Lane(std::string thread_name) : thread_name_(std::move(thread_name)) {}
  ~Lane() {
    Stop();
    // Only when the last handle died inside a job of this lane: the thread cannot join
    // itself, and it returns right after (stopped_ is set).
    if (thread_.joinable()) thread_.detach();
  }

  uint64_t Add(std::string name, int64_t first_delay_ms, std::function<int64_t()> interval,
               std::function<Status()> fn) {
    auto job = std::make_shared<Job>();
    job->name = std::move(name);
    job->interval = std::move(interval);
    job->fn = std::move(fn);
    std::lock_guard lock(mu_);
    const uint64_t id = next_id_++;
    if (stopped_) return id;  // never runs
    job->deadline = Now() + std::chrono::milliseconds(std::max<int64_t>(0, first_delay_ms));
    queue_.emplace(job->deadline, id);
    jobs_.emplace(id, std::move(job));
    if (!thread_.joinable()) {
      thread_ = std::thread([this] { Loop(); });
    }
    cv_.notify_one();
    return id;
  }

  void RunNow(uint64_t id) {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return;
    Job& job = *it->second;
    if (running_ == id) {
      job.run_again = true;
      return;
    }
    if (queue_.erase({job.deadline, id}) == 0) return;
    job.deadline = Now();
    queue_.emplace(job.deadline, id);
    cv_.notify_one();
  }

  void Cancel(uint64_t id) {
    std::unique_lock lock(mu_);
    auto it = jobs_.find(id);
    if (it != jobs_.end()) {
      queue_.erase({it->second->deadline, id});
      jobs_.erase(it);
    }
    if (std::this_thread::get_id() == loop_thread_id_) return;
    done_cv_.wait(lock, [&] { return running_ != id; });
  }

  void Stop() {
    {
      std::lock_guard lock(mu_);
      stopped_ = true;
      jobs_.clear();
      queue_.clear();
    }
    cv_.notify_all();
    // The loop finishes the job it is running, then sees stopped_.
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

 private:
  struct Job {
    std::string name;
    std::function<int64_t()> interval;
    std::function<Status()> fn;
    TimePoint deadline;     // its key in queue_ while queued; guarded by mu_
    bool run_again = false;  // RunNow() during a run; guarded by mu_
  };

  static TimePoint Now() { return std::chrono::steady_clock::now(); }

  void Loop() {
    pthread_setname_np(pthread_self(), thread_name_.substr(0, 15).c_str());
    std::unique_lock lock(mu_);
    loop_thread_id_ = std::this_thread::get_id();
    while (!stopped_) {
      if (queue_.empty()) {
        cv_.wait(lock);
        continue;
      }
      const auto [deadline, id] = *queue_.begin();
      if (deadline > Now()) {
        cv_.wait_until(lock, deadline);
        continue;
      }
      queue_.erase(queue_.begin());
      std::shared_ptr<Job> job = jobs_.at(id);
      running_ = id;
      job->run_again = false;
      lock.unlock();
      RunOnce(*job);
      // Read outside the lock: an interval may read a config that calls back into us.
      const int64_t interval_ms = IntervalOf(*job);
      lock.lock();
      running_ = 0;
      done_cv_.notify_all();
      if (stopped_ || !jobs_.contains(id)) continue;  // cancelled while it ran
      job->deadline = job->run_again ? Now() : Now() + std::chrono::milliseconds(interval_ms);
      queue_.emplace(job->deadline, id);
    }
  }

  static void RunOnce(const Job& job) {
    Status s;
    try {
      s = job.fn();
    } catch (const std::exception& e) {
      s = Status::Internal(std::string("threw ") + e.what());
    } catch (...) {
      s = Status::Internal("threw a non-standard exception");
    }
    if (!s.ok()) GetLogger("scheduler")->warn("{}: {}", job.name, s.ToString());
  }

  static int64_t IntervalOf(const Job& job) {
    try {
      return std::max<int64_t>(1, job.interval());
    } catch (...) {
      return 1000;  // a broken interval must not spin the lane
    }
  }

  const std::string thread_name_;
  std::mutex mu_;
  std::condition_variable cv_;       // the loop waits here for the next deadline
  std::condition_variable done_cv_;  // Cancel waits here for the running job
  std::map<uint64_t, std::shared_ptr<Job>> jobs_;  // guarded by mu_
  std::set<std::pair<TimePoint, uint64_t>> queue_;  // guarded by mu_
  uint64_t next_id_ = 1;                            // guarded by mu_
  uint64_t running_ = 0;                            // guarded by mu_; 0 = none
  bool stopped_ = false;                            // guarded by mu_
  std::thread::id loop_thread_id_;                  // set once under mu_ by the loop
  std::thread thread_;                              // started under mu_ by Add
};

}  // namespace scheduler_internal

using scheduler_internal::Lane;

ScheduledJob::ScheduledJob(ScheduledJob&& other) noexcept
    : lane_(std::move(other.lane_)), id_(other.id_) {
  other.lane_.reset();
}

ScheduledJob& ScheduledJob::operator=(ScheduledJob&& other) noexcept {
  if (this != &other) {
    Cancel();
    lane_ = std::move(other.lane_);
    id_ = other.id_;
    other.lane_.reset();
  }
  return *this;
}

void ScheduledJob::RunNow() {
  if (lane_) lane_->RunNow(id_);
}

void ScheduledJob::Cancel() {
  // lane_ stays: RunNow() and Cancel() may then race on one handle (an unknown id is a
  // no-op for the lane).
  if (lane_) lane_->Cancel(id_);
}

Scheduler::Scheduler(std::string name)
    : quick_(std::make_shared<Lane>(name)), blocking_(std::make_shared<Lane>(name + "Slow")) {}

Scheduler::~Scheduler() { Stop(); }

ScheduledJob Scheduler::Every(std::string name, LaneKind lane, int64_t first_delay_ms,
                              std::function<int64_t()> interval_ms, std::function<Status()> job) {
  const std::shared_ptr<Lane>& target = lane == LaneKind::kQuick ? quick_ : blocking_;
  const uint64_t id =
      target->Add(std::move(name), first_delay_ms, std::move(interval_ms), std::move(job));
  return ScheduledJob(target, id);
}

ScheduledJob Scheduler::Every(std::string name, LaneKind lane, int64_t interval_ms,
                              std::function<Status()> job) {
  return Every(std::move(name), lane, interval_ms, [interval_ms] { return interval_ms; },
               std::move(job));
}

void Scheduler::Stop() {
  quick_->Stop();
  blocking_->Stop();
}

}  // namespace apogee
