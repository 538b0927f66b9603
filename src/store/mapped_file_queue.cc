#include "store/mapped_file_queue.h"

#include <fmt/format.h>

#include "base/logging.h"
#include "store/file_allocator.h"

namespace apogee::store {

MappedFileQueue::MappedFileQueue(env::Env* env, std::string dir, int64_t file_size,
                                 FileAllocator* allocator)
    : env_(env), dir_(std::move(dir)), file_size_(file_size), allocator_(allocator) {}

Status MappedFileQueue::Load() {
  APOGEE_RETURN_IF_ERROR(env_->CreateDirs(dir_));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> names, env_->ListDir(dir_));
  APOGEE_RETURN_IF_ERROR(RemoveEmptyTrailingFiles(&names).status());
  std::vector<std::shared_ptr<MappedFile>> loaded;
  for (const std::string& name : names) {
    std::string path = env::JoinPath(dir_, name);
    if (env_->IsDirectory(path)) continue;
    Result<int64_t> start = MappedFile::ParseFileName(name);
    if (!start.ok()) {
      // Temporary files of an interrupted write are not part of the log.
      continue;
    }
    if (*start % file_size_ != 0) {
      return Status::Corruption(fmt::format(
          "store file {} does not start at a multiple of the file size {}", path, file_size_));
    }
    if (!loaded.empty() && loaded.back()->start_offset() + file_size_ != *start) {
      return Status::Corruption(fmt::format("store files in {} are not contiguous: {} follows {}",
                                            dir_, name,
                                            MappedFile::FileNameOf(loaded.back()->start_offset())));
    }
    APOGEE_ASSIGN_OR_RETURN(auto file, MappedFile::Open(env_, path, *start, file_size_));
    loaded.push_back(std::move(file));
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_ = std::move(loaded);
  int64_t end = files_.empty() ? 0 : files_.back()->start_offset() + file_size_;
  flushed_where_.store(end);
  return Status::OK();
}

Result<size_t> MappedFileQueue::RemoveEmptyTrailingFiles(std::vector<std::string>* names) {
  // MappedFile::Create opens the file, then sizes it (fallocate): a crash in between (kill -9
  // while the next file is being created, as store_kill_test does) leaves an empty file
  // after the last one with data. It cannot hold a byte of the log, so remove it rather than
  // refuse to start. Empty files before a non-empty one, or files of any other wrong size,
  // are still refused by MappedFile::Open: nothing says what they lost.
  size_t removed = 0;
  for (size_t i = names->size(); i-- > 0;) {
    const std::string path = env::JoinPath(dir_, (*names)[i]);
    if (env_->IsDirectory(path) || !MappedFile::ParseFileName((*names)[i]).ok()) continue;
    APOGEE_ASSIGN_OR_RETURN(uint64_t size, env_->GetFileSize(path));
    if (size != 0) break;
    APOGEE_RETURN_IF_ERROR(env_->DeleteFile(path).Prefixed("removing an empty store file"));
    GetLogger("store")->warn(
        "removed {}: empty, the last file of the log (its creation was interrupted by a crash)",
        path);
    names->erase(names->begin() + static_cast<std::ptrdiff_t>(i));
    ++removed;
  }
  if (removed > 0) APOGEE_RETURN_IF_ERROR(env_->SyncDir(dir_));
  return removed;
}

bool MappedFileQueue::empty() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.empty();
}

size_t MappedFileQueue::file_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.size();
}

std::shared_ptr<MappedFile> MappedFileQueue::FirstFile() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.empty() ? nullptr : files_.front();
}

std::shared_ptr<MappedFile> MappedFileQueue::LastFile() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.empty() ? nullptr : files_.back();
}

Result<std::shared_ptr<MappedFile>> MappedFileQueue::LastFileOrCreate(int64_t offset_if_empty) {
  int64_t start;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!files_.empty() && !files_.back()->IsFull()) {
      MaybePrepareNextLocked();
      KeepPreWriteAheadLocked();
      return files_.back();
    }
    start = files_.empty() ? offset_if_empty - offset_if_empty % file_size_
                           : files_.back()->start_offset() + file_size_;
  }
  std::string path = env::JoinPath(dir_, MappedFile::FileNameOf(start));
  Result<std::shared_ptr<MappedFile>> created =
      allocator_ ? allocator_->Take(env_, path, start, file_size_)
                 : MappedFile::Create(env_, path, start, file_size_);
  if (!created.ok()) return created.status();
  std::lock_guard<std::mutex> lock(mu_);
  if (files_.empty() && flushed_where_.load() == 0) flushed_where_.store(start);
  if (!files_.empty()) AdviseWriteTail(*files_.back(), false);
  AdviseWriteTail(**created, true);
  files_.push_back(*created);
  return *created;
}

void MappedFileQueue::SetPageByPageWriteTail() {
  std::lock_guard<std::mutex> lock(mu_);
  page_by_page_tail_.store(true);
  if (!files_.empty()) AdviseWriteTail(*files_.back(), true);
}

void MappedFileQueue::AdviseWriteTail(MappedFile& file, bool on) const {
  if (!page_by_page_tail_.load()) return;
  Status s = file.SetWriteTailPageByPage(on);
  if (!s.ok()) GetLogger("store")->warn("{} (syncs may write more than they need)", s.ToString());
}

void MappedFileQueue::MaybePrepareNextLocked() {
  // Java pre-creates the next file and the one after as soon as a file is created, so an
  // idle broker holds two (2 GiB by default). One ahead, asked for once the current file
  // is half written, keeps the creation (and warming) off the put path all the same: half
  // a file of writes is far longer than creating one.
  if (!allocator_) return;
  const MappedFile& last = *files_.back();
  const int64_t next = last.start_offset() + file_size_;
  if (prepared_next_ == next || last.wrote_position() < file_size_ / 2) return;
  prepared_next_ = next;
  allocator_->Prepare(env_, env::JoinPath(dir_, MappedFile::FileNameOf(next)), next, file_size_);
}

void MappedFileQueue::KeepPreWriteAheadLocked() {
  if (!allocator_) return;
  MappedFile& last = *files_.back();
  if (followed_.get() != &last) {
    followed_ = files_.back();
    allocator_->Follow(followed_);
    return;
  }
  if (last.TakePreWriteTrigger(last.wrote_position())) allocator_->Wakeup();
}

std::shared_ptr<MappedFile> MappedFileQueue::FindFileByOffset(int64_t offset) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (files_.empty() || offset < 0) return nullptr;
  int64_t first = files_.front()->start_offset();
  if (offset < first) return nullptr;
  size_t index = static_cast<size_t>((offset - first) / file_size_);
  if (index >= files_.size()) return nullptr;
  return files_[index];
}

std::vector<std::shared_ptr<MappedFile>> MappedFileQueue::Files() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_;
}

int64_t MappedFileQueue::MinOffset() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.empty() ? 0 : files_.front()->start_offset();
}

int64_t MappedFileQueue::MaxOffset() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.empty() ? 0 : files_.back()->start_offset() + files_.back()->wrote_position();
}

Result<bool> MappedFileQueue::Flush(int least_pages) {
  int64_t where = FlushedWhere();
  std::shared_ptr<MappedFile> file = FindFileByOffset(where);
  if (!file) {
    // The flushed position sits exactly at the end of the last file.
    file = FindFileByOffset(where == 0 ? 0 : where - 1);
    if (!file) return false;
  }
  int64_t before = file->flushed_position();
  APOGEE_ASSIGN_OR_RETURN(int64_t pos, file->Flush(least_pages));
  int64_t new_where = file->start_offset() + pos;
  if (new_where > where) SetFlushedWhere(new_where);
  return pos != before;
}

Status MappedFileQueue::TruncateDirtyFiles(int64_t offset, bool zero_tail) {
  std::vector<std::shared_ptr<MappedFile>> doomed;
  std::shared_ptr<MappedFile> cut;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<MappedFile>> kept;
    for (auto& f : files_) {
      int64_t end = f->start_offset() + file_size_;
      if (end <= offset) {
        kept.push_back(f);
      } else if (f->start_offset() <= offset) {
        f->ResetPositions(offset - f->start_offset());
        kept.push_back(f);
        cut = f;
      } else {
        doomed.push_back(f);
      }
    }
    files_ = std::move(kept);
  }
  if (FlushedWhere() > offset) SetFlushedWhere(offset);
  if (zero_tail && cut) APOGEE_RETURN_IF_ERROR(cut->ZeroFrom(offset - cut->start_offset()));
  if (cut) AdviseWriteTail(*cut, true);  // the last file now
  for (auto& f : doomed) APOGEE_RETURN_IF_ERROR(f->Destroy());
  if (!doomed.empty()) APOGEE_RETURN_IF_ERROR(env_->SyncDir(dir_));
  return Status::OK();
}

Status MappedFileQueue::DestroyAll() {
  std::vector<std::shared_ptr<MappedFile>> doomed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    doomed.swap(files_);
  }
  SetFlushedWhere(0);
  for (auto& f : doomed) APOGEE_RETURN_IF_ERROR(f->Destroy());
  return Status::OK();
}

Status MappedFileQueue::DeleteFirstFiles(size_t n) {
  std::vector<std::shared_ptr<MappedFile>> doomed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    n = std::min(n, files_.size());
    doomed.assign(files_.begin(), files_.begin() + static_cast<std::ptrdiff_t>(n));
    files_.erase(files_.begin(), files_.begin() + static_cast<std::ptrdiff_t>(n));
  }
  for (auto& f : doomed) APOGEE_RETURN_IF_ERROR(f->Destroy());
  if (!doomed.empty()) APOGEE_RETURN_IF_ERROR(env_->SyncDir(dir_));
  return Status::OK();
}

}  // namespace apogee::store
