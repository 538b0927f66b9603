// ScopedWakeupBatch: while one is open on a thread, ServiceThread::Wakeup() calls made on that
// thread are held back and each woken thread is notified once when the outermost batch ends.
//
// Why: the remoting IO thread answers ASYNC_FLUSH sends inline, and every put wakes the reput
// (and the flush thread when flushCommitLogTimed is false). Woken per message, the reput ran
// for one record and slept again: a futex wake and two context switches per message, ~10 % of
// the broker's CPU on remoting-io and most of the reput's. The IO thread opens a batch around
// the frames of one read, so a read of N sends wakes the reput once (docs/benchmarks.md).
//
// A thread holding a batch must not block waiting for a thread it woke inside it: that thread
// runs only at the end of the batch or at the end of its own wait interval.
#pragma once

namespace apogee {

class ServiceThread;

class ScopedWakeupBatch {
 public:
  ScopedWakeupBatch();
  ~ScopedWakeupBatch();
  ScopedWakeupBatch(const ScopedWakeupBatch&) = delete;
  ScopedWakeupBatch& operator=(const ScopedWakeupBatch&) = delete;

  // Ends the batch now (the destructor then does nothing): runs the end actions, then wakes
  // the held threads. False when an end action failed; an inner batch returns true.
  bool Finish();

  // For ServiceThread::Wakeup: queues `notify(thread)` for the end of the outermost batch
  // open on this thread; false (nothing queued) when none is open.
  static bool Defer(ServiceThread* thread, void (*notify)(ServiceThread*));

  // Queues `action(target)` for the end of the outermost batch open on this thread, before
  // the held threads are woken; once per (target, action) and batch. False (nothing queued)
  // when none is open. The CommitLog writes the records puts of the batch deferred, so one
  // write carries a read's records and the woken reput finds them (store/commit_log.h).
  // An action returning false fails the batch: its owner must not send what it promised.
  static bool DeferAction(void* target, bool (*action)(void* target));

 private:
  bool finished_ = false;
};

}  // namespace apogee
