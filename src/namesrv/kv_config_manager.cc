#include "namesrv/kv_config_manager.h"

#include <fmt/format.h>
#include <rapidjson/error/en.h>

#include <mutex>

#include "base/logging.h"
#include "env/state_file.h"
#include "protocol/json_util.h"

namespace apogee::namesrv {

KvConfigManager::KvConfigManager(std::string path, env::Env* env)
    : path_(std::move(path)), env_(env) {}

Result<KvConfigManager::Table> KvConfigManager::ParseJson(std::string_view json) {
  protocol::json::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) {
    return Status::Corruption(fmt::format("not JSON at offset {}: {}", doc.GetErrorOffset(),
                                          rapidjson::GetParseError_En(doc.GetParseError())));
  }
  if (!doc.IsObject()) return Status::Corruption("top level is not a JSON object");
  Table table;
  auto it = doc.FindMember("configTable");
  if (it == doc.MemberEnd() || it->value.IsNull()) return table;  // Java writes {} when empty
  if (!it->value.IsObject()) return Status::Corruption("configTable is not an object");
  for (const auto& ns : it->value.GetObject()) {
    if (!ns.value.IsObject()) {
      return Status::Corruption(
          fmt::format("namespace '{}' is not an object", ns.name.GetString()));
    }
    Namespace& entries = table[ns.name.GetString()];
    for (const auto& kv : ns.value.GetObject()) {
      if (!kv.value.IsString()) {
        return Status::Corruption(fmt::format("value of '{}' in namespace '{}' is not a string",
                                              kv.name.GetString(), ns.name.GetString()));
      }
      entries[kv.name.GetString()] = kv.value.GetString();
    }
  }
  return table;
}

std::string KvConfigManager::ToJson(const Table& table) {
  protocol::json::StringBuffer buf;
  protocol::json::PrettyWriterTo<protocol::json::StringBuffer> w(buf);
  w.StartObject();
  w.Key("configTable");
  w.StartObject();
  for (const auto& [ns, entries] : table) {
    w.Key(ns.data(), static_cast<rapidjson::SizeType>(ns.size()));
    w.StartObject();
    for (const auto& [k, v] : entries) {
      w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
      w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
    }
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

Status KvConfigManager::Load() {
  if (path_.empty()) return Status::OK();
  auto log = GetLogger("namesrv");
  Table loaded;
  Result<env::LoadedFrom> from =
      env::LoadFileWithBackup(env_, path_, [&](std::string_view content) {
        Result<Table> parsed = ParseJson(content);
        if (!parsed.ok()) return parsed.status();
        loaded = std::move(parsed).value();
        return Status::OK();
      });
  if (!from.ok()) return from.status().Prefixed("KV config");
  if (*from == env::LoadedFrom::kNothing) log->info("no KV config at {}; starting empty", path_);
  if (*from == env::LoadedFrom::kBackup) log->warn("KV config {} unusable; loaded its .bak", path_);
  std::unique_lock lock(mu_);
  table_ = std::move(loaded);
  size_t count = 0;
  table_bytes_ = 0;
  for (const auto& [ns, entries] : table_) {
    count += entries.size();
    for (const auto& [key, value] : entries) table_bytes_ += ns.size() + key.size() + value.size();
  }
  log->info("KV config loaded: {} namespaces, {} entries", table_.size(), count);
  return Status::OK();
}

Status KvConfigManager::PersistLocked() const {
  if (path_.empty()) return Status::OK();
  Status s = env::WriteFileAtomically(env_, path_, ToJson(table_));
  if (!s.ok()) GetLogger("namesrv")->error("persisting KV config failed: {}", s.ToString());
  return s;
}

Status KvConfigManager::Put(const std::string& ns, const std::string& key,
                            const std::string& value) {
  if (ns.empty() || ns.size() > kMaxKvNameBytes || key.empty() || key.size() > kMaxKvNameBytes) {
    return Status::InvalidArgument(
        fmt::format("KV config namespace and key must be 1 to {} bytes (got {} and {})",
                    kMaxKvNameBytes, ns.size(), key.size()));
  }
  if (value.size() > kMaxKvValueBytes) {
    return Status::InvalidArgument(
        fmt::format("KV config value of {} bytes exceeds the limit of "
                    "{} bytes ({} {})",
                    value.size(), kMaxKvValueBytes, ns, key));
  }
  std::unique_lock lock(mu_);
  size_t old_bytes = 0;
  if (auto n = table_.find(ns); n != table_.end()) {
    if (auto k = n->second.find(key); k != n->second.end()) {
      old_bytes = ns.size() + key.size() + k->second.size();
    }
  }
  const size_t new_bytes = table_bytes_ - old_bytes + ns.size() + key.size() + value.size();
  if (new_bytes > kMaxKvTableBytes) {
    return Status::InvalidArgument(
        fmt::format("KV config table would hold {} bytes, beyond the limit of {} bytes; "
                    "{} {} not stored",
                    new_bytes, kMaxKvTableBytes, ns, key));
  }
  table_bytes_ = new_bytes;
  auto& entries = table_[ns];
  auto it = entries.find(key);
  if (it == entries.end()) {
    GetLogger("namesrv")->info("KV config put: {} {} = {}", ns, key, value);
  } else {
    GetLogger("namesrv")->info("KV config update: {} {} = {} (was {})", ns, key, value,
                               it->second);
  }
  entries[key] = value;
  return PersistLocked();
}

Status KvConfigManager::Delete(const std::string& ns, const std::string& key) {
  std::unique_lock lock(mu_);
  auto it = table_.find(ns);
  if (it == table_.end()) return Status::OK();
  auto kv = it->second.find(key);
  if (kv == it->second.end()) return Status::OK();
  table_bytes_ -= ns.size() + key.size() + kv->second.size();
  it->second.erase(kv);
  if (it->second.empty()) table_.erase(it);
  GetLogger("namesrv")->info("KV config delete: {} {}", ns, key);
  return PersistLocked();
}

std::optional<std::string> KvConfigManager::Get(std::string_view ns, std::string_view key) const {
  std::shared_lock lock(mu_);
  auto it = table_.find(std::string(ns));
  if (it == table_.end()) return std::nullopt;
  auto kv = it->second.find(std::string(key));
  if (kv == it->second.end()) return std::nullopt;
  return kv->second;
}

std::optional<KvConfigManager::Namespace> KvConfigManager::GetNamespace(std::string_view ns) const {
  std::shared_lock lock(mu_);
  auto it = table_.find(std::string(ns));
  if (it == table_.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

KvConfigManager::Table KvConfigManager::Snapshot() const {
  std::shared_lock lock(mu_);
  return table_;
}

}  // namespace apogee::namesrv
