// ClientHousekeeping: keeps the producer and consumer tables in step with the client
// connections (Java's ClientHousekeepingService). A closed (or idle-closed) channel is
// removed from every group at once; a scan every 10 s drops members whose last
// heartbeat is older than 120 s and closes their channels. Consumer groups that lose a
// member are notified through ConsumerManager's listener.
//
// Register it as a ChannelEventListener on every server that accepts clients; one
// instance may serve several servers. Start/Shutdown control the scan, a job on the
// broker's Scheduler (quick lane).
//
// Thread-safety: listener callbacks come from IO threads and only touch the
// (thread-safe) managers; Start/Shutdown from the owning thread.
#pragma once

#include <cstdint>
#include <memory>

#include "base/scheduler.h"
#include "remoting/channel.h"

namespace apogee::broker {

class ConsumerManager;
class ProducerManager;

class ClientHousekeeping : public remoting::ChannelEventListener {
 public:
  // The managers must outlive this object.
  ClientHousekeeping(ConsumerManager* consumer_manager, ProducerManager* producer_manager,
                     int64_t scan_interval_millis = 10'000);
  ~ClientHousekeeping() override;

  // Scans every scan interval on `scheduler` (which must outlive Shutdown()).
  void Start(Scheduler* scheduler);
  // Cancels the scan, waiting for one that is running. Idempotent.
  void Shutdown();
  // One scan now (the job runs this every interval). Returns members dropped.
  size_t ScanOnce();

  void OnChannelClosed(const remoting::ChannelPtr& channel) override;
  void OnChannelIdle(const remoting::ChannelPtr& channel) override;

 private:
  ConsumerManager* consumer_manager_;
  ProducerManager* producer_manager_;
  const int64_t scan_interval_millis_;
  ScheduledJob scan_;
};

}  // namespace apogee::broker
