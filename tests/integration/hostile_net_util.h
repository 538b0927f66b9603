// Shared by the hostile_net_* tests (issue 12, items 3, 4 and 7): raw sockets that
// misbehave on purpose, RSS of a server process from /proc/<pid>/status, and a broker
// fixture that keeps track of what it acknowledged so every test can check, after the
// flood and after a restart, that the broker still serves and lost nothing.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "broker_process.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_client.h"

namespace apogee::testing::hostile {

using namespace std::chrono_literals;
namespace resp = protocol::response_code;
namespace req = protocol::request_code;

// VmRSS of a process in KiB (0 when it cannot be read).
inline uint64_t RssKb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  }
  return 0;
}

// A plain TCP socket to 127.0.0.1:port, for bytes no well-behaved client would send.
// Writes never block for long: a server that stops reading makes them return false.
class RawConn {
 public:
  explicit RawConn(uint16_t port, int rcvbuf = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    // Set before connect so the window is small from the start.
    if (rcvbuf > 0) ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
  }
  ~RawConn() { Close(); }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool connected() const { return connected_; }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Writes as much of `bytes` as the peer takes within `timeout`; returns the bytes
  // written (a server that stopped reading makes this short).
  size_t Write(std::string_view bytes, std::chrono::milliseconds timeout = 2s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    size_t done = 0;
    while (done < bytes.size() && fd_ >= 0) {
      ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n > 0) {
        done += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) break;
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= 0s) break;
      pollfd p{fd_, POLLOUT, 0};
      ::poll(&p, 1, static_cast<int>(std::min<int64_t>(
                        50, std::chrono::duration_cast<std::chrono::milliseconds>(left).count())));
    }
    return done;
  }
  // True when the peer closed (EOF or reset) within `timeout`; data is read and dropped.
  bool ClosedByPeer(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[65536];
    while (std::chrono::steady_clock::now() < deadline) {
      ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n == 0) return true;
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return errno == ECONNRESET;
      if (n < 0) {
        pollfd p{fd_, POLLIN, 0};
        ::poll(&p, 1, 50);
      }
    }
    return false;
  }
  // True when bytes (or EOF) can be read within `timeout`.
  bool Readable(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(timeout.count())) > 0;
  }
  // Reads one whole frame (prefix stripped) within `timeout`; empty on EOF or timeout.
  std::string ReadFrame(std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto read_exact = [&](std::string* out, size_t n) {
      out->clear();
      while (out->size() < n) {
        char buf[65536];
        ssize_t got = ::recv(fd_, buf, std::min(sizeof(buf), n - out->size()), 0);
        if (got > 0) {
          out->append(buf, static_cast<size_t>(got));
          continue;
        }
        if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) return false;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        pollfd p{fd_, POLLIN, 0};
        ::poll(&p, 1, 50);
      }
      return true;
    };
    std::string prefix, frame;
    if (!read_exact(&prefix, 4)) return {};
    const uint32_t length = (uint32_t{static_cast<uint8_t>(prefix[0])} << 24) |
                            (uint32_t{static_cast<uint8_t>(prefix[1])} << 16) |
                            (uint32_t{static_cast<uint8_t>(prefix[2])} << 8) |
                            uint32_t{static_cast<uint8_t>(prefix[3])};
    if (!read_exact(&frame, length)) return {};
    return frame;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// Reads responses from any of `conns` until `expected` arrived or `timeout` passed, then
// waits `quiet` for more (so a caller can check there were no more than expected).
inline std::vector<protocol::RemotingCommand> ReadResponses(
    const std::vector<std::unique_ptr<RawConn>>& conns, size_t expected,
    std::chrono::milliseconds timeout, std::chrono::milliseconds quiet = 300ms) {
  std::vector<protocol::RemotingCommand> out;
  auto read_ready = [&] {
    bool any = false;
    for (const auto& conn : conns) {
      while (conn->Readable(0ms)) {
        std::string frame = conn->ReadFrame(5s);  // a frame that started arrives whole
        if (frame.empty()) break;                 // EOF
        auto response = protocol::DecodeCommand(frame);
        EXPECT_TRUE(response.ok()) << response.status().ToString();
        if (response.ok()) out.push_back(std::move(*response));
        any = true;
      }
    }
    return any;
  };
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (out.size() < expected && std::chrono::steady_clock::now() < deadline) {
    if (!read_ready()) std::this_thread::sleep_for(10ms);
  }
  const auto quiet_end = std::chrono::steady_clock::now() + quiet;
  while (std::chrono::steady_clock::now() < quiet_end) {
    if (!read_ready()) std::this_thread::sleep_for(10ms);
  }
  return out;
}

inline std::string Encode(const protocol::RemotingCommand& command) {
  std::string out;
  protocol::EncodeCommand(command, &out);
  return out;
}

// The first bytes of a JSON-header frame announcing `body` body bytes.
inline std::string BigFrameHead(uint32_t body) {
  std::string head = "{\"code\":10}";
  std::string out(8, '\0');
  const uint32_t length = 4 + static_cast<uint32_t>(head.size()) + body;
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(length >> (24 - 8 * i));
  out[7] = static_cast<char>(head.size());
  return out + head;
}

inline protocol::RemotingCommand SendRequest(const std::string& topic, int32_t queue_id,
                                             std::string body, std::string properties = "") {
  protocol::SendMessageRequestHeaderV2 h;
  h.producer_group = "hostile_producer";
  h.topic = topic;
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.born_timestamp = 1700000000000;
  h.properties = std::move(properties);
  auto request = protocol::RemotingCommand::MakeRequest(req::kSendMessageV2);
  protocol::EncodeCustomHeader(h, &request);
  request.body = std::move(body);
  return request;
}

inline protocol::RemotingCommand PullRequest(const std::string& topic, int32_t queue_id,
                                             int64_t offset, int64_t suspend_ms = 0,
                                             int32_t max_msgs = 32) {
  protocol::PullMessageRequestHeader h;
  h.consumer_group = "hostile_consumer";
  h.topic = topic;
  h.queue_id = queue_id;
  h.queue_offset = offset;
  h.max_msg_nums = max_msgs;
  h.sys_flag = 0x4 | (suspend_ms > 0 ? 0x2 : 0);  // subscription (+ suspend)
  h.suspend_timeout_millis = suspend_ms;
  h.subscription = "*";
  h.sub_version = 1;
  auto request = protocol::RemotingCommand::MakeRequest(req::kPullMessage);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

// A broker process plus a well-behaved client that records every acknowledged send.
class HostileBrokerTest : public ::testing::Test {
 protected:
  // Topic of the well-behaved client; one queue so offsets are easy to check.
  static constexpr const char* kTopic = "HostileAcked";

  void StartBroker(Props extra = {}) {
    extra.emplace("serverChannelMaxIdleTimeSeconds", "120");
    broker_ = std::make_unique<BrokerProcess>(std::move(extra));
    ASSERT_TRUE(broker_->Start(""));
    client_->Start();
    // Warm up (creates the topic) and settle before the baseline is taken.
    ExpectServes(10s);
    std::this_thread::sleep_for(300ms);
    baseline_kb_ = Rss();
  }

  void TearDown() override { client_->Shutdown(); }

  uint64_t Rss() { return RssKb(broker_->process().pid()); }
  // Growth over the baseline, in MiB.
  double GrowthMb() { return (static_cast<double>(Rss()) - static_cast<double>(baseline_kb_)) / 1024; }

  // The unrelated client sends one message and reads it back within `within`.
  void ExpectServes(std::chrono::milliseconds within = 5s) {
    const auto start = std::chrono::steady_clock::now();
    std::string body = "acked-" + std::to_string(acked_.size());
    auto sent = client_->InvokeSync(broker_->addr(), SendRequest(kTopic, 0, body), within);
    ASSERT_TRUE(sent.ok()) << sent.status().ToString();
    ASSERT_EQ(sent->code, resp::kSuccess) << sent->remark.value_or("");
    acked_.push_back(body);
    auto pulled = PullBodies(static_cast<int64_t>(acked_.size()) - 1, within);
    ASSERT_FALSE(pulled.empty()) << "the acknowledged message is not readable";
    EXPECT_EQ(pulled.front(), body);
    EXPECT_LT(std::chrono::steady_clock::now() - start, within);
  }

  // The bodies from `offset` on; retried until `timeout` (the store dispatches a sent
  // message to its queue shortly after acknowledging it).
  std::vector<std::string> PullBodies(int64_t offset, std::chrono::milliseconds timeout = 5s,
                                      const std::string& topic = kTopic) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    do {
      auto r = client_->InvokeSync(broker_->addr(), PullRequest(topic, 0, offset), timeout);
      if (r.ok() && r->code == resp::kSuccess) {
        auto msgs = message::DecodeMessages(r->body);
        std::vector<std::string> out;
        if (msgs.ok()) {
          for (const auto& m : *msgs) out.push_back(m.body);
        }
        return out;
      }
      std::this_thread::sleep_for(20ms);
    } while (std::chrono::steady_clock::now() < deadline);
    return {};
  }

  // Every acknowledged message is there, in order.
  void ExpectNothingLost() {
    std::vector<std::string> all;
    while (all.size() < acked_.size()) {
      auto more = PullBodies(static_cast<int64_t>(all.size()));
      if (more.empty()) break;
      all.insert(all.end(), more.begin(), more.end());
    }
    EXPECT_EQ(all, acked_);
  }

  // SIGTERM stops it promptly; it starts again, serves and still has every acked message.
  void ExpectPromptStopAndCleanRestart() {
    const auto start = std::chrono::steady_clock::now();
    broker_->Stop(20s);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "SIGTERM took too long";
    client_->Shutdown();
    client_ = std::make_unique<remoting::RemotingClient>();
    ASSERT_TRUE(broker_->Start(""));
    client_->Start();
    ExpectNothingLost();
    ExpectServes(10s);
  }

  // Prints a measured figure (and records it in the test's XML output), so thresholds
  // can be checked against what the run saw.
  static void Report(const std::string& what, double value) {
    std::printf("[ measured ] %s: %.1f\n", what.c_str(), value);
    ::testing::Test::RecordProperty(what, std::to_string(value));
  }

  std::unique_ptr<BrokerProcess> broker_;
  std::unique_ptr<remoting::RemotingClient> client_ = std::make_unique<remoting::RemotingClient>();
  std::vector<std::string> acked_;
  uint64_t baseline_kb_ = 0;
};

}  // namespace apogee::testing::hostile
