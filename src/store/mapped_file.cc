#include "store/mapped_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "store/store_format.h"

namespace apogee::store {

MappedFile::MappedFile(env::Env* env, std::string path, int64_t start_offset, int64_t size,
                       std::unique_ptr<env::RandomRWFile> file,
                       std::unique_ptr<env::MappedRegion> region)
    : env_(env),
      path_(std::move(path)),
      start_offset_(start_offset),
      file_size_(size),
      file_(std::move(file)),
      region_(std::move(region)) {}

MappedFile::~MappedFile() = default;

std::string MappedFile::FileNameOf(int64_t start_offset) {
  return fmt::format("{:0{}d}", start_offset, kFileNameWidth);
}

Result<int64_t> MappedFile::ParseFileName(std::string_view name) {
  if (name.size() != static_cast<size_t>(kFileNameWidth) ||
      name.find_first_not_of("0123456789") != std::string_view::npos) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a store file name (20 decimal digits)", name));
  }
  int64_t v = 0;
  for (char c : name) {
    if (v > (INT64_MAX - (c - '0')) / 10) {
      return Status::InvalidArgument(fmt::format("store file name '{}' overflows", name));
    }
    v = v * 10 + (c - '0');
  }
  return v;
}

Result<std::shared_ptr<MappedFile>> MappedFile::Create(env::Env* env, const std::string& path,
                                                       int64_t start_offset, int64_t size) {
  APOGEE_ASSIGN_OR_RETURN(auto file, env->OpenFile(path, env::OpenMode::kCreateIfMissing));
  APOGEE_ASSIGN_OR_RETURN(uint64_t existing, file->Size());
  if (existing > static_cast<uint64_t>(size)) {
    return Status::Corruption(fmt::format("cannot create {}: a larger file ({} > {} bytes) exists",
                                          path, existing, size));
  }
  Status s = file->Allocate(static_cast<uint64_t>(size));
  if (!s.ok()) {
    // Leave no short file behind: a later load would refuse it.
    (void)file->Close();
    (void)env->DeleteFile(path);
    return s.Prefixed(fmt::format("creating store file {}", path));
  }
  APOGEE_ASSIGN_OR_RETURN(auto region, file->Map());
  APOGEE_RETURN_IF_ERROR(env->SyncDir(env::DirName(path)));
  return std::shared_ptr<MappedFile>(
      new MappedFile(env, path, start_offset, size, std::move(file), std::move(region)));
}

Result<std::shared_ptr<MappedFile>> MappedFile::Open(env::Env* env, const std::string& path,
                                                     int64_t start_offset, int64_t size) {
  APOGEE_ASSIGN_OR_RETURN(auto file, env->OpenFile(path, env::OpenMode::kOpenExisting));
  APOGEE_ASSIGN_OR_RETURN(uint64_t actual, file->Size());
  if (actual != static_cast<uint64_t>(size)) {
    return Status::Corruption(fmt::format(
        "store file {} is {} bytes but the configured file size is {}; check "
        "mappedFileSize* in the config or remove the file",
        path, actual, size));
  }
  APOGEE_ASSIGN_OR_RETURN(auto region, file->Map());
  std::shared_ptr<MappedFile> mf(
      new MappedFile(env, path, start_offset, size, std::move(file), std::move(region)));
  mf->ResetPositions(size);
  return mf;
}

void MappedFile::ResetPositions(int64_t pos) {
  wrote_position_.store(pos, std::memory_order_release);
  flushed_position_.store(pos, std::memory_order_release);
}

bool MappedFile::Append(std::string_view bytes) {
  int64_t pos = wrote_position();
  if (pos + static_cast<int64_t>(bytes.size()) > file_size_) return false;
  std::memcpy(data() + pos, bytes.data(), bytes.size());
  set_wrote_position(pos + static_cast<int64_t>(bytes.size()));
  return true;
}

Status MappedFile::WriteAt(int64_t pos, std::string_view bytes) {
  if (pos < 0 || pos + static_cast<int64_t>(bytes.size()) > file_size_) {
    return Status::InvalidArgument(fmt::format("write of {} bytes at {} is outside {} ({} bytes)",
                                               bytes.size(), pos, path_, file_size_));
  }
  return file_->Write(static_cast<uint64_t>(pos), bytes);
}

bool MappedFile::IsAbleToFlush(int least_pages) const {
  int64_t flushed = flushed_position();
  int64_t wrote = wrote_position();
  if (wrote <= flushed) return false;
  if (IsFull() || least_pages <= 0) return true;
  return wrote / kOsPageSize - flushed / kOsPageSize >= least_pages;
}

Result<int64_t> MappedFile::Flush(int least_pages) {
  std::lock_guard<std::mutex> lock(flush_mu_);
  if (!IsAbleToFlush(least_pages)) return flushed_position();
  int64_t flushed = flushed_position();
  int64_t wrote = wrote_position();
  Status s = region_->Sync(static_cast<size_t>(flushed), static_cast<size_t>(wrote - flushed));
  if (!s.ok()) return s.Prefixed(fmt::format("flushing {} [{}, {})", path_, flushed, wrote));
  flushed_position_.store(wrote, std::memory_order_release);
  return wrote;
}

Status MappedFile::Warm() {
  // Writing through pwrite rather than the mapping avoids faulting in every page of a
  // 1 GiB file into this process; the blocks end up written and allocated all the same.
  // One page per write: the page cache sizes a folio after the write that creates it, and a
  // 1 MiB write left 1 MiB folios, each written back whole by the sync of one small record
  // stored into it (SYNC_FLUSH sends measured ~1.8 ms instead of ~0.3 ms, docs/benchmarks.md).
  // Costs no more system time than 1 MiB writes (1 GiB: 1.2 s against 1.1 s, measured).
  constexpr size_t kChunk = static_cast<size_t>(kOsPageSize);
  std::vector<char> zeros(kChunk, 0);
  for (int64_t pos = 0; pos < file_size_; pos += kChunk) {
    size_t n = static_cast<size_t>(std::min<int64_t>(kChunk, file_size_ - pos));
    APOGEE_RETURN_IF_ERROR(file_->Write(static_cast<uint64_t>(pos), std::string_view(zeros.data(), n))
                               .Prefixed(fmt::format("warming {}", path_)));
  }
  return file_->Sync().Prefixed(fmt::format("warming {}", path_));
}

Status MappedFile::SetWriteTailPageByPage(bool on) {
  using Access = env::MappedRegion::Access;
  if (!on) {
    if (page_by_page_from_.load(std::memory_order_relaxed) < 0) return Status::OK();
    APOGEE_RETURN_IF_ERROR(region_->Advise(0, static_cast<size_t>(file_size_), Access::kNormal)
                               .Prefixed(fmt::format("advising {}", path_)));
    page_by_page_from_.store(-1, std::memory_order_relaxed);
    return Status::OK();
  }
  const int64_t from = wrote_position() / kOsPageSize * kOsPageSize;
  if (from >= file_size_) return Status::OK();
  APOGEE_RETURN_IF_ERROR(region_
                             ->Advise(static_cast<size_t>(from),
                                      static_cast<size_t>(file_size_ - from),
                                      Access::kPageByPage)
                             .Prefixed(fmt::format("advising {}", path_)));
  page_by_page_from_.store(from, std::memory_order_relaxed);
  return Status::OK();
}

Status MappedFile::ZeroFrom(int64_t pos) {
  uint8_t* p = data();
  int64_t last_nonzero = -1;
  for (int64_t i = pos; i < file_size_; ++i) {
    if (p[i] != 0) last_nonzero = i;
  }
  if (last_nonzero < 0) return Status::OK();
  std::memset(p + pos, 0, static_cast<size_t>(last_nonzero + 1 - pos));
  return region_->Sync(static_cast<size_t>(pos), static_cast<size_t>(last_nonzero + 1 - pos))
      .Prefixed(fmt::format("zeroing the tail of {}", path_));
}

Status MappedFile::Destroy() {
  if (destroyed_.exchange(true)) return Status::OK();
  Status close = file_->Close();
  Status del = env_->DeleteFile(path_);
  if (!del.ok() && !del.IsNotFound()) return del.Prefixed("destroying store file");
  return close;
}

}  // namespace apogee::store
