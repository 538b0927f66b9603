#include "broker/broker_services.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/client/client_housekeeping.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/client/producer_manager.h"
#include "broker/longpolling/pull_request_hold_service.h"
#include "broker/schedule/schedule_message_service.h"
#include "broker/schedule/timer_message_service.h"
#include "broker/transaction/transaction_check_service.h"
#include "broker/transaction/transactional_message_service.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

constexpr const char* kOffsetsPath = "/store/config/consumerOffset.json";

TEST(BrokerServicesTest, BuildsEveryServiceOnceAndPublishesTheSharedManagers) {
  testing::BrokerHarness h;
  BrokerServices& services = h.Services();
  ASSERT_NE(services.consumers, nullptr);
  ASSERT_NE(services.producers, nullptr);
  ASSERT_NE(services.client_housekeeping, nullptr);
  ASSERT_NE(services.consumer_offsets, nullptr);
  ASSERT_NE(services.pull_hold, nullptr);
  ASSERT_NE(services.schedule, nullptr);
  ASSERT_NE(services.timer, nullptr);
  ASSERT_NE(services.transactions, nullptr);
  ASSERT_NE(services.transaction_check, nullptr);
  EXPECT_EQ(h.context.consumer_manager, services.consumers);
  EXPECT_EQ(h.context.producer_manager, services.producers);
  EXPECT_EQ(h.context.consumer_offset_manager, services.consumer_offsets);
  EXPECT_EQ(services.store_host.ToString(), "127.0.0.1:10911");
  // Long polling hears of new messages first, then delay and timer delivery.
  EXPECT_EQ(h.context.arrival_observers.Names(),
            (std::vector<std::string>{"PullRequestHoldService", "ScheduleMessageService",
                                      "TimerMessageService"}));
}

TEST(BrokerServicesTest, ShutdownWritesTheOffsetsItLoaded) {
  testing::BrokerHarness h;
  h.Services();
  ASSERT_TRUE(h.RunStartHooks().ok());
  h.context.consumer_offset_manager->CommitOffset("CG", "T", 0, 5);
  h.services.Shutdown();
  ConsumerOffsetManager reloaded(h.env.get(), kOffsetsPath);
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.QueryOffset("CG", "T", 0), 5);
  h.services.Shutdown();  // idempotent
}

TEST(BrokerServicesTest, ShutdownAfterAFailedStartKeepsTheOffsetsFile) {
  testing::BrokerHarness h;
  h.AddTopic("T", 1);  // creates the config directory
  ASSERT_TRUE(env::WriteFileAtomically(h.env.get(), kOffsetsPath,
                                       R"({"offsetTable":{"T@CG":{0:7}}})")
                  .ok());
  ASSERT_EQ(*env::ReadFileToString(h.env.get(), kOffsetsPath), R"({"offsetTable":{"T@CG":{0:7}}})");
  h.Services();
  // Start never ran (the store failed to start): the table in memory was never loaded
  // and must not replace the file.
  h.services.Shutdown();
  EXPECT_EQ(*env::ReadFileToString(h.env.get(), kOffsetsPath), R"({"offsetTable":{"T@CG":{0:7}}})");
  ConsumerOffsetManager reloaded(h.env.get(), kOffsetsPath);
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.QueryOffset("CG", "T", 0), 7);
}

}  // namespace
}  // namespace apogee::broker
