#include "client/offset_store_remote.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace apogee::client {
namespace {

const protocol::MessageQueue kA{"T", "broker-a", 0};
const protocol::MessageQueue kB{"T", "broker-a", 1};

// Records the calls and answers from a table, as a broker would.
class FakeBroker : public OffsetBrokerAccess {
 public:
  struct Update {
    std::string group;
    protocol::MessageQueue mq;
    int64_t offset;
    bool oneway;
  };
  Result<int64_t> QueryConsumerOffset(const std::string& group,
                                      const protocol::MessageQueue& mq) override {
    ++queries;
    if (fail_queries) return Status::Timeout("wait response on broker-a timed out");
    auto it = stored.find(mq);
    if (it == stored.end()) return Status::NotFound("QUERY_NOT_FOUND");
    return it->second;
  }
  Status UpdateConsumerOffset(const std::string& group, const protocol::MessageQueue& mq,
                              int64_t offset, bool oneway) override {
    updates.push_back({group, mq, offset, oneway});
    return Status::OK();
  }
  std::map<protocol::MessageQueue, int64_t> stored;
  std::vector<Update> updates;
  int queries = 0;
  bool fail_queries = false;
};

TEST(RemoteBrokerOffsetStoreTest, ReadsFromBrokerOnceThenFromMemory) {
  auto broker = std::make_shared<FakeBroker>();
  broker->stored[kA] = 42;
  RemoteBrokerOffsetStore store("G", broker);
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromMemory), kOffsetNotFound);
  EXPECT_EQ(broker->queries, 0);
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kMemoryFirstThenStore), 42);
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kMemoryFirstThenStore), 42);
  EXPECT_EQ(broker->queries, 1);
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromMemory), 42);
  broker->stored[kA] = 50;
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromStore), 50);
  EXPECT_EQ(broker->queries, 2);
}

TEST(RemoteBrokerOffsetStoreTest, NotFoundAndErrorsAreDistinct) {
  auto broker = std::make_shared<FakeBroker>();
  RemoteBrokerOffsetStore store("G", broker);
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromStore), kOffsetNotFound);
  broker->fail_queries = true;
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromStore), kOffsetReadError);
}

TEST(RemoteBrokerOffsetStoreTest, PersistAllSendsOnewayAndForgetsQueuesNoLongerOwned) {
  auto broker = std::make_shared<FakeBroker>();
  RemoteBrokerOffsetStore store("G", broker);
  store.UpdateOffset(kA, 7, false);
  store.UpdateOffset(kB, 9, false);
  store.PersistAll({kA});
  ASSERT_EQ(broker->updates.size(), 1u);
  EXPECT_EQ(broker->updates[0].group, "G");
  EXPECT_EQ(broker->updates[0].mq, kA);
  EXPECT_EQ(broker->updates[0].offset, 7);
  EXPECT_TRUE(broker->updates[0].oneway);
  EXPECT_EQ(store.ReadOffset(kB, ReadOffsetType::kReadFromMemory), kOffsetNotFound);
  store.PersistAll({});  // nothing owned: nothing sent
  EXPECT_EQ(broker->updates.size(), 1u);
}

TEST(RemoteBrokerOffsetStoreTest, IncreaseOnlyAndRemove) {
  auto broker = std::make_shared<FakeBroker>();
  RemoteBrokerOffsetStore store("G", broker);
  store.UpdateOffset(kA, 10, true);
  store.UpdateOffset(kA, 4, true);
  EXPECT_EQ(store.ReadOffset(kA, ReadOffsetType::kReadFromMemory), 10);
  store.Persist(kA);
  ASSERT_EQ(broker->updates.size(), 1u);
  EXPECT_EQ(broker->updates[0].offset, 10);
  EXPECT_EQ(store.CloneOffsetTable("T").size(), 1u);
  EXPECT_TRUE(store.CloneOffsetTable("X").empty());
  store.RemoveOffset(kA);
  EXPECT_TRUE(store.CloneOffsetTable("").empty());
  ASSERT_TRUE(store.UpdateConsumeOffsetToBroker(kB, 3, false).ok());
  EXPECT_FALSE(broker->updates.back().oneway);
}

}  // namespace
}  // namespace apogee::client
