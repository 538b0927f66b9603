#include "client/mq_fault_strategy.h"

#include <gtest/gtest.h>

#include <set>

#include "base/clock.h"

namespace apogee::client {
namespace {

TEST(MQFaultStrategyTest, NotAvailableDurationFollowsJavaTables) {
  EXPECT_EQ(ComputeNotAvailableDuration(0), 0);
  EXPECT_EQ(ComputeNotAvailableDuration(99), 0);
  EXPECT_EQ(ComputeNotAvailableDuration(549), 0);
  EXPECT_EQ(ComputeNotAvailableDuration(550), 30000);
  EXPECT_EQ(ComputeNotAvailableDuration(999), 30000);
  EXPECT_EQ(ComputeNotAvailableDuration(1000), 60000);
  EXPECT_EQ(ComputeNotAvailableDuration(2000), 120000);
  EXPECT_EQ(ComputeNotAvailableDuration(3000), 180000);
  EXPECT_EQ(ComputeNotAvailableDuration(14999), 180000);
  EXPECT_EQ(ComputeNotAvailableDuration(15000), 600000);
  EXPECT_EQ(ComputeNotAvailableDuration(kIsolationLatencyMs), 600000);
}

protocol::TopicRouteData TwoBrokers() {
  protocol::TopicRouteData route;
  for (std::string name : {"broker-a", "broker-b"}) {
    route.queue_datas.push_back({name, 2, 2, 6, 0});
    protocol::BrokerData bd;
    bd.broker_name = name;
    bd.broker_addrs[0] = name + ":10911";
    route.broker_datas.push_back(bd);
  }
  return route;
}

TEST(MQFaultStrategyTest, DisabledIgnoresFaults) {
  ManualClock clock(1000);
  MQFaultStrategy strategy(&clock);
  strategy.UpdateFaultItem("broker-a", 5000, true);
  EXPECT_TRUE(strategy.IsAvailable("broker-a"));
}

TEST(MQFaultStrategyTest, IsolatedBrokerIsAvoidedUntilItsPauseEnds) {
  ManualClock clock(1000);
  MQFaultStrategy strategy(&clock);
  strategy.set_enabled(true);
  TopicPublishInfo info("T", TwoBrokers());
  strategy.UpdateFaultItem("broker-a", 10, true);
  EXPECT_FALSE(strategy.IsAvailable("broker-a"));
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(strategy.SelectOneMessageQueue(info, "").broker_name(), "broker-b");
  }
  clock.Advance(600000);
  EXPECT_TRUE(strategy.IsAvailable("broker-a"));
  std::set<std::string> seen;
  for (int i = 0; i < 8; ++i) seen.insert(strategy.SelectOneMessageQueue(info, "").broker_name());
  EXPECT_EQ(seen.size(), 2u);
}

TEST(MQFaultStrategyTest, FastBrokerStaysAvailableSlowOneIsPaused) {
  ManualClock clock(1000);
  MQFaultStrategy strategy(&clock);
  strategy.set_enabled(true);
  strategy.UpdateFaultItem("broker-a", 40, false);
  strategy.UpdateFaultItem("broker-b", 1200, false);
  EXPECT_TRUE(strategy.IsAvailable("broker-a"));
  EXPECT_FALSE(strategy.IsAvailable("broker-b"));
  clock.Advance(59999);
  EXPECT_FALSE(strategy.IsAvailable("broker-b"));
  clock.Advance(1);
  EXPECT_TRUE(strategy.IsAvailable("broker-b"));
}

TEST(MQFaultStrategyTest, EveryBrokerPausedStillYieldsAQueue) {
  ManualClock clock(1000);
  MQFaultStrategy strategy(&clock);
  strategy.set_enabled(true);
  TopicPublishInfo info("T", TwoBrokers());
  strategy.UpdateFaultItem("broker-a", 10, true);
  strategy.UpdateFaultItem("broker-b", 10, true);
  MessageQueue mq = strategy.SelectOneMessageQueue(info, "");
  EXPECT_EQ(mq.topic(), "T");
  EXPECT_TRUE(mq.broker_name() == "broker-a" || mq.broker_name() == "broker-b");
  EXPECT_GE(mq.queue_id(), 0);
  EXPECT_LT(mq.queue_id(), 2);
}

TEST(MQFaultStrategyTest, RetryAvoidsTheBrokerThatJustFailed) {
  ManualClock clock(1000);
  MQFaultStrategy strategy(&clock);
  strategy.set_enabled(true);
  TopicPublishInfo info("T", TwoBrokers());
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(strategy.SelectOneMessageQueue(info, "broker-b").broker_name(), "broker-a");
  }
}

}  // namespace
}  // namespace apogee::client
