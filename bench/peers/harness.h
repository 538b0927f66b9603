// The shared shape of every peer harness (bench/peers/README.md): one blocking socket per
// connection, the four modes driven the same way for every system, one JSON line of results.
// A system plugs in a Publisher (requests that are acknowledged one by one) and a Consumer
// (reads from the start of a stream); everything that is timed lives here, so the systems
// differ only in their wire protocol.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace peers {

struct Options {
  std::string system;  // label in the output ("nats", "redis-everysec", ...)
  std::string host = "127.0.0.1";
  int port = 0;
  std::string mode;            // publish | pubsub | sync | catchup
  double duration = 10;        // seconds per timed mode
  int inflight = 256;          // publishes in flight (publish, pubsub, catch-up fill)
  size_t size = 1024;          // message body bytes
  uint64_t backlog_mib = 2048;  // catch-up backlog
  std::string name = "bench";  // stream / topic / queue name prefix
};

// Parses --system --host --port --mode --duration --inflight --size --backlog-mib --name.
// Exits with a usage line on a bad flag.
Options ParseOptions(int argc, char** argv);

[[noreturn]] void Fail(const std::string& what);

inline int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A connected, blocking TCP socket with TCP_NODELAY and a read buffer.
class Socket {
 public:
  Socket(const std::string& host, int port);
  ~Socket();
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  void WriteAll(std::string_view data);
  // Appends what one read() returns (blocks until at least one byte); fails on EOF.
  void ReadSome();
  // Bytes read and not yet consumed.
  std::string_view Buffered() const { return std::string_view(in_).substr(in_pos_); }
  void Consume(size_t n);
  // Reads until a line ending in "\r\n" is buffered; returns it without the ending and consumes it.
  std::string ReadLine();
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::string in_;
  size_t in_pos_ = 0;
};

// Publishes that are acknowledged one by one, on one connection.
class Publisher {
 public:
  virtual ~Publisher() = default;
  // Sends `n` more publishes (in one write where the protocol allows).
  virtual void Send(int n) = 0;
  // Blocks until at least one acknowledgement arrived; returns how many arrived. A
  // negative acknowledgement is a failure of the run (Fail), never counted.
  virtual int64_t WaitAcks() = 0;
};

// Reads messages in order from the start of a stream, on its own connection.
class Consumer {
 public:
  virtual ~Consumer() = default;
  // Blocks for a while (at most ~1 s when nothing arrives); returns messages received.
  virtual int64_t Poll() = 0;
};

// What a system provides: fresh streams named by mode, publishers and consumers on them.
class System {
 public:
  virtual ~System() = default;
  // Creates (or resets) the stream `stream` on the server.
  virtual void CreateStream(const std::string& stream) = 0;
  virtual std::unique_ptr<Publisher> NewPublisher(const std::string& stream) = 0;
  virtual std::unique_ptr<Consumer> NewConsumer(const std::string& stream) = 0;
};

// Runs opts.mode against `system` and prints one JSON line on stdout.
int RunMode(const Options& opts, System* system);

// The System of a harness: `create(options, stream)` makes a fresh stream; P and C are
// constructed from (options, stream).
template <typename P, typename C>
class SystemOf final : public System {
 public:
  using CreateFn = void (*)(const Options&, const std::string&);
  SystemOf(const Options& o, CreateFn create) : o_(o), create_(create) {}
  void CreateStream(const std::string& stream) override { create_(o_, stream); }
  std::unique_ptr<Publisher> NewPublisher(const std::string& stream) override {
    return std::make_unique<P>(o_, stream);
  }
  std::unique_ptr<Consumer> NewConsumer(const std::string& stream) override {
    return std::make_unique<C>(o_, stream);
  }

 private:
  Options o_;
  CreateFn create_;
};

// A harness's main(): parse the flags, run the mode.
template <typename P, typename C>
int HarnessMain(int argc, char** argv, typename SystemOf<P, C>::CreateFn create) {
  Options o = ParseOptions(argc, argv);
  SystemOf<P, C> system(o, create);
  return RunMode(o, &system);
}

// A payload of opts.size printable bytes.
std::string Payload(size_t size);

}  // namespace peers
