// HaService: the master's replication service (Java's HAService on a master): accepts slave
// connections on haListenPort, runs one HaConnection per slave, tracks the highest offset
// any slave acknowledged, and answers SYNC_MASTER puts through WaitForReplica (install it
// with store::MessageStore::SetReplicaWaiter).
//
// Threads: "HAAcceptSocketService" (accept, reap closed connections), two per connection,
// and GroupTransfer's timer thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "ha/blocking_socket.h"
#include "ha/group_transfer.h"
#include "ha/ha_options.h"
#include "store/put_status.h"
#include "store/replication.h"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace apogee::ha {

class HaConnection;

struct SlaveInfo {
  std::string address;
  int64_t ack_offset = -1;     // last report, -1 before the first
  int64_t next_transfer = -1;  // next byte the master will send
};

class HaService {
 public:
  HaService(store::ReplicationStore* store, const HaOptions& options,
            const Clock* clock = Clock::Real());
  ~HaService();
  HaService(const HaService&) = delete;
  HaService& operator=(const HaService&) = delete;

  // Binds haListenPort; errors name the address.
  Status Start();
  // Closes every connection; pending waits complete with FLUSH_SLAVE_TIMEOUT. Idempotent.
  void Shutdown();
  uint16_t port() const;

  // SYNC_MASTER: SLAVE_NOT_AVAILABLE at once when no slave is connected or the best one
  // lags `next_offset` by haSlaveFallbehindMax or more (isSlaveOK); otherwise PUT_OK once a
  // slave acked next_offset, FLUSH_SLAVE_TIMEOUT after slaveTimeout.
  void WaitForReplica(int64_t next_offset, std::function<void(store::PutStatus)> done);
  bool IsSlaveOk(int64_t master_put_where) const;
  // Wakes every connection's writer (new data to ship).
  void NotifyTransfer();

  int64_t push_to_slave_max_offset() const { return transfer_.acked_offset(); }
  size_t connection_count() const;
  // Connections closed at accept because haMaxConnections were open.
  uint64_t refused_connections() const { return refused_.load(); }
  std::vector<SlaveInfo> Slaves() const;
  // The problems that stopped replication to some slave (divergence, lost resume point),
  // newest last; empty when none.
  std::vector<std::string> Problems() const;

 private:
  class AcceptService;
  void Accepted(BlockingSocket socket);
  void ReapClosed();

  store::ReplicationStore* store_;
  HaOptions options_;
  const Clock* clock_;
  GroupTransfer transfer_;
  BlockingSocket listener_;
  // tls.server.mode other than disabled: the master's TLS context (built by Start()).
  std::shared_ptr<boost::asio::ssl::context> tls_context_;
  bool allow_plain_ = true;
  std::unique_ptr<AcceptService> acceptor_;
  std::atomic<bool> closing_{false};
  std::atomic<uint64_t> refused_{0};

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<HaConnection>> connections_;  // guarded by mu_
  std::vector<std::string> problems_;                       // guarded by mu_
  bool shut_down_ = false;                                  // guarded by mu_
};

}  // namespace apogee::ha
