// Defaults of the remoting resource limits, shared by RemotingServerOptions and the
// connections (docs/security.md, "Resource limits", explains each and the broker.conf /
// namesrv.conf key that sets it). Sized so that a 2-core, 24 GiB machine stays safe
// under the floods of tests/integration/hostile_net_*.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace apogee::remoting {

// Per connection: unsent response bytes that stop reading (writeBufferHighWaterMark)
// and the level at which reading resumes (writeBufferLowWaterMark).
inline constexpr size_t kDefaultWriteHighWaterMark = 4 * 1024 * 1024;
inline constexpr size_t kDefaultWriteLowWaterMark = 1024 * 1024;
// Per connection: requests waiting for or running in a processor before reading stops.
inline constexpr uint32_t kDefaultMaxRequestsInFlight = 256;
// A frame must be complete this long after its first byte.
inline constexpr std::chrono::milliseconds kDefaultFrameReadTimeout = std::chrono::seconds(30);
// A connection whose reading is stopped by the high-water mark and whose peer reads
// nothing for this long is closed.
inline constexpr std::chrono::milliseconds kDefaultWriteStallTimeout = std::chrono::seconds(30);
// Per server: bytes held in partial frames by all connections together.
inline constexpr uint64_t kDefaultPartialFrameBudget = 256ull * 1024 * 1024;
// Per server: unsent response bytes of all connections together; past it every
// connection above its low-water mark stops reading.
inline constexpr uint64_t kDefaultWriteBudget = 1024ull * 1024 * 1024;

}  // namespace apogee::remoting
