#include "broker/config_file.h"

#include <fmt/format.h>

#include <memory>
#include <utility>

#include "env/env.h"

namespace apogee::broker {
namespace {

std::string ParentDir(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

ConfigFile::ConfigFile(env::Env* env, std::string path) : env_(env), path_(std::move(path)) {}

Status ConfigFile::WriteAndSync(const std::string& path, std::string_view content) {
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<env::RandomRWFile> file,
                          env_->OpenFile(path, env::OpenMode::kCreateIfMissing));
  Status s = file->Truncate(0);
  if (s.ok()) s = file->Write(0, content);
  if (s.ok()) s = file->Sync();
  Status closed = file->Close();
  if (s.ok()) s = std::move(closed);
  return s;
}

Status ConfigFile::Persist(std::string_view content) {
  std::lock_guard<std::mutex> lock(persist_mu_);
  const std::string dir = ParentDir(path_);
  Status s = env_->CreateDirs(dir);
  if (!s.ok()) return s.Prefixed(fmt::format("persist {}: create directory {}", path_, dir));

  const std::string tmp = tmp_path();
  s = WriteAndSync(tmp, content);
  if (!s.ok()) {
    (void)env_->DeleteFile(tmp);
    return s.Prefixed(fmt::format("persist {}: write {}", path_, tmp));
  }
  // The current version becomes the backup. A crash between the two renames leaves
  // .bak and .tmp but no main file; Load then reads .bak, the last complete version.
  if (env_->FileExists(path_)) {
    s = env_->RenameFile(path_, bak_path());
    if (!s.ok()) return s.Prefixed(fmt::format("persist {}: keep backup {}", path_, bak_path()));
  }
  s = env_->RenameFile(tmp, path_);
  if (!s.ok()) return s.Prefixed(fmt::format("persist {}: rename {}", path_, tmp));
  s = env_->SyncDir(dir);
  if (!s.ok()) return s.Prefixed(fmt::format("persist {}: sync directory {}", path_, dir));
  return Status::OK();
}

Result<std::string> ConfigFile::ReadFile(const std::string& path) const {
  if (!env_->FileExists(path)) return Status::NotFound(path + " does not exist");
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<env::RandomRWFile> file,
                          env_->OpenFile(path, env::OpenMode::kOpenExisting));
  APOGEE_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  std::string content(size, '\0');
  size_t done = 0;
  while (done < size) {
    APOGEE_ASSIGN_OR_RETURN(
        size_t n, file->Read(done, size - done, reinterpret_cast<uint8_t*>(&content[done])));
    if (n == 0) break;
    done += n;
  }
  content.resize(done);
  (void)file->Close();
  return content;
}

Result<bool> ConfigFile::Load(const Decoder& decode) {
  std::string main_error;
  Result<std::string> main = ReadFile(path_);
  if (main.ok()) {
    // An empty main file (a crash before its content reached the disk) counts as
    // missing, as in Java's ConfigManager.load.
    if (!main->empty()) {
      Status s = decode(*main);
      if (s.ok()) return true;
      main_error = s.ToString();
    }
  } else if (!main.status().IsNotFound()) {
    main_error = main.status().ToString();
  }

  Result<std::string> bak = ReadFile(bak_path());
  if (!bak.ok()) {
    if (!bak.status().IsNotFound()) {
      return Status::IOError(fmt::format("cannot read {} ({}) nor {} ({})", path_,
                                         main_error.empty() ? "missing" : main_error, bak_path(),
                                         bak.status().ToString()));
    }
    if (main_error.empty()) return false;  // neither exists: fresh start
    // The main file exists but is unusable and there is no backup: refuse to start with
    // an empty table rather than silently forget every entry.
    return Status::Corruption(fmt::format("{}; no {} to fall back to", main_error, bak_path()));
  }
  if (bak->empty()) {
    if (main_error.empty()) return false;
    return Status::Corruption(fmt::format("{}; {} is empty", main_error, bak_path()));
  }
  Status s = decode(*bak);
  if (!s.ok()) {
    return Status::Corruption(fmt::format("{} unusable ({}) and {} unusable ({})", path_,
                                          main_error.empty() ? "missing" : main_error, bak_path(),
                                          s.ToString()));
  }
  return true;
}

}  // namespace apogee::broker
