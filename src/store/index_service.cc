#include "store/index_service.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/logging.h"
#include "message/message_format.h"
#include "store/store_checkpoint.h"
#include "store/store_format.h"

namespace apogee::store {

IndexService::IndexService(env::Env* env, std::string dir, int32_t hash_slot_num,
                           int32_t index_num, StoreCheckpoint* checkpoint, const Clock* clock)
    : env_(env),
      dir_(std::move(dir)),
      hash_slot_num_(hash_slot_num),
      index_num_(index_num),
      checkpoint_(checkpoint),
      clock_(clock) {}

Status IndexService::Load(bool last_exit_ok, bool page_cache_survived) {
  APOGEE_RETURN_IF_ERROR(env_->CreateDirs(dir_));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> all_names, env_->ListDir(dir_));
  std::vector<std::string> names;
  for (std::string& name : all_names) {
    if (name.size() == static_cast<size_t>(kIndexFileNameWidth) &&
        name.find_first_not_of("0123456789") == std::string::npos) {
      names.push_back(std::move(name));
    }
  }
  std::vector<std::shared_ptr<IndexFile>> loaded;
  int64_t rebuild_from = INT64_MAX;
  bool dropped = false;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string path = env::JoinPath(dir_, names[i]);
    Result<std::shared_ptr<IndexFile>> opened =
        IndexFile::Open(env_, path, hash_slot_num_, index_num_);
    // After a crash only files the checkpoint covers (flushed when they filled up) are
    // trusted; the one being written may have lost any page, its header included. Its
    // entries are rebuilt by dispatching from where the previous file ended.
    // Only a full file is flushed (and checkpointed) while the store runs, so after a crash
    // a file that is not full is untrusted even when its end time looks covered.
    bool trusted = last_exit_ok || (opened.ok() && checkpoint_ && opened.value()->IsFull() &&
                                    opened.value()->header().end_timestamp <=
                                        checkpoint_->index_msg_timestamp());
    if (!opened.ok() && last_exit_ok) return opened.status();
    // When only the process died (same boot), no page of a shared mapping was lost: the files
    // hold every store the dead writer made, in order, and a kill inside a PutKey leaves a
    // state RepairAfterKill mends. A file after one that had to be dropped is dropped too: its
    // keys would be put again by the rebuild.
    if (!trusted && page_cache_survived && opened.ok() && !dropped) {
      const bool last = i + 1 == names.size();
      trusted = opened.value()->RepairAfterKill(/*drop_last_record=*/last) &&
                opened.value()->header().index_count > 1;
      if (trusted && last) {
        // Re-dispatch from the record the repaired file ends with (skipped as already
        // indexed): the records after it, the dropped last one included, are put again.
        rebuild_from = std::min(rebuild_from, opened.value()->header().end_phy_offset);
        GetLogger("store")->info(
            "index file {} kept after the process was killed (same boot, page cache intact); "
            "indexing resumes after offset {}",
            path, opened.value()->header().end_phy_offset);
      }
    }
    if (!trusted) {
      int64_t prev_end = loaded.empty() ? 0 : loaded.back()->header().end_phy_offset;
      GetLogger("store")->info(
          "index file {} may be incomplete after a crash; rebuilding it from offset {}", path,
          prev_end);
      rebuild_from = std::min(rebuild_from, prev_end);
      dropped = true;
      if (opened.ok()) APOGEE_RETURN_IF_ERROR(opened.value()->Destroy());
      else APOGEE_RETURN_IF_ERROR(env_->DeleteFile(path));
      continue;
    }
    loaded.push_back(std::move(opened).value());
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_ = std::move(loaded);
  rebuild_from_ = rebuild_from;
  return Status::OK();
}

Status IndexService::TruncateFrom(int64_t phy_offset) {
  std::lock_guard<std::mutex> lock(mu_);
  while (!files_.empty()) {
    IndexHeader h = files_.back()->header();
    if (h.end_phy_offset < phy_offset) break;
    GetLogger("store")->info("index file {} points past the CommitLog end {}; rebuilding it",
                             files_.back()->path(), phy_offset);
    int64_t prev_end = files_.size() > 1 ? files_[files_.size() - 2]->header().end_phy_offset : 0;
    rebuild_from_ = std::min(rebuild_from_, prev_end);
    APOGEE_RETURN_IF_ERROR(files_.back()->Destroy());
    files_.pop_back();
  }
  return Status::OK();
}

int64_t IndexService::IndexedUpTo() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (files_.empty()) return -1;
  IndexHeader h = files_.back()->header();
  return h.end_phy_offset;
}

int64_t IndexService::RebuildFrom() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rebuild_from_;
}

Result<std::shared_ptr<IndexFile>> IndexService::WritableFile() {
  std::shared_ptr<IndexFile> full;
  int64_t end_phy = 0;
  int64_t end_ts = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!files_.empty()) {
      if (!files_.back()->IsFull()) return files_.back();
      full = files_.back();
      IndexHeader h = full->header();
      end_phy = h.end_phy_offset;
      end_ts = h.end_timestamp;
    }
  }
  int64_t now = clock_->NowMillis();
  std::string path = env::JoinPath(dir_, IndexFile::FileNameFor(now));
  // Two files created in the same millisecond would collide; names must stay unique.
  while (env_->FileExists(path)) path = env::JoinPath(dir_, IndexFile::FileNameFor(++now));
  APOGEE_ASSIGN_OR_RETURN(auto file, IndexFile::Create(env_, path, hash_slot_num_, index_num_,
                                                       end_phy, end_ts));
  if (full) {
    // The checkpoint may only claim what is durable.
    APOGEE_RETURN_IF_ERROR(full->Flush());
    if (checkpoint_) {
      checkpoint_->set_index_msg_timestamp(end_ts);
      APOGEE_RETURN_IF_ERROR(checkpoint_->Flush());
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_.push_back(file);
  return file;
}

Status IndexService::PutKey(IndexFile** file, std::string_view topic, std::string_view key,
                            const DispatchRequest& request) {
  std::string& index_key = key_buf_;
  index_key.assign(topic).push_back(kIndexKeySeparator);
  index_key.append(key);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if ((*file)->PutKey(index_key, request.phy_offset, request.store_timestamp)) {
      return Status::OK();
    }
    APOGEE_ASSIGN_OR_RETURN(auto next, WritableFile());
    *file = next.get();
  }
  return Status::Internal(fmt::format("cannot index key {}", index_key));
}

Status IndexService::BuildIndex(const DispatchRequest& request) {
  if ((request.sys_flag & message::kTransactionTypeMask) == message::kTransactionRollbackType) {
    return Status::OK();
  }
  if (request.uniq_key.empty() && request.keys.empty()) return Status::OK();
  APOGEE_ASSIGN_OR_RETURN(auto holder, WritableFile());
  IndexFile* file = holder.get();
  IndexHeader h = file->header();
  // Already indexed (re-dispatch after recovery). A file that has entries has indexed its
  // end record; an empty successor inherits the end of the full file before it.
  if ((h.index_count > 1 || h.end_phy_offset > 0) && request.phy_offset <= h.end_phy_offset) {
    return Status::OK();
  }
  if (!request.uniq_key.empty()) {
    APOGEE_RETURN_IF_ERROR(PutKey(&file, request.topic, request.uniq_key, request));
  }
  std::string_view keys = request.keys;
  while (!keys.empty()) {
    size_t sp = keys.find(message::kKeySeparator);
    std::string_view key = keys.substr(0, sp);
    if (!key.empty()) APOGEE_RETURN_IF_ERROR(PutKey(&file, request.topic, key, request));
    if (sp == std::string_view::npos) break;
    keys.remove_prefix(sp + 1);
  }
  return Status::OK();
}

std::vector<int64_t> IndexService::QueryOffsets(std::string_view topic, std::string_view key,
                                                size_t max_num, int64_t begin,
                                                int64_t end) const {
  std::vector<std::shared_ptr<IndexFile>> files;
  {
    std::lock_guard<std::mutex> lock(mu_);
    files = files_;
  }
  std::string index_key;
  index_key.append(topic).push_back(kIndexKeySeparator);
  index_key.append(key);
  std::vector<int64_t> out;
  for (auto it = files.rbegin(); it != files.rend() && out.size() < max_num; ++it) {
    if (!(*it)->IsTimeMatched(begin, end)) continue;
    (*it)->SelectPhyOffsets(index_key, max_num, begin, end, &out);
  }
  return out;
}

Result<int> IndexService::DeleteExpiredFiles(int64_t commit_log_min_offset) {
  std::vector<std::shared_ptr<IndexFile>> doomed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Keep the last file: it is the one being written.
    while (files_.size() > 1 && files_.front()->header().end_phy_offset < commit_log_min_offset) {
      doomed.push_back(files_.front());
      files_.erase(files_.begin());
    }
  }
  for (auto& f : doomed) APOGEE_RETURN_IF_ERROR(f->Destroy());
  return static_cast<int>(doomed.size());
}

Status IndexService::Flush() {
  std::shared_ptr<IndexFile> last;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (files_.empty()) return Status::OK();
    last = files_.back();
  }
  return last->Flush();
}

size_t IndexService::file_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.size();
}

}  // namespace apogee::store
