#include "broker/client/consumer_offset_manager.h"

#include <fmt/format.h>

#include <utility>

#include "base/logging.h"
#include "broker/config_file.h"
// The protocol module's lenient fastjson-style JSON helpers (RapidJSON underneath).
#include "protocol/json_util.h"

namespace apogee::broker {

namespace json = protocol::json;

namespace {

std::string Key(std::string_view topic, std::string_view group) {
  std::string key;
  key.reserve(topic.size() + 1 + group.size());
  key.append(topic);
  key.push_back(kTopicGroupSeparator);
  key.append(group);
  return key;
}

// "topic@group": topic names cannot contain '@', group names neither, so the first '@'
// splits them; Java splits on every '@' and ignores keys that do not give two parts.
bool SplitKey(std::string_view key, std::string_view* topic, std::string_view* group) {
  const size_t pos = key.find(kTopicGroupSeparator);
  if (pos == std::string_view::npos || pos == 0 || pos + 1 == key.size()) return false;
  if (key.find(kTopicGroupSeparator, pos + 1) != std::string_view::npos) return false;
  *topic = key.substr(0, pos);
  *group = key.substr(pos + 1);
  return true;
}

}  // namespace

ConsumerOffsetManager::ConsumerOffsetManager(env::Env* env, std::string path)
    : file_(std::make_unique<ConfigFile>(env, std::move(path))) {}

ConsumerOffsetManager::~ConsumerOffsetManager() { flusher_.Cancel(); }

Status ConsumerOffsetManager::Load() {
  Result<bool> loaded = file_->Load([this](std::string_view content) { return Decode(content); });
  if (!loaded.ok()) return loaded.status();
  std::lock_guard<std::mutex> lock(mu_);
  persisted_version_.store(version_, std::memory_order_release);
  return Status::OK();
}

Status ConsumerOffsetManager::Persist() {
  std::lock_guard<std::mutex> persist_lock(persist_mu_);
  uint64_t version;
  std::string content;
  {
    std::lock_guard<std::mutex> lock(mu_);
    version = version_;
  }
  content = Encode();
  APOGEE_RETURN_IF_ERROR(file_->Persist(content));
  persisted_version_.store(version, std::memory_order_release);
  return Status::OK();
}

Status ConsumerOffsetManager::PersistIfChanged() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (version_ == persisted_version_.load(std::memory_order_acquire)) return Status::OK();
  }
  return Persist();
}

void ConsumerOffsetManager::StartPeriodicPersist(int64_t interval_ms, Scheduler* scheduler) {
  if (flusher_) return;
  flusher_ = scheduler->Every("ConsumerOffsetFlush", Scheduler::LaneKind::kQuick,
                              interval_ms > 0 ? interval_ms : 5000,
                              [this] { return PersistIfChanged().Prefixed("consumer offsets not persisted"); });
}

Status ConsumerOffsetManager::Shutdown() {
  flusher_.Cancel();
  return Persist();
}

void ConsumerOffsetManager::CommitOffset(std::string_view group, std::string_view topic,
                                         int32_t queue_id, int64_t offset) {
  std::string key = Key(topic, group);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(key);
  if (it == table_.end()) it = table_.emplace(std::move(key), std::map<int32_t, int64_t>{}).first;
  auto [slot, inserted] = it->second.try_emplace(queue_id, offset);
  if (!inserted && slot->second == offset) return;
  slot->second = offset;
  ++version_;
}

int64_t ConsumerOffsetManager::QueryOffset(std::string_view group, std::string_view topic,
                                           int32_t queue_id) const {
  const std::string key = Key(topic, group);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(key);
  if (it == table_.end()) return -1;
  auto q = it->second.find(queue_id);
  return q == it->second.end() ? -1 : q->second;
}

void ConsumerOffsetManager::CommitPullOffset(std::string_view group, std::string_view topic,
                                             int32_t queue_id, int64_t offset) {
  std::string key = Key(topic, group);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pull_table_.find(key);
  if (it == pull_table_.end()) {
    it = pull_table_.emplace(std::move(key), std::map<int32_t, int64_t>{}).first;
  }
  it->second[queue_id] = offset;
}

int64_t ConsumerOffsetManager::QueryPullOffset(std::string_view group, std::string_view topic,
                                               int32_t queue_id) const {
  const std::string key = Key(topic, group);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pull_table_.find(key);
  if (it == pull_table_.end()) return -1;
  auto q = it->second.find(queue_id);
  return q == it->second.end() ? -1 : q->second;
}

std::map<int32_t, int64_t> ConsumerOffsetManager::QueryOffsets(std::string_view group,
                                                               std::string_view topic) const {
  const std::string key = Key(topic, group);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(key);
  return it == table_.end() ? std::map<int32_t, int64_t>{} : it->second;
}

std::set<std::string> ConsumerOffsetManager::WhichGroupByTopic(std::string_view topic) const {
  std::set<std::string> groups;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [key, offsets] : table_) {
    std::string_view t, g;
    if (SplitKey(key, &t, &g) && t == topic) groups.emplace(g);
  }
  return groups;
}

std::set<std::string> ConsumerOffsetManager::WhichTopicByConsumer(std::string_view group) const {
  std::set<std::string> topics;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [key, offsets] : table_) {
    std::string_view t, g;
    if (SplitKey(key, &t, &g) && g == group) topics.emplace(t);
  }
  return topics;
}

void ConsumerOffsetManager::RemoveGroup(std::string_view group) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = table_.begin(); it != table_.end();) {
    std::string_view t, g;
    if (SplitKey(it->first, &t, &g) && g == group) {
      it = table_.erase(it);
      ++version_;
    } else {
      ++it;
    }
  }
  std::erase_if(pull_table_, [group](const auto& entry) {
    std::string_view t, g;
    return SplitKey(entry.first, &t, &g) && g == group;
  });
}

void ConsumerOffsetManager::RemoveTopic(std::string_view topic) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = table_.begin(); it != table_.end();) {
    std::string_view t, g;
    if (SplitKey(it->first, &t, &g) && t == topic) {
      it = table_.erase(it);
      ++version_;
    } else {
      ++it;
    }
  }
  std::erase_if(pull_table_, [topic](const auto& entry) {
    std::string_view t, g;
    return SplitKey(entry.first, &t, &g) && t == topic;
  });
}

std::map<std::string, std::map<int32_t, int64_t>> ConsumerOffsetManager::AllOffsets() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {table_.begin(), table_.end()};
}

std::string ConsumerOffsetManager::Encode() const {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "offsetTable");
  w.StartObject();
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, offsets] : table_) {
      json::Key(w, key);
      w.StartObject();
      for (const auto& [queue_id, offset] : offsets) {
        json::NumericKey(w, queue_id, /*quoted=*/false);
        w.Int64(offset);
      }
      w.EndObject();
    }
  }
  w.EndObject();
  w.EndObject();
  return out;
}

Status ConsumerOffsetManager::Decode(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "consumerOffset.json", &doc));
  std::map<std::string, std::map<int32_t, int64_t>, std::less<>> table;
  APOGEE_ASSIGN_OR_RETURN(const json::Value* offset_table,
                          json::FindObject(doc, "offsetTable", "offsetTable"));
  if (offset_table != nullptr) {
    for (auto m = offset_table->MemberBegin(); m != offset_table->MemberEnd(); ++m) {
      const std::string key(json::KeyOf(m->name));
      const std::string path = "offsetTable." + key;
      std::string_view topic, group;
      if (!SplitKey(key, &topic, &group)) {
        return Status::Corruption(
            fmt::format("{}: the key is not \"topic@group\"", path));
      }
      if (m->value.IsNull()) continue;
      if (!m->value.IsObject()) return Status::Corruption(path + ": not an object");
      std::map<int32_t, int64_t>& offsets = table[key];
      for (auto q = m->value.MemberBegin(); q != m->value.MemberEnd(); ++q) {
        const std::string qpath = fmt::format("{}.{}", path, json::KeyOf(q->name));
        APOGEE_ASSIGN_OR_RETURN(int32_t queue_id, json::AsInt32(q->name, qpath + " (queue id)"));
        APOGEE_ASSIGN_OR_RETURN(int64_t offset, json::AsInt64(q->value, qpath));
        offsets[queue_id] = offset;
      }
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  table_ = std::move(table);
  ++version_;
  return Status::OK();
}

}  // namespace apogee::broker
