// FaultInjectionEnv: wraps another Env to test crash safety and error handling of the store.
//
// Durability model. For every file opened through it, the wrapper keeps an image of the
// file's durable content:
//   * a file that existed before it was first opened here starts fully durable;
//   * a file created here starts empty (its name survives; its bytes do not until synced);
//   * RandomRWFile::Sync makes the whole current content durable; SyncRange and
//     MappedRegion::Sync make only their range durable, read back from the file or mapping;
//   * Allocate and Truncate change the durable size at once (the store syncs right after
//     pre-sizing; modelling lost metadata is out of scope);
//   * writes through Write() or into a mapping are volatile until a sync covers them.
// DropUnsyncedData() then rewrites every tracked file to its image, as after a power loss:
// bytes written (through Write() or stored into a mapping) but not synced are lost, and are
// lost in live mappings too, since the underlying file changes under them. Deleting and
// renaming are durable at once.
//
// Failure points. Each has a name used by tests and scripts (ParseFaultPoint accepts both):
//   "append" / "write"   RandomRWFile::Write
//   "roll"   / "create"  OpenFile that creates a file (kCreateNew, or kCreateIfMissing on a
//                        missing file), i.e. rolling to a new CommitLog/ConsumeQueue file
//   "flush"  / "sync"    RandomRWFile::Sync and SyncRange, MappedRegion::Sync (not SyncDir)
//   "rename"             Env::RenameFile
// A point can be armed to fail its next N calls, or each call with probability p drawn from a
// seeded generator (reproducible). A failing call does nothing and returns the armed status
// code with a message naming the point and the path.
//
// Boot id. BootId() is the wrapped Env's until SetBootId replaces it. DropUnsyncedData is a
// power loss, hence a reboot: every call changes the boot id (a suffix is appended), so a store
// reopened after it never takes the page cache for having survived.
//
// Capacity. SetCapacity(n) simulates a disk of n bytes shared by the files opened here: a
// Write or Allocate that would make their total size exceed n fails with kNoSpace (nothing
// written), and GetDiskSpace reports the simulated space.
//
// Thread-safety: all methods are thread-safe. The wrapped Env must outlive this object and
// every file, mapping and lock obtained from it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "env/env.h"

namespace apogee::env {

enum class FaultPoint : int { kWrite = 0, kCreate = 1, kSync = 2, kRename = 3 };
inline constexpr int kFaultPointCount = 4;

// "append", "roll", "flush" or "rename" (the store's words for these operations).
std::string_view FaultPointName(FaultPoint point);
// Accepts "append"/"write", "roll"/"create", "flush"/"sync", "rename".
Result<FaultPoint> ParseFaultPoint(std::string_view name);

class FaultInjectionEnv final : public Env {
 public:
  explicit FaultInjectionEnv(Env* target);
  ~FaultInjectionEnv() override;

  // Makes the next `count` calls at `point` fail with `code` (replacing earlier arming).
  void FailNext(FaultPoint point, int count, StatusCode code = StatusCode::kIOError);
  // Makes each call at `point` fail with probability `probability` (0..1), reproducibly
  // from `seed`, until cleared.
  void FailRandomly(FaultPoint point, double probability, uint64_t seed,
                    StatusCode code = StatusCode::kIOError);
  void ClearFault(FaultPoint point);
  void ClearAllFaults();
  // How many calls at `point` have been failed so far.
  int64_t injected_failures(FaultPoint point) const;

  // Simulated disk size in bytes for the files opened through this Env; 0 = unlimited.
  void SetCapacity(uint64_t bytes);
  // Total size of the files opened through this Env, as tracked for the capacity check.
  uint64_t used_bytes() const;

  // Resets every tracked file to its durable image (see above). Open files and mappings stay
  // usable and observe the reset.
  Status DropUnsyncedData();
  // How many bytes DropUnsyncedData would discard or rewrite, for assertions.
  Result<uint64_t> UnsyncedBytes();
  // Replaces the boot id (an error status: a machine whose boot id cannot be read), e.g. to
  // simulate a reboot without losing data, or to test a store on an Env that has none.
  void SetBootId(Result<std::string> id);

  // Env
  Status CreateDirs(const std::string& path) override;
  Result<std::vector<std::string>> ListDir(const std::string& path) override;
  bool FileExists(const std::string& path) override;
  bool IsDirectory(const std::string& path) override;
  Result<uint64_t> GetFileSize(const std::string& path) override;
  Status DeleteFile(const std::string& path) override;
  Status DeleteDir(const std::string& path) override;
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status SyncDir(const std::string& path) override;
  Result<std::unique_ptr<RandomRWFile>> OpenFile(const std::string& path, OpenMode mode) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override;
  Result<DiskSpace> GetDiskSpace(const std::string& path) override;
  Result<std::string> BootId() override;

  // Implementation detail shared with the file wrappers (defined in the .cc).
  struct FileState;

  // Called by wrappers: the status for one call at `point` on `path` (OK unless armed).
  Status MaybeFail(FaultPoint point, const std::string& path);
  // Called by wrappers before a file grows from `old_size` to `new_size`.
  Status ReserveSpace(uint64_t old_size, uint64_t new_size, const std::string& path);

 private:
  struct Fault {
    int remaining = 0;
    double probability = 0;
    std::mt19937_64 rng;
    StatusCode code = StatusCode::kIOError;
    int64_t injected = 0;
  };

  Env* const target_;
  mutable std::mutex mu_;
  std::array<Fault, kFaultPointCount> faults_;
  uint64_t capacity_ = 0;
  std::optional<Result<std::string>> boot_id_;  // SetBootId's; else the target's
  int64_t power_losses_ = 0;                     // DropUnsyncedData calls: each one a reboot
  // Tracked files by path (renames move entries; deletes remove them).
  std::map<std::string, std::shared_ptr<FileState>> files_;
};

}  // namespace apogee::env
