#include "env/env.h"

#include <utility>

#include "env/posix_env.h"

namespace apogee::env {

Env* Env::Default() {
  // Leaked on purpose: file objects may outlive static destruction order.
  static Env* const kDefault = NewPosixEnv().release();
  return kDefault;
}

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

Status WriteFileAtomically(Env* env, const std::string& path, std::string_view data) {
  const std::string tmp = path + ".tmp";
  {
    APOGEE_ASSIGN_OR_RETURN(std::unique_ptr<RandomRWFile> file,
                            env->OpenFile(tmp, OpenMode::kCreateIfMissing));
    APOGEE_RETURN_IF_ERROR(file->Truncate(0));
    APOGEE_RETURN_IF_ERROR(file->Write(0, data));
    APOGEE_RETURN_IF_ERROR(file->Sync());
    APOGEE_RETURN_IF_ERROR(file->Close());
  }
  APOGEE_RETURN_IF_ERROR(env->RenameFile(tmp, path));
  return env->SyncDir(DirName(path));
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
