// ConfigFile: one of the broker's JSON state files under <storePathRootDir>/config/
// (topics.json, subscriptionGroup.json, consumerOffset.json, delayOffset.json), persisted
// the way Java's ConfigManager/MixAll.string2File does, made crash-safe
// (docs/protocol/store_ha.md §5.7), through env::WriteFileAtomically and
// env::LoadFileWithBackup (env/state_file.h), the one implementation every process uses:
//
//   Persist: <file>.tmp written and synced; the current <file> kept as <file>.bak; <file>.tmp
//            renamed over <file>; the directory synced.
//   Load:    <file>; when it is missing, empty or its parser rejects it, <file>.bak; when
//            both are missing, "no state yet" (not an error).
//
// All IO goes through an env::Env so tests run on MemEnv / FaultInjectionEnv.
// Thread-safety: Persist calls on one ConfigFile are serialized internally; Load is meant
// for start-up.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "env/env.h"
#include "env/state_file.h"

namespace apogee::broker {

class ConfigFile {
 public:
  // `env` must outlive this.
  ConfigFile(env::Env* env, std::string path);

  const std::string& path() const { return path_; }
  std::string bak_path() const { return path_ + ".bak"; }
  std::string tmp_path() const { return path_ + ".tmp"; }

  // Replaces the file's content atomically, keeping the previous content in .bak.
  // Errors name the file and the failing step.
  Status Persist(std::string_view content);

  // Reads the state: `decode` is given the main file's content and, if that is missing,
  // empty or refused by `decode`, the .bak content. Returns true when some content was
  // decoded, false when neither file exists (fresh start). When both exist and both are
  // refused, Corruption naming both files and the decoder's message.
  using Decoder = env::ContentDecoder;
  Result<bool> Load(const Decoder& decode);

  // The raw content of a file, NotFound when it does not exist.
  Result<std::string> ReadFile(const std::string& path) const;

 private:
  env::Env* env_;
  std::string path_;
  std::mutex persist_mu_;
};

}  // namespace apogee::broker
