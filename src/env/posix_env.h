// PosixEnv: the Env over the real file system (Linux system calls).
//
// Mapping: mmap(MAP_SHARED) of the whole file; MappedRegion::Sync is msync(MS_SYNC) over the
// page-aligned range. Allocate is fallocate(2) (falling back to ftruncate where the file system
// does not support it). Sync and SyncRange are fdatasync(2). LockFile is flock(LOCK_EX|LOCK_NB)
// on a fresh descriptor, so a second lock on the same file is refused even inside one process.
#pragma once

#include <memory>

#include "env/env.h"

namespace apogee::env {

// A new PosixEnv. Env::Default() returns a shared one; tests may create their own.
std::unique_ptr<Env> NewPosixEnv();

}  // namespace apogee::env
