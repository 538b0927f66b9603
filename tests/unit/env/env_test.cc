// The Env contract, run over PosixEnv (in a temporary directory) and MemEnv, plus the
// helpers of env.h that are built on the interface.
#include "env/env.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "env/fault_injection_env.h"
#include "env/mem_env.h"
#include "env/posix_env.h"
#include "env/state_file.h"
#include "testutil/test_util.h"

namespace apogee::env {
namespace {

struct PosixFixture {
  std::unique_ptr<Env> env = NewPosixEnv();
  apogee::testing::TempDir dir;
  std::string root() const { return dir.path(); }
};

struct MemFixture {
  std::unique_ptr<Env> env = NewMemEnv();
  MemFixture() { EXPECT_TRUE(env->CreateDirs("/mem/root").ok()); }
  std::string root() const { return "/mem/root"; }
};

template <typename Fixture>
class EnvContractTest : public ::testing::Test {
 protected:
  Env* env() { return fixture_.env.get(); }
  std::string Path(const std::string& name) const { return JoinPath(fixture_.root(), name); }

  std::unique_ptr<RandomRWFile> Open(const std::string& name, OpenMode mode) {
    auto file = env()->OpenFile(Path(name), mode);
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    return file.ok() ? std::move(file).value() : nullptr;
  }

  std::string ReadAll(RandomRWFile& file) {
    auto size = file.Size();
    EXPECT_TRUE(size.ok());
    std::string out(*size, '\0');
    auto n = file.Read(0, out.size(), reinterpret_cast<uint8_t*>(out.data()));
    EXPECT_TRUE(n.ok());
    out.resize(*n);
    return out;
  }

  Fixture fixture_;
};

using EnvTypes = ::testing::Types<PosixFixture, MemFixture>;
class EnvTypeNames {
 public:
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, PosixFixture> ? "Posix" : "Mem";
  }
};
TYPED_TEST_SUITE(EnvContractTest, EnvTypes, EnvTypeNames);

TYPED_TEST(EnvContractTest, CreateDirsIsRecursiveAndIdempotent) {
  const std::string deep = this->Path("a/b/c");
  ASSERT_TRUE(this->env()->CreateDirs(deep).ok());
  ASSERT_TRUE(this->env()->CreateDirs(deep).ok());
  EXPECT_TRUE(this->env()->IsDirectory(this->Path("a")));
  EXPECT_TRUE(this->env()->IsDirectory(deep));
  EXPECT_TRUE(this->env()->FileExists(deep));
  EXPECT_FALSE(this->env()->FileExists(this->Path("nope")));
}

TYPED_TEST(EnvContractTest, CreateDirsOverAFileFails) {
  auto file = this->Open("plain", OpenMode::kCreateNew);
  ASSERT_NE(file, nullptr);
  Status s = this->env()->CreateDirs(this->Path("plain/sub"));
  EXPECT_FALSE(s.ok());
}

TYPED_TEST(EnvContractTest, ListDirReturnsSortedNames) {
  ASSERT_TRUE(this->env()->CreateDirs(this->Path("d/sub")).ok());
  for (const char* name : {"00000000001073741824", "00000000000000000000", "zeta"}) {
    ASSERT_NE(this->Open(std::string("d/") + name, OpenMode::kCreateNew), nullptr);
  }
  auto names = this->env()->ListDir(this->Path("d"));
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  EXPECT_EQ(*names, (std::vector<std::string>{"00000000000000000000", "00000000001073741824", "sub",
                                              "zeta"}));
  auto missing = this->env()->ListDir(this->Path("missing"));
  EXPECT_TRUE(missing.status().IsNotFound()) << missing.status().ToString();
}

TYPED_TEST(EnvContractTest, OpenModes) {
  EXPECT_TRUE(
      this->env()->OpenFile(this->Path("f"), OpenMode::kOpenExisting).status().IsNotFound());
  ASSERT_NE(this->Open("f", OpenMode::kCreateNew), nullptr);
  EXPECT_TRUE(this->env()
                  ->OpenFile(this->Path("f"), OpenMode::kCreateNew)
                  .status()
                  .Is(StatusCode::kAlreadyExists));
  EXPECT_NE(this->Open("f", OpenMode::kCreateIfMissing), nullptr);
  EXPECT_NE(this->Open("f", OpenMode::kOpenExisting), nullptr);
  // The parent directory must exist.
  EXPECT_TRUE(this->env()
                  ->OpenFile(this->Path("nodir/f"), OpenMode::kCreateIfMissing)
                  .status()
                  .IsNotFound());
}

TYPED_TEST(EnvContractTest, WriteAndReadAtOffsets) {
  auto file = this->Open("data", OpenMode::kCreateNew);
  ASSERT_NE(file, nullptr);
  ASSERT_TRUE(file->Write(0, "hello").ok());
  ASSERT_TRUE(file->Write(10, "world").ok());  // leaves a hole that reads as zeros
  EXPECT_EQ(*file->Size(), 15u);
  EXPECT_EQ(this->ReadAll(*file), std::string("hello\0\0\0\0\0world", 15));
  ASSERT_TRUE(file->Write(1, "EL").ok());
  uint8_t buf[8];
  auto n = file->Read(0, 5, buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), *n), "hELlo");
  // Short read at the end, empty read past it.
  n = file->Read(12, 8, buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 3u);
  n = file->Read(100, 8, buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
  EXPECT_EQ(*this->env()->GetFileSize(this->Path("data")), 15u);
}

TYPED_TEST(EnvContractTest, AllocateGrowsWithZerosAndNeverShrinks) {
  auto file = this->Open("alloc", OpenMode::kCreateNew);
  ASSERT_NE(file, nullptr);
  ASSERT_TRUE(file->Write(0, "abc").ok());
  ASSERT_TRUE(file->Allocate(4096).ok());
  EXPECT_EQ(*file->Size(), 4096u);
  std::string content = this->ReadAll(*file);
  EXPECT_EQ(content.substr(0, 3), "abc");
  EXPECT_EQ(content.substr(3), std::string(4093, '\0'));
  ASSERT_TRUE(file->Allocate(100).ok());
  EXPECT_EQ(*file->Size(), 4096u);
  ASSERT_TRUE(file->Truncate(2).ok());
  EXPECT_EQ(this->ReadAll(*file), "ab");
  ASSERT_TRUE(file->Sync().ok());
  ASSERT_TRUE(file->SyncRange(0, 2).ok());
}

TYPED_TEST(EnvContractTest, MappingSharesBytesWithTheFile) {
  auto file = this->Open("mapped", OpenMode::kCreateNew);
  ASSERT_NE(file, nullptr);
  ASSERT_TRUE(file->Allocate(8192).ok());
  auto region = file->Map();
  ASSERT_TRUE(region.ok()) << region.status().ToString();
  ASSERT_EQ((*region)->size(), 8192u);
  std::memcpy((*region)->data() + 5000, "mapped!", 7);
  ASSERT_TRUE((*region)->Sync(5000, 7).ok());
  uint8_t buf[7];
  ASSERT_EQ(*file->Read(5000, 7, buf), 7u);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 7), "mapped!");
  // Writes through the file are visible in the mapping, and in a second mapping.
  ASSERT_TRUE(file->Write(0, "head").ok());
  EXPECT_EQ(std::memcmp((*region)->data(), "head", 4), 0);
  auto second = file->Map();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(std::memcmp((*second)->data() + 5000, "mapped!", 7), 0);
  // The mapping outlives the handle.
  ASSERT_TRUE(file->Close().ok());
  std::memcpy((*region)->data() + 100, "x", 1);
  ASSERT_TRUE((*region)->Sync(0, 8192).ok());
  auto content = ReadFileToString(this->env(), this->Path("mapped"));
  ASSERT_TRUE(content.ok());
  EXPECT_EQ((*content)[100], 'x');
}

TYPED_TEST(EnvContractTest, MappingSyncRejectsRangesOutside) {
  auto file = this->Open("m2", OpenMode::kCreateNew);
  ASSERT_TRUE(file->Allocate(4096).ok());
  auto region = file->Map();
  ASSERT_TRUE(region.ok());
  EXPECT_TRUE((*region)->Sync(4000, 200).Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE((*region)->Sync(4096, 0).ok());
}

TYPED_TEST(EnvContractTest, EmptyFileMapsToEmptyRegion) {
  auto file = this->Open("empty", OpenMode::kCreateNew);
  auto region = file->Map();
  ASSERT_TRUE(region.ok());
  EXPECT_EQ((*region)->size(), 0u);
}

TYPED_TEST(EnvContractTest, ClosedFileRefusesCalls) {
  auto file = this->Open("closed", OpenMode::kCreateNew);
  ASSERT_TRUE(file->Close().ok());
  ASSERT_TRUE(file->Close().ok());
  EXPECT_FALSE(file->Write(0, "x").ok());
  EXPECT_FALSE(file->Size().ok());
}

TYPED_TEST(EnvContractTest, RenameReplacesTargetAtomically) {
  ASSERT_TRUE(WriteFileAtomically(this->env(), this->Path("config.json"), "old").ok());
  auto tmp = this->Open("config.json.new", OpenMode::kCreateNew);
  ASSERT_TRUE(tmp->Write(0, "new").ok());
  ASSERT_TRUE(
      this->env()->RenameFile(this->Path("config.json.new"), this->Path("config.json")).ok());
  EXPECT_FALSE(this->env()->FileExists(this->Path("config.json.new")));
  EXPECT_EQ(*ReadFileToString(this->env(), this->Path("config.json")), "new");
  EXPECT_TRUE(this->env()->RenameFile(this->Path("gone"), this->Path("x")).IsNotFound());
  ASSERT_TRUE(this->env()->SyncDir(this->fixture_.root()).ok());
}

TYPED_TEST(EnvContractTest, DeleteFileAndDir) {
  ASSERT_TRUE(this->env()->CreateDirs(this->Path("dir")).ok());
  ASSERT_NE(this->Open("dir/f", OpenMode::kCreateNew), nullptr);
  EXPECT_FALSE(this->env()->DeleteDir(this->Path("dir")).ok());  // not empty
  ASSERT_TRUE(this->env()->DeleteFile(this->Path("dir/f")).ok());
  EXPECT_TRUE(this->env()->DeleteFile(this->Path("dir/f")).IsNotFound());
  ASSERT_TRUE(this->env()->DeleteDir(this->Path("dir")).ok());
  EXPECT_FALSE(this->env()->FileExists(this->Path("dir")));
}

TYPED_TEST(EnvContractTest, DeleteRecursivelyRemovesATree) {
  ASSERT_TRUE(this->env()->CreateDirs(this->Path("t/q/0")).ok());
  ASSERT_NE(this->Open("t/q/0/00000000000000000000", OpenMode::kCreateNew), nullptr);
  ASSERT_NE(this->Open("t/top", OpenMode::kCreateNew), nullptr);
  ASSERT_TRUE(DeleteRecursively(this->env(), this->Path("t")).ok());
  EXPECT_FALSE(this->env()->FileExists(this->Path("t")));
  EXPECT_TRUE(DeleteRecursively(this->env(), this->Path("t")).ok());
}

TYPED_TEST(EnvContractTest, LockFileIsExclusive) {
  auto first = this->env()->LockFile(this->Path("lock"));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = this->env()->LockFile(this->Path("lock"));
  EXPECT_TRUE(second.status().Is(StatusCode::kBusy)) << second.status().ToString();
  first.value().reset();
  auto third = this->env()->LockFile(this->Path("lock"));
  EXPECT_TRUE(third.ok()) << third.status().ToString();
}

TYPED_TEST(EnvContractTest, DiskSpaceIsReported) {
  auto space = this->env()->GetDiskSpace(this->fixture_.root());
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  EXPECT_GT(space->total_bytes, 0u);
  EXPECT_LE(space->free_bytes, space->total_bytes);
  EXPECT_FALSE(this->env()->GetDiskSpace(this->Path("missing/x")).ok());
}

TYPED_TEST(EnvContractTest, ReadFileToStringOfMissingFileIsNotFound) {
  EXPECT_TRUE(ReadFileToString(this->env(), this->Path("none")).status().IsNotFound());
}

TYPED_TEST(EnvContractTest, WriteFileAtomicallyReplacesContent) {
  ASSERT_TRUE(WriteFileAtomically(this->env(), this->Path("cp"), "a longer first version").ok());
  ASSERT_TRUE(WriteFileAtomically(this->env(), this->Path("cp"), "short").ok());
  EXPECT_EQ(*ReadFileToString(this->env(), this->Path("cp")), "short");
  EXPECT_FALSE(this->env()->FileExists(this->Path("cp.tmp")));
}

TYPED_TEST(EnvContractTest, WriteFileAtomicallyCreatesDirsAndKeepsTheBackup) {
  const std::string path = this->Path("a/b/state.json");
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "one").ok());
  EXPECT_EQ(*ReadFileToString(this->env(), path), "one");
  EXPECT_FALSE(this->env()->FileExists(path + ".bak"));
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "two").ok());
  EXPECT_EQ(*ReadFileToString(this->env(), path), "two");
  EXPECT_EQ(*ReadFileToString(this->env(), path + ".bak"), "one");
  EXPECT_FALSE(this->env()->FileExists(path + ".tmp"));
}

TYPED_TEST(EnvContractTest, WriteFileAtomicallyBelowAFileFailsNamingIt) {
  const std::string blocker = this->Path("blocker");
  ASSERT_TRUE(WriteFileAtomically(this->env(), blocker, "x").ok());
  Status s = WriteFileAtomically(this->env(), blocker + "/child.json", "y");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(blocker), std::string::npos) << s.ToString();
}

// A decoder that accepts "ok:<value>" and keeps the value.
ContentDecoder Accepting(std::string* value) {
  return [value](std::string_view content) {
    if (!content.starts_with("ok:")) return Status::Corruption("not ok: " + std::string(content));
    *value = std::string(content.substr(3));
    return Status::OK();
  };
}

TYPED_TEST(EnvContractTest, LoadFileWithBackupPrefersTheMainFile) {
  const std::string path = this->Path("s.json");
  std::string value;
  auto none = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, LoadedFrom::kNothing);
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "ok:1").ok());
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "ok:2").ok());
  auto main = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(main.ok());
  EXPECT_EQ(*main, LoadedFrom::kMainFile);
  EXPECT_EQ(value, "2");
}

TYPED_TEST(EnvContractTest, LoadFileWithBackupFallsBackWhenTheMainFileIsUnusable) {
  const std::string path = this->Path("s.json");
  std::string value;
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "ok:1").ok());
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "torn{").ok());
  auto from_bak = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(from_bak.ok()) << from_bak.status().ToString();
  EXPECT_EQ(*from_bak, LoadedFrom::kBackup);
  EXPECT_EQ(value, "1");
  // An empty main file counts as missing.
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "").ok());
  ASSERT_TRUE(this->env()->DeleteFile(path + ".bak").ok());
  auto empty = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, LoadedFrom::kNothing);
  // A crash between the two renames of a write: .bak and .tmp, no main file.
  ASSERT_TRUE(WriteFileAtomically(this->env(), path + ".bak", "ok:old").ok());
  ASSERT_TRUE(this->env()->DeleteFile(path).ok());
  ASSERT_TRUE(WriteFileAtomically(this->env(), path + ".tmp", "ok:new").ok());
  auto mid_write = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(mid_write.ok());
  EXPECT_EQ(*mid_write, LoadedFrom::kBackup);
  EXPECT_EQ(value, "old");
}

TYPED_TEST(EnvContractTest, LoadFileWithBackupRefusesToForgetAnUnusableFile) {
  const std::string path = this->Path("s.json");
  std::string value;
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "garbage").ok());
  auto no_bak = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(no_bak.status().IsCorruption());
  EXPECT_NE(no_bak.status().message().find(path + ".bak"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomically(this->env(), path, "more garbage").ok());
  auto both = LoadFileWithBackup(this->env(), path, Accepting(&value));
  ASSERT_TRUE(both.status().IsCorruption());
  EXPECT_NE(both.status().message().find(path), std::string::npos);
  EXPECT_NE(both.status().message().find(path + ".bak"), std::string::npos);
}

// Crash safety of the writer, with the fault-injecting Env: a failure at any step, or a
// power loss after it returns, loses neither the previous nor (once it succeeded) the new
// content.
class WriteFileAtomicallyFaultTest : public ::testing::TestWithParam<FaultPoint> {
 protected:
  WriteFileAtomicallyFaultTest() : base_(NewMemEnv()), env_(base_.get()) {
    EXPECT_TRUE(base_->CreateDirs("/cfg").ok());
  }
  std::string Load() {
    std::string value;
    auto from = LoadFileWithBackup(&env_, kPath, Accepting(&value));
    EXPECT_TRUE(from.ok()) << from.status().ToString();
    return value;
  }
  static constexpr const char* kPath = "/cfg/topics.json";
  std::unique_ptr<Env> base_;
  FaultInjectionEnv env_;
};

TEST_P(WriteFileAtomicallyFaultTest, AFailedStepKeepsThePreviousContent) {
  ASSERT_TRUE(WriteFileAtomically(&env_, kPath, "ok:v1").ok());
  env_.FailNext(GetParam(), 1);
  Status s = WriteFileAtomically(&env_, kPath, "ok:v2");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(kPath), std::string::npos) << s.ToString();
  EXPECT_EQ(Load(), "v1");
  ASSERT_TRUE(env_.DropUnsyncedData().ok());
  EXPECT_EQ(Load(), "v1");
  // The next write goes through and survives a power loss.
  ASSERT_TRUE(WriteFileAtomically(&env_, kPath, "ok:v3").ok());
  ASSERT_TRUE(env_.DropUnsyncedData().ok());
  EXPECT_EQ(Load(), "v3");
  EXPECT_FALSE(env_.FileExists(std::string(kPath) + ".tmp"));
}

INSTANTIATE_TEST_SUITE_P(EveryStep, WriteFileAtomicallyFaultTest,
                         ::testing::Values(FaultPoint::kCreate, FaultPoint::kWrite,
                                           FaultPoint::kSync, FaultPoint::kRename),
                         [](const auto& info) { return std::string(FaultPointName(info.param)); });

TEST(WriteFileAtomicallyTest, SyncsBeforeItReturns) {
  std::unique_ptr<Env> base = NewMemEnv();
  FaultInjectionEnv env(base.get());
  ASSERT_TRUE(WriteFileAtomically(&env, "/d/state.json", "ok:durable").ok());
  EXPECT_EQ(*env.UnsyncedBytes(), 0u);
  ASSERT_TRUE(env.DropUnsyncedData().ok());
  EXPECT_EQ(*ReadFileToString(&env, "/d/state.json"), "ok:durable");
}

TEST(PathTest, JoinAndDirName) {
  EXPECT_EQ(JoinPath("/a", "b"), "/a/b");
  EXPECT_EQ(JoinPath("/a/", "b"), "/a/b");
  EXPECT_EQ(JoinPath("", "b"), "b");
  EXPECT_EQ(DirName("/a/b/c"), "/a/b");
  EXPECT_EQ(DirName("/a/b/"), "/a");
  EXPECT_EQ(DirName("/a"), "/");
  EXPECT_EQ(DirName("a"), ".");
}

TEST(DefaultEnvTest, IsASingleton) {
  EXPECT_NE(Env::Default(), nullptr);
  EXPECT_EQ(Env::Default(), Env::Default());
}

}  // namespace
}  // namespace apogee::env
