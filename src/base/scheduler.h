// Scheduler: the periodic jobs of a process (retention, ConsumeQueue flush, statistics
// sampling, persistence, NameServer registration, client housekeeping, the NameServer's
// liveness scan, ...) on a deadline queue instead of one sleeping thread each, so an idle
// broker runs a handful of threads (issue 13's target, docs/benchmarks.md).
//
// Two lanes, each one thread, started when its first job is scheduled:
// - kQuick: bounded local work (a snapshot, a small file write, an fsync of a ConsumeQueue
//   file). Jobs here delay each other by at most their own run time.
// - kBlocking: jobs that wait on something outside the process or may take seconds
//   (registration does network round trips with timeouts of seconds; retention unlinks
//   1 GiB files and may do so many times in one pass). They get their own thread so an
//   unreachable NameServer or a slow disk never stalls the statistics sampler or the
//   offset flush by seconds; two blocking jobs may delay each other, which they tolerated
//   in RocketMQ too (one scheduled executor ran both there).
//
// A job runs with fixed delay: the next run is `interval()` ms after the previous one
// ended. `interval` is read again after every run, so a reloadable config key keeps its
// meaning. RunNow() cuts the wait short (a topic change asks for a registration now).
// A job that throws or returns an error is logged with its name and stays scheduled.
//
// Thread-safety: every method may be called from any thread, including from a job.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"

namespace apogee {

namespace scheduler_internal {
class Lane;
}  // namespace scheduler_internal

// A scheduled job; destroying the handle cancels it. Move-only.
class ScheduledJob {
 public:
  ScheduledJob() = default;
  ~ScheduledJob() { Cancel(); }
  ScheduledJob(ScheduledJob&& other) noexcept;
  ScheduledJob& operator=(ScheduledJob&& other) noexcept;
  ScheduledJob(const ScheduledJob&) = delete;
  ScheduledJob& operator=(const ScheduledJob&) = delete;

  // Runs the job as soon as its lane is free (after the current run if it is running).
  // Calls that come before that run are merged into it. A no-op once cancelled.
  void RunNow();
  // The job never starts again; when it is running on another thread, waits for that run
  // to end, so what the job uses may be destroyed after this returns. From the job itself
  // it returns at once. Idempotent; a no-op on an empty handle or a stopped scheduler.
  // RunNow() and Cancel() may be called concurrently on one handle; assigning to it may
  // not race with anything.
  void Cancel();
  // True once the handle holds a job (cancelled or not): Start() methods use it to be
  // idempotent.
  explicit operator bool() const { return lane_ != nullptr; }

 private:
  friend class Scheduler;
  ScheduledJob(std::shared_ptr<scheduler_internal::Lane> lane, uint64_t id)
      : lane_(std::move(lane)), id_(id) {}

  std::shared_ptr<scheduler_internal::Lane> lane_;
  uint64_t id_ = 0;
};

class Scheduler {
 public:
  enum class LaneKind { kQuick, kBlocking };

  // Threads are named `name` (quick lane) and `name` + "Slow" (at most 15 characters).
  explicit Scheduler(std::string name = "Scheduler");
  ~Scheduler();  // Stop()
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Runs `job` first `first_delay_ms` from now, then every `interval_ms()` ms after the end
  // of the previous run (values below 1 count as 1). `name` appears in the log.
  ScheduledJob Every(std::string name, LaneKind lane, int64_t first_delay_ms,
                     std::function<int64_t()> interval_ms, std::function<Status()> job);
  // A fixed interval, also the first delay.
  ScheduledJob Every(std::string name, LaneKind lane, int64_t interval_ms,
                     std::function<Status()> job);

  // Cancels every job, waits for the running ones to end and joins the threads.
  // Idempotent; jobs scheduled after it never run.
  void Stop();

 private:
  std::shared_ptr<scheduler_internal::Lane> quick_;
  std::shared_ptr<scheduler_internal::Lane> blocking_;
};

}  // namespace apogee
