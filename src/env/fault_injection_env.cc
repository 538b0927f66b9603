#include "env/fault_injection_env.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

namespace apogee::env {

struct FaultInjectionEnv::FileState {
  std::mutex mu;
  std::string durable;            // the bytes a power loss would leave; guarded by mu
  std::atomic<uint64_t> size{0};  // current size, for the capacity check
};

namespace {

using FileState = FaultInjectionEnv::FileState;

// Reads [offset, offset + n) of `file` (clamped to its size).
Result<std::string> ReadRange(const RandomRWFile& file, uint64_t offset, uint64_t n) {
  APOGEE_ASSIGN_OR_RETURN(uint64_t size, file.Size());
  n = offset >= size ? 0 : std::min(n, size - offset);
  std::string out(n, '\0');
  size_t done = 0;
  while (done < n) {
    APOGEE_ASSIGN_OR_RETURN(size_t got, file.Read(offset + done, n - done,
                                                  reinterpret_cast<uint8_t*>(out.data()) + done));
    if (got == 0) break;
    done += got;
  }
  out.resize(done);
  return out;
}

// Copies `bytes` into the durable image at `offset`, growing the image with zeros if needed.
// Requires state.mu.
void MarkDurableLocked(FileState& state, uint64_t offset, std::string_view bytes) {
  if (state.durable.size() < offset + bytes.size())
    state.durable.resize(offset + bytes.size(), '\0');
  std::memcpy(state.durable.data() + offset, bytes.data(), bytes.size());
}

class FaultMappedRegion final : public MappedRegion {
 public:
  FaultMappedRegion(FaultInjectionEnv* env, std::string path, std::shared_ptr<FileState> state,
                    std::unique_ptr<MappedRegion> target)
      : env_(env), path_(std::move(path)), state_(std::move(state)), target_(std::move(target)) {}

  uint8_t* data() override { return target_->data(); }
  const uint8_t* data() const override { return target_->data(); }
  size_t size() const override { return target_->size(); }

  Status Sync(size_t offset, size_t length) override {
    APOGEE_RETURN_IF_ERROR(env_->MaybeFail(FaultPoint::kSync, path_));
    APOGEE_RETURN_IF_ERROR(target_->Sync(offset, length));
    std::lock_guard<std::mutex> lock(state_->mu);
    MarkDurableLocked(
        *state_, offset,
        std::string_view(reinterpret_cast<const char*>(target_->data()) + offset, length));
    return Status::OK();
  }

  Status Advise(size_t offset, size_t length, Access access) override {
    return target_->Advise(offset, length, access);
  }

 private:
  FaultInjectionEnv* env_;
  std::string path_;
  std::shared_ptr<FileState> state_;
  std::unique_ptr<MappedRegion> target_;
};

class FaultFile final : public RandomRWFile {
 public:
  FaultFile(FaultInjectionEnv* env, std::shared_ptr<FileState> state,
            std::unique_ptr<RandomRWFile> target)
      : RandomRWFile(target->path()),
        env_(env),
        state_(std::move(state)),
        target_(std::move(target)) {}

  Status Write(uint64_t offset, std::string_view data) override {
    APOGEE_RETURN_IF_ERROR(env_->MaybeFail(FaultPoint::kWrite, path()));
    APOGEE_ASSIGN_OR_RETURN(uint64_t size, target_->Size());
    APOGEE_RETURN_IF_ERROR(
        env_->ReserveSpace(size, std::max<uint64_t>(size, offset + data.size()), path()));
    Status s = target_->Write(offset, data);
    RefreshSize();
    return s;
  }

  Result<size_t> Read(uint64_t offset, size_t n, uint8_t* scratch) const override {
    return target_->Read(offset, n, scratch);
  }

  Result<uint64_t> Size() const override { return target_->Size(); }

  Status Allocate(uint64_t size) override {
    APOGEE_ASSIGN_OR_RETURN(uint64_t current, target_->Size());
    APOGEE_RETURN_IF_ERROR(env_->ReserveSpace(current, std::max(current, size), path()));
    std::lock_guard<std::mutex> lock(state_->mu);  // size change and image change together
    Status s = target_->Allocate(size);
    RefreshSize();
    APOGEE_RETURN_IF_ERROR(s);
    if (state_->durable.size() < size) state_->durable.resize(size, '\0');
    return Status::OK();
  }

  Status Truncate(uint64_t size) override {
    APOGEE_ASSIGN_OR_RETURN(uint64_t current, target_->Size());
    APOGEE_RETURN_IF_ERROR(env_->ReserveSpace(current, size, path()));
    std::lock_guard<std::mutex> lock(state_->mu);
    Status s = target_->Truncate(size);
    RefreshSize();
    APOGEE_RETURN_IF_ERROR(s);
    state_->durable.resize(size, '\0');
    return Status::OK();
  }

  Status Sync() override {
    APOGEE_RETURN_IF_ERROR(env_->MaybeFail(FaultPoint::kSync, path()));
    APOGEE_RETURN_IF_ERROR(target_->Sync());
    // Snapshot under the lock: a concurrent ranged sync must not be overwritten by an older
    // snapshot of the same bytes.
    std::lock_guard<std::mutex> lock(state_->mu);
    APOGEE_ASSIGN_OR_RETURN(uint64_t size, target_->Size());
    APOGEE_ASSIGN_OR_RETURN(std::string content, ReadRange(*target_, 0, size));
    state_->durable = std::move(content);
    return Status::OK();
  }

  Status SyncRange(uint64_t offset, uint64_t length) override {
    APOGEE_RETURN_IF_ERROR(env_->MaybeFail(FaultPoint::kSync, path()));
    APOGEE_RETURN_IF_ERROR(target_->SyncRange(offset, length));
    std::lock_guard<std::mutex> lock(state_->mu);
    APOGEE_ASSIGN_OR_RETURN(std::string bytes, ReadRange(*target_, offset, length));
    MarkDurableLocked(*state_, offset, bytes);
    return Status::OK();
  }

  Result<std::unique_ptr<MappedRegion>> Map() override {
    APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<MappedRegion> region, target_->Map());
    return std::unique_ptr<MappedRegion>(
        std::make_unique<FaultMappedRegion>(env_, path(), state_, std::move(region)));
  }

  Status Close() override { return target_->Close(); }

 private:
  void RefreshSize() {
    Result<uint64_t> size = target_->Size();
    if (size.ok()) state_->size.store(*size);
  }

  FaultInjectionEnv* env_;
  std::shared_ptr<FileState> state_;
  std::unique_ptr<RandomRWFile> target_;
};

}  // namespace

std::string_view FaultPointName(FaultPoint point) {
  switch (point) {
    case FaultPoint::kWrite:
      return "append";
    case FaultPoint::kCreate:
      return "roll";
    case FaultPoint::kSync:
      return "flush";
    case FaultPoint::kRename:
      return "rename";
  }
  return "unknown";
}

Result<FaultPoint> ParseFaultPoint(std::string_view name) {
  if (name == "append" || name == "write") return FaultPoint::kWrite;
  if (name == "roll" || name == "create") return FaultPoint::kCreate;
  if (name == "flush" || name == "sync") return FaultPoint::kSync;
  if (name == "rename") return FaultPoint::kRename;
  return Status::InvalidArgument("unknown fault point '" + std::string(name) +
                                 "' (expected append, roll, flush or rename)");
}

FaultInjectionEnv::FaultInjectionEnv(Env* target) : target_(target) {}
FaultInjectionEnv::~FaultInjectionEnv() = default;

void FaultInjectionEnv::FailNext(FaultPoint point, int count, StatusCode code) {
  std::lock_guard<std::mutex> lock(mu_);
  Fault& f = faults_[static_cast<int>(point)];
  f.remaining = count;
  f.probability = 0;
  f.code = code;
}

void FaultInjectionEnv::FailRandomly(FaultPoint point, double probability, uint64_t seed,
                                     StatusCode code) {
  std::lock_guard<std::mutex> lock(mu_);
  Fault& f = faults_[static_cast<int>(point)];
  f.remaining = 0;
  f.probability = std::clamp(probability, 0.0, 1.0);
  f.rng.seed(seed);
  f.code = code;
}

void FaultInjectionEnv::ClearFault(FaultPoint point) {
  std::lock_guard<std::mutex> lock(mu_);
  Fault& f = faults_[static_cast<int>(point)];
  f.remaining = 0;
  f.probability = 0;
}

void FaultInjectionEnv::ClearAllFaults() {
  for (int i = 0; i < kFaultPointCount; ++i) ClearFault(static_cast<FaultPoint>(i));
}

int64_t FaultInjectionEnv::injected_failures(FaultPoint point) const {
  std::lock_guard<std::mutex> lock(mu_);
  return faults_[static_cast<int>(point)].injected;
}

Status FaultInjectionEnv::MaybeFail(FaultPoint point, const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  Fault& f = faults_[static_cast<int>(point)];
  bool fail = false;
  if (f.remaining > 0) {
    --f.remaining;
    fail = true;
  } else if (f.probability > 0) {
    fail = std::uniform_real_distribution<double>(0.0, 1.0)(f.rng) < f.probability;
  }
  if (!fail) return Status::OK();
  ++f.injected;
  StatusCode code = f.code == StatusCode::kOk ? StatusCode::kIOError : f.code;
  return Status(code,
                "injected fault at '" + std::string(FaultPointName(point)) + "' on '" + path + "'");
}

void FaultInjectionEnv::SetCapacity(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  capacity_ = bytes;
}

uint64_t FaultInjectionEnv::used_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t used = 0;
  for (const auto& [path, state] : files_) used += state->size.load();
  return used;
}

Status FaultInjectionEnv::ReserveSpace(uint64_t old_size, uint64_t new_size,
                                       const std::string& path) {
  if (new_size <= old_size) return Status::OK();
  const uint64_t used = used_bytes();
  std::lock_guard<std::mutex> lock(mu_);
  if (capacity_ == 0) return Status::OK();
  const uint64_t others = used >= old_size ? used - old_size : 0;
  if (others + new_size > capacity_) {
    return Status::NoSpace("simulated disk full: growing '" + path + "' to " +
                           std::to_string(new_size) + " bytes needs " +
                           std::to_string(others + new_size) + " of " + std::to_string(capacity_) +
                           " bytes");
  }
  return Status::OK();
}

Status FaultInjectionEnv::DropUnsyncedData() {
  std::lock_guard<std::mutex> lock(mu_);
  ++power_losses_;  // counted first: even a failed reset must not look like the same boot
  for (const auto& [path, state] : files_) {
    Result<std::unique_ptr<RandomRWFile>> file = target_->OpenFile(path, OpenMode::kOpenExisting);
    if (!file.ok()) {
      if (file.status().IsNotFound()) continue;  // removed behind our back
      return file.status().Prefixed("DropUnsyncedData");
    }
    std::lock_guard<std::mutex> state_lock(state->mu);
    // Write before truncating so that a live mapping never sees the file shorter than it.
    APOGEE_RETURN_IF_ERROR((*file)->Write(0, state->durable));
    APOGEE_RETURN_IF_ERROR((*file)->Truncate(state->durable.size()));
    state->size.store(state->durable.size());
    APOGEE_RETURN_IF_ERROR((*file)->Close());
  }
  return Status::OK();
}

Result<uint64_t> FaultInjectionEnv::UnsyncedBytes() {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t total = 0;
  for (const auto& [path, state] : files_) {
    Result<std::unique_ptr<RandomRWFile>> file = target_->OpenFile(path, OpenMode::kOpenExisting);
    if (!file.ok()) continue;
    APOGEE_ASSIGN_OR_RETURN(uint64_t size, (*file)->Size());
    APOGEE_ASSIGN_OR_RETURN(std::string current, ReadRange(**file, 0, size));
    std::lock_guard<std::mutex> state_lock(state->mu);
    const std::string& durable = state->durable;
    const size_t common = std::min(current.size(), durable.size());
    for (size_t i = 0; i < common; ++i) total += current[i] != durable[i] ? 1 : 0;
    total += std::max(current.size(), durable.size()) - common;
  }
  return total;
}

void FaultInjectionEnv::SetBootId(Result<std::string> id) {
  std::lock_guard<std::mutex> lock(mu_);
  boot_id_ = std::move(id);
  power_losses_ = 0;
}

Result<std::string> FaultInjectionEnv::BootId() {
  std::optional<Result<std::string>> id;
  int64_t power_losses = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = boot_id_;
    power_losses = power_losses_;
  }
  if (!id) id = target_->BootId();
  if (!id->ok() || power_losses == 0) return *std::move(id);
  return id->value() + "/power-loss-" + std::to_string(power_losses);
}

Status FaultInjectionEnv::CreateDirs(const std::string& path) { return target_->CreateDirs(path); }

Result<std::vector<std::string>> FaultInjectionEnv::ListDir(const std::string& path) {
  return target_->ListDir(path);
}

bool FaultInjectionEnv::FileExists(const std::string& path) { return target_->FileExists(path); }

bool FaultInjectionEnv::IsDirectory(const std::string& path) { return target_->IsDirectory(path); }

Result<uint64_t> FaultInjectionEnv::GetFileSize(const std::string& path) {
  return target_->GetFileSize(path);
}

Status FaultInjectionEnv::DeleteFile(const std::string& path) {
  APOGEE_RETURN_IF_ERROR(target_->DeleteFile(path));
  std::lock_guard<std::mutex> lock(mu_);
  files_.erase(path);
  return Status::OK();
}

Status FaultInjectionEnv::DeleteDir(const std::string& path) { return target_->DeleteDir(path); }

Status FaultInjectionEnv::RenameFile(const std::string& from, const std::string& to) {
  APOGEE_RETURN_IF_ERROR(MaybeFail(FaultPoint::kRename, from));
  APOGEE_RETURN_IF_ERROR(target_->RenameFile(from, to));
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(from);
  if (it == files_.end()) {
    files_.erase(to);  // replaced by a file we never tracked: durable as it is
    return Status::OK();
  }
  std::shared_ptr<FileState> state = std::move(it->second);
  files_.erase(it);
  files_[to] = std::move(state);
  return Status::OK();
}

Status FaultInjectionEnv::SyncDir(const std::string& path) { return target_->SyncDir(path); }

Result<std::unique_ptr<RandomRWFile>> FaultInjectionEnv::OpenFile(const std::string& path,
                                                                  OpenMode mode) {
  const bool existed = target_->FileExists(path);
  const bool creating = !existed && mode != OpenMode::kOpenExisting;
  if (creating) APOGEE_RETURN_IF_ERROR(MaybeFail(FaultPoint::kCreate, path));
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<RandomRWFile> file, target_->OpenFile(path, mode));
  std::shared_ptr<FileState> state;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(path);
    if (it != files_.end()) state = it->second;
  }
  if (state == nullptr) {
    state = std::make_shared<FileState>();
    APOGEE_ASSIGN_OR_RETURN(uint64_t size, file->Size());
    if (!creating) {
      // A file we meet for the first time is as durable as it is now.
      APOGEE_ASSIGN_OR_RETURN(state->durable, ReadRange(*file, 0, size));
    }
    state->size.store(size);
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = files_.emplace(path, state);
    if (!inserted) state = it->second;  // another thread got there first
  }
  return std::unique_ptr<RandomRWFile>(std::make_unique<FaultFile>(this, state, std::move(file)));
}

Result<std::unique_ptr<FileLock>> FaultInjectionEnv::LockFile(const std::string& path) {
  return target_->LockFile(path);
}

Result<DiskSpace> FaultInjectionEnv::GetDiskSpace(const std::string& path) {
  APOGEE_ASSIGN_OR_RETURN(DiskSpace space, target_->GetDiskSpace(path));
  const uint64_t used = used_bytes();
  std::lock_guard<std::mutex> lock(mu_);
  if (capacity_ == 0) return space;
  space.total_bytes = capacity_;
  space.free_bytes = used >= capacity_ ? 0 : capacity_ - used;
  return space;
}

}  // namespace apogee::env
