// MessageStore's SYNC_MASTER hook (SetReplicaWaiter): who is asked, when the put completes,
// and how the flush and replica outcomes combine.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <vector>

#include "env/mem_env.h"
#include "store/message_store.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using namespace std::chrono_literals;
using testing::SmallConfig;
using testing::TestMessage;

class ReplicaWaiterTest : public ::testing::Test {
 protected:
  void Open(const std::string& role, const std::string& flush) {
    StoreConfig config = SmallConfig("/store");
    config.broker_role = role;
    config.flush_disk_type = flush;
    auto s = MessageStore::Open(config, mem_.get());
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    store_ = std::move(s).value();
    store_->SetReplicaWaiter([this](int64_t next, std::function<void(PutStatus)> done) {
      std::lock_guard<std::mutex> lock(mu_);
      asked_.push_back(next);
      pending_.push_back(std::move(done));
    });
    ASSERT_TRUE(store_->Start().ok());
  }
  void TearDown() override {
    if (store_) store_->Shutdown();
  }
  size_t asked() {
    std::lock_guard<std::mutex> lock(mu_);
    return asked_.size();
  }
  void Answer(PutStatus status) {
    std::function<void(PutStatus)> done;
    {
      std::lock_guard<std::mutex> lock(mu_);
      done = std::move(pending_.front());
      pending_.erase(pending_.begin());
    }
    done(status);
  }

  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  std::unique_ptr<MessageStore> store_;
  std::mutex mu_;
  std::vector<int64_t> asked_;
  std::vector<std::function<void(PutStatus)>> pending_;
};

TEST_F(ReplicaWaiterTest, SyncMasterCompletesOnlyWhenTheReplicaAnswers) {
  Open("SYNC_MASTER", "ASYNC_FLUSH");
  TestMessage m("TopicA", 0, "x");
  auto f = store_->PutMessage(m.fields, true);
  ASSERT_EQ(asked(), 1u);
  EXPECT_EQ(asked_[0], store_->MaxPhyOffset()) << "waits for the record's end";
  EXPECT_EQ(f.wait_for(100ms), std::future_status::timeout);
  Answer(PutStatus::kPutOk);
  ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(f.get().status, PutStatus::kPutOk);
}

TEST_F(ReplicaWaiterTest, ReplicaOutcomeIsTheAnswer) {
  Open("SYNC_MASTER", "ASYNC_FLUSH");
  TestMessage m("TopicA", 0, "x");
  auto f = store_->PutMessage(m.fields, true);
  Answer(PutStatus::kSlaveNotAvailable);
  PutResult r = f.get();
  EXPECT_EQ(r.status, PutStatus::kSlaveNotAvailable);
  EXPECT_TRUE(PutStatusStored(r.status));
  EXPECT_GT(r.wrote_bytes, 0);
}

TEST_F(ReplicaWaiterTest, SyncFlushAndReplicaWaitRunTogether) {
  Open("SYNC_MASTER", "SYNC_FLUSH");
  TestMessage m("TopicA", 0, "x");
  auto f = store_->PutMessage(m.fields, true);
  // The replica is asked at once, not after the flush.
  EXPECT_EQ(asked(), 1u);
  EXPECT_EQ(f.wait_for(200ms), std::future_status::timeout) << "the flush alone completed it";
  Answer(PutStatus::kFlushSlaveTimeout);
  ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(f.get().status, PutStatus::kFlushSlaveTimeout);
}

TEST_F(ReplicaWaiterTest, AsyncMasterAndNoWaitNeverAsk) {
  Open("ASYNC_MASTER", "SYNC_FLUSH");
  TestMessage m("TopicA", 0, "x");
  EXPECT_EQ(store_->PutMessage(m.fields, true).get().status, PutStatus::kPutOk);
  EXPECT_EQ(asked(), 0u);
}

TEST_F(ReplicaWaiterTest, WaitStoreMsgOkFalseAnswersAtOnce) {
  Open("SYNC_MASTER", "SYNC_FLUSH");
  TestMessage m("TopicA", 0, "x");
  auto f = store_->PutMessage(m.fields, false);
  ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(f.get().status, PutStatus::kPutOk);
  EXPECT_EQ(asked(), 0u);
}

TEST_F(ReplicaWaiterTest, SlaveRefusesPuts) {
  Open("SLAVE", "ASYNC_FLUSH");
  TestMessage m("TopicA", 0, "x");
  EXPECT_EQ(store_->PutMessage(m.fields, true).get().status, PutStatus::kServiceNotAvailable);
  EXPECT_EQ(asked(), 0u);
}

}  // namespace
}  // namespace apogee::store
