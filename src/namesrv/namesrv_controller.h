// NamesrvController: wires the NameServer together (Java's NamesrvController): the KV
// config and route tables, the request processor on a remoting server, the liveness scan
// and the hook that drops a broker as soon as its connection closes.
//
// Threads: the remoting server's IO threads; two processor pools (route queries from
// clients apart from everything else, as Java's clientRequestExecutor, so a burst of
// broker registrations cannot delay clients; threads start on demand); the liveness scan
// is a job on a Scheduler (its own, or the broker's in mqbroker --with-namesrv).
//
// Lifecycle: construct, Start(), Shutdown() (also from the destructor). The config must
// outlive the controller.
#pragma once

#include <cstdint>
#include <memory>

#include "base/clock.h"
#include "base/scheduler.h"
#include "base/status.h"
#include "namesrv/namesrv_config.h"

namespace apogee::namesrv {

class NamesrvController {
 public:
  // `clock` drives broker expiry (tests may pass a ManualClock); it must outlive this.
  // The liveness scan runs on `scheduler` when given (it must outlive this), else on a
  // scheduler of the controller's own.
  explicit NamesrvController(NamesrvConfig* config, Clock* clock = Clock::Real(),
                             Scheduler* scheduler = nullptr);
  ~NamesrvController();
  NamesrvController(const NamesrvController&) = delete;
  NamesrvController& operator=(const NamesrvController&) = delete;

  // Loads kvConfig.json, binds the port and starts every thread. Errors name the file or
  // the address.
  Status Start();
  // The bound port (listenPort 0 picks a free one); 0 before Start().
  uint16_t port() const;
  // Stops the scan, closes every connection, joins every thread. Idempotent.
  void Shutdown();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apogee::namesrv
