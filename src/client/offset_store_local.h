// LocalFileOffsetStore (Java's): BROADCASTING consumers keep their offsets in
//   <dir>/<clientId>/<group>/offsets.json      dir default ~/.rocketmq_offsets
// in Java's OffsetSerializeWrapper JSON, {"offsetTable":{{"brokerName":..,"queueId":..,
// "topic":..}:offset,...}} (fastjson's object-key form), so a Java consumer with the same
// client id reads the same file. Written as Java's MixAll.string2File, made crash-safe, by
// env::WriteFileAtomically (new content to offsets.json.tmp and synced, the previous file kept
// as offsets.json.bak, a rename, a directory sync); loading falls back to the .bak when the
// file is missing, empty or unreadable (env::LoadFileWithBackup).
#pragma once

#include <string>

#include "client/offset_store.h"
#include "client/offset_store_table.h"
#include "env/env.h"

namespace apogee::client {

class LocalFileOffsetStore final : public OffsetStore {
 public:
  // `store_dir` empty means $HOME/.rocketmq_offsets (Java's rocketmq.client.localOffsetStoreDir
  // default).
  LocalFileOffsetStore(std::string store_dir, const std::string& client_id,
                       const std::string& group, env::Env* env = env::Env::Default());

  const std::string& path() const { return path_; }

  Status Load() override;
  void UpdateOffset(const protocol::MessageQueue& mq, int64_t offset, bool increase_only) override;
  int64_t ReadOffset(const protocol::MessageQueue& mq, ReadOffsetType type) override;
  void PersistAll(const std::set<protocol::MessageQueue>& mqs) override;
  // Writes every offset held (Java 4.9 writes nothing here; the whole table is harmless).
  void Persist(const protocol::MessageQueue& mq) override;
  void RemoveOffset(const protocol::MessageQueue& mq) override;
  std::map<protocol::MessageQueue, int64_t> CloneOffsetTable(std::string_view topic) const override;
  // Broadcasting offsets never go to a broker: records the offset locally.
  Status UpdateConsumeOffsetToBroker(const protocol::MessageQueue& mq, int64_t offset,
                                     bool oneway) override;

  // Writes `offsets` to the file (tmp, .bak, rename).
  Status WriteFile(const std::map<protocol::MessageQueue, int64_t>& offsets);
  // Reads the file, falling back to the .bak; NotFound when neither exists.
  Result<std::map<protocol::MessageQueue, int64_t>> ReadFile() const;

 private:
  env::Env* env_;
  std::string path_;
  OffsetTable table_;
};

// $HOME/.rocketmq_offsets.
std::string DefaultLocalOffsetStoreDir();

}  // namespace apogee::client
