// Whole clusters of real processes on free loopback ports: one NameServer with two broker
// sets (brokerName a and b) serving one topic; topics and consumer offsets that survive a
// clean broker restart; and under SYNC_FLUSH, every acknowledged send that survives a
// kill -9 of the broker.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "broker_process.h"
#include "message/message.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;
using namespace std::chrono_literals;

constexpr char kTopic[] = "ClusterTopic";
constexpr char kGroup[] = "ClusterGroup";

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

// The calls a Java client makes, each against one broker address.
class BrokerCalls {
 public:
  BrokerCalls() { client_.Start(); }
  ~BrokerCalls() { client_.Shutdown(); }

  Result<RemotingCommand> Call(const std::string& addr, RemotingCommand request) {
    return client_.InvokeSync(addr, std::move(request), 5s);
  }

  // UPDATE_AND_CREATE_TOPIC; the response code (or -1 when the call failed).
  int32_t CreateTopic(const std::string& addr, const std::string& topic, int32_t queues) {
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = "TBW102";
    h.read_queue_nums = queues;
    h.write_queue_nums = queues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    auto res = Call(addr, Request(req::kUpdateAndCreateTopic, h));
    return res.ok() ? res->code : -1;
  }

  // SEND_MESSAGE_V2; the decoded response header, or an error naming the code and remark.
  Result<protocol::SendMessageResponseHeader> Send(const std::string& addr, int32_t queue_id,
                                                   const std::string& body) {
    protocol::SendMessageRequestHeader h;
    h.producer_group = "ClusterPG";
    h.topic = kTopic;
    h.default_topic = "TBW102";
    h.default_topic_queue_nums = 4;
    h.queue_id = queue_id;
    h.born_timestamp = NowMillis();
    message::MessageProperties props;
    APOGEE_RETURN_IF_ERROR(props.Set("KEYS", body));
    h.properties = props.Encode();
    RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
    protocol::EncodeCustomHeader(protocol::SendMessageRequestHeaderV2{h}, &request);
    request.body = body;
    APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, Call(addr, std::move(request)));
    if (response.code != rc::kSuccess) {
      return Status::Internal("send: code " + std::to_string(response.code) + " " +
                              response.remark.value_or(""));
    }
    return protocol::DecodeCustomHeader<protocol::SendMessageResponseHeader>(response);
  }

  // Every message of one queue from `offset` on, by repeated PULL_MESSAGE.
  Result<std::vector<message::MessageExt>> PullAll(const std::string& addr, int32_t queue_id,
                                                   int64_t offset = 0) {
    std::vector<message::MessageExt> out;
    for (int round = 0; round < 1000; ++round) {
      protocol::PullMessageRequestHeader h;
      h.consumer_group = kGroup;
      h.topic = kTopic;
      h.queue_id = queue_id;
      h.queue_offset = offset;
      h.max_msg_nums = 32;
      h.sys_flag = 4;  // subscription present, no commit, no suspend
      h.subscription = "*";
      h.expression_type = "TAG";
      APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, Call(addr, Request(req::kPullMessage, h)));
      if (response.code == rc::kPullNotFound) return out;
      if (response.code != rc::kSuccess) {
        return Status::Internal("pull: code " + std::to_string(response.code) + " " +
                                response.remark.value_or(""));
      }
      APOGEE_ASSIGN_OR_RETURN(
          auto header, protocol::DecodeCustomHeader<protocol::PullMessageResponseHeader>(response));
      APOGEE_ASSIGN_OR_RETURN(auto msgs, message::DecodeMessages(response.body));
      for (auto& m : msgs) out.push_back(std::move(m));
      if (header.next_begin_offset <= offset) return Status::Internal("pull made no progress");
      offset = header.next_begin_offset;
    }
    return Status::Internal("pull did not reach the end");
  }

  Result<int64_t> MaxOffset(const std::string& addr, int32_t queue_id) {
    protocol::GetMaxOffsetRequestHeader h;
    h.topic = kTopic;
    h.queue_id = queue_id;
    APOGEE_ASSIGN_OR_RETURN(RemotingCommand response, Call(addr, Request(req::kGetMaxOffset, h)));
    if (response.code != rc::kSuccess) {
      return Status::Internal("max offset: code " + std::to_string(response.code));
    }
    APOGEE_ASSIGN_OR_RETURN(
        auto header, protocol::DecodeCustomHeader<protocol::GetMaxOffsetResponseHeader>(response));
    return header.offset;
  }

  // The ConsumeQueue is fed asynchronously after the ack (as Java's ReputMessageService
  // does), so a reader first waits until the queue's max offset covers what was acked.
  bool WaitForMaxOffset(const std::string& addr, int32_t queue_id, int64_t at_least) {
    return WaitUntil(
        [&] {
          auto max = MaxOffset(addr, queue_id);
          return max.ok() && *max >= at_least;
        },
        10s);
  }

  Status CommitOffset(const std::string& addr, int32_t queue_id, int64_t offset) {
    protocol::UpdateConsumerOffsetRequestHeader h;
    h.consumer_group = kGroup;
    h.topic = kTopic;
    h.queue_id = queue_id;
    h.commit_offset = offset;
    APOGEE_ASSIGN_OR_RETURN(RemotingCommand response,
                            Call(addr, Request(req::kUpdateConsumerOffset, h)));
    if (response.code != rc::kSuccess) {
      return Status::Internal("commit: code " + std::to_string(response.code));
    }
    return Status::OK();
  }

  // QUERY_CONSUMER_OFFSET: the offset, or -1 for QUERY_NOT_FOUND.
  Result<int64_t> CommittedOffset(const std::string& addr, int32_t queue_id) {
    protocol::QueryConsumerOffsetRequestHeader h;
    h.consumer_group = kGroup;
    h.topic = kTopic;
    h.queue_id = queue_id;
    APOGEE_ASSIGN_OR_RETURN(RemotingCommand response,
                            Call(addr, Request(req::kQueryConsumerOffset, h)));
    if (response.code == rc::kQueryNotFound) return -1;
    if (response.code != rc::kSuccess) {
      return Status::Internal("query offset: code " + std::to_string(response.code));
    }
    APOGEE_ASSIGN_OR_RETURN(
        auto header,
        protocol::DecodeCustomHeader<protocol::QueryConsumerOffsetResponseHeader>(response));
    return header.offset;
  }

 private:
  remoting::RemotingClient client_;
};

// Waits until the NameServer's route of `topic` lists `brokers` broker sets.
bool WaitForRoute(const std::string& namesrv_addr, const std::string& topic, size_t brokers) {
  remoting::RemotingClient client;
  client.Start();
  return WaitUntil(
      [&] {
        auto route = QueryRoute(client, namesrv_addr, topic);
        return route.ok() && route->broker_datas.size() == brokers;
      },
      20s);
}

TEST(BrokerClusterTest, TwoBrokerSetsServeOneTopic) {
  NamesrvProcess namesrv;
  ASSERT_TRUE(namesrv.Start());
  BrokerProcess a({}, "broker-a");
  BrokerProcess b({}, "broker-b");
  ASSERT_TRUE(a.Start(namesrv.addr()));
  ASSERT_TRUE(b.Start(namesrv.addr()));
  BrokerCalls calls;
  ASSERT_EQ(calls.CreateTopic(a.addr(), kTopic, 4), rc::kSuccess);
  ASSERT_EQ(calls.CreateTopic(b.addr(), kTopic, 2), rc::kSuccess);
  ASSERT_TRUE(WaitForRoute(namesrv.addr(), kTopic, 2));

  remoting::RemotingClient client;
  client.Start();
  auto route = QueryRoute(client, namesrv.addr(), kTopic);
  ASSERT_TRUE(route.ok()) << route.status().ToString();
  std::map<std::string, std::string> master_of;
  for (const auto& bd : route->broker_datas) {
    EXPECT_EQ(bd.cluster, "DefaultCluster");
    ASSERT_EQ(bd.broker_addrs.count(0), 1u) << bd.broker_name;
    master_of[bd.broker_name] = bd.broker_addrs.at(0);
  }
  EXPECT_EQ(master_of["broker-a"], a.addr());
  EXPECT_EQ(master_of["broker-b"], b.addr());
  std::map<std::string, int32_t> write_queues;
  for (const auto& qd : route->queue_datas) write_queues[qd.broker_name] = qd.write_queue_nums;
  EXPECT_EQ(write_queues["broker-a"], 4);
  EXPECT_EQ(write_queues["broker-b"], 2);

  // Each set stores only what was sent to it, with its own queue offsets.
  for (int i = 0; i < 6; ++i) {
    auto ra = calls.Send(a.addr(), i % 4, "a-" + std::to_string(i));
    ASSERT_TRUE(ra.ok()) << ra.status().ToString();
    auto rb = calls.Send(b.addr(), i % 2, "b-" + std::to_string(i));
    ASSERT_TRUE(rb.ok()) << rb.status().ToString();
    EXPECT_EQ(rb->queue_offset, i / 2);
  }
  std::set<std::string> from_a;
  std::set<std::string> from_b;
  for (int q = 0; q < 4; ++q) {
    ASSERT_TRUE(calls.WaitForMaxOffset(a.addr(), q, q < 2 ? 2 : 1)) << "queue " << q;
    auto msgs = calls.PullAll(a.addr(), q);
    ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
    for (const auto& m : *msgs) from_a.insert(m.body);
  }
  for (int q = 0; q < 2; ++q) {
    ASSERT_TRUE(calls.WaitForMaxOffset(b.addr(), q, 3)) << "queue " << q;
    auto msgs = calls.PullAll(b.addr(), q);
    ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
    for (const auto& m : *msgs) from_b.insert(m.body);
  }
  EXPECT_EQ(from_a, (std::set<std::string>{"a-0", "a-1", "a-2", "a-3", "a-4", "a-5"}));
  EXPECT_EQ(from_b, (std::set<std::string>{"b-0", "b-1", "b-2", "b-3", "b-4", "b-5"}));

  // Stopping one set leaves the other in the route.
  EXPECT_EQ(b.Stop(), 0) << b.ReadLog();
  EXPECT_TRUE(WaitForRoute(namesrv.addr(), kTopic, 1)) << "broker-b still routed";
  route = QueryRoute(client, namesrv.addr(), kTopic);
  ASSERT_TRUE(route.ok());
  EXPECT_EQ(route->broker_datas.at(0).broker_name, "broker-a");
  client.Shutdown();
}

TEST(BrokerClusterTest, TopicsAndOffsetsSurviveRestart) {
  SingleBrokerCluster cluster;
  ASSERT_TRUE(cluster.Start());
  BrokerProcess& broker = cluster.broker();
  {
    BrokerCalls calls;
    ASSERT_EQ(calls.CreateTopic(broker.addr(), kTopic, 3), rc::kSuccess);
    for (int i = 0; i < 9; ++i) {
      auto r = calls.Send(broker.addr(), i % 3, "m-" + std::to_string(i));
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
    ASSERT_TRUE(calls.CommitOffset(broker.addr(), 0, 2).ok());
    ASSERT_TRUE(calls.CommitOffset(broker.addr(), 1, 3).ok());
  }
  ASSERT_EQ(broker.Stop(), 0) << broker.ReadLog();
  ASSERT_TRUE(broker.Start(cluster.namesrv().addr()));

  BrokerCalls calls;
  // The topic comes back from topics.json and is registered again.
  EXPECT_TRUE(WaitForRoute(cluster.namesrv().addr(), kTopic, 1));
  remoting::RemotingClient client;
  client.Start();
  auto route = QueryRoute(client, cluster.namesrv().addr(), kTopic);
  ASSERT_TRUE(route.ok()) << route.status().ToString();
  EXPECT_EQ(route->queue_datas.at(0).write_queue_nums, 3);
  client.Shutdown();

  // Offsets come back from consumerOffset.json. An uncommitted queue answers 0, as Java's
  // broker does while the queue's minimum offset is 0 and its first message is in memory.
  auto q0 = calls.CommittedOffset(broker.addr(), 0);
  auto q1 = calls.CommittedOffset(broker.addr(), 1);
  auto q2 = calls.CommittedOffset(broker.addr(), 2);
  ASSERT_TRUE(q0.ok() && q1.ok() && q2.ok());
  EXPECT_EQ(*q0, 2);
  EXPECT_EQ(*q1, 3);
  EXPECT_EQ(*q2, 0);
  // And the messages themselves.
  for (int q = 0; q < 3; ++q) {
    auto max = calls.MaxOffset(broker.addr(), q);
    ASSERT_TRUE(max.ok()) << max.status().ToString();
    EXPECT_EQ(*max, 3);
    auto msgs = calls.PullAll(broker.addr(), q);
    ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
    ASSERT_EQ(msgs->size(), 3u);
    EXPECT_EQ(msgs->at(0).body, "m-" + std::to_string(q));
  }
}

// Four senders keep sending to a broker of `flush_disk_type`; it is killed (SIGKILL) while
// requests are in flight; after a restart every acknowledged send is stored and the queues are
// dense.
void ExpectAcknowledgedSendsSurviveKillMinus9(const std::string& flush_disk_type) {
  SingleBrokerCluster cluster(Props{{"flushDiskType", flush_disk_type}});
  ASSERT_TRUE(cluster.Start());
  BrokerProcess& broker = cluster.broker();
  BrokerCalls setup;
  ASSERT_EQ(setup.CreateTopic(broker.addr(), kTopic, 4), rc::kSuccess);

  // A kill -9 leaves the page cache intact, so this checks the abnormal-shutdown recovery (no acked
  // record truncated, ConsumeQueues rebuilt dense), not fsync durability against power loss;
  // the store's own FaultInjectionEnv tests cover that.
  struct Ack {
    int32_t queue_id;
    int64_t queue_offset;
    std::string body;
  };
  std::mutex mu;
  std::vector<Ack> acked;
  std::atomic<bool> stop{false};
  std::atomic<bool> killed{false};
  std::vector<std::thread> senders;
  for (int t = 0; t < 4; ++t) {
    senders.emplace_back([&, t] {
      BrokerCalls calls;
      for (int i = 0; !stop.load() && i < 100000; ++i) {
        std::string body = "t" + std::to_string(t) + "-" + std::to_string(i);
        auto r = calls.Send(broker.addr(), t, body);
        if (!r.ok()) {
          if (killed.load()) break;
          continue;
        }
        std::lock_guard<std::mutex> lock(mu);
        acked.push_back({r->queue_id, r->queue_offset, body});
      }
    });
  }
  ASSERT_TRUE(WaitUntil(
      [&] {
        std::lock_guard<std::mutex> lock(mu);
        return acked.size() >= 400;
      },
      30s));
  killed = true;
  ASSERT_TRUE(broker.process().Signal(SIGKILL));
  broker.process().Wait(10s);
  stop = true;
  for (auto& s : senders) s.join();
  const std::vector<Ack> snapshot = acked;

  ASSERT_TRUE(broker.Start(cluster.namesrv().addr()));
  BrokerCalls calls;
  std::map<int32_t, int64_t> acked_end;
  for (const Ack& ack : snapshot) {
    acked_end[ack.queue_id] = std::max(acked_end[ack.queue_id], ack.queue_offset + 1);
  }
  std::map<int32_t, std::map<int64_t, std::string>> stored;
  for (int q = 0; q < 4; ++q) {
    EXPECT_TRUE(calls.WaitForMaxOffset(broker.addr(), q, acked_end[q]))
        << "queue " << q << " max offset below " << acked_end[q] << " after restart";
    auto msgs = calls.PullAll(broker.addr(), q);
    ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
    for (const auto& m : *msgs) stored[q][m.queue_offset] = m.body;
  }
  size_t missing = 0;
  for (const Ack& ack : snapshot) {
    auto it = stored[ack.queue_id].find(ack.queue_offset);
    if (it == stored[ack.queue_id].end() || it->second != ack.body) {
      if (++missing <= 5) {
        ADD_FAILURE() << "acknowledged " << ack.body << " at queue " << ack.queue_id << " offset "
                      << ack.queue_offset << " is lost after kill -9";
      }
    }
  }
  EXPECT_EQ(missing, 0u) << "of " << snapshot.size() << " acknowledged sends";
  // The queues are dense: nothing beyond what was stored, no holes.
  for (auto& [q, by_offset] : stored) {
    if (by_offset.empty()) continue;
    EXPECT_EQ(by_offset.begin()->first, 0);
    EXPECT_EQ(by_offset.rbegin()->first, static_cast<int64_t>(by_offset.size()) - 1);
  }
}

TEST(BrokerClusterTest, AcknowledgedSendsSurviveKillMinus9UnderSyncFlush) {
  ExpectAcknowledgedSendsSurviveKillMinus9("SYNC_FLUSH");
}

// ASYNC_FLUSH sends are answered on the IO thread after the read's records were written with
// one pwrite (store/commit_log.h): a kill between the put and that write must never have
// acknowledged anything.
TEST(BrokerClusterTest, AcknowledgedSendsSurviveKillMinus9UnderAsyncFlush) {
  ExpectAcknowledgedSendsSurviveKillMinus9("ASYNC_FLUSH");
}

}  // namespace
}  // namespace apogee::testing
