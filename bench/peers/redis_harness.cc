// Redis Streams over RESP2: XADD <stream> * d <body> pipelined; XREAD COUNT/BLOCK from the
// last id read. The AOF policy (everysec / always) is the server's (bench/peers/run.sh).
#include <cstdlib>
#include <string>

#include "harness.h"

namespace peers {
namespace {

// Length of one complete RESP value at the front of `b`, or 0 when incomplete.
size_t RespLength(std::string_view b) {
  if (b.empty()) return 0;
  size_t eol = b.find("\r\n");
  if (eol == std::string_view::npos) return 0;
  char type = b[0];
  long long n = std::strtoll(std::string(b.substr(1, eol - 1)).c_str(), nullptr, 10);
  size_t pos = eol + 2;
  switch (type) {
    case '+':
    case '-':
    case ':':
      return pos;
    case '$':
      if (n < 0) return pos;
      return b.size() >= pos + static_cast<size_t>(n) + 2 ? pos + static_cast<size_t>(n) + 2 : 0;
    case '*':
      for (long long i = 0; i < n; ++i) {
        size_t len = RespLength(b.substr(pos));
        if (len == 0) return 0;
        pos += len;
      }
      return pos;
    default:
      Fail("bad RESP reply: " + std::string(b.substr(0, eol)));
  }
}

std::string Bulk(std::string_view s) {
  return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}

class RedisPublisher final : public Publisher {
 public:
  RedisPublisher(const Options& o, const std::string& stream) : sock_(o.host, o.port) {
    std::string body = Payload(o.size);
    one_ = "*5\r\n" + Bulk("XADD") + Bulk(stream) + Bulk("*") + Bulk("d") + Bulk(body);
  }
  void Send(int n) override {
    out_.clear();
    for (int i = 0; i < n; ++i) out_ += one_;
    sock_.WriteAll(out_);
  }
  int64_t WaitAcks() override {
    for (;;) {
      int64_t acks = 0;
      for (;;) {
        std::string_view b = sock_.Buffered();
        size_t len = RespLength(b);
        if (len == 0) break;
        if (b[0] != '$') Fail("XADD failed: " + std::string(b.substr(0, len)));
        sock_.Consume(len);
        ++acks;
      }
      if (acks > 0) return acks;
      sock_.ReadSome();
    }
  }

 private:
  Socket sock_;
  std::string one_;
  std::string out_;
};

class RedisConsumer final : public Consumer {
 public:
  RedisConsumer(const Options& o, std::string stream) : sock_(o.host, o.port), stream_(std::move(stream)) {}

  int64_t Poll() override {
    std::string cmd = "*8\r\n" + Bulk("XREAD") + Bulk("COUNT") + Bulk("1000") + Bulk("BLOCK") +
                      Bulk("1000") + Bulk("STREAMS") + Bulk(stream_) + Bulk(last_id_);
    sock_.WriteAll(cmd);
    size_t len;
    while ((len = RespLength(sock_.Buffered())) == 0) sock_.ReadSome();
    std::string_view r = sock_.Buffered().substr(0, len);
    int64_t got = 0;
    if (r[0] == '-') Fail("XREAD failed: " + std::string(r));
    if (r.rfind("*-1", 0) != 0 && r.rfind("$-1", 0) != 0) {
      // *1 *2 $key *N [*2 $id *2 $f $v]...
      size_t pos = 0;
      auto line = [&](char expect) {
        size_t eol = r.find("\r\n", pos);
        if (r[pos] != expect) Fail("unexpected XREAD reply");
        long long n = std::strtoll(std::string(r.substr(pos + 1, eol - pos - 1)).c_str(), nullptr, 10);
        pos = eol + 2;
        return n;
      };
      line('*');
      line('*');
      pos += RespLength(r.substr(pos));  // key
      long long n = line('*');
      for (long long i = 0; i < n; ++i) {
        line('*');
        long long id_len = line('$');
        last_id_.assign(r.substr(pos, static_cast<size_t>(id_len)));
        pos += static_cast<size_t>(id_len) + 2;
        pos += RespLength(r.substr(pos));  // fields
      }
      got = n;
    }
    sock_.Consume(len);
    return got;
  }

 private:
  Socket sock_;
  std::string stream_;
  std::string last_id_ = "0-0";
};

void CreateStream(const Options& o, const std::string& stream) {
  Socket s(o.host, o.port);
  s.WriteAll("*2\r\n" + Bulk("DEL") + Bulk(stream));
  s.ReadLine();
}

}  // namespace
}  // namespace peers

int main(int argc, char** argv) {
  return peers::HarnessMain<peers::RedisPublisher, peers::RedisConsumer>(argc, argv, peers::CreateStream);
}
