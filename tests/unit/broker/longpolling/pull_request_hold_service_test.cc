#include "broker/longpolling/pull_request_hold_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <thread>

#include "remoting/executor.h"
#include "unit/broker/send_pull_test_util.h"
#include "testutil/test_util.h"

namespace apogee::broker {
namespace {

using testing::FakeChannel;

class PullRequestHoldServiceTest : public ::testing::Test {
 protected:
  PullRequestHoldServiceTest()
      : service_(&clock_, [this](std::string_view, int32_t) { return max_offset_.load(); },
                 nullptr) {}

  HeldPullRequest Request(int64_t from, int64_t timeout_ms, std::atomic<int>* woken,
                          std::shared_ptr<FakeChannel> channel = nullptr) {
    HeldPullRequest r;
    r.topic = "T";
    r.queue_id = 1;
    r.pull_from_offset = from;
    r.timeout_ms = timeout_ms;
    r.channel = channel;
    r.wakeup = [woken] { woken->fetch_add(1); };
    return r;
  }

  ManualClock clock_;
  std::atomic<int64_t> max_offset_{5};
  PullRequestHoldService service_;
};

TEST_F(PullRequestHoldServiceTest, WakesOnlyWhenAMessageArrivesPastTheOffset) {
  std::atomic<int> woken{0};
  ASSERT_TRUE(service_.SuspendPullRequest(Request(5, 15000, &woken)).ok());
  EXPECT_EQ(service_.HeldCount(), 1u);
  service_.NotifyMessageArriving("T", 1, 5);  // nothing new
  service_.NotifyMessageArriving("T", 2, 9);  // another queue
  service_.NotifyMessageArriving("U", 1, 9);  // another topic
  EXPECT_EQ(woken.load(), 0);
  EXPECT_EQ(service_.HeldCount(), 1u);
  service_.NotifyMessageArriving("T", 1, 6);
  EXPECT_EQ(woken.load(), 1);
  EXPECT_EQ(service_.HeldCount(), 0u);
  service_.NotifyMessageArriving("T", 1, 7);  // woken once only
  EXPECT_EQ(woken.load(), 1);
}

TEST_F(PullRequestHoldServiceTest, TimesOutAtTheSuspendTimeout) {
  std::atomic<int> woken{0};
  ASSERT_TRUE(service_.SuspendPullRequest(Request(5, 15000, &woken)).ok());
  clock_.Advance(14999);
  service_.CheckHoldRequests();
  EXPECT_EQ(woken.load(), 0);
  clock_.Advance(1);
  service_.CheckHoldRequests();
  EXPECT_EQ(woken.load(), 1);
  EXPECT_EQ(service_.HeldCount(), 0u);
}

TEST_F(PullRequestHoldServiceTest, PeriodicCheckFindsNewDataWithoutANotification) {
  std::atomic<int> woken{0};
  ASSERT_TRUE(service_.SuspendPullRequest(Request(5, 15000, &woken)).ok());
  service_.CheckHoldRequests();
  EXPECT_EQ(woken.load(), 0);
  max_offset_ = 6;
  service_.CheckHoldRequests();
  EXPECT_EQ(woken.load(), 1);
}

TEST_F(PullRequestHoldServiceTest, DropsRequestsWhoseConnectionClosed) {
  std::atomic<int> woken{0};
  auto channel = std::make_shared<FakeChannel>();
  ASSERT_TRUE(service_.SuspendPullRequest(Request(5, 15000, &woken, channel)).ok());
  channel->set_active(false);
  service_.NotifyMessageArriving("T", 1, 10);
  EXPECT_EQ(woken.load(), 0);
  EXPECT_EQ(service_.HeldCount(), 0u);
}

TEST_F(PullRequestHoldServiceTest, KeepsOthersOfTheSameQueue) {
  std::atomic<int> a{0}, b{0};
  ASSERT_TRUE(service_.SuspendPullRequest(Request(5, 15000, &a)).ok());
  ASSERT_TRUE(service_.SuspendPullRequest(Request(8, 15000, &b)).ok());
  service_.NotifyMessageArriving("T", 1, 7);
  EXPECT_EQ(a.load(), 1);
  EXPECT_EQ(b.load(), 0);
  EXPECT_EQ(service_.HeldCount(), 1u);
}

TEST(PullRequestHoldServiceCapTest, RefusesPastTheCountAndByteCapsAndFreesOnWake) {
  ManualClock clock;
  PullRequestHoldOptions options;
  options.max_held_requests = 2;
  options.max_held_bytes = 0;
  PullRequestHoldService service(&clock, [](std::string_view, int32_t) { return int64_t{0}; },
                                 nullptr, options);
  std::atomic<int> woken{0};
  auto request = [&woken](size_t bytes) {
    HeldPullRequest r;
    r.topic = "T";
    r.queue_id = 1;
    r.pull_from_offset = 5;
    r.timeout_ms = 15000;
    r.bytes = bytes;
    r.wakeup = [&woken] { woken.fetch_add(1); };
    return r;
  };
  ASSERT_TRUE(service.SuspendPullRequest(request(10)).ok());
  ASSERT_TRUE(service.SuspendPullRequest(request(10)).ok());
  Status refused = service.SuspendPullRequest(request(10));
  EXPECT_TRUE(refused.Is(StatusCode::kBusy));
  EXPECT_NE(refused.message().find("pullHoldMaxRequests"), std::string::npos) << refused.message();
  EXPECT_EQ(service.HeldCount(), 2u);
  service.NotifyMessageArriving("T", 1, 6);  // wakes both: room again
  EXPECT_EQ(woken.load(), 2);
  EXPECT_EQ(service.HeldCount(), 0u);
  EXPECT_EQ(service.HeldBytes(), 0u);
  EXPECT_TRUE(service.SuspendPullRequest(request(10)).ok());

  PullRequestHoldOptions by_bytes;
  by_bytes.max_held_bytes = 4096;
  PullRequestHoldService small(&clock, [](std::string_view, int32_t) { return int64_t{0}; },
                               nullptr, by_bytes);
  EXPECT_TRUE(small.SuspendPullRequest(request(2000)).ok());
  Status too_big = small.SuspendPullRequest(request(2000));
  EXPECT_TRUE(too_big.Is(StatusCode::kBusy));
  EXPECT_NE(too_big.message().find("pullHoldMaxBytes"), std::string::npos) << too_big.message();
  EXPECT_EQ(small.HeldCount(), 1u);
}

TEST(PullRequestHoldServiceExecutorTest, FullPullExecutorAnswersBusyInsteadOfRunningInline) {
  // One thread, busy, and a queue of one: the second woken pull cannot be queued. It must be
  // answered SYSTEM_BUSY (reject), never run on the notifying (reput) thread.
  auto executor = std::make_shared<remoting::ThreadPoolExecutor>("pull", 1, 1);
  std::promise<void> release;
  auto released = release.get_future().share();
  std::promise<void> started;
  ASSERT_TRUE(executor->TryExecute([&] {
    started.set_value();
    released.wait();
  }));
  started.get_future().wait();
  ManualClock clock;
  PullRequestHoldService service(&clock, [](std::string_view, int32_t) { return int64_t{0}; },
                                 executor);
  std::atomic<int> woken{0}, rejected{0};
  std::atomic<bool> ran_on_notifier{false};
  const auto notifier = std::this_thread::get_id();
  for (int i = 0; i < 2; ++i) {
    HeldPullRequest r;
    r.topic = "T";
    r.queue_id = 1;
    r.pull_from_offset = 5;
    r.timeout_ms = 15000;
    r.wakeup = [&] {
      if (std::this_thread::get_id() == notifier) ran_on_notifier = true;
      woken++;
    };
    r.reject = [&] { rejected++; };
    ASSERT_TRUE(service.SuspendPullRequest(std::move(r)).ok());
  }
  service.NotifyMessageArriving("T", 1, 6);
  EXPECT_EQ(rejected.load(), 1);
  release.set_value();
  executor->Shutdown();
  EXPECT_EQ(woken.load(), 1);
  EXPECT_FALSE(ran_on_notifier.load());
}

TEST(PullRequestHoldServiceThreadTest, ServiceThreadAnswersAtTheDeadlineNotAtTheNextPeriod) {
  auto executor = std::make_shared<remoting::ThreadPoolExecutor>("pull", 1, 16);
  PullRequestHoldService service(
      Clock::Real(), [](std::string_view, int32_t) { return int64_t{0}; }, executor);
  service.Start();
  std::atomic<int64_t> woken_at{0};
  HeldPullRequest r;
  r.topic = "T";
  r.timeout_ms = 200;
  r.wakeup = [&woken_at] { woken_at = SteadyMillis(); };
  const int64_t start = SteadyMillis();
  ASSERT_TRUE(service.SuspendPullRequest(std::move(r)).ok());
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return woken_at.load() != 0; },
                                         std::chrono::seconds(3)));
  EXPECT_GE(woken_at.load() - start, 195);
  EXPECT_LT(woken_at.load() - start, 1500);  // long before the 5 s check period
  service.Shutdown();
  executor->Shutdown();
}

}  // namespace
}  // namespace apogee::broker
