// apogee::Status and apogee::Result<T>: the error channel of the client API. No exception
// crosses the API; every call that can fail returns one of these, with a message that
// names what failed. This is the same type the rest of Apogee uses (src/base/status.h),
// re-exported here rather than duplicated.
#pragma once

#include "base/status.h"  // IWYU pragma: export
