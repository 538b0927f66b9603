// Fuzz targets that run server code silence its logs: a warning per input would dominate the
// run. APOGEE_LOG_LEVEL=info (read by InitLogging) brings them back to replay a reproducer.
#pragma once

#include <cstdint>

#include "base/logging.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  apogee::InitLogging(apogee::LogOptions{.process_name = "", .level = "off", .to_file = false});
  return 0;
}
