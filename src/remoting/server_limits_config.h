// The remoting resource limits as config keys, declared once for the broker (broker.conf)
// and the NameServer (namesrv.conf): Java's NettyServerConfig names where Java has the
// setting (writeBufferHighWaterMark, writeBufferLowWaterMark; 0 keeps the default, as in
// Java), Apogee names otherwise. docs/security.md ("Resource limits") explains each.
#pragma once

#include <cstdint>

#include "base/config_table.h"
#include "protocol/remoting_command.h"
#include "remoting/limits.h"

namespace apogee::remoting {

struct RemotingServerOptions;

struct ServerLimitSettings {
  int32_t write_buffer_high_water_mark = 0;  // 0 = kDefaultWriteHighWaterMark
  int32_t write_buffer_low_water_mark = 0;   // 0 = kDefaultWriteLowWaterMark
  int64_t server_write_stall_timeout_millis = kDefaultWriteStallTimeout.count();
  int32_t server_max_requests_in_flight_per_channel =
      static_cast<int32_t>(kDefaultMaxRequestsInFlight);
  int64_t server_frame_read_timeout_millis = kDefaultFrameReadTimeout.count();
  int64_t server_partial_frames_max_bytes = static_cast<int64_t>(kDefaultPartialFrameBudget);
  int64_t server_write_buffers_max_bytes = static_cast<int64_t>(kDefaultWriteBudget);
  int32_t server_max_header_bytes = static_cast<int32_t>(protocol::kDefaultMaxHeaderLength);
  int32_t server_max_header_fields = static_cast<int32_t>(protocol::kDefaultMaxExtFields);
};

// Declares the keys on `table`, filling `settings`.
void AddServerLimitKeys(ConfigTable* table, ServerLimitSettings* settings);
// Copies the settings into server options.
void ApplyServerLimits(const ServerLimitSettings& settings, RemotingServerOptions* options);

}  // namespace apogee::remoting
