#include "client/process_queue.h"

namespace apogee::client {

bool ProcessQueue::PutMessages(const std::vector<MessageExt>& msgs) {
  std::lock_guard lock(mu_);
  for (const MessageExt& msg : msgs) {
    auto [it, inserted] = msg_tree_.try_emplace(msg.queue_offset(), msg);
    if (!inserted) continue;
    msg_size_ += static_cast<int64_t>(msg.body().size());
    if (msg.queue_offset() > queue_offset_max_) queue_offset_max_ = msg.queue_offset();
  }
  if (!msg_tree_.empty() && !consuming_) {
    consuming_ = true;
    return true;
  }
  return false;
}

int64_t ProcessQueue::MaxSpan() const {
  std::lock_guard lock(mu_);
  if (msg_tree_.empty()) return 0;
  return msg_tree_.rbegin()->first - msg_tree_.begin()->first;
}

int64_t ProcessQueue::RemoveMessages(const std::vector<MessageExt>& msgs) {
  std::lock_guard lock(mu_);
  if (msg_tree_.empty()) return -1;
  for (const MessageExt& msg : msgs) {
    auto it = msg_tree_.find(msg.queue_offset());
    if (it == msg_tree_.end()) continue;
    msg_size_ -= static_cast<int64_t>(it->second.body().size());
    msg_tree_.erase(it);
  }
  return msg_tree_.empty() ? queue_offset_max_ + 1 : msg_tree_.begin()->first;
}

std::vector<MessageExt> ProcessQueue::TakeMessages(int32_t batch) {
  std::lock_guard lock(mu_);
  std::vector<MessageExt> out;
  while (static_cast<int32_t>(out.size()) < batch && !msg_tree_.empty()) {
    auto first = msg_tree_.begin();
    out.push_back(first->second);
    consuming_tree_.emplace(first->first, std::move(first->second));
    msg_tree_.erase(first);
  }
  if (out.empty()) consuming_ = false;
  return out;
}

int64_t ProcessQueue::Commit() {
  std::lock_guard lock(mu_);
  if (consuming_tree_.empty()) return -1;
  const int64_t next = consuming_tree_.rbegin()->first + 1;
  for (const auto& [offset, msg] : consuming_tree_) {
    msg_size_ -= static_cast<int64_t>(msg.body().size());
  }
  consuming_tree_.clear();
  return next;
}

void ProcessQueue::MakeMessagesToConsumeAgain(const std::vector<MessageExt>& msgs) {
  std::lock_guard lock(mu_);
  for (const MessageExt& msg : msgs) {
    consuming_tree_.erase(msg.queue_offset());
    msg_tree_.insert_or_assign(msg.queue_offset(), msg);
  }
}

void ProcessQueue::Clear() {
  std::lock_guard lock(mu_);
  msg_tree_.clear();
  consuming_tree_.clear();
  msg_size_ = 0;
  queue_offset_max_ = 0;
}

int64_t ProcessQueue::msg_count() const {
  std::lock_guard lock(mu_);
  return static_cast<int64_t>(msg_tree_.size() + consuming_tree_.size());
}

int64_t ProcessQueue::msg_size() const {
  std::lock_guard lock(mu_);
  return msg_size_;
}

int64_t ProcessQueue::MinOffset() const {
  std::lock_guard lock(mu_);
  return msg_tree_.empty() ? -1 : msg_tree_.begin()->first;
}

int64_t ProcessQueue::MaxOffset() const {
  std::lock_guard lock(mu_);
  return msg_tree_.empty() ? -1 : msg_tree_.rbegin()->first;
}

}  // namespace apogee::client
