// A userspace TCP proxy for failure tests: listens on a free 127.0.0.1 port and forwards
// every accepted connection to a fixed target, so a test can cut a link (e.g. a slave's
// HA connection to its master) while both ends keep running. tc, iptables and network
// namespaces are not needed.
//
// Modes:
//   pass   forward bytes both ways (the default);
//   stall  stop forwarding but keep every connection open: bytes already read stay
//          buffered, nothing more is read, so both peers see a silent, live link (what a
//          black-holed route looks like until a timeout fires);
//   drop   close every connection at once and close each new one right after accepting
//          it (the peer sees a reset/EOF, as if the other side refused it);
//   resume back to pass; stalled connections continue where they stopped, dropped ones
//          are gone and the peers must reconnect.
//
// One thread serves the listener and all connections with poll(2).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace apogee::testing {

class TcpProxy {
 public:
  enum class Mode { kPass, kStall, kDrop };

  TcpProxy(std::string target_host, uint16_t target_port);
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  // Binds a free loopback port and starts the proxy thread. False with `error()` set when
  // the port cannot be bound.
  bool Start();
  void Stop();

  void Pass() { SetMode(Mode::kPass); }
  void Stall() { SetMode(Mode::kStall); }
  void Drop() { SetMode(Mode::kDrop); }
  void Resume() { SetMode(Mode::kPass); }
  Mode mode() const { return mode_.load(); }

  uint16_t port() const { return port_; }
  std::string addr() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::string& error() const { return error_; }

  // Counters for tests: connections accepted (including refused ones in drop mode),
  // currently open pairs, and bytes forwarded in each direction.
  int64_t accepted() const { return accepted_.load(); }
  int64_t open_connections() const { return open_.load(); }
  int64_t bytes_to_target() const { return bytes_to_target_.load(); }
  int64_t bytes_to_client() const { return bytes_to_client_.load(); }

 private:
  struct Pipe;
  void SetMode(Mode mode);
  void Run();
  void Wake();

  std::string target_host_;
  uint16_t target_port_;
  uint16_t port_ = 0;
  int listen_fd_ = -1;
  int wake_fds_[2] = {-1, -1};
  std::string error_;
  std::atomic<Mode> mode_{Mode::kPass};
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> accepted_{0};
  std::atomic<int64_t> open_{0};
  std::atomic<int64_t> bytes_to_target_{0};
  std::atomic<int64_t> bytes_to_client_{0};
  std::thread thread_;
};

}  // namespace apogee::testing
