#include "env/disk_usage.h"

#include <algorithm>

namespace apogee::env {

double DiskUsedRatio(const DiskSpace& space) {
  if (space.total_bytes == 0) return -1;
  const uint64_t free = std::min(space.free_bytes, space.total_bytes);
  const uint64_t used = space.total_bytes - free;
  // Whole percent, rounded up as Java does (and df). 100 * used overflows 64 bits only
  // beyond 184 PB.
  uint64_t percent = used * 100 / space.total_bytes;
  if (used * 100 % space.total_bytes != 0) ++percent;
  return static_cast<double>(percent) / 100.0;
}

double DiskUsedRatioOf(Env* env, const std::string& path) {
  if (env == nullptr) return -1;
  Result<DiskSpace> space = env->GetDiskSpace(path);
  if (!space.ok()) return -1;
  return DiskUsedRatio(*space);
}

}  // namespace apogee::env
