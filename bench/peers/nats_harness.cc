// NATS JetStream over the NATS text protocol: a file-store stream with one replica; publishes
// with a reply subject (JetStream answers each with a PubAck); a durable pull consumer with
// AckNone fetched in batches with two fetches outstanding.
#include <cstdlib>
#include <deque>
#include <string>

#include "harness.h"

namespace peers {
namespace {

struct NatsMsg {
  bool headers = false;
  std::string subject;
  std::string sid;
  std::string_view payload;  // valid until the next read
  size_t frame_len = 0;
};

// Parses one message or control line at the front of the buffer. Returns false when the
// buffer does not hold a complete one. PING is answered, +OK / PONG / INFO skipped.
class NatsConn {
 public:
  NatsConn(const Options& o) : sock_(o.host, o.port) {
    std::string info = sock_.ReadLine();
    if (info.rfind("INFO", 0) != 0) Fail("NATS: expected INFO, got " + info);
    sock_.WriteAll(
        "CONNECT {\"verbose\":false,\"pedantic\":false,\"headers\":true,\"no_responders\":true,"
        "\"echo\":false,\"lang\":\"bench\",\"version\":\"1\"}\r\nSUB _API 99\r\nPING\r\n");
    for (;;) {
      std::string line = sock_.ReadLine();
      if (line == "PONG") break;
      if (line.rfind("-ERR", 0) == 0) Fail("NATS: " + line);
    }
  }
  Socket& sock() { return sock_; }

  // Next MSG/HMSG, reading as needed.
  NatsMsg Next() {
    for (;;) {
      NatsMsg m;
      if (TryParse(&m)) return m;
      sock_.ReadSome();
    }
  }
  bool TryParse(NatsMsg* m) {
    for (;;) {
      std::string_view b = sock_.Buffered();
      size_t eol = b.find("\r\n");
      if (eol == std::string_view::npos) return false;
      std::string_view line = b.substr(0, eol);
      if (line == "PING") {
        sock_.Consume(eol + 2);
        sock_.WriteAll("PONG\r\n");
        continue;
      }
      if (line == "PONG" || line == "+OK" || line.rfind("INFO", 0) == 0) {
        sock_.Consume(eol + 2);
        continue;
      }
      if (line.rfind("-ERR", 0) == 0) Fail("NATS: " + std::string(line));
      bool hmsg = line.rfind("HMSG ", 0) == 0;
      if (!hmsg && line.rfind("MSG ", 0) != 0) Fail("NATS: unexpected " + std::string(line));
      // MSG <subject> <sid> [reply] <bytes> | HMSG <subject> <sid> [reply] <hdr> <total>
      std::string_view rest = line.substr(hmsg ? 5 : 4);
      std::string_view parts[6];
      int np = 0;
      while (!rest.empty() && np < 6) {
        size_t sp = rest.find(' ');
        parts[np++] = rest.substr(0, sp);
        if (sp == std::string_view::npos) break;
        rest.remove_prefix(sp + 1);
      }
      size_t total = std::strtoull(std::string(parts[np - 1]).c_str(), nullptr, 10);
      size_t need = eol + 2 + total + 2;
      if (b.size() < need) return false;
      m->headers = hmsg;
      m->subject.assign(parts[0]);
      m->sid.assign(parts[1]);
      m->payload = b.substr(eol + 2, total);
      m->frame_len = need;
      sock_.Consume(need);
      return true;
    }
  }

  // A JetStream API request; fails on an error answer.
  std::string Request(const std::string& subject, const std::string& body) {
    sock_.WriteAll("PUB " + subject + " _API " + std::to_string(body.size()) + "\r\n" + body + "\r\n");
    NatsMsg m = Next();
    std::string answer(m.payload);
    if (m.headers || answer.find("\"error\"") != std::string::npos) {
      Fail("NATS " + subject + ": " + answer);
    }
    return answer;
  }

 private:
  Socket sock_;
};

class NatsPublisher final : public Publisher {
 public:
  NatsPublisher(const Options& o, const std::string& stream) : conn_(o) {
    conn_.sock().WriteAll("SUB _ACK 1\r\n");
    one_ = "PUB " + stream + " _ACK " + std::to_string(o.size) + "\r\n" + Payload(o.size) + "\r\n";
  }
  void Send(int n) override {
    out_.clear();
    for (int i = 0; i < n; ++i) out_ += one_;
    conn_.sock().WriteAll(out_);
  }
  int64_t WaitAcks() override {
    int64_t acks = 0;
    NatsMsg m = conn_.Next();
    for (;;) {
      if (m.headers || m.payload.find("\"error\"") != std::string_view::npos) {
        Fail("NATS publish not acknowledged: " + std::string(m.payload));
      }
      ++acks;
      if (!conn_.TryParse(&m)) return acks;
    }
  }

 private:
  NatsConn conn_;
  std::string one_;
  std::string out_;
};

class NatsConsumer final : public Consumer {
 public:
  NatsConsumer(const Options& o, const std::string& stream) : conn_(o), stream_(stream) {
    conn_.Request("$JS.API.CONSUMER.DURABLE.CREATE." + stream + ".c",
                  "{\"stream_name\":\"" + stream +
                      "\",\"config\":{\"durable_name\":\"c\",\"deliver_policy\":\"all\","
                      "\"ack_policy\":\"none\",\"max_waiting\":512}}");
    conn_.sock().WriteAll("SUB _P.* 2\r\n");
    for (int i = 0; i < 2; ++i) Fetch();
  }
  int64_t Poll() override {
    int64_t got = 0;
    NatsMsg m = conn_.Next();
    for (;;) {
      if (m.headers) {
        // Status (404 no messages, 408 expired) on a fetch's reply subject: it is over.
        for (auto it = open_.begin(); it != open_.end(); ++it) {
          if (it->first == m.subject) {
            open_.erase(it);
            Fetch();
            break;
          }
        }
      } else {
        // Data arrives on the stream's subject; the server fills fetches in order.
        ++got;
        if (!open_.empty() && --open_.front().second == 0) {
          open_.pop_front();
          Fetch();
        }
      }
      if (!conn_.TryParse(&m)) return got;
    }
  }

 private:
  void Fetch() {
    std::string reply = "_P." + std::to_string(next_++);
    std::string body = "{\"batch\":" + std::to_string(kBatch) + ",\"expires\":1000000000}";
    conn_.sock().WriteAll("PUB $JS.API.CONSUMER.MSG.NEXT." + stream_ + ".c " + reply + " " +
                          std::to_string(body.size()) + "\r\n" + body + "\r\n");
    open_.emplace_back(reply, kBatch);
  }
  static constexpr int kBatch = 256;
  NatsConn conn_;
  std::string stream_;
  std::deque<std::pair<std::string, int>> open_;  // fetches in the order sent
  int64_t next_ = 0;
};

void CreateStream(const Options& o, const std::string& stream) {
  NatsConn c(o);
  c.sock().WriteAll("PUB $JS.API.STREAM.DELETE." + stream + " _API 0\r\n\r\n");
  c.Next();  // not found is fine
  c.Request("$JS.API.STREAM.CREATE." + stream,
            "{\"name\":\"" + stream + "\",\"subjects\":[\"" + stream +
                "\"],\"storage\":\"file\",\"num_replicas\":1,\"retention\":\"limits\","
                "\"discard\":\"old\",\"max_msgs\":-1,\"max_bytes\":-1}");
}

}  // namespace
}  // namespace peers

int main(int argc, char** argv) {
  return peers::HarnessMain<peers::NatsPublisher, peers::NatsConsumer>(argc, argv, peers::CreateStream);
}
