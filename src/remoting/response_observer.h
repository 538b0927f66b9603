// ResponseObserver: learns how long a server took to answer each request (the broker's
// rocketmq_rpc_latency metric). Set on a RemotingServer before Start; its connections
// note each two-way request's code and arrival, and report when the response is handed to
// the connection. Oneway requests, which get no response, are not reported.
#pragma once

#include <cstdint>

namespace apogee::remoting {

class ResponseObserver {
 public:
  virtual ~ResponseObserver() = default;
  // Any thread, concurrently; keep it cheap. `elapsed_us`: from the request's decoding to
  // its response.
  virtual void OnResponse(int32_t request_code, int32_t response_code, int64_t elapsed_us) = 0;
};

}  // namespace apogee::remoting
