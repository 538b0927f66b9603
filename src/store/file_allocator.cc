#include "store/file_allocator.h"

#include <algorithm>

#include "base/clock.h"
#include "base/logging.h"

namespace apogee::store {

FileAllocator::FileAllocator(bool warm, int64_t ahead, MappedFile::PreWriteMode mode)
    : ServiceThread("FileAllocator"),
      warm_(warm),
      ahead_(ahead),
      round_(std::max<int64_t>(1, std::min(kPreWriteRound, ahead / 4))),
      mode_(mode) {}

FileAllocator::~FileAllocator() { Shutdown(); }

void FileAllocator::Prepare(env::Env* env, const std::string& path, int64_t start_offset,
                            int64_t size) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (requests_.count(path)) return;
    auto req = std::make_shared<Request>(Request{env, path, start_offset, size});
    requests_[path] = req;
    pending_.push_back(req);
  }
  Wakeup();
}

Result<std::shared_ptr<MappedFile>> FileAllocator::CreateFile(const Request& r) const {
  APOGEE_ASSIGN_OR_RETURN(auto file, MappedFile::Create(r.env, r.path, r.start_offset, r.size));
  if (warm_) {
    int64_t begin = SteadyMillis();
    APOGEE_RETURN_IF_ERROR(PreWriteTo(*file, ahead_));
    GetLogger("store")->debug("pre-wrote the first {} bytes of {} in {} ms",
                              file->warmed_position(), r.path, SteadyMillis() - begin);
  }
  return file;
}

Status FileAllocator::PreWriteTo(MappedFile& file, int64_t to) const {
  to = std::min(to, file.file_size());
  while (!stopped()) {
    const int64_t warmed = file.warmed_position();
    const int64_t writer = file.writer_position();
    // A writer past the pre-written end is overtaken by MappedFile::kPreWriteGap (PreWrite
    // starts there), so the step must reach past that: a step ending at writer + round_ would
    // write nothing, and the pre-writer would stay behind for good (it did for the file the
    // first put creates, which the writer has written into before it is followed).
    const int64_t start = warmed >= writer ? warmed : writer + MappedFile::kPreWriteGap;
    if (start >= to) break;
    APOGEE_RETURN_IF_ERROR(file.PreWrite(std::min(to, start + round_), MappedFile::kPreWriteStep,
                                         MappedFile::kPreWriteGap, mode_));
    if (file.warmed_position() == warmed) break;  // the writer is past `to`: nothing to do
  }
  return Status::OK();
}

void FileAllocator::Follow(std::shared_ptr<MappedFile> file) {
  if (!warm_) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    followed_ = std::move(file);
  }
  Wakeup();
}

void FileAllocator::KeepAheadOfWriter() {
  std::shared_ptr<MappedFile> file;
  {
    std::lock_guard<std::mutex> lock(mu_);
    file = followed_;
  }
  if (!file) return;
  auto stop_following = [&] {
    file->EndPreWrite();
    std::lock_guard<std::mutex> lock(mu_);
    if (followed_ == file) followed_.reset();
  };
  if (file->destroyed() || file->warmed_position() >= file->file_size() ||
      file->writer_position() >= file->file_size()) {
    stop_following();
    return;
  }
  if (file->warmed_position() - file->writer_position() <= ahead_ - round_) {
    Status s = PreWriteTo(*file, file->writer_position() + ahead_);
    if (!s.ok()) {
      // Not fatal: appends into blocks not pre-written are correct, only their syncs slower.
      GetLogger("store")->warn("{}; no more pre-writing of {}", s.ToString(), file->path());
      stop_following();
      return;
    }
  }
  // The writer wakes this thread once it has written another round: pre-writing tops up one
  // round at a time rather than in bursts (a burst's writeback delayed every sync behind it).
  file->ArmPreWriteTrigger(file->warmed_position() - ahead_ + round_);
}

Result<std::shared_ptr<MappedFile>> FileAllocator::Take(env::Env* env, const std::string& path,
                                                        int64_t start_offset, int64_t size) {
  std::shared_ptr<Request> req;
  {
    std::unique_lock<std::mutex> lock(mu_);
    auto it = requests_.find(path);
    if (it != requests_.end()) {
      req = it->second;
      // Not started yet: take it off the queue and create it here rather than wait.
      for (auto p = pending_.begin(); p != pending_.end(); ++p) {
        if (*p == req) {
          pending_.erase(p);
          requests_.erase(it);
          req.reset();
          break;
        }
      }
      if (req) {
        done_cv_.wait(lock, [&] { return req->done; });
        requests_.erase(path);
        if (req->result.ok()) {
          prepared_bytes_.fetch_sub(req->size, std::memory_order_relaxed);
          return req->result;
        }
        GetLogger("store")->warn("background creation of {} failed ({}); retrying inline", path,
                                 req->result.status().ToString());
      }
    }
  }
  // Inline creation skips warming: the caller is on the put path.
  return MappedFile::Create(env, path, start_offset, size);
}

void FileAllocator::DiscardPrepared() {
  std::unique_lock<std::mutex> lock(mu_);
  for (auto& req : pending_) {
    req->result = Status::Aborted("discarded before creation");
    req->done = true;
  }
  pending_.clear();
  for (auto& entry : requests_) {
    // Not a structured binding: clang 14 cannot capture those in a lambda.
    std::shared_ptr<Request>& req = entry.second;
    done_cv_.wait(lock, [&] { return req->done; });
    if (req->result.ok()) {
      prepared_bytes_.fetch_sub(req->size, std::memory_order_relaxed);
      (void)req->result.value()->Destroy();
    }
  }
  requests_.clear();
}

void FileAllocator::Run() {
  while (!stopped()) {
    std::shared_ptr<Request> req;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!pending_.empty()) {
        req = pending_.front();
        pending_.pop_front();
      }
    }
    if (!req) {
      KeepAheadOfWriter();
      WaitForRunning(1000);
      continue;
    }
    Result<std::shared_ptr<MappedFile>> result = CreateFile(*req);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (result.ok()) prepared_bytes_.fetch_add(req->size, std::memory_order_relaxed);
      req->result = std::move(result);
      req->done = true;
    }
    done_cv_.notify_all();
  }
  // Release anyone waiting on a request that will never run.
  std::lock_guard<std::mutex> lock(mu_);
  if (followed_) followed_->EndPreWrite();
  followed_.reset();
  for (auto& req : pending_) {
    req->result = Status::Aborted("file allocator stopped");
    req->done = true;
  }
  pending_.clear();
  done_cv_.notify_all();
}

}  // namespace apogee::store
