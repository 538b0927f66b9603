// PeriodicTask: a ServiceThread that runs one function every interval (ConsumeQueue flush,
// retention), and once more at shutdown when asked to.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/service_thread.h"

namespace apogee::store {

class PeriodicTask : public ServiceThread {
 public:
  PeriodicTask(std::string name, int64_t interval_ms, std::function<void()> task,
               bool run_at_shutdown)
      : ServiceThread(std::move(name)),
        interval_ms_(interval_ms),
        task_(std::move(task)),
        run_at_shutdown_(run_at_shutdown) {}
  ~PeriodicTask() override { Shutdown(); }

 protected:
  void Run() override {
    while (!stopped()) {
      WaitForRunning(interval_ms_);
      if (!stopped()) task_();
    }
    if (run_at_shutdown_) task_();
  }

 private:
  int64_t interval_ms_;
  std::function<void()> task_;
  bool run_at_shutdown_;
};

}  // namespace apogee::store
