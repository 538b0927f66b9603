// Restart after an abnormal exit: the abort marker carries the boot id written at Start, and
// recovery keeps the index files only when the store reopens on the same boot (the process was
// killed, the page cache survived). A different boot id (a reboot, simulated through
// FaultInjectionEnv), none at all, or a marker from an older build (empty) recover as before:
// the index file being written is rebuilt. Either way every key is found exactly once.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <string>
#include <thread>

#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "message/message_record.h"
#include "store/message_store.h"
#include "store_test_util.h"

namespace apogee::store {
namespace {

using testing::SmallConfig;
using testing::TestMessage;

class MessageStoreRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = SmallConfig("/restart");
    config_.max_index_num = 4096;
    fault_.SetBootId(std::string("boot-1"));
  }

  std::unique_ptr<MessageStore> Open() {
    auto opened = MessageStore::Open(config_, &fault_, &clock_);
    EXPECT_TRUE(opened.ok()) << opened.status().ToString();
    return opened.ok() ? std::move(*opened) : nullptr;
  }

  // Opens, starts, puts `n` more messages (KEYS "k<i> all", UNIQ_KEY "u<i>"), waits for
  // dispatch and dies without a clean shutdown.
  void RunAndKill(int n) {
    auto store = Open();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Start().ok());
    for (int i = 0; i < n; ++i, ++written_) {
      clock_.Advance(10);
      TestMessage m("Restart", written_ % 4, "body" + std::to_string(written_), "",
                    "k" + std::to_string(written_) + " all", "u" + std::to_string(written_));
      ASSERT_EQ(store->PutMessage(m.fields, false).get().status, PutStatus::kPutOk);
    }
    for (int spin = 0; store->DispatchBehindBytes() > 0 && spin < 5000; ++spin) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(store->DispatchBehindBytes(), 0);
    store->Halt();  // like kill -9: the abort marker stays, the mapped pages stay
  }

  // Reopens after the kill and checks what recovery did with the index.
  void ExpectRecovered(bool same_boot) {
    auto store = Open();
    ASSERT_NE(store, nullptr);
    EXPECT_FALSE(store->recovery_report().last_exit_ok);
    EXPECT_EQ(store->recovery_report().same_boot, same_boot);
    for (int i = 0; i < written_; ++i) {
      for (const std::string& key : {"k" + std::to_string(i), "u" + std::to_string(i)}) {
        EXPECT_EQ(store->QueryMessages("Restart", key, 8, 0, INT64_MAX).messages.size(), 1u)
            << "key " << key;
      }
    }
    EXPECT_EQ(store->QueryMessages("Restart", "all", 4 * written_, 0, INT64_MAX).messages.size(),
              static_cast<size_t>(written_));
    store->Halt();  // never started: the files and the marker stay as they are
  }

  std::string Marker() {
    auto m = env::ReadFileToString(&fault_, config_.AbortPath());
    EXPECT_TRUE(m.ok());
    return m.ok() ? *m : "";
  }

  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  env::FaultInjectionEnv fault_{mem_.get()};
  ManualClock clock_;
  StoreConfig config_;
  int written_ = 0;
};

TEST_F(MessageStoreRestartTest, StartWritesTheBootIdIntoTheAbortMarker) {
  auto store = Open();
  ASSERT_TRUE(store->Start().ok());
  EXPECT_EQ(Marker(), "boot-1\n");
  store->Shutdown();
  EXPECT_FALSE(fault_.FileExists(config_.AbortPath()));
}

TEST_F(MessageStoreRestartTest, SameBootKeepsTheIndexAndFindsEveryKeyOnce) {
  RunAndKill(150);
  ExpectRecovered(/*same_boot=*/true);
  RunAndKill(70);  // twice: the kept file goes on being written
  ExpectRecovered(/*same_boot=*/true);
}

TEST_F(MessageStoreRestartTest, AnotherBootRebuildsTheIndex) {
  RunAndKill(150);
  fault_.SetBootId(std::string("boot-2"));  // rebooted, no data lost
  ExpectRecovered(/*same_boot=*/false);
}

TEST_F(MessageStoreRestartTest, PowerLossIsAnotherBoot) {
  RunAndKill(150);
  ASSERT_TRUE(fault_.DropUnsyncedData().ok());
  auto store = Open();
  ASSERT_NE(store, nullptr);
  EXPECT_FALSE(store->recovery_report().last_exit_ok);
  EXPECT_FALSE(store->recovery_report().same_boot);
  store->Halt();
}

TEST_F(MessageStoreRestartTest, NoBootIdMeansNoTrust) {
  RunAndKill(150);
  fault_.SetBootId(Status::NotSupported("no boot id here"));
  ExpectRecovered(/*same_boot=*/false);
  // Start still writes a marker, empty: the next start cannot tell a reboot either.
  auto store = Open();
  ASSERT_TRUE(store->Start().ok());
  EXPECT_EQ(Marker(), "");
  store->Halt();
}

TEST_F(MessageStoreRestartTest, AnEmptyMarkerFromAnOlderBuildMeansNoTrust) {
  RunAndKill(150);
  auto f = fault_.OpenFile(config_.AbortPath(), env::OpenMode::kOpenExisting);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->Truncate(0).ok());
  ASSERT_TRUE((*f)->Close().ok());
  ExpectRecovered(/*same_boot=*/false);
}

}  // namespace
}  // namespace apogee::store
