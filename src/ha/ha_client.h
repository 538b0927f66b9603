// HaClient: the slave's replication client (Java's HAService.HAClient). Connects to the
// master's HA address, reports its CommitLog end, appends every frame at the same offset
// through ReplicationStore::AppendRaw (the store's reput then builds ConsumeQueues and
// index entries as on a master), and reconnects with backoff, resuming from its own end.
//
// Resume check (Apogee): a slave that already holds data first asks for the last bytes it
// has (ha_format.h ResumeCheckStart) and compares them with what the master sends. A
// mismatch, or a master whose CommitLog ends before the slave's, is divergence: logged as
// an error, kept in problem(), and replication stops until the process restarts. Nothing
// is ever merged over different bytes.
//
// Thread: "HAClient" (connect, read, append, report).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "base/clock.h"
#include "base/service_thread.h"
#include "base/status.h"
#include "ha/blocking_socket.h"
#include "ha/ha_options.h"
#include "store/replication.h"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace apogee::ha {

class HaClient : public ServiceThread {
 public:
  HaClient(store::ReplicationStore* store, const HaOptions& options,
           const Clock* clock = Clock::Real());
  ~HaClient() override;

  // "host:port" of the master's HA service; a change drops the current connection.
  void UpdateMasterAddress(const std::string& address);
  std::string master_address() const;
  bool connected() const { return connected_.load(); }
  // Non-empty once replication stopped because the slave's data differs from the master's.
  std::string problem() const;
  // Closes the connection and joins the thread.
  void Stop();

 protected:
  void Run() override;

 private:
  // One connection's life; returns why it ended.
  Status Session(const std::string& address);
  Status Report(BlockingSocket& socket, int64_t offset);
  void SetProblem(const std::string& problem);

  store::ReplicationStore* store_;
  HaOptions options_;
  const Clock* clock_;
  std::atomic<bool> connected_{false};
  std::atomic<bool> diverged_{false};
  mutable std::mutex mu_;
  std::string master_address_;  // guarded by mu_
  std::string problem_;         // guarded by mu_
  BlockingSocket* socket_ = nullptr;  // the live connection; guarded by mu_
  // tls.enable: the context the link uses, or why it could not be built.
  std::shared_ptr<boost::asio::ssl::context> tls_context_;
  Status tls_error_;
};

}  // namespace apogee::ha
