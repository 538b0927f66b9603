#include "store/consume_queue_table.h"

#include <fmt/format.h>

#include <cstring>
#include <mutex>

#include "base/string_util.h"

namespace apogee::store {

bool IsIndexableQueue(std::string_view topic, int32_t queue_id) {
  // memchr, not find_first_of: this runs for every put and every dispatch.
  return queue_id >= 0 && !topic.empty() && topic != "." && topic != ".." &&
         std::memchr(topic.data(), '/', topic.size()) == nullptr &&
         std::memchr(topic.data(), '\0', topic.size()) == nullptr;
}

ConsumeQueueTable::ConsumeQueueTable(env::Env* env, std::string root_dir, int64_t file_size)
    : env_(env), root_dir_(std::move(root_dir)), file_size_(file_size) {}

Status ConsumeQueueTable::Load() {
  APOGEE_RETURN_IF_ERROR(env_->CreateDirs(root_dir_));
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> topics, env_->ListDir(root_dir_));
  std::map<std::string, QueueMap, std::less<>> loaded;
  for (const std::string& topic : topics) {
    std::string topic_dir = env::JoinPath(root_dir_, topic);
    if (!env_->IsDirectory(topic_dir)) continue;
    APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> queues, env_->ListDir(topic_dir));
    for (const std::string& q : queues) {
      std::optional<int32_t> queue_id = ParseInt32(q);
      std::string dir = env::JoinPath(topic_dir, q);
      if (!queue_id || !env_->IsDirectory(dir)) continue;
      auto cq = std::make_shared<ConsumeQueue>(env_, topic, *queue_id, dir, file_size_);
      APOGEE_RETURN_IF_ERROR(cq->Load().Prefixed(fmt::format("loading ConsumeQueue {}", dir)));
      loaded[topic][*queue_id] = std::move(cq);
    }
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  table_ = std::move(loaded);
  generation_.fetch_add(1, std::memory_order_release);
  return Status::OK();
}

std::shared_ptr<ConsumeQueue> ConsumeQueueTable::Find(std::string_view topic,
                                                      int32_t queue_id) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto t = table_.find(topic);
  if (t == table_.end()) return nullptr;
  auto q = t->second.find(queue_id);
  return q == t->second.end() ? nullptr : q->second;
}

Result<std::shared_ptr<ConsumeQueue>> ConsumeQueueTable::FindOrCreate(std::string_view topic,
                                                                      int32_t queue_id) {
  if (auto cq = Find(topic, queue_id)) return cq;
  if (!IsIndexableQueue(topic, queue_id)) {
    return Status::InvalidArgument(
        fmt::format("cannot make a ConsumeQueue for topic '{}' queue {}", topic, queue_id));
  }
  std::string dir = env::JoinPath(env::JoinPath(root_dir_, topic), std::to_string(queue_id));
  APOGEE_RETURN_IF_ERROR(env_->CreateDirs(dir));
  std::unique_lock<std::shared_mutex> lock(mu_);
  auto& slot = table_[std::string(topic)][queue_id];
  if (!slot) slot = std::make_shared<ConsumeQueue>(env_, std::string(topic), queue_id, dir, file_size_);
  return slot;
}

std::vector<std::shared_ptr<ConsumeQueue>> ConsumeQueueTable::All() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  std::vector<std::shared_ptr<ConsumeQueue>> out;
  for (const auto& [topic, queues] : table_) {
    for (const auto& [id, cq] : queues) out.push_back(cq);
  }
  return out;
}

Status ConsumeQueueTable::DeleteTopic(std::string_view topic) {
  QueueMap doomed;
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    auto t = table_.find(topic);
    if (t == table_.end()) return Status::OK();
    doomed = std::move(t->second);
    table_.erase(t);
    generation_.fetch_add(1, std::memory_order_release);
  }
  for (auto& [id, cq] : doomed) APOGEE_RETURN_IF_ERROR(cq->Destroy());
  return env::DeleteRecursively(env_, env::JoinPath(root_dir_, topic));
}

}  // namespace apogee::store
