#include "broker/message_arrival_observers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace apogee::broker {
namespace {

TEST(MessageArrivalObserversTest, NotifiesEveryObserverInTheOrderAdded) {
  MessageArrivalObservers observers;
  std::vector<std::string> calls;
  observers.Add("hold", [&](std::string_view topic, int32_t queue_id, int64_t next) {
    calls.push_back("hold " + std::string(topic) + " " + std::to_string(queue_id) + " " +
                    std::to_string(next));
  });
  observers.Add("schedule", [&](std::string_view topic, int32_t, int64_t) {
    calls.push_back("schedule " + std::string(topic));
  });
  EXPECT_EQ(observers.Names(), (std::vector<std::string>{"hold", "schedule"}));
  EXPECT_EQ(observers.size(), 2u);

  observers.Notify("SCHEDULE_TOPIC_XXXX", 2, 17);
  EXPECT_EQ(calls, (std::vector<std::string>{"hold SCHEDULE_TOPIC_XXXX 2 17",
                                             "schedule SCHEDULE_TOPIC_XXXX"}));
}

TEST(MessageArrivalObserversTest, AnEmptyListIgnoresArrivals) {
  MessageArrivalObservers observers;
  observers.Notify("T", 0, 1);
  EXPECT_TRUE(observers.Names().empty());
}

}  // namespace
}  // namespace apogee::broker
