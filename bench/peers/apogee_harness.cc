// Apogee over RocketMQ remoting with its own minimal framing (JSON headers, as the Java, C++
// and Node clients send them): SEND_MESSAGE_V2 pipelined round-robin over the topic's queues,
// each message with the UNIQ_KEY and WAIT properties a real producer sets; PULL_MESSAGE with
// one long-polled pull per queue outstanding. Frame layout: docs/protocol/ (remoting fact
// sheet), §2.
#include <arpa/inet.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace peers {
namespace {

constexpr int kQueues = 8;
constexpr int kSendMessageV2 = 310;
constexpr int kPullMessage = 11;
constexpr int kUpdateAndCreateTopic = 17;
constexpr int kPullNotFound = 19;
constexpr int kPullRetryImmediately = 20;
constexpr int kPullOffsetMoved = 21;

void AppendFrame(std::string* out, std::string_view header, std::string_view body) {
  uint32_t len = htonl(static_cast<uint32_t>(4 + header.size() + body.size()));
  uint32_t hlen = htonl(static_cast<uint32_t>(header.size()));  // serialize type 0 (JSON)
  out->append(reinterpret_cast<const char*>(&len), 4);
  out->append(reinterpret_cast<const char*>(&hlen), 4);
  out->append(header);
  out->append(body);
}

std::string Header(int code, int opaque, const std::string& ext) {
  return "{\"code\":" + std::to_string(code) + ",\"extFields\":{" + ext +
         "},\"flag\":0,\"language\":\"CPP\",\"opaque\":" + std::to_string(opaque) +
         ",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":401}";
}

// A JSON scalar after "key": in a header we made no promises about (number or string).
std::string_view Field(std::string_view header, std::string_view key) {
  std::string pat = "\"" + std::string(key) + "\":";
  size_t p = header.find(pat);
  if (p == std::string_view::npos) return {};
  p += pat.size();
  if (p < header.size() && header[p] == '"') {
    size_t e = header.find('"', p + 1);
    return header.substr(p + 1, e - p - 1);
  }
  size_t e = header.find_first_of(",}", p);
  return header.substr(p, e - p);
}

long long Num(std::string_view s) { return std::strtoll(std::string(s).c_str(), nullptr, 10); }

struct Frame {
  std::string_view header;
  std::string_view body;
  int code = 0;
  int opaque = 0;
};

class RemotingConn {
 public:
  explicit RemotingConn(const Options& o) : sock_(o.host, o.port) {}
  Socket& sock() { return sock_; }
  bool TryNext(Frame* f) {
    std::string_view b = sock_.Buffered();
    if (b.size() < 8) return false;
    uint32_t len, hlen;
    std::memcpy(&len, b.data(), 4);
    std::memcpy(&hlen, b.data() + 4, 4);
    len = ntohl(len);
    hlen = ntohl(hlen) & 0xFFFFFF;
    if (b.size() < 4 + static_cast<size_t>(len)) return false;
    f->header = b.substr(8, hlen);
    f->body = b.substr(8 + hlen, len - 4 - hlen);
    f->code = static_cast<int>(Num(Field(f->header, "code")));
    f->opaque = static_cast<int>(Num(Field(f->header, "opaque")));
    sock_.Consume(4 + len);
    return true;
  }
  Frame Next() {
    Frame f;
    while (!TryNext(&f)) sock_.ReadSome();
    return f;
  }
  Frame Call(int code, const std::string& ext) {
    std::string out;
    AppendFrame(&out, Header(code, 1, ext), {});
    sock_.WriteAll(out);
    return Next();
  }

 private:
  Socket sock_;
};

class ApogeePublisher final : public Publisher {
 public:
  ApogeePublisher(const Options& o, const std::string& topic) : conn_(o), topic_(topic), body_(Payload(o.size)) {
    out_.reserve(300 * 1024);
  }
  void Send(int n) override {
    out_.clear();
    char ext[512];
    for (int i = 0; i < n; ++i) {
      ++seq_;
      // Properties as Java's producer writes them: UNIQ_KEY (32 hex digits) and WAIT.
      int len = std::snprintf(
          ext, sizeof(ext),
          "\"a\":\"bench_pg\",\"b\":\"%s\",\"c\":\"TBW102\",\"d\":\"%d\",\"e\":\"%d\",\"f\":\"0\","
          "\"g\":\"%lld\",\"h\":\"0\",\"i\":\"UNIQ_KEY\\u0001%016llX%016llX\\u0002WAIT\\u0001true\\u0002\","
          "\"j\":\"0\",\"k\":\"false\",\"l\":\"16\",\"m\":\"false\"",
          topic_.c_str(), kQueues, static_cast<int>(seq_ % kQueues), static_cast<long long>(NowNanos() / 1000000),
          0x7F0000010000ULL + static_cast<unsigned long long>(getpid()), static_cast<unsigned long long>(seq_));
      AppendFrame(&out_, Header(kSendMessageV2, static_cast<int>(seq_ & 0x7FFFFFFF), std::string(ext, len)),
                  body_);
    }
    conn_.sock().WriteAll(out_);
  }
  int64_t WaitAcks() override {
    int64_t acks = 0;
    Frame f = conn_.Next();
    for (;;) {
      if (f.code != 0) Fail("send answered code " + std::to_string(f.code) + ": " + std::string(f.header));
      ++acks;
      if (!conn_.TryNext(&f)) return acks;
    }
  }

 private:
  RemotingConn conn_;
  std::string topic_;
  std::string body_;
  std::string out_;
  int64_t seq_ = 0;
};

class ApogeeConsumer final : public Consumer {
 public:
  ApogeeConsumer(const Options& o, const std::string& topic) : conn_(o), topic_(topic) {
    for (int q = 0; q < kQueues; ++q) Pull(q);
  }
  int64_t Poll() override {
    int64_t got = 0;
    Frame f = conn_.Next();
    for (;;) {
      int q = f.opaque - 1000;
      if (q < 0 || q >= kQueues) Fail("pull answer with unknown opaque " + std::to_string(f.opaque));
      std::string_view next = Field(f.header, "nextBeginOffset");
      if (f.code == 0) {
        // The body is the stored records back to back, each led by its 4-byte size.
        std::string_view b = f.body;
        while (b.size() >= 4) {
          uint32_t size;
          std::memcpy(&size, b.data(), 4);
          size = ntohl(size);
          if (size < 4 || size > b.size()) Fail("bad record in pull body");
          b.remove_prefix(size);
          ++got;
        }
        offsets_[q] = Num(next);
      } else if (f.code == kPullOffsetMoved && !next.empty()) {
        offsets_[q] = Num(next);
      } else if (f.code != kPullNotFound && f.code != kPullRetryImmediately) {
        Fail("pull answered code " + std::to_string(f.code) + ": " + std::string(f.header));
      }
      Pull(q);
      if (!conn_.TryNext(&f)) return got;
    }
  }

 private:
  void Pull(int q) {
    std::string ext = "\"consumerGroup\":\"bench_cg\",\"topic\":\"" + topic_ + "\",\"queueId\":\"" +
                      std::to_string(q) + "\",\"queueOffset\":\"" + std::to_string(offsets_[q]) +
                      "\",\"maxMsgNums\":\"32\",\"sysFlag\":\"6\",\"commitOffset\":\"0\","
                      "\"suspendTimeoutMillis\":\"1000\",\"subscription\":\"*\",\"subVersion\":\"0\","
                      "\"expressionType\":\"TAG\"";
    std::string out;
    AppendFrame(&out, Header(kPullMessage, 1000 + q, ext), {});
    conn_.sock().WriteAll(out);
  }
  RemotingConn conn_;
  std::string topic_;
  long long offsets_[kQueues] = {};
};

void CreateStream(const Options& o, const std::string& topic) {
  RemotingConn c(o);
  Frame f = c.Call(kUpdateAndCreateTopic,
                   "\"topic\":\"" + topic + "\",\"defaultTopic\":\"TBW102\",\"readQueueNums\":\"" +
                       std::to_string(kQueues) + "\",\"writeQueueNums\":\"" + std::to_string(kQueues) +
                       "\",\"perm\":\"6\",\"topicFilterType\":\"SINGLE_TAG\",\"topicSysFlag\":\"0\","
                       "\"order\":\"false\"");
  if (f.code != 0) Fail("create topic answered " + std::string(f.header));
}

}  // namespace
}  // namespace peers

int main(int argc, char** argv) {
  return peers::HarnessMain<peers::ApogeePublisher, peers::ApogeeConsumer>(argc, argv, peers::CreateStream);
}
