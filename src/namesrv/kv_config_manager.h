// KvConfigManager: the NameServer's namespace -> key -> value store (Java's
// KVConfigManager), persisted to kvConfig.json in Java's shape
// {"configTable":{"<namespace>":{"<key>":"<value>"}}} so a Java NameServer's file loads
// unchanged. Every change is written at once, atomically, keeping a .bak.
//
// The well-known namespace is ORDER_TOPIC_CONFIG (value "brokerName:queueNum;...").
//
// Thread-safety: all methods are safe from any thread; writes (and their file IO) are
// serialized, reads share a lock.
#pragma once

#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "base/status.h"
#include "env/env.h"

namespace apogee::namesrv {

// Bounds of PUT_KV_CONFIG (Java has none). Every put rewrites the whole file, so the table
// is bounded too. Generous: ORDER_TOPIC_CONFIG values ("brokerName:queueNum;" per broker)
// are the largest real ones, a few hundred bytes.
inline constexpr size_t kMaxKvNameBytes = 1024;               // namespace and key
inline constexpr size_t kMaxKvValueBytes = 64 * 1024;         // one value
inline constexpr size_t kMaxKvTableBytes = 16 * 1024 * 1024;  // all namespaces, keys, values

class KvConfigManager {
 public:
  using Namespace = std::map<std::string, std::string>;
  using Table = std::map<std::string, Namespace>;

  // An empty path keeps everything in memory (tests, or persistence turned off). The file
  // is read and written through `env` (env::WriteFileAtomically, env::LoadFileWithBackup).
  explicit KvConfigManager(std::string path, env::Env* env = env::Env::Default());
  KvConfigManager(const KvConfigManager&) = delete;
  KvConfigManager& operator=(const KvConfigManager&) = delete;

  // Reads the file; a missing file is an empty table. When the main file is unreadable
  // or not valid JSON of the expected shape, <path>.bak is used instead (with a warning);
  // Corruption naming both files when neither is usable.
  Status Load();

  // Stores the value and persists. InvalidArgument naming the limit (nothing stored) when
  // the namespace, key or value is beyond the bounds above, or the table would be. The
  // change stays in memory even when persisting fails; the IOError is returned so the
  // caller can report it.
  Status Put(const std::string& ns, const std::string& key, const std::string& value);
  // Removes the key (and the namespace once empty) and persists. Missing keys are fine.
  Status Delete(const std::string& ns, const std::string& key);

  std::optional<std::string> Get(std::string_view ns, std::string_view key) const;
  // The whole namespace, or nullopt when it holds nothing.
  std::optional<Namespace> GetNamespace(std::string_view ns) const;
  Table Snapshot() const;
  const std::string& path() const { return path_; }

  // The file format, exposed for tests and tools.
  static Result<Table> ParseJson(std::string_view json);
  static std::string ToJson(const Table& table);

 private:
  Status PersistLocked() const;

  const std::string path_;
  env::Env* const env_;
  mutable std::shared_mutex mu_;
  Table table_;             // guarded by mu_
  size_t table_bytes_ = 0;  // guarded by mu_: namespace, key and value bytes of table_
};

}  // namespace apogee::namesrv
