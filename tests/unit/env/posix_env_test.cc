// PosixEnv behaviour beyond the shared contract in env_test.cc: what only a real OS shows.
#include "env/posix_env.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "env/mem_env.h"
#include "testutil/test_util.h"

namespace apogee::env {
namespace {

TEST(PosixEnvTest, LockIsRefusedToAnotherProcess) {
  apogee::testing::TempDir dir;
  std::unique_ptr<Env> env = NewPosixEnv();
  auto lock = env->LockFile(dir.Join("lock"));
  ASSERT_TRUE(lock.ok()) << lock.status().ToString();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::unique_ptr<Env> child_env = NewPosixEnv();
    auto child_lock = child_env->LockFile(dir.Join("lock"));
    _exit(child_lock.status().Is(StatusCode::kBusy) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child process was able to take the lock";
}

TEST(PosixEnvTest, MappedBytesReachTheFileOnDisk) {
  apogee::testing::TempDir dir;
  std::unique_ptr<Env> env = NewPosixEnv();
  {
    auto file = env->OpenFile(dir.Join("f"), OpenMode::kCreateNew);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Allocate(3 * 4096).ok());
    auto region = (*file)->Map();
    ASSERT_TRUE(region.ok());
    std::memcpy((*region)->data() + 4097, "unaligned", 9);
    // An unaligned start must work: msync needs page alignment, which Sync adds.
    ASSERT_TRUE((*region)->Sync(4097, 9).ok());
  }
  std::string content = apogee::testing::ReadFileOrEmpty(dir.Join("f"));
  ASSERT_EQ(content.size(), 3u * 4096);
  EXPECT_EQ(content.substr(4097, 9), "unaligned");
}

TEST(PosixEnvTest, AdviceIsAHintThatKeepsTheBytes) {
  apogee::testing::TempDir dir;
  std::unique_ptr<Env> env = NewPosixEnv();
  auto file = env->OpenFile(dir.Join("f"), OpenMode::kCreateNew);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Allocate(3 * 4096).ok());
  auto region = (*file)->Map();
  ASSERT_TRUE(region.ok());
  std::memcpy((*region)->data() + 5000, "kept", 4);
  // An unaligned start is widened to the page, as for Sync.
  ASSERT_TRUE((*region)->Advise(4097, 2 * 4096 - 1, MappedRegion::Access::kPageByPage).ok());
  std::memcpy((*region)->data() + 9000, "too", 3);
  ASSERT_TRUE((*region)->Sync(0, 3 * 4096).ok());
  ASSERT_TRUE((*region)->Advise(0, 3 * 4096, MappedRegion::Access::kNormal).ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>((*region)->data()) + 5000, 4), "kept");
  auto outside = (*region)->Advise(4096, 3 * 4096, MappedRegion::Access::kPageByPage);
  EXPECT_TRUE(outside.Is(StatusCode::kInvalidArgument)) << outside.ToString();
  std::string content = apogee::testing::ReadFileOrEmpty(dir.Join("f"));
  EXPECT_EQ(content.substr(9000, 3), "too");
}

TEST(PosixEnvTest, ErrorsNameThePathAndTheCall) {
  std::unique_ptr<Env> env = NewPosixEnv();
  auto file = env->OpenFile("/nonexistent-apogee-dir/x", OpenMode::kCreateIfMissing);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(file.status().IsNotFound());
  EXPECT_NE(file.status().message().find("/nonexistent-apogee-dir/x"), std::string::npos);
  EXPECT_NE(file.status().message().find("open"), std::string::npos);
}

TEST(PosixEnvTest, BootIdIsTheKernelsAndStable) {
  auto env = NewPosixEnv();
  Result<std::string> id = env->BootId();
  if (!id.ok()) GTEST_SKIP() << "no boot id here: " << id.status().ToString();
  // The kernel's random UUID, without the newline.
  EXPECT_EQ(id->size(), 36u) << *id;
  EXPECT_EQ(id->find('\n'), std::string::npos);
  EXPECT_EQ(env->BootId().value_or(""), *id);
}

TEST(MemEnvBootIdTest, MemEnvHasNone) {
  EXPECT_TRUE(NewMemEnv()->BootId().status().Is(StatusCode::kNotSupported));
}

}  // namespace
}  // namespace apogee::env
