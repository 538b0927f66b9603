#include "broker/schedule/delay_offset_table.h"

#include <fmt/format.h>

#include <utility>

#include "base/string_util.h"
#include "broker/config_file.h"
#include "protocol/json_util.h"

namespace apogee::broker {

namespace json = protocol::json;

DelayOffsetTable::DelayOffsetTable(env::Env* env, std::string path)
    : file_(std::make_unique<ConfigFile>(env, std::move(path))) {}

DelayOffsetTable::~DelayOffsetTable() = default;

Status DelayOffsetTable::Load() {
  Result<bool> loaded = file_->Load([this](std::string_view content) { return Decode(content); });
  if (!loaded.ok()) return loaded.status();
  std::lock_guard<std::mutex> lock(mu_);
  persisted_version_ = version_;
  return Status::OK();
}

Status DelayOffsetTable::Persist() {
  std::lock_guard<std::mutex> persist_lock(persist_mu_);
  uint64_t version;
  {
    std::lock_guard<std::mutex> lock(mu_);
    version = version_;
  }
  APOGEE_RETURN_IF_ERROR(file_->Persist(Encode()));
  std::lock_guard<std::mutex> lock(mu_);
  persisted_version_ = version;
  return Status::OK();
}

Status DelayOffsetTable::PersistIfChanged() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (version_ == persisted_version_) return Status::OK();
  }
  return Persist();
}

int64_t DelayOffsetTable::Get(int32_t level) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(level);
  return it == table_.end() ? 0 : it->second;
}

void DelayOffsetTable::Update(int32_t level, int64_t offset) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = table_.emplace(level, offset);
  if (!inserted && it->second == offset) return;
  it->second = offset;
  ++version_;
}

std::map<int32_t, int64_t> DelayOffsetTable::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return table_;
}

std::string DelayOffsetTable::Encode() const {
  std::string out = "{\"offsetTable\":{";
  bool first = true;
  for (const auto& [level, offset] : Snapshot()) {
    fmt::format_to(std::back_inserter(out), "{}{}:{}", first ? "" : ",", level, offset);
    first = false;
  }
  out += "}}";
  return out;
}

Status DelayOffsetTable::Decode(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, "delayOffset.json", &doc));
  APOGEE_ASSIGN_OR_RETURN(const json::Value* offsets,
                          json::FindObject(doc, "offsetTable", "offsetTable"));
  std::map<int32_t, int64_t> table;
  if (offsets != nullptr) {
    for (auto m = offsets->MemberBegin(); m != offsets->MemberEnd(); ++m) {
      const std::string key(json::KeyOf(m->name));
      const std::string path = "offsetTable." + key;
      std::optional<int32_t> level = ParseInt32(key);
      if (!level || *level < 1) {
        return Status::Corruption(
            fmt::format("delayOffset.json: {}: the key is not a delay level", path));
      }
      APOGEE_ASSIGN_OR_RETURN(int64_t offset, json::AsInt64(m->value, path));
      if (offset < 0) {
        return Status::Corruption(
            fmt::format("delayOffset.json: {}: negative offset {}", path, offset));
      }
      table[*level] = offset;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  table_ = std::move(table);
  ++version_;
  return Status::OK();
}

}  // namespace apogee::broker
