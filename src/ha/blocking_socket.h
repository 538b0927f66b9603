// A blocking TCP socket with poll()-based timeouts, for HA's thread-per-connection design
// (see README.md: a master serves one or two slaves, each with a reader and a writer thread,
// as Java's HAConnection does; blocking calls keep partial-write and back-pressure handling
// trivially correct). Shutdown() from another thread wakes a blocked call.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace apogee::ha {

class BlockingSocket {
 public:
  BlockingSocket() = default;
  explicit BlockingSocket(int fd) : fd_(fd) {}
  ~BlockingSocket();
  BlockingSocket(BlockingSocket&& other) noexcept;
  BlockingSocket& operator=(BlockingSocket&& other) noexcept;
  BlockingSocket(const BlockingSocket&) = delete;
  BlockingSocket& operator=(const BlockingSocket&) = delete;

  // Listens on host:port (port 0 picks a free one; see local_port()).
  static Result<BlockingSocket> Listen(const std::string& host, uint16_t port);
  // Connects to "host:port" within `timeout`.
  static Result<BlockingSocket> Connect(const std::string& address,
                                        std::chrono::milliseconds timeout);

  // Waits up to `timeout` for a connection; Timeout when none came.
  Result<BlockingSocket> Accept(std::chrono::milliseconds timeout);
  // Writes every byte, or fails (peer gone, Shutdown(), nothing accepted within `timeout`).
  Status WriteAll(const void* data, size_t n, std::chrono::milliseconds timeout);
  // Reads at least one byte (returns the count) within `timeout`; Timeout when nothing
  // arrived, Unavailable when the peer closed.
  Result<size_t> ReadSome(void* data, size_t n, std::chrono::milliseconds timeout);

  // Wakes blocked calls on other threads; the fd stays open until destruction.
  void Shutdown();
  bool valid() const { return fd_ >= 0; }
  uint16_t local_port() const;
  std::string peer_address() const;

 private:
  Status WaitFor(short events, std::chrono::milliseconds timeout);
  int fd_ = -1;
};

}  // namespace apogee::ha
