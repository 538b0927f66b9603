// ResponseObserver: learns how long a server took to answer each request (the broker's
// rocketmq_rpc_latency metric). Set on a RemotingServer before Start; its connections
// note each two-way request's code and arrival, and report once the response's write has
// finished (or failed), as RocketMQ's writeResponse records in its write listener. Oneway
// requests, which get no response, are not reported.
#pragma once

#include <cstdint>

namespace apogee::remoting {

struct ResponseSample {
  int32_t request_code = 0;
  int32_t response_code = 0;
  // From the request's decoding to the end of its response's write.
  int64_t elapsed_us = 0;
  // The processor held the request before answering (Responder::MarkSuspended: a
  // long-polling pull: NoteSuspended), RocketMQ's RemotingCommand.isSuspended().
  bool long_polling = false;
  // False when the response could not be written (connection closed or write failed).
  bool written = true;
};

class ResponseObserver {
 public:
  virtual ~ResponseObserver() = default;
  // Any thread (usually the connection's IO thread), concurrently; keep it cheap.
  virtual void OnResponse(const ResponseSample& sample) = 0;
};

class Channel;

// The two-way request `opaque` received on `channel` is held before its answer (a
// long-polling pull), or (`suspended` false) no longer is: its ResponseSample says so.
// Any thread; a no-op for a channel without a response observer or not a server
// connection.
void NoteSuspended(Channel& channel, int32_t opaque, bool suspended = true);

}  // namespace apogee::remoting
