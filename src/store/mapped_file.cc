#include "store/mapped_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <thread>
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
  BeginWrite(pos + static_cast<int64_t>(bytes.size()));
  std::memcpy(data() + pos, bytes.data(), bytes.size());
  set_wrote_position(pos + static_cast<int64_t>(bytes.size()));
  return true;
}

Status MappedFile::WriteAt(int64_t pos, std::string_view bytes) {
  if (pos < 0 || pos + static_cast<int64_t>(bytes.size()) > file_size_) {
    return Status::InvalidArgument(fmt::format("write of {} bytes at {} is outside {} ({} bytes)",
                                               bytes.size(), pos, path_, file_size_));
  }
  BeginWrite(pos + static_cast<int64_t>(bytes.size()));
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

namespace {

int64_t RoundUpToPage(int64_t pos) { return (pos + kOsPageSize - 1) / kOsPageSize * kOsPageSize; }

}  // namespace

int64_t MappedFile::writer_position() const {
  return std::max(writing_to_.load(std::memory_order_acquire), wrote_position());
}

void MappedFile::BeginWrite(int64_t end) {
  writing_to_.store(end, std::memory_order_seq_cst);
  for (;;) {
    const int64_t from = warming_from_.load(std::memory_order_seq_cst);
    if (from < 0 || end <= from) return;
    std::this_thread::yield();  // at most one pre-write step (kPreWriteStep bytes)
  }
}

bool MappedFile::TakePreWriteTrigger(int64_t write_position) {
  int64_t trigger = prewrite_trigger_.load(std::memory_order_relaxed);
  if (write_position < trigger) return false;
  // A compare-exchange, not a store: a trigger re-armed meanwhile must not be lost.
  return prewrite_trigger_.compare_exchange_strong(trigger, INT64_MAX, std::memory_order_acq_rel);
}

Status MappedFile::PreWrite(int64_t to, int64_t step, int64_t gap, PreWriteMode mode) {
  to = std::min(RoundUpToPage(to), file_size_);
  // Where to start: past the writer (never into the page holding its last byte), and past
  // what was pre-written already; a writer that caught up is overtaken by `gap`.
  auto start = [&] {
    const int64_t writer = writer_position();
    const int64_t warmed = warmed_to_.load(std::memory_order_relaxed);
    return RoundUpToPage(warmed >= writer ? warmed : writer + gap);
  };
  int64_t from = start();
  if (from >= to) return Status::OK();
  if (!prewrite_file_) {
    APOGEE_ASSIGN_OR_RETURN(prewrite_file_, env_->OpenFile(path_, env::OpenMode::kOpenExisting));
  }
  static const std::vector<char> kZeroPage(static_cast<size_t>(kOsPageSize), 0);
  const std::string_view zeros(kZeroPage.data(), kZeroPage.size());
  bool wrote = false;
  while (from < to) {
    const int64_t step_end = std::min(to, from + step);
    warming_from_.store(from, std::memory_order_seq_cst);
    if (writing_to_.load(std::memory_order_seq_cst) > from || wrote_position() > from) {
      warming_from_.store(-1, std::memory_order_seq_cst);  // the writer got there first
      from = start();
      continue;
    }
    Status s;
    if (mode == PreWriteMode::kPageCacheOnly) {
      // Zero bytes in .bss: reading them maps the kernel's shared zero page, so the buffer
      // costs no memory.
      static const char kZeroStep[kPreWriteStep] = {};
      for (int64_t pos = from; pos < step_end && s.ok(); pos += kPreWriteStep) {
        s = prewrite_file_->Write(static_cast<uint64_t>(pos),
                                  std::string_view(kZeroStep, static_cast<size_t>(std::min(
                                                                  kPreWriteStep, step_end - pos))));
      }
    } else {
      for (int64_t pos = from; pos < step_end && s.ok(); pos += kOsPageSize) {
        s = prewrite_file_->Write(
            static_cast<uint64_t>(pos),
            zeros.substr(0, static_cast<size_t>(std::min(kOsPageSize, step_end - pos))));
      }
    }
    warming_from_.store(-1, std::memory_order_seq_cst);
    if (!s.ok()) return s.Prefixed(fmt::format("pre-writing {}", path_));
    warmed_to_.store(step_end, std::memory_order_release);
    wrote = true;
    from = step_end;
  }
  if (!wrote || mode == PreWriteMode::kPageCacheOnly) return Status::OK();
  return prewrite_file_->Sync().Prefixed(fmt::format("pre-writing {}", path_));
}

void MappedFile::EndPreWrite() {
  if (prewrite_file_) (void)prewrite_file_->Close();
  prewrite_file_.reset();
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
