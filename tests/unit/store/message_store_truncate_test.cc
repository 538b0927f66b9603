// MessageStore::TruncateTo: a failover replica cuts its never-acknowledged tail before it
// follows a new master (CommitLog, ConsumeQueues, index; durable across a restart).
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "env/mem_env.h"
#include "store/message_store.h"
#include "store_test_util.h"
#include "testutil/test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

class TruncateTest : public ::testing::Test {
 protected:
  std::unique_ptr<MessageStore> Open() {
    auto s = MessageStore::Open(config_, mem_.get());
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(*s) : nullptr;
  }
  static void WaitDispatched(MessageStore* s) {
    ASSERT_TRUE(apogee::testing::WaitUntil([&] { return s->DispatchBehindBytes() <= 0; },
                                           std::chrono::seconds(10)));
  }

  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  StoreConfig config_ = SmallConfig("/store");
};

TEST_F(TruncateTest, CutsCommitLogQueuesAndKeysAndStaysCut) {
  std::vector<int64_t> ends;
  {
    auto store = Open();
    ASSERT_TRUE(store->Start().ok());
    for (int i = 0; i < 6; ++i) {
      TestMessage m("T", 0, "m" + std::to_string(i));
      PutResult r = store->PutMessage(m.fields, true).get();
      ASSERT_EQ(r.status, PutStatus::kPutOk);
      ends.push_back(r.wrote_offset.value() + r.wrote_bytes);
    }
    WaitDispatched(store.get());
    store->Shutdown();
  }
  {
    auto store = Open();
    ASSERT_TRUE(store);
    int64_t messages_cut = -1;
    auto cut = store->TruncateTo(ends[2], &messages_cut);
    ASSERT_TRUE(cut.ok()) << cut.status().ToString();
    EXPECT_EQ(*cut, ends[5] - ends[2]);
    EXPECT_EQ(messages_cut, 3) << "m3, m4, m5";
    EXPECT_EQ(store->MaxPhyOffset(), ends[2]);
    ASSERT_TRUE(store->Start().ok());
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), 3);
    // The next put continues at queue offset 3, right after the cut.
    TestMessage m("T", 0, "after");
    PutResult r = store->PutMessage(m.fields, true).get();
    ASSERT_EQ(r.status, PutStatus::kPutOk);
    EXPECT_EQ(r.queue_offset.value(), 3);
    EXPECT_EQ(r.wrote_offset.value(), ends[2]);
    WaitDispatched(store.get());
    EXPECT_EQ(store->TruncateTo(0).status().code(), StatusCode::kAborted) << "only before Start";
    store->Shutdown();
  }
  {
    auto store = Open();
    ASSERT_TRUE(store->Start().ok());
    EXPECT_EQ(store->GetMaxOffsetInQueue("T", 0), 4);
    GetMessageResult g = store->GetMessages("T", 0, 0, 32, 1 << 20);
    ASSERT_EQ(g.messages.size(), 4u);
    auto last = message::DecodeRecord(g.messages[3].data, static_cast<size_t>(g.messages[3].size));
    EXPECT_EQ(last.record.body, "after");
    store->Shutdown();
  }
}

TEST_F(TruncateTest, NothingToCutPastTheEnd) {
  auto store = Open();
  ASSERT_TRUE(store);
  auto cut = store->TruncateTo(1 << 20);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(*cut, 0);
}

}  // namespace
}  // namespace apogee::store
