// HaConnection: the master's side of one slave connection (Java's HAConnection), with a
// reader thread (the slave's 8-byte reports: its CommitLog end, used as its ack) and a
// writer thread (frames of raw CommitLog bytes from where the slave asked to start, at most
// one batch and never across a file end; a heartbeat frame when idle).
//
// A report beyond the master's own CommitLog end, or a resume point the master no longer
// has, stops replication to that slave: the connection reports it through `on_error`,
// tells the slave where the master ends (a heartbeat frame carrying the master's end,
// which an Apogee slave recognises) and closes.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "base/clock.h"
#include "ha/blocking_socket.h"
#include "ha/ha_options.h"
#include "store/replication.h"

namespace apogee::ha {

class HaConnection {
 public:
  struct Callbacks {
    std::function<void(int64_t ack)> on_ack;                    // every report
    std::function<void(const std::string& problem)> on_error;  // replication stopped
  };

  // How the master takes a new connection (tls.server.mode): a TLS context (null: plain
  // only) and whether plain slaves are accepted.
  struct TlsAccept {
    ssl_ctx_st* context = nullptr;
    bool allow_plain = true;
  };

  HaConnection(BlockingSocket socket, store::ReplicationStore* store, const HaOptions& options,
               Callbacks callbacks, const Clock* clock, TlsAccept tls);
  ~HaConnection();
  HaConnection(const HaConnection&) = delete;
  HaConnection& operator=(const HaConnection&) = delete;

  void Start();
  // Closes the socket and joins both threads.
  void Shutdown();
  // Wakes the writer (new data, or a SYNC_MASTER put waiting).
  void NotifyTransfer();

  bool closed() const { return closed_.load(); }
  const std::string& address() const { return address_; }
  int64_t ack_offset() const { return ack_offset_.load(); }
  // -1 until the first frame is chosen.
  int64_t next_transfer_offset() const { return next_transfer_.load(); }

 private:
  void ReadLoop();
  void WriteLoop();
  // Marks the connection dead and wakes both threads.
  void Close(const std::string& why);
  void Diverged(const std::string& problem);
  Status SendFrame(int64_t offset, std::string_view body);

  BlockingSocket socket_;
  store::ReplicationStore* store_;
  HaOptions options_;
  Callbacks callbacks_;
  const Clock* clock_;
  TlsAccept tls_;
  std::string address_;

  std::atomic<bool> closed_{false};
  std::atomic<int64_t> slave_request_offset_{-1};  // first report
  std::atomic<int64_t> ack_offset_{-1};
  std::atomic<int64_t> next_transfer_{-1};
  std::atomic<int64_t> divergent_master_end_{-1};  // >= 0: tell the slave, then close

  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_ = false;  // guarded by mu_

  std::thread reader_;
  std::thread writer_;
};

}  // namespace apogee::ha
