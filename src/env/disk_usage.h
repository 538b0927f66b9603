// The used ratio of the file system holding the store, as RocketMQ computes it
// (UtilAll.getDiskPartitionSpaceUsedPercent): used = getTotalSpace - getFreeSpace (blocks in
// use), and the ratio is used over used + getUsableSpace, rounded up to a whole percent.
// That is what `df` prints as Use%. Env::GetDiskSpace already reports that denominator as
// `total_bytes` (PosixEnv leaves root-reserved blocks out of it), so the ratio here is
// (total - free) / total; 1 - f_bavail / f_blocks instead counts the reserved blocks (5 %
// on a default ext4) as used and would clean files and refuse writes too early.
//
// The one place this is computed: the store's disk checks, the runtime info and the
// metrics all call it.
#pragma once

#include <string>

#include "env/env.h"

namespace apogee::env {

// In [0, 1], two decimals (0.24 for 24 %); -1 when the space is unknown (no blocks).
double DiskUsedRatio(const DiskSpace& space);

// DiskUsedRatio of the file system holding `path` through `env`; -1 when `env` is null or
// the path cannot be measured (Java also answers -1 then).
double DiskUsedRatioOf(Env* env, const std::string& path);

}  // namespace apogee::env
