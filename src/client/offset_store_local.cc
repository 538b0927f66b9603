#include "client/offset_store_local.h"

#include <cstdlib>
#include <string_view>

#include "base/logging.h"
#include "env/state_file.h"
#include "protocol/admin_bodies.h"

namespace apogee::client {
namespace {

// Drops whitespace outside string literals. Java writes this file pretty-printed
// (toJson(true)), and protocol's object-key decoder only accepts the compact form.
std::string Compact(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  bool escaped = false;
  for (char ch : json) {
    if (in_string) {
      out.push_back(ch);
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
    if (ch == '"') in_string = true;
    out.push_back(ch);
  }
  return out;
}

Result<std::map<protocol::MessageQueue, int64_t>> Parse(const std::string& path,
                                                        std::string_view json) {
  auto body = protocol::DecodeResetOffsetBody(Compact(json));
  if (!body.ok()) {
    return Status::Corruption("offset file " + path + ": " + body.status().message());
  }
  return std::move(body->offset_table);
}

}  // namespace

std::string DefaultLocalOffsetStoreDir() {
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr && *home != '\0' ? home : ".") + "/.rocketmq_offsets";
}

LocalFileOffsetStore::LocalFileOffsetStore(std::string store_dir, const std::string& client_id,
                                           const std::string& group, env::Env* env)
    : env_(env),
      path_((store_dir.empty() ? DefaultLocalOffsetStoreDir() : store_dir) + "/" + client_id + "/" +
            group + "/offsets.json") {}

Result<std::map<protocol::MessageQueue, int64_t>> LocalFileOffsetStore::ReadFile() const {
  std::map<protocol::MessageQueue, int64_t> offsets;
  APOGEE_ASSIGN_OR_RETURN(env::LoadedFrom from,
                          env::LoadFileWithBackup(env_, path_, [&](std::string_view content) {
                            APOGEE_ASSIGN_OR_RETURN(offsets, Parse(path_, content));
                            return Status::OK();
                          }));
  if (from == env::LoadedFrom::kNothing) return Status::NotFound("no offset file " + path_);
  if (from == env::LoadedFrom::kBackup) {
    GetLogger("client")->warn("offset file {} unusable; read its .bak", path_);
  }
  return offsets;
}

Status LocalFileOffsetStore::WriteFile(const std::map<protocol::MessageQueue, int64_t>& offsets) {
  protocol::ResetOffsetBody body;
  body.offset_table = offsets;
  return env::WriteFileAtomically(env_, path_, protocol::EncodeResetOffsetBody(body));
}

Status LocalFileOffsetStore::Load() {
  auto offsets = ReadFile();
  if (!offsets.ok()) {
    if (offsets.status().code() == StatusCode::kNotFound) return Status::OK();
    return offsets.status();
  }
  table_.PutAll(*offsets);
  return Status::OK();
}

void LocalFileOffsetStore::UpdateOffset(const protocol::MessageQueue& mq, int64_t offset,
                                        bool increase_only) {
  table_.Update(mq, offset, increase_only);
}

int64_t LocalFileOffsetStore::ReadOffset(const protocol::MessageQueue& mq, ReadOffsetType type) {
  if (type != ReadOffsetType::kReadFromStore) {
    if (auto offset = table_.Get(mq)) return *offset;
    if (type == ReadOffsetType::kReadFromMemory) return kOffsetNotFound;
  }
  auto offsets = ReadFile();
  if (!offsets.ok()) {
    if (offsets.status().code() == StatusCode::kNotFound) return kOffsetNotFound;
    GetLogger("client")->warn("read {} failed: {}", path_, offsets.status().ToString());
    return kOffsetReadError;
  }
  auto it = offsets->find(mq);
  if (it == offsets->end()) return kOffsetNotFound;
  table_.Update(mq, it->second, false);
  return it->second;
}

void LocalFileOffsetStore::PersistAll(const std::set<protocol::MessageQueue>& mqs) {
  if (mqs.empty()) return;
  Status s = WriteFile(table_.Select(mqs, /*drop_others=*/false));
  if (!s.ok()) GetLogger("client")->warn("persist offsets to {} failed: {}", path_, s.ToString());
}

void LocalFileOffsetStore::Persist(const protocol::MessageQueue&) {
  Status s = WriteFile(table_.Clone(""));
  if (!s.ok()) GetLogger("client")->warn("persist offsets to {} failed: {}", path_, s.ToString());
}

void LocalFileOffsetStore::RemoveOffset(const protocol::MessageQueue& mq) { table_.Remove(mq); }

std::map<protocol::MessageQueue, int64_t> LocalFileOffsetStore::CloneOffsetTable(
    std::string_view topic) const {
  return table_.Clone(topic);
}

Status LocalFileOffsetStore::UpdateConsumeOffsetToBroker(const protocol::MessageQueue& mq,
                                                         int64_t offset, bool) {
  table_.Update(mq, offset, false);
  return Status::OK();
}

}  // namespace apogee::client
