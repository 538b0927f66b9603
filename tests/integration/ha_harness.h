// Shared pieces of the HA failure tests (ha_*_test.cc) and scripts/ha-chaos.sh /
// scripts/ha-bench.sh:
//   HaClient      the raw remoting calls a Java client makes (create topic, SEND_MESSAGE_V2,
//                 PULL_MESSAGE, GET_MAX_OFFSET, GET_BROKER_RUNTIME_INFO) against one address;
//   HaBrokerSet   a master and a slave of one brokerName registered with one NameServer,
//                 the slave reaching the master's HA port through a TcpProxy so the link
//                 can be stalled or dropped while the master keeps serving clients;
//   LoadGenerator one sender thread per queue sending numbered messages (synchronous
//                 SEND_MESSAGE_V2), recording every SEND_OK with its queue offset;
//   VerifyReplica reads every queue back from a broker (the slave) and counts acked
//                 messages that are lost, duplicated or out of order.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "broker_process.h"
#include "namesrv_process.h"
#include "protocol/remoting_command.h"
#include "remoting/remoting_client.h"
#include "testutil/tcp_proxy.h"

namespace apogee::testing {

inline constexpr char kHaTopic[] = "HaTopic";
inline constexpr char kHaGroup[] = "HaVerifyGroup";

// A SEND_MESSAGE_V2 outcome: the response code (-1 when the call itself failed, e.g. the
// broker is gone) and, for the "sent" codes (0, 10, 11, 12), where the broker put it.
struct SendOutcome {
  int32_t code = -1;
  int32_t queue_id = -1;
  int64_t queue_offset = -1;
  std::string error;  // remark or transport error
};

// One message as read back: queue offset, body, and its raw record bytes.
struct StoredMessage {
  int64_t queue_offset = 0;
  std::string body;
};

class HaClient {
 public:
  explicit HaClient(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  ~HaClient();

  // UPDATE_AND_CREATE_TOPIC; the response code or -1.
  int32_t CreateTopic(const std::string& addr, const std::string& topic, int32_t queues);
  SendOutcome Send(const std::string& addr, const std::string& topic, int32_t queue_id,
                   const std::string& body);
  // Every message of a queue from offset 0, by repeated PULL_MESSAGE; with `raw` set, the
  // concatenated response bodies (the CommitLog records as stored) go there too.
  Result<std::vector<StoredMessage>> PullAll(const std::string& addr, const std::string& topic,
                                             int32_t queue_id, std::string* raw = nullptr);
  Result<int64_t> MaxQueueOffset(const std::string& addr, const std::string& topic,
                                 int32_t queue_id);
  // False while a pull of `topic` answers TOPIC_NOT_EXIST (or the call fails).
  bool TopicKnown(const std::string& addr, const std::string& topic);
  // commitLogMaxOffset from GET_BROKER_RUNTIME_INFO.
  Result<int64_t> CommitLogMaxOffset(const std::string& addr);
  bool WaitForMaxQueueOffset(const std::string& addr, const std::string& topic, int32_t queue_id,
                             int64_t at_least, std::chrono::milliseconds timeout);

  Result<protocol::RemotingCommand> Call(const std::string& addr,
                                         protocol::RemotingCommand request);

 private:
  std::chrono::milliseconds timeout_;
  remoting::RemotingClient client_;
};

struct HaBrokerSetOptions {
  std::string broker_name = "broker-a";
  std::string master_role = "SYNC_MASTER";  // or ASYNC_MASTER
  std::string flush_disk_type = "SYNC_FLUSH";
  Props master_extra;  // later keys win over the defaults
  Props slave_extra;
};

// A master (brokerId 0) and a slave (brokerId 1, brokerRole SLAVE) of one broker set. The
// slave's haMasterAddress is the proxy, which forwards to the master's haListenPort.
class HaBrokerSet {
 public:
  HaBrokerSet(std::string namesrv_addr, HaBrokerSetOptions options = {});

  bool StartMaster();
  // Starts the proxy (first call) and the slave.
  bool StartSlave();
  bool Start() { return StartMaster() && StartSlave(); }

  // Creates `topic` on the master and, when the slave runs, waits until the slave has
  // copied it (metadata sync; HaBrokerSet sets slaveSynchronizeInterval=500).
  bool CreateTopic(const std::string& topic, int32_t queues);
  bool WaitForTopicOnSlave(const std::string& topic, std::chrono::milliseconds timeout);

  // True once the slave's CommitLog max offset has reached the master's.
  bool WaitForSlaveCaughtUp(std::chrono::milliseconds timeout);

  BrokerProcess& master() { return master_; }
  BrokerProcess& slave() { return slave_; }
  TcpProxy& proxy() { return *proxy_; }
  const std::string& namesrv_addr() const { return namesrv_addr_; }

 private:
  std::string namesrv_addr_;
  HaBrokerSetOptions options_;
  BrokerProcess master_;
  BrokerProcess slave_;
  std::unique_ptr<TcpProxy> proxy_;
};

struct AckedMessage {
  int32_t queue_id = 0;
  int64_t seq = 0;
  int64_t queue_offset = 0;
  int64_t acked_at_ms = 0;  // steady clock, milliseconds (SteadyMillis())
};

// Milliseconds of a monotonic clock, for ack times and loss windows.
int64_t SteadyMillis();

struct LoadOptions {
  std::string topic = kHaTopic;
  int32_t queues = 4;  // one sender thread per queue, so per-queue order is the send order
  size_t body_size = 100;
  int64_t max_per_queue = 1'000'000;
  std::chrono::microseconds pause{0};  // between sends of one thread
};

// Numbered sends: body = "q<queue>-s<seq>-" padded to body_size with '.'.
class LoadGenerator {
 public:
  LoadGenerator(std::string addr, LoadOptions options);
  ~LoadGenerator();

  void Start();
  // Stops and joins the senders (the last in-flight sends finish or fail first).
  void Stop();
  // Waits for the senders to finish max_per_queue sends each.
  void Join();

  int64_t acked() const { return acked_count_.load(); }
  int64_t attempted() const { return attempted_.load(); }
  // Count per response code (-1 = call failed), SEND_OK included.
  std::map<int32_t, int64_t> CodeCounts() const;
  // Every SEND_OK (code 0), in completion order.
  std::vector<AckedMessage> Acked() const;
  // Send latencies of SEND_OK answers, microseconds, unsorted.
  std::vector<int64_t> LatenciesMicros() const;

  static std::string Body(int32_t queue_id, int64_t seq, size_t size);
  // Parses a Body(); nullopt for anything else.
  static std::optional<std::pair<int32_t, int64_t>> ParseBody(const std::string& body);

 private:
  void RunSender(int32_t queue_id);

  std::string addr_;
  LoadOptions options_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> acked_count_{0};
  std::atomic<int64_t> attempted_{0};
  mutable std::mutex mu_;
  std::vector<AckedMessage> acked_;    // guarded by mu_
  std::map<int32_t, int64_t> codes_;   // guarded by mu_
  std::vector<int64_t> latencies_us_;  // guarded by mu_
  std::vector<std::thread> senders_;
};

// What a replica holds compared to what was acknowledged.
struct ReplicaReport {
  int64_t acked = 0;
  int64_t stored = 0;          // messages read back (all queues)
  int64_t lost = 0;            // acked, and absent from its queue (its offset empty or another's)
  int64_t lost_in_middle = 0;  // lost, yet a later message of the same queue is present
  int64_t duplicated = 0;      // a sequence number stored more than once in its queue
  int64_t out_of_order = 0;    // a sequence number lower than one before it in its queue
  int64_t mismatched = 0;      // acked offset holds another message; the acked one is elsewhere
  int64_t foreign = 0;         // bodies that are not the generator's
  std::string first_problem;   // a readable example, empty when none

  bool Clean() const {
    return lost == 0 && duplicated == 0 && out_of_order == 0 && mismatched == 0 && foreign == 0;
  }
  std::string ToString() const;
};

// Reads every queue of `topic` from `addr` (after waiting up to `settle` for its queues to
// reach the acked offsets) and compares with `acked`.
Result<ReplicaReport> VerifyReplica(HaClient& client, const std::string& addr,
                                    const std::string& topic, int32_t queues,
                                    const std::vector<AckedMessage>& acked,
                                    std::chrono::milliseconds settle);

// The environment knob as an int, `fallback` when unset or not a number.
int EnvInt(const char* name, int fallback);

// p-th percentile (0..100) of `values` (copied and sorted); 0 for none.
int64_t Percentile(std::vector<int64_t> values, double p);

}  // namespace apogee::testing
