// DiskUsedRatio against Java's arithmetic and against `df` on a real file system whose
// reserved blocks make 1 - f_bavail / f_blocks wrong.
#include "env/disk_usage.h"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "env/mem_env.h"
#include "env/posix_env.h"
#include "testutil/test_util.h"

namespace apogee::env {
namespace {

TEST(DiskUsedRatioTest, RoundsUpToAWholePercentAsJavaDoes) {
  EXPECT_DOUBLE_EQ(DiskUsedRatio({.total_bytes = 100, .free_bytes = 76}), 0.24);
  EXPECT_DOUBLE_EQ(DiskUsedRatio({.total_bytes = 1000, .free_bytes = 759}), 0.25);  // 24.1 %
  EXPECT_DOUBLE_EQ(DiskUsedRatio({.total_bytes = 800, .free_bytes = 500}), 0.38);   // 37.5 %
  EXPECT_DOUBLE_EQ(DiskUsedRatio({.total_bytes = 1000, .free_bytes = 1000}), 0.0);
  EXPECT_DOUBLE_EQ(DiskUsedRatio({.total_bytes = 1000, .free_bytes = 0}), 1.0);
  EXPECT_DOUBLE_EQ(DiskUsedRatio({.total_bytes = 1000, .free_bytes = 2000}), 0.0);  // never negative
}

TEST(DiskUsedRatioTest, UnknownSpaceIsMinusOne) {
  EXPECT_EQ(DiskUsedRatio({}), -1);
  EXPECT_EQ(DiskUsedRatioOf(nullptr, "/"), -1);
  std::unique_ptr<Env> env = NewMemEnv(1000);
  EXPECT_EQ(DiskUsedRatioOf(env.get(), "/no/such/dir"), -1);
}

TEST(DiskUsedRatioTest, MemEnvCountsFileBytes) {
  std::unique_ptr<Env> env = NewMemEnv(1000);
  ASSERT_TRUE(env->CreateDirs("/d").ok());
  auto file = env->OpenFile("/d/f", OpenMode::kCreateNew);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Allocate(240).ok());
  EXPECT_DOUBLE_EQ(DiskUsedRatioOf(env.get(), "/d"), 0.24);
}

// Runs a shell command; true when it exits 0.
bool Shell(const std::string& command) { return std::system(command.c_str()) == 0; }

std::string Capture(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[256];
  while (fgets(buf, sizeof(buf), pipe) != nullptr) out += buf;
  pclose(pipe);
  return out;
}

// An ext4 image with 20 % reserved blocks, loop-mounted for the test's lifetime.
class ReservedExt4 {
 public:
  explicit ReservedExt4(const apogee::testing::TempDir& dir)
      : image_(dir.Join("fs.img")), mount_point_(dir.Join("mnt")) {}
  ~ReservedExt4() {
    if (mounted_) umount2(mount_point_.c_str(), MNT_DETACH);
  }

  // "" when mounted, else why not.
  std::string Mount() {
    if (geteuid() != 0) return "not root";
    if (!Shell("command -v mkfs.ext4 >/dev/null 2>&1")) return "mkfs.ext4 is not installed";
    if (!Shell("truncate -s 64M '" + image_ + "' && mkfs.ext4 -q -F -m 20 '" + image_ +
             "' >/dev/null 2>&1")) {
      return "mkfs.ext4 failed";
    }
    if (!Shell("mkdir -p '" + mount_point_ + "' && mount -o loop '" + image_ + "' '" +
             mount_point_ + "' 2>/dev/null")) {
      return "mount -o loop failed (no loop device or no CAP_SYS_ADMIN in this container)";
    }
    mounted_ = true;
    return "";
  }
  const std::string& mount_point() const { return mount_point_; }

 private:
  std::string image_;
  std::string mount_point_;
  bool mounted_ = false;
};

TEST(DiskUsedRatioTest, MatchesDfOnAFileSystemWithReservedBlocks) {
  apogee::testing::TempDir dir;
  ReservedExt4 fs(dir);
  if (std::string why = fs.Mount(); !why.empty()) {
    GTEST_SKIP() << "cannot loop-mount an ext4 image with reserved blocks: " << why;
  }
  std::unique_ptr<Env> env = NewPosixEnv();
  // Fill about a third so the ratio is far from both 0 and the reserved share.
  ASSERT_TRUE(Shell("dd if=/dev/zero of='" + fs.mount_point() +
                  "/fill' bs=1M count=20 status=none && sync"));
  auto space = env->GetDiskSpace(fs.mount_point());
  ASSERT_TRUE(space.ok()) << space.status().ToString();

  const std::string df = Capture("df --output=pcent '" + fs.mount_point() + "' | tail -1");
  ASSERT_FALSE(df.empty());
  const int df_percent = std::atoi(df.c_str());
  ASSERT_GT(df_percent, 0) << "df printed: " << df;
  EXPECT_DOUBLE_EQ(DiskUsedRatioOf(env.get(), fs.mount_point()), df_percent / 100.0)
      << "df says " << df_percent << "%";
  // The old formula (1 - f_bavail / f_blocks) counted the reserved 20 % as used.
  struct statvfs vfs {};
  ASSERT_EQ(statvfs(fs.mount_point().c_str(), &vfs), 0);
  const double naive = 1.0 - static_cast<double>(vfs.f_bavail) / static_cast<double>(vfs.f_blocks);
  EXPECT_GT(naive * 100, df_percent + 10) << "naive " << naive;
  EXPECT_LT(space->total_bytes, static_cast<uint64_t>(vfs.f_blocks) * vfs.f_frsize * 9 / 10);
}

// Without a mount: on the file system the tests' temporary directories live on (root-
// reserved blocks there too, usually) the ratio is df's Use% for the same directory. Others may write meanwhile,
// so df is read before and after and the ratio must lie between the two.
TEST(DiskUsedRatioTest, MatchesDfOnTheBuildDirectorysFileSystem) {
  apogee::testing::TempDir dir;
  const std::string df_command = "df --output=pcent '" + dir.path() + "' | tail -1";
  const std::string before = Capture(df_command);
  if (before.empty()) GTEST_SKIP() << "df is not available";
  std::unique_ptr<Env> env = NewPosixEnv();
  const double ratio = DiskUsedRatioOf(env.get(), dir.path());
  const std::string after = Capture(df_command);
  const int low = std::min(std::atoi(before.c_str()), std::atoi(after.c_str()));
  const int high = std::max(std::atoi(before.c_str()), std::atoi(after.c_str()));
  EXPECT_GE(ratio * 100 + 1e-9, low) << "df said " << before << " then " << after;
  EXPECT_LE(ratio * 100 - 1e-9, high) << "df said " << before << " then " << after;
}

}  // namespace
}  // namespace apogee::env
