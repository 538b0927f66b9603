#include "client/topic_publish_info.h"

#include <gtest/gtest.h>

#include <map>

#include "protocol/topic_config.h"

namespace apogee::client {
namespace {

protocol::BrokerData Broker(const std::string& name, bool master) {
  protocol::BrokerData bd;
  bd.broker_name = name;
  bd.broker_addrs[master ? 0 : 1] = name + ":10911";
  return bd;
}

TEST(TopicPublishInfoTest, WritableQueuesOfBrokerSetsWithAMasterSortedByBroker) {
  protocol::TopicRouteData route;
  route.queue_datas = {{"broker-c", 2, 2, 6, 0},
                       {"broker-a", 4, 3, 6, 0},
                       {"broker-ro", 2, 2, protocol::kPermRead, 0},
                       {"broker-slave-only", 2, 2, 6, 0}};
  route.broker_datas = {Broker("broker-c", true), Broker("broker-a", true), Broker("broker-ro", true),
                        Broker("broker-slave-only", false)};
  TopicPublishInfo info("T", route);
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info.order_topic());
  std::vector<MessageQueue> expected = {{"T", "broker-a", 0}, {"T", "broker-a", 1},
                                        {"T", "broker-a", 2}, {"T", "broker-c", 0},
                                        {"T", "broker-c", 1}};
  EXPECT_EQ(info.message_queues(), expected);
  EXPECT_EQ(info.QueueIdCountOfBroker("broker-a"), 3);
  EXPECT_EQ(info.QueueIdCountOfBroker("nope"), -1);
}

TEST(TopicPublishInfoTest, OrderTopicConfDecidesTheQueues) {
  protocol::TopicRouteData route;
  route.order_topic_conf = "broker-b:2;broker-a:1";
  TopicPublishInfo info("T", route);
  EXPECT_TRUE(info.order_topic());
  std::vector<MessageQueue> expected = {{"T", "broker-b", 0}, {"T", "broker-b", 1}, {"T", "broker-a", 0}};
  EXPECT_EQ(info.message_queues(), expected);
}

TEST(TopicPublishInfoTest, NoWritableQueueIsNotOk) {
  protocol::TopicRouteData route;
  route.queue_datas = {{"broker-a", 4, 4, protocol::kPermRead, 0}};
  route.broker_datas = {Broker("broker-a", true)};
  EXPECT_FALSE(TopicPublishInfo("T", route).ok());
}

TEST(TopicPublishInfoTest, RoundRobinCoversEveryQueueAndAvoidsTheLastBroker) {
  protocol::TopicRouteData route;
  route.queue_datas = {{"broker-a", 2, 2, 6, 0}, {"broker-b", 2, 2, 6, 0}};
  route.broker_datas = {Broker("broker-a", true), Broker("broker-b", true)};
  TopicPublishInfo info("T", route);
  std::map<MessageQueue, int> hits;
  for (int i = 0; i < 40; ++i) hits[info.SelectOneMessageQueue()]++;
  ASSERT_EQ(hits.size(), 4u);
  for (const auto& [mq, n] : hits) EXPECT_EQ(n, 10) << mq.ToString();
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(info.SelectOneMessageQueue("broker-a").broker_name(), "broker-b");
  }
}

TEST(TopicPublishInfoTest, OnlyBrokerLeftIsUsedEvenIfItWasTheLast) {
  protocol::TopicRouteData route;
  route.queue_datas = {{"broker-a", 2, 2, 6, 0}};
  route.broker_datas = {Broker("broker-a", true)};
  TopicPublishInfo info("T", route);
  EXPECT_EQ(info.SelectOneMessageQueue("broker-a").broker_name(), "broker-a");
}

TEST(TopicPublishInfoTest, SubscribeInfoHasReadableQueues) {
  protocol::TopicRouteData route;
  route.queue_datas = {{"broker-a", 3, 1, 6, 0}, {"broker-w", 2, 2, protocol::kPermWrite, 0}};
  auto info = TopicRouteToSubscribeInfo("T", route);
  std::set<protocol::MessageQueue> expected = {
      {"T", "broker-a", 0}, {"T", "broker-a", 1}, {"T", "broker-a", 2}};
  EXPECT_EQ(info, expected);
}

}  // namespace
}  // namespace apogee::client
