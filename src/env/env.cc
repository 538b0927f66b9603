#include "env/env.h"

#include <utility>

#include "env/posix_env.h"
#include "env/state_file.h"

namespace apogee::env {

Env* Env::Default() {
  // Leaked on purpose: file objects may outlive static destruction order.
  static Env* const kDefault = NewPosixEnv().release();
  return kDefault;
}

Result<std::string> Env::BootId() { return Status::NotSupported("this Env has no boot id"); }

Result<std::string> ReadFileToString(Env* env, const std::string& path) {
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<RandomRWFile> file,
                          env->OpenFile(path, OpenMode::kOpenExisting));
  APOGEE_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  std::string out(size, '\0');
  size_t done = 0;
  while (done < out.size()) {
    APOGEE_ASSIGN_OR_RETURN(size_t n, file->Read(done, out.size() - done,
                                                 reinterpret_cast<uint8_t*>(out.data()) + done));
    if (n == 0) break;  // shrank while reading
    done += n;
  }
  out.resize(done);
  APOGEE_RETURN_IF_ERROR(file->Close());
  return out;
}

namespace {

Status WriteAndSync(Env* env, const std::string& path, std::string_view data) {
  APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<RandomRWFile> file,
                          env->OpenFile(path, OpenMode::kCreateIfMissing));
  Status s = file->Truncate(0);
  if (s.ok()) s = file->Write(0, data);
  if (s.ok()) s = file->Sync();
  Status closed = file->Close();
  if (s.ok()) s = std::move(closed);
  return s;
}

}  // namespace

Status WriteFileAtomically(Env* env, const std::string& path, std::string_view data) {
  const std::string dir = DirName(path);
  const std::string what = "write " + path + ": ";
  Status s = env->CreateDirs(dir);
  if (!s.ok()) return s.Prefixed(what + "create directory " + dir);
  const std::string tmp = path + ".tmp";
  s = WriteAndSync(env, tmp, data);
  if (!s.ok()) {
    (void)env->DeleteFile(tmp);
    return s.Prefixed(what + "write " + tmp);
  }
  // The current version becomes the backup. A crash between the two renames leaves .bak and
  // .tmp but no main file; LoadFileWithBackup then reads .bak, the last complete version.
  if (env->FileExists(path)) {
    const std::string bak = path + ".bak";
    s = env->RenameFile(path, bak);
    if (!s.ok()) return s.Prefixed(what + "keep backup " + bak);
  }
  s = env->RenameFile(tmp, path);
  if (!s.ok()) return s.Prefixed(what + "rename " + tmp);
  s = env->SyncDir(dir);
  if (!s.ok()) return s.Prefixed(what + "sync directory " + dir);
  return Status::OK();
}

Result<LoadedFrom> LoadFileWithBackup(Env* env, const std::string& path,
                                      const ContentDecoder& decode) {
  std::string main_error;
  Result<std::string> main = ReadFileToString(env, path);
  if (main.ok()) {
    // An empty main file (a crash before its content reached the disk) counts as missing,
    // as in Java's ConfigManager.load.
    if (!main->empty()) {
      Status s = decode(*main);
      if (s.ok()) return LoadedFrom::kMainFile;
      main_error = s.ToString();
    }
  } else if (!main.status().IsNotFound()) {
    main_error = main.status().ToString();
  }
  const std::string described = main_error.empty() ? "missing" : main_error;

  const std::string bak_path = path + ".bak";
  Result<std::string> bak = ReadFileToString(env, bak_path);
  if (!bak.ok()) {
    if (!bak.status().IsNotFound()) {
      return Status::IOError("cannot read " + path + " (" + described + ") nor " + bak_path + " (" +
                             bak.status().ToString() + ")");
    }
    if (main_error.empty()) return LoadedFrom::kNothing;  // neither exists: fresh start
    // The main file exists but is unusable and there is no backup: refuse to start with
    // empty state rather than silently forget every entry.
    return Status::Corruption(main_error + "; no " + bak_path + " to fall back to");
  }
  if (bak->empty()) {
    if (main_error.empty()) return LoadedFrom::kNothing;
    return Status::Corruption(main_error + "; " + bak_path + " is empty");
  }
  Status s = decode(*bak);
  if (!s.ok()) {
    return Status::Corruption(path + " unusable (" + described + ") and " + bak_path +
                              " unusable (" + s.ToString() + ")");
  }
  return LoadedFrom::kBackup;
}

Status DeleteRecursively(Env* env, const std::string& path) {
  if (!env->FileExists(path)) return Status::OK();
  if (!env->IsDirectory(path)) return env->DeleteFile(path);
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> children, env->ListDir(path));
  for (const std::string& child : children) {
    APOGEE_RETURN_IF_ERROR(DeleteRecursively(env, JoinPath(path, child)));
  }
  return env->DeleteDir(path);
}

std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (!out.empty() && out.back() != '/') out.push_back('/');
  out.append(name);
  return out;
}

std::string DirName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

}  // namespace apogee::env
