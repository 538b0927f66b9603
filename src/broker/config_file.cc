#include "broker/config_file.h"

#include <memory>
#include <utility>

#include "base/logging.h"
#include "env/env.h"

namespace apogee::broker {

ConfigFile::ConfigFile(env::Env* env, std::string path) : env_(env), path_(std::move(path)) {}

Status ConfigFile::Persist(std::string_view content) {
  std::lock_guard<std::mutex> lock(persist_mu_);
  return env::WriteFileAtomically(env_, path_, content);
}

Result<std::string> ConfigFile::ReadFile(const std::string& path) const {
  return env::ReadFileToString(env_, path);
}

Result<bool> ConfigFile::Load(const Decoder& decode) {
  APOGEE_ASSIGN_OR_RETURN(env::LoadedFrom from, env::LoadFileWithBackup(env_, path_, decode));
  if (from == env::LoadedFrom::kBackup) {
    GetLogger("broker")->warn("{} missing or unusable; loaded {}", path_, bak_path());
  }
  return from != env::LoadedFrom::kNothing;
}

}  // namespace apogee::broker
