// FaultInjectionEnv: losing unsynced bytes (through writes and mappings), named failure
// points, and the simulated disk capacity. Runs over MemEnv and over PosixEnv.
#include "env/fault_injection_env.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "env/mem_env.h"
#include "env/posix_env.h"
#include "testutil/test_util.h"

namespace apogee::env {
namespace {

class FaultInjectionEnvTest : public ::testing::TestWithParam<bool> {
 protected:
  FaultInjectionEnvTest() {
    if (GetParam()) {
      base_ = NewPosixEnv();
      root_ = tmp_.path();
    } else {
      base_ = NewMemEnv();
      root_ = "/fault";
      EXPECT_TRUE(base_->CreateDirs(root_).ok());
    }
    env_ = std::make_unique<FaultInjectionEnv>(base_.get());
  }

  std::string Path(const std::string& name) const { return JoinPath(root_, name); }
  std::string Content(const std::string& name) {
    auto content = ReadFileToString(base_.get(), Path(name));
    EXPECT_TRUE(content.ok()) << content.status().ToString();
    return content.value_or("");
  }

  apogee::testing::TempDir tmp_;
  std::unique_ptr<Env> base_;
  std::string root_;
  std::unique_ptr<FaultInjectionEnv> env_;
};

INSTANTIATE_TEST_SUITE_P(OverMemAndPosix, FaultInjectionEnvTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Posix" : "Mem"; });

TEST_P(FaultInjectionEnvTest, DropsWritesAfterTheLastSync) {
  auto file = env_->OpenFile(Path("cp"), OpenMode::kCreateNew);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Write(0, "synced").ok());
  ASSERT_TRUE((*file)->Sync().ok());
  ASSERT_TRUE((*file)->Write(6, "-lost").ok());
  ASSERT_TRUE((*file)->Write(0, "S").ok());
  EXPECT_EQ(Content("cp"), "Synced-lost");
  EXPECT_EQ(*env_->UnsyncedBytes(), 6u);
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_EQ(Content("cp"), "synced");
  EXPECT_EQ(*env_->UnsyncedBytes(), 0u);
}

TEST_P(FaultInjectionEnvTest, NeverSyncedNewFileBecomesEmpty) {
  auto file = env_->OpenFile(Path("new"), OpenMode::kCreateIfMissing);
  ASSERT_TRUE((*file)->Write(0, "volatile").ok());
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_EQ(Content("new"), "");
}

TEST_P(FaultInjectionEnvTest, PreexistingContentCountsAsDurable) {
  ASSERT_TRUE(WriteFileAtomically(base_.get(), Path("old"), "before").ok());
  auto file = env_->OpenFile(Path("old"), OpenMode::kOpenExisting);
  ASSERT_TRUE((*file)->Write(0, "AFTER!").ok());
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_EQ(Content("old"), "before");
}

TEST_P(FaultInjectionEnvTest, MappedBytesAreLostUnlessTheirRangeIsSynced) {
  auto file = env_->OpenFile(Path("commitlog"), OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Allocate(8192).ok());
  auto region = (*file)->Map();
  ASSERT_TRUE(region.ok());
  uint8_t* data = (*region)->data();
  std::memcpy(data, "record-1", 8);
  std::memcpy(data + 8, "record-2", 8);
  ASSERT_TRUE((*region)->Sync(0, 8).ok());  // only the first record is flushed
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  // The file keeps its pre-allocated size; the unsynced record is gone, also in the mapping.
  std::string content = Content("commitlog");
  ASSERT_EQ(content.size(), 8192u);
  EXPECT_EQ(content.substr(0, 8), "record-1");
  EXPECT_EQ(content.substr(8, 8), std::string(8, '\0'));
  EXPECT_EQ(std::memcmp(data + 8, std::string(8, '\0').data(), 8), 0);
  EXPECT_EQ(std::memcmp(data, "record-1", 8), 0);
}

TEST_P(FaultInjectionEnvTest, SyncRangeMakesOnlyThatRangeDurable) {
  auto file = env_->OpenFile(Path("r"), OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Write(0, "aaaabbbb").ok());
  ASSERT_TRUE((*file)->SyncRange(0, 4).ok());
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_EQ(Content("r"), "aaaa");
}

TEST_P(FaultInjectionEnvTest, RenameCarriesTheDurableImage) {
  auto file = env_->OpenFile(Path("a.tmp"), OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Write(0, "v2").ok());
  ASSERT_TRUE((*file)->Sync().ok());
  ASSERT_TRUE(env_->RenameFile(Path("a.tmp"), Path("a")).ok());
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_EQ(Content("a"), "v2");
  EXPECT_FALSE(base_->FileExists(Path("a.tmp")));
}

TEST_P(FaultInjectionEnvTest, NamedPointsFailTheNextCalls) {
  auto file = env_->OpenFile(Path("f"), OpenMode::kCreateNew);
  ASSERT_TRUE(file.ok());

  env_->FailNext(*ParseFaultPoint("append"), 2);
  Status s = (*file)->Write(0, "x");
  EXPECT_TRUE(s.Is(StatusCode::kIOError));
  EXPECT_NE(s.message().find("'append'"), std::string::npos) << s.ToString();
  EXPECT_FALSE((*file)->Write(0, "x").ok());
  EXPECT_TRUE((*file)->Write(0, "x").ok());
  EXPECT_EQ(env_->injected_failures(FaultPoint::kWrite), 2);
  EXPECT_EQ(Content("f"), "x");  // the failed calls wrote nothing

  env_->FailNext(FaultPoint::kSync, 1);
  EXPECT_FALSE((*file)->Sync().ok());
  EXPECT_TRUE((*file)->Sync().ok());

  env_->FailNext(*ParseFaultPoint("roll"), 1, StatusCode::kNoSpace);
  EXPECT_TRUE(env_->OpenFile(Path("next"), OpenMode::kCreateNew).status().Is(StatusCode::kNoSpace));
  EXPECT_FALSE(base_->FileExists(Path("next")));
  // Opening an existing file is not a roll.
  env_->FailNext(FaultPoint::kCreate, 1);
  EXPECT_TRUE(env_->OpenFile(Path("f"), OpenMode::kCreateIfMissing).ok());
  env_->ClearFault(FaultPoint::kCreate);

  env_->FailNext(*ParseFaultPoint("rename"), 1);
  EXPECT_FALSE(env_->RenameFile(Path("f"), Path("g")).ok());
  EXPECT_TRUE(base_->FileExists(Path("f")));
  EXPECT_TRUE(env_->RenameFile(Path("f"), Path("g")).ok());
}

TEST_P(FaultInjectionEnvTest, MappedSyncIsAFlushPoint) {
  auto file = env_->OpenFile(Path("m"), OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Allocate(4096).ok());
  auto region = (*file)->Map();
  std::memcpy((*region)->data(), "data", 4);
  env_->FailNext(FaultPoint::kSync, 1);
  EXPECT_FALSE((*region)->Sync(0, 4).ok());
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_EQ(Content("m").substr(0, 4), std::string(4, '\0'));
}

TEST_P(FaultInjectionEnvTest, RandomFailuresAreReproducibleFromTheSeed) {
  auto file = env_->OpenFile(Path("p"), OpenMode::kCreateNew);
  auto run = [&](uint64_t seed) {
    env_->FailRandomly(FaultPoint::kWrite, 0.3, seed);
    std::string pattern;
    for (int i = 0; i < 64; ++i) pattern += (*file)->Write(0, "z").ok() ? '.' : 'X';
    env_->ClearAllFaults();
    return pattern;
  };
  const std::string first = run(42);
  EXPECT_EQ(first, run(42));
  EXPECT_NE(first.find('X'), std::string::npos);
  EXPECT_NE(first.find('.'), std::string::npos);
}

TEST_P(FaultInjectionEnvTest, CapacityLimitsGrowth) {
  env_->SetCapacity(1000);
  auto a = env_->OpenFile(Path("a"), OpenMode::kCreateNew);
  auto b = env_->OpenFile(Path("b"), OpenMode::kCreateNew);
  ASSERT_TRUE((*a)->Allocate(600).ok());
  Status full = (*b)->Allocate(500);
  EXPECT_TRUE(full.Is(StatusCode::kNoSpace)) << full.ToString();
  EXPECT_TRUE((*b)->Write(0, std::string(400, 'b')).ok());
  EXPECT_TRUE((*b)->Write(400, "!").Is(StatusCode::kNoSpace));
  EXPECT_TRUE((*b)->Write(0, "overwrite in place is fine").ok());
  EXPECT_EQ(env_->used_bytes(), 1000u);
  auto space = env_->GetDiskSpace(root_);
  ASSERT_TRUE(space.ok());
  EXPECT_EQ(space->total_bytes, 1000u);
  EXPECT_EQ(space->free_bytes, 0u);
  ASSERT_TRUE(env_->DeleteFile(Path("a")).ok());
  EXPECT_TRUE((*b)->Write(400, "!").ok());
}

// A whole-file Sync taking its snapshot while another thread syncs a newer range must not
// roll the newer bytes back (the store's flush service and appender race exactly like this).
TEST_P(FaultInjectionEnvTest, ConcurrentSyncsNeverLoseSyncedBytes) {
  // Large chunks make each whole-file snapshot slow enough for the race to show.
  constexpr size_t kChunk = 4096;
  constexpr size_t kChunks = 128;
  auto file = env_->OpenFile(Path("race"), OpenMode::kCreateNew);
  ASSERT_TRUE((*file)->Allocate(kChunk * kChunks).ok());
  auto region = (*file)->Map();
  ASSERT_TRUE(region.ok());
  std::atomic<bool> done{false};
  std::thread flusher([&] {
    while (!done.load()) ASSERT_TRUE((*file)->Sync().ok());
  });
  for (size_t i = 0; i < kChunks; ++i) {
    std::memset((*region)->data() + i * kChunk, 'a' + static_cast<int>(i % 26), kChunk);
    ASSERT_TRUE((*region)->Sync(i * kChunk, kChunk).ok());
    // Everything written so far has been synced: nothing may be volatile, whatever the
    // flusher's snapshot in flight holds.
    auto unsynced = env_->UnsyncedBytes();
    ASSERT_TRUE(unsynced.ok());
    ASSERT_EQ(*unsynced, 0u) << "after syncing chunk " << i;
  }
  done.store(true);
  flusher.join();
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  const std::string content = Content("race");
  ASSERT_EQ(content.size(), kChunk * kChunks);
  for (size_t i = 0; i < kChunks; ++i) {
    ASSERT_EQ(content.substr(i * kChunk, kChunk),
              std::string(kChunk, static_cast<char>('a' + static_cast<int>(i % 26))))
        << "synced chunk " << i << " was lost";
  }
}

TEST(FaultPointTest, NamesRoundTrip) {
  for (FaultPoint p :
       {FaultPoint::kWrite, FaultPoint::kCreate, FaultPoint::kSync, FaultPoint::kRename}) {
    auto parsed = ParseFaultPoint(FaultPointName(p));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, p);
  }
  EXPECT_EQ(*ParseFaultPoint("write"), FaultPoint::kWrite);
  EXPECT_EQ(*ParseFaultPoint("create"), FaultPoint::kCreate);
  EXPECT_EQ(*ParseFaultPoint("sync"), FaultPoint::kSync);
  auto bad = ParseFaultPoint("explode");
  EXPECT_TRUE(bad.status().Is(StatusCode::kInvalidArgument));
  EXPECT_NE(bad.status().message().find("explode"), std::string::npos);
}

TEST_P(FaultInjectionEnvTest, BootIdIsTheTargetsUntilReplacedAndChangesAtEveryPowerLoss) {
  Result<std::string> target = base_->BootId();
  Result<std::string> first = env_->BootId();
  EXPECT_EQ(first.ok(), target.ok());
  if (target.ok()) {
    EXPECT_EQ(*first, *target);
  }
  env_->SetBootId(std::string("boot-a"));
  EXPECT_EQ(env_->BootId().value_or(""), "boot-a");
  EXPECT_EQ(env_->BootId().value_or(""), "boot-a");  // stable within one "boot"
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  const std::string after_one = env_->BootId().value_or("");
  EXPECT_NE(after_one, "boot-a");
  EXPECT_FALSE(after_one.empty());
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_NE(env_->BootId().value_or(""), after_one);
  env_->SetBootId(Status::NotSupported("none"));
  EXPECT_TRUE(env_->BootId().status().Is(StatusCode::kNotSupported));
  ASSERT_TRUE(env_->DropUnsyncedData().ok());
  EXPECT_FALSE(env_->BootId().ok());  // still none after a power loss
}

}  // namespace
}  // namespace apogee::env
