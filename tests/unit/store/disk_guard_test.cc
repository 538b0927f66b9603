#include "store/disk_guard.h"

#include <gtest/gtest.h>

#include "env/fault_injection_env.h"
#include "env/mem_env.h"

namespace apogee::store {
namespace {

class DiskGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(mem_->CreateDirs("/s/commitlog").ok());
    options_.commit_log_dir = "/s/commitlog";
    options_.root_dir = "/s";
    options_.commit_log_file_size = 1000;
    options_.consume_queue_file_size = 100;
    options_.index_file_size = 500;
    options_.config_margin_bytes = 50;
  }
  std::unique_ptr<env::Env> mem_ = env::NewMemEnv();
  env::FaultInjectionEnv fault_{mem_.get()};
  DiskGuard::Options options_;
  int64_t prepared_ = 0;
};

// Kept free: CommitLog 1000 + IndexFile 500 + one ConsumeQueue file 100 + margin 50.
TEST_F(DiskGuardTest, RefusesWhenTheNextFilesWouldNotFit) {
  DiskGuard guard(&fault_, options_, [this] { return prepared_; });
  fault_.SetCapacity(10000);
  ASSERT_TRUE(guard.Refresh().ok());
  EXPECT_FALSE(guard.full());
  EXPECT_EQ(guard.reserved_root_bytes(), 650);
  EXPECT_EQ(guard.reserved_commit_log_bytes(), 1000);
  fault_.SetCapacity(1649);
  ASSERT_TRUE(guard.Refresh().ok());
  EXPECT_TRUE(guard.full());
  EXPECT_NE(guard.reason().find("disk full"), std::string::npos) << guard.reason();
  EXPECT_NE(guard.reason().find("next CommitLog file"), std::string::npos) << guard.reason();
  // The allocator already holds the next CommitLog file: it needs no free space.
  prepared_ = 1000;
  ASSERT_TRUE(guard.Refresh().ok());
  EXPECT_FALSE(guard.full());
}

TEST_F(DiskGuardTest, NewConsumeQueueFilesComeOutOfTheBudgetUntilCreated) {
  DiskGuard guard(&fault_, options_, nullptr);
  fault_.SetCapacity(1650 + 350);  // room for three more ConsumeQueue files (and 50 bytes)
  EXPECT_TRUE(guard.Admit(0, 0));
  EXPECT_TRUE(guard.Admit(1, 1));
  EXPECT_TRUE(guard.Admit(2, 2));
  EXPECT_FALSE(guard.Admit(1, 3));
  EXPECT_TRUE(guard.full());
  EXPECT_NE(guard.reason().find("ConsumeQueue"), std::string::npos) << guard.reason();
  // At the next look at the disk the three admitted files, not created yet, stay reserved:
  // plain puts go on, another new queue does not fit.
  EXPECT_TRUE(guard.Admit(0, 1000));
  EXPECT_EQ(guard.reserved_root_bytes(), 500 + 4 * 100 + 50);
  EXPECT_FALSE(guard.Admit(1, 1001));
  // Dispatch created them (they now take real space): one more fits again once freed.
  for (int i = 0; i < 3; ++i) guard.OnConsumeQueueFileCreated();
  fault_.SetCapacity(1650 + 350 + 300);
  EXPECT_TRUE(guard.Admit(0, 2000));
  EXPECT_EQ(guard.reserved_root_bytes(), 650);
}

TEST_F(DiskGuardTest, RefusesAboveTheWarningRatio) {
  options_.warning_ratio = 50;
  DiskGuard guard(&fault_, options_, nullptr);
  fault_.SetCapacity(1 << 20);
  auto fill = fault_.OpenFile("/s/fill", env::OpenMode::kCreateIfMissing);
  ASSERT_TRUE(fill.ok());
  ASSERT_TRUE((*fill)->Allocate(600 << 10).ok());
  ASSERT_TRUE(guard.Refresh().ok());
  EXPECT_TRUE(guard.full());
  EXPECT_NE(guard.reason().find("diskSpaceWarningLevelRatio"), std::string::npos) << guard.reason();
}

TEST_F(DiskGuardTest, ACommitLogOnAnotherDiskIsCheckedOnItsOwn) {
  ASSERT_TRUE(mem_->CreateDirs("/other").ok());
  options_.commit_log_dir = "/other";
  DiskGuard guard(&fault_, options_, nullptr);
  fault_.SetCapacity(1000);  // both "disks" report the same capacity here
  ASSERT_TRUE(guard.Refresh().ok());
  EXPECT_FALSE(guard.full());  // 650 kept on the root, 1000 on the CommitLog's disk
  fault_.SetCapacity(999);
  ASSERT_TRUE(guard.Refresh().ok());
  EXPECT_TRUE(guard.full());
  EXPECT_NE(guard.reason().find("/other"), std::string::npos) << guard.reason();
}

}  // namespace
}  // namespace apogee::store
