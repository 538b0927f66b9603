// SlaveStream: what a slave does with the bytes its master sends (Java's
// HAClient.dispatchReadRequest), without the socket. It cuts the bytes into frames
// (ha_format.h), checks that each starts where the slave expects, compares the part the slave
// already holds with its own CommitLog (the resume check, see ha_client.h) and appends the
// rest through ReplicationStore::AppendRaw. HaClient feeds it what it reads;
// a fuzz target can feed it anything.
//
// Not thread-safe: one per connection, used by the HAClient thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"
#include "store/replication.h"

namespace apogee::ha {

class SlaveStream {
 public:
  // The slave asked `master` to start at `expected`; bytes in [expected, verify_end) are the
  // slave's own and are compared, not appended. A frame body larger than `max_body` (a master
  // never sends more than one CommitLog file in a frame) is refused before the caller buffers
  // it. `store` must outlive this.
  SlaveStream(store::ReplicationStore* store, std::string master, int64_t expected,
              int64_t verify_end, int64_t max_body);

  // Applies the complete frames at the front of data[0, size) and returns how many bytes they
  // took; the rest (the start of a frame) must be passed again with the bytes that follow.
  // An error ends the connection: Corruption for a malformed or misplaced frame,
  // Aborted("diverged") when the master's data and the slave's differ (problem() then says
  // what the operator must do), or the store's error.
  Result<size_t> Consume(const uint8_t* data, size_t size);

  // Where the next frame must start (the end of what the slave holds or has checked).
  int64_t expected() const { return expected_; }
  // How many bytes the caller's buffer must be able to hold for the frame at its front.
  size_t needed() const { return needed_; }
  // Set when Consume returned Aborted("diverged").
  const std::string& problem() const { return problem_; }

 private:
  Status Diverged(std::string problem);

  store::ReplicationStore* store_;
  std::string master_;
  int64_t expected_;
  int64_t verify_end_;
  int64_t max_body_;
  size_t needed_;
  std::string problem_;
};

}  // namespace apogee::ha
