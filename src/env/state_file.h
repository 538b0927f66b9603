// The JSON state files of every process (the broker's topics.json, consumerOffset.json, …,
// the NameServer's kvConfig.json, a broadcasting consumer's offsets.json) are written the way
// RocketMQ's MixAll.string2File writes them, made crash-safe (docs/protocol/store_ha.md §5.7),
// by one writer, env::WriteFileAtomically (declared in env.h):
//   create missing parent directories; write `path`.tmp and sync it; rename the current
//   `path` (if any) to `path`.bak; rename `path`.tmp to `path`; sync the directory.
// After a crash at any point, `path` holds the new content, or `path` or `path`.bak the
// previous one. A failed write deletes the temp file. Errors name the file and the failing
// step. Everything goes through an Env, so the fault-injecting Env can test every step.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "env/env.h"

namespace apogee::env {

// Reads what WriteFileAtomically wrote: `decode` gets the content of `path` and, when that
// is missing, empty or refused by `decode`, the content of `path`.bak. Says which file was
// decoded; kNothing when neither exists or both are empty (a fresh start). Corruption
// naming both files when the main file is unusable and the backup is missing, empty or also
// refused (an unusable file is never silently taken for an empty one); IOError when a file
// exists but cannot be read.
using ContentDecoder = std::function<Status(std::string_view content)>;
enum class LoadedFrom { kNothing, kMainFile, kBackup };
Result<LoadedFrom> LoadFileWithBackup(Env* env, const std::string& path,
                                      const ContentDecoder& decode);

}  // namespace apogee::env
