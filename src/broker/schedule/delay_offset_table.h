// DelayOffsetTable: per delay level, the SCHEDULE_TOPIC_XXXX queue offset up to which
// messages were delivered (Java's ScheduleMessageService.offsetTable), persisted as
// <storePathRootDir>/config/delayOffset.json in Java's form {"offsetTable":{1:12,2:0}}
// (fastjson: bare integer keys; quoted keys are accepted on load, docs/protocol/store_ha.md
// §5.7 and pitfall 7). GET_ALL_DELAY_OFFSET returns that file's content.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::env {
class Env;
}  // namespace apogee::env

namespace apogee::broker {

class ConfigFile;

class DelayOffsetTable {
 public:
  // `env` must outlive this; `path` is delayOffset.json.
  DelayOffsetTable(env::Env* env, std::string path);
  ~DelayOffsetTable();

  // Reads the file (or its .bak); a missing file is a fresh start (every level at 0).
  Status Load();
  // Writes the table when it changed since the last successful write.
  Status PersistIfChanged();
  Status Persist();

  // The offset of `level`, 0 when unknown.
  int64_t Get(int32_t level) const;
  void Update(int32_t level, int64_t offset);
  std::map<int32_t, int64_t> Snapshot() const;

  std::string Encode() const;
  // Replaces the table; Corruption naming the entry on anything not level -> offset.
  Status Decode(std::string_view json);

 private:
  std::unique_ptr<ConfigFile> file_;
  std::mutex persist_mu_;  // serializes Encode + write
  mutable std::mutex mu_;
  std::map<int32_t, int64_t> table_;  // guarded by mu_
  uint64_t version_ = 0;              // guarded by mu_
  uint64_t persisted_version_ = 0;    // guarded by mu_
};

}  // namespace apogee::broker
