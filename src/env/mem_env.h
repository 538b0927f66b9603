// MemEnv: an Env that keeps every file and directory in memory, for fast unit tests.
//
// Behaves like PosixEnv where the store can observe it: a file's parent directory must exist,
// rename replaces atomically, LockFile refuses a second holder, Map() returns a buffer shared
// with the file so that bytes stored through it are visible to Read() and to other mappings.
// Everything counts as durable at once (Sync is a no-op); wrap it in a FaultInjectionEnv to
// model losing unsynced data.
//
// One restriction PosixEnv does not have: while a file is mapped, it cannot grow beyond the
// memory block backing it (its size when it was last resized while unmapped, rounded up);
// such a Write/Allocate/Truncate fails with kNotSupported instead of moving mapped memory.
// The store only maps files after pre-sizing them, so this never triggers there.
//
// Paths are plain strings: "a//b" and "a/b/" are normalised to "a/b". Relative paths and
// the root are treated as existing directories.
#pragma once

#include <cstdint>
#include <memory>

#include "env/env.h"

namespace apogee::env {

// `total_bytes` is what GetDiskSpace reports as the capacity; free = total - bytes in files.
// It is not enforced (FaultInjectionEnv::SetCapacity is).
std::unique_ptr<Env> NewMemEnv(uint64_t total_bytes = uint64_t{1} << 40);

}  // namespace apogee::env
