// Base for background loops (flush, reput, liveness scan, registration): one thread that
// runs Run() until shutdown, with Wakeup() to cut a wait short. Mirrors the role of
// RocketMQ's ServiceThread, once, in base.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace apogee {

class ServiceThread {
 public:
  explicit ServiceThread(std::string name) : name_(std::move(name)) {}
  virtual ~ServiceThread();
  ServiceThread(const ServiceThread&) = delete;
  ServiceThread& operator=(const ServiceThread&) = delete;

  const std::string& name() const { return name_; }
  void Start();
  // Asks Run() to end, wakes it and joins the thread. Safe to call more than once.
  void Shutdown();
  // Ends a pending WaitForRunning() early (or makes the next one return at once). Cheap
  // when a wake-up is already pending (one atomic exchange, no lock): hot paths call it
  // once per message (a put wakes the reput and flush threads).
  void Wakeup();
  bool stopped() const { return stopped_.load(std::memory_order_acquire); }

 protected:
  // The loop body; return when stopped() is true.
  virtual void Run() = 0;
  // Waits up to `interval_ms` or until Wakeup()/Shutdown(). Calls OnWaitEnd() after.
  void WaitForRunning(int64_t interval_ms);
  virtual void OnWaitEnd() {}

 private:
  void Notify();  // the slow path of Wakeup(): sets notified_ under the lock and signals

  std::string name_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_ = false;  // guarded by mu_
  // True from a Wakeup() until the WaitForRunning() that consumes it: a Wakeup() that finds
  // it set skips the lock, since notified_ is (or is about to be) set already.
  std::atomic<bool> wake_pending_{false};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> started_{false};
};

}  // namespace apogee
