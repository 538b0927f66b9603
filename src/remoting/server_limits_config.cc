#include "remoting/server_limits_config.h"

#include "remoting/remoting_server.h"

namespace apogee::remoting {

void AddServerLimitKeys(ConfigTable* table, ServerLimitSettings* s) {
  table
      ->Add("writeBufferHighWaterMark", &s->write_buffer_high_water_mark,
            "unsent response bytes of one connection that stop reading its requests (0 = 4 MiB)",
            false, 0, INT32_MAX)
      .Add("writeBufferLowWaterMark", &s->write_buffer_low_water_mark,
           "unsent bytes at which reading resumes (0 = 1 MiB)", false, 0, INT32_MAX)
      .Add("serverWriteStallTimeoutMillis", &s->server_write_stall_timeout_millis,
           "Apogee: close a connection whose peer reads none of its responses this long while "
           "reading is stopped (0 = never)",
           false, 0, INT64_MAX)
      .Add("serverMaxRequestsInFlightPerChannel", &s->server_max_requests_in_flight_per_channel,
           "Apogee: requests of one connection waiting for or in a processor before reading "
           "stops (0 = unlimited)",
           false, 0, INT32_MAX)
      .Add("serverFrameReadTimeoutMillis", &s->server_frame_read_timeout_millis,
           "Apogee: close a connection whose frame is not complete this long after its first "
           "byte (0 = never)",
           false, 0, INT64_MAX)
      .Add("serverPartialFramesMaxBytes", &s->server_partial_frames_max_bytes,
           "Apogee: bytes of unfinished frames all connections may hold together (0 = unlimited)",
           false, 0, INT64_MAX)
      .Add("serverWriteBuffersMaxBytes", &s->server_write_buffers_max_bytes,
           "Apogee: unsent response bytes of all connections together before busy connections "
           "stop reading (0 = unlimited)",
           false, 0, INT64_MAX)
      .Add("serverMaxHeaderBytes", &s->server_max_header_bytes,
           "Apogee: largest request header; a bigger one closes the connection (0 = frame limit)",
           false, 0, INT32_MAX)
      .Add("serverMaxHeaderFields", &s->server_max_header_fields,
           "Apogee: most extFields members in a header; more is answered SYSTEM_ERROR "
           "(0 = unlimited)",
           false, 0, INT32_MAX);
}

void ApplyServerLimits(const ServerLimitSettings& s, RemotingServerOptions* options) {
  options->write_high_water = s.write_buffer_high_water_mark > 0
                                  ? static_cast<size_t>(s.write_buffer_high_water_mark)
                                  : kDefaultWriteHighWaterMark;
  options->write_low_water = s.write_buffer_low_water_mark > 0
                                 ? static_cast<size_t>(s.write_buffer_low_water_mark)
                                 : kDefaultWriteLowWaterMark;
  options->write_stall_timeout = std::chrono::milliseconds(s.server_write_stall_timeout_millis);
  options->max_requests_in_flight =
      static_cast<uint32_t>(s.server_max_requests_in_flight_per_channel);
  options->frame_read_timeout = std::chrono::milliseconds(s.server_frame_read_timeout_millis);
  options->partial_frame_budget = static_cast<uint64_t>(s.server_partial_frames_max_bytes);
  options->write_budget = static_cast<uint64_t>(s.server_write_buffers_max_bytes);
  options->decode_limits.max_header_length = static_cast<uint32_t>(s.server_max_header_bytes);
  options->decode_limits.max_ext_fields = static_cast<uint32_t>(s.server_max_header_fields);
}

}  // namespace apogee::remoting
