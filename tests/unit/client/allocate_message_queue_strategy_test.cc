// Expected tables are what Java's strategies compute for the same sorted inputs
// (client/consumer/rebalance/*.java); the consistent-hash table was computed independently
// with Python's hashlib over Java's ring rules (key "<cid>-<k>", MD5 bytes 0..3 big-endian,
// first node at or after the queue's toString() hash).
#include "client/allocate_message_queue_strategy.h"

#include <gtest/gtest.h>

#include <map>

namespace apogee::client {
namespace {

std::vector<protocol::MessageQueue> Queues(const std::string& broker, int count,
                                           const std::string& topic = "TopicA") {
  std::vector<protocol::MessageQueue> out;
  for (int q = 0; q < count; ++q) out.push_back(protocol::MessageQueue{topic, broker, q});
  return out;
}

std::vector<protocol::MessageQueue> Concat(std::vector<protocol::MessageQueue> a,
                                           const std::vector<protocol::MessageQueue>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<int> Ids(const std::vector<protocol::MessageQueue>& queues) {
  std::vector<int> ids;
  for (const auto& mq : queues) ids.push_back(mq.queue_id);
  return ids;
}

std::vector<int> AllocIds(const AllocateMessageQueueStrategy& s, const std::string& cid,
                          const std::vector<protocol::MessageQueue>& mqs,
                          const std::vector<std::string>& cids) {
  auto r = s.Allocate("G", cid, mqs, cids);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? Ids(*r) : std::vector<int>{};
}

TEST(AllocateAveragelyTest, UnevenSplitGivesTheFirstConsumersOneExtra) {
  AllocateMessageQueueAveragely s;
  auto mqs = Queues("broker-a", 8);
  std::vector<std::string> cids = {"c0", "c1", "c2"};
  EXPECT_EQ(AllocIds(s, "c0", mqs, cids), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(AllocIds(s, "c1", mqs, cids), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(AllocIds(s, "c2", mqs, cids), (std::vector<int>{6, 7}));
  EXPECT_EQ(s.Name(), "AVG");
}

TEST(AllocateAveragelyTest, FiveQueuesTwoConsumers) {
  AllocateMessageQueueAveragely s;
  auto mqs = Queues("broker-a", 5);
  EXPECT_EQ(AllocIds(s, "a", mqs, {"a", "b"}), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(AllocIds(s, "b", mqs, {"a", "b"}), (std::vector<int>{3, 4}));
}

TEST(AllocateAveragelyTest, MoreConsumersThanQueuesLeavesTheLastOnesIdle) {
  AllocateMessageQueueAveragely s;
  auto mqs = Queues("broker-a", 3);
  std::vector<std::string> cids = {"c0", "c1", "c2", "c3", "c4"};
  EXPECT_EQ(AllocIds(s, "c0", mqs, cids), (std::vector<int>{0}));
  EXPECT_EQ(AllocIds(s, "c2", mqs, cids), (std::vector<int>{2}));
  EXPECT_TRUE(AllocIds(s, "c3", mqs, cids).empty());
  EXPECT_TRUE(AllocIds(s, "c4", mqs, cids).empty());
}

TEST(AllocateAveragelyTest, EqualCountsGiveOneEach) {
  AllocateMessageQueueAveragely s;
  auto mqs = Queues("broker-a", 4);
  std::vector<std::string> cids = {"c0", "c1", "c2", "c3"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(AllocIds(s, "c" + std::to_string(i), mqs, cids), (std::vector<int>{i}));
  }
}

TEST(AllocateAveragelyTest, ConsumerNotInListGetsNothing) {
  AllocateMessageQueueAveragely s;
  EXPECT_TRUE(AllocIds(s, "stranger", Queues("broker-a", 4), {"c0", "c1"}).empty());
}

TEST(AllocateAveragelyTest, EmptyInputsAreErrors) {
  AllocateMessageQueueAveragely s;
  EXPECT_FALSE(s.Allocate("G", "", Queues("b", 1), {"c"}).ok());
  EXPECT_FALSE(s.Allocate("G", "c", {}, {"c"}).ok());
  auto r = s.Allocate("G", "c", Queues("b", 1), {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cidAll"), std::string::npos);
}

TEST(AllocateAveragelyTest, SplitAcrossBrokersCoversEveryQueueOnce) {
  AllocateMessageQueueAveragely s;
  auto mqs = Concat(Queues("broker-a", 4), Queues("broker-b", 3));
  std::vector<std::string> cids = {"a", "b", "c"};
  std::map<protocol::MessageQueue, int> seen;
  for (const auto& cid : cids) {
    auto r = s.Allocate("G", cid, mqs, cids);
    ASSERT_TRUE(r.ok());
    for (const auto& mq : *r) ++seen[mq];
  }
  ASSERT_EQ(seen.size(), mqs.size());
  for (const auto& [mq, n] : seen) EXPECT_EQ(n, 1) << protocol::ToString(mq);
}

TEST(AllocateByCircleTest, RoundRobin) {
  AllocateMessageQueueAveragelyByCircle s;
  auto mqs = Queues("broker-a", 8);
  std::vector<std::string> cids = {"c0", "c1", "c2"};
  EXPECT_EQ(AllocIds(s, "c0", mqs, cids), (std::vector<int>{0, 3, 6}));
  EXPECT_EQ(AllocIds(s, "c1", mqs, cids), (std::vector<int>{1, 4, 7}));
  EXPECT_EQ(AllocIds(s, "c2", mqs, cids), (std::vector<int>{2, 5}));
  EXPECT_TRUE(AllocIds(s, "zz", mqs, cids).empty());
  EXPECT_TRUE(AllocIds(s, "c2", Queues("broker-a", 2), cids).empty());
  EXPECT_EQ(s.Name(), "AVG_BY_CIRCLE");
}

TEST(AllocateConsistentHashTest, RingHashIsMd5PrefixBigEndian) {
  // MD5("abc") = 900150983cd24fb0..., MD5("") = d41d8cd98f00b204...
  EXPECT_EQ(AllocateMessageQueueConsistentHash::RingHash("abc"), 0x90015098u);
  EXPECT_EQ(AllocateMessageQueueConsistentHash::RingHash(""), 0xd41d8cd9u);
  // A multi-block input (> 55 bytes) exercises the padding into a second block.
  // MD5 of 64 'a' = 014842d480b571495a4a0363793f7367.
  EXPECT_EQ(AllocateMessageQueueConsistentHash::RingHash(std::string(64, 'a')), 0x014842d4u);
}

TEST(AllocateConsistentHashTest, MatchesJavaRing) {
  AllocateMessageQueueConsistentHash s;
  auto mqs = Concat(Queues("broker-a", 4), Queues("broker-b", 4));
  std::vector<std::string> cids = {"10.0.0.1@c1", "10.0.0.2@c2", "10.0.0.3@c3"};
  auto c1 = s.Allocate("G", cids[0], mqs, cids);
  auto c2 = s.Allocate("G", cids[1], mqs, cids);
  auto c3 = s.Allocate("G", cids[2], mqs, cids);
  ASSERT_TRUE(c1.ok() && c2.ok() && c3.ok());
  EXPECT_TRUE(c1->empty());
  std::vector<protocol::MessageQueue> want2 = {{"TopicA", "broker-a", 0},
                                               {"TopicA", "broker-a", 1},
                                               {"TopicA", "broker-b", 0},
                                               {"TopicA", "broker-b", 2}};
  std::vector<protocol::MessageQueue> want3 = {{"TopicA", "broker-a", 2},
                                               {"TopicA", "broker-a", 3},
                                               {"TopicA", "broker-b", 1},
                                               {"TopicA", "broker-b", 3}};
  EXPECT_EQ(*c2, want2);
  EXPECT_EQ(*c3, want3);
  EXPECT_TRUE(s.Allocate("G", "other", mqs, cids)->empty());
  EXPECT_EQ(s.Name(), "CONSISTENT_HASH");
}

TEST(AllocateConsistentHashTest, ZeroVirtualNodesAllocateNothing) {
  AllocateMessageQueueConsistentHash s(0);
  auto r = s.Allocate("G", "a", Queues("b", 3), {"a"});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST(AllocateByConfigTest, ReturnsTheConfiguredListWhateverTheInputs) {
  std::vector<protocol::MessageQueue> fixed = {{"T", "b", 5}, {"T", "a", 1}};
  AllocateMessageQueueByConfig s(fixed);
  auto r = s.Allocate("G", "x", Queues("b", 2), {"y"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, fixed);
  EXPECT_EQ(s.Name(), "CONFIG");
}

TEST(AllocateByMachineRoomTest, BlocksThenRemainder) {
  AllocateMessageQueueByMachineRoom s({"hz", "sh"});
  // Sorted by brokerName: "broker-c" < "hz@broker-a" < "sh@broker-b"; broker-c has no room.
  auto mqs =
      Concat(Concat(Queues("broker-c", 1), Queues("hz@broker-a", 2)), Queues("sh@broker-b", 2));
  std::vector<std::string> cids = {"c0", "c1", "c2"};
  auto r0 = s.Allocate("G", "c0", mqs, cids);
  auto r1 = s.Allocate("G", "c1", mqs, cids);
  auto r2 = s.Allocate("G", "c2", mqs, cids);
  ASSERT_TRUE(r0.ok() && r1.ok() && r2.ok());
  EXPECT_EQ(*r0, (std::vector<protocol::MessageQueue>{{"TopicA", "hz@broker-a", 0},
                                                      {"TopicA", "sh@broker-b", 1}}));
  EXPECT_EQ(*r1, (std::vector<protocol::MessageQueue>{{"TopicA", "hz@broker-a", 1}}));
  EXPECT_EQ(*r2, (std::vector<protocol::MessageQueue>{{"TopicA", "sh@broker-b", 0}}));
  EXPECT_TRUE(s.Allocate("G", "c9", mqs, cids)->empty());
}

TEST(AllocateByMachineRoomTest, NamesSplitAsJavaStringSplit) {
  AllocateMessageQueueByMachineRoom s({"hz", ""});
  // "hz@" splits to one piece (trailing empty dropped), "hz@a@b" to three: both excluded;
  // "hz@a@" splits to two pieces and "@a" to ["", "a"]: both included.
  std::vector<protocol::MessageQueue> mqs = {
      {"T", "@a", 0}, {"T", "hz@", 0}, {"T", "hz@a@", 0}, {"T", "hz@a@b", 0}};
  auto r = s.Allocate("G", "c", mqs, {"c"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<protocol::MessageQueue>{{"T", "@a", 0}, {"T", "hz@a@", 0}}));
}

TEST(AllocateMachineRoomNearbyTest, OwnRoomFirstThenRoomsWithoutConsumers) {
  MachineRoomResolver resolver;
  resolver.broker_deploy_in = [](const protocol::MessageQueue& mq) {
    return mq.broker_name.substr(0, mq.broker_name.find('@'));
  };
  resolver.consumer_deploy_in = [](std::string_view cid) {
    return std::string(cid.substr(0, cid.find('-')));
  };
  AllocateMachineRoomNearby s(std::make_shared<AllocateMessageQueueAveragely>(), resolver);
  auto mqs = Concat(Concat(Queues("bj@c", 2), Queues("hz@a", 4)), Queues("sh@b", 2));
  std::vector<std::string> cids = {"hz-c1", "hz-c2", "sh-c1"};
  auto hz1 = s.Allocate("G", "hz-c1", mqs, cids);
  auto hz2 = s.Allocate("G", "hz-c2", mqs, cids);
  auto sh1 = s.Allocate("G", "sh-c1", mqs, cids);
  ASSERT_TRUE(hz1.ok() && hz2.ok() && sh1.ok());
  EXPECT_EQ(*hz1, (std::vector<protocol::MessageQueue>{
                      {"TopicA", "hz@a", 0}, {"TopicA", "hz@a", 1}, {"TopicA", "bj@c", 0}}));
  EXPECT_EQ(*hz2, (std::vector<protocol::MessageQueue>{
                      {"TopicA", "hz@a", 2}, {"TopicA", "hz@a", 3}, {"TopicA", "bj@c", 1}}));
  EXPECT_EQ(*sh1,
            (std::vector<protocol::MessageQueue>{{"TopicA", "sh@b", 0}, {"TopicA", "sh@b", 1}}));
  EXPECT_EQ(s.Name(), "MACHINE_ROOM_NEARBY-AVG");
}

TEST(AllocateMachineRoomNearbyTest, UnknownRoomIsAnError) {
  MachineRoomResolver resolver;
  resolver.broker_deploy_in = [](const protocol::MessageQueue&) { return std::string(); };
  resolver.consumer_deploy_in = [](std::string_view) { return std::string("hz"); };
  AllocateMachineRoomNearby s(std::make_shared<AllocateMessageQueueAveragely>(), resolver);
  auto r = s.Allocate("G", "c", Queues("b", 1), {"c"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("machine room"), std::string::npos);
}

TEST(MakeAllocateStrategyTest, KnownNames) {
  EXPECT_EQ((*MakeAllocateStrategy("AVG"))->Name(), "AVG");
  EXPECT_EQ((*MakeAllocateStrategy(""))->Name(), "AVG");
  EXPECT_EQ((*MakeAllocateStrategy("AVG_BY_CIRCLE"))->Name(), "AVG_BY_CIRCLE");
  EXPECT_EQ((*MakeAllocateStrategy("CONSISTENT_HASH"))->Name(), "CONSISTENT_HASH");
  auto bad = MakeAllocateStrategy("RANDOM");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("RANDOM"), std::string::npos);
}

TEST(MessageQueueOrderTest, TopicThenBrokerThenQueueId) {
  std::vector<protocol::MessageQueue> mqs = {
      {"B", "a", 0}, {"A", "b", 1}, {"A", "b", 0}, {"A", "a", 10}, {"A", "a", 2}};
  std::sort(mqs.begin(), mqs.end());
  EXPECT_EQ(mqs, (std::vector<protocol::MessageQueue>{
                     {"A", "a", 2}, {"A", "a", 10}, {"A", "b", 0}, {"A", "b", 1}, {"B", "a", 0}}));
  EXPECT_EQ(protocol::ToString(protocol::MessageQueue{"T", "b", 3}),
            "MessageQueue [topic=T, brokerName=b, queueId=3]");
}

}  // namespace
}  // namespace apogee::client
