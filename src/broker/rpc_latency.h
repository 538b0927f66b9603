// rocketmq_rpc_latency: a histogram per (request code, response code) of how long the
// broker took to answer, fed by the remoting servers' ResponseObserver. Labels as RocketMQ
// 5.1's RemotingMetricsManager sets them: protocol_type="remoting", request_code and
// response_code by name (RemotingHelper.getRequestCodeDesc / getResponseCodeDesc; the
// number when the code has no name). Milliseconds, RocketMQ 5.1's buckets.
//
// Thread-safety: OnResponse from any thread (a shared lock and atomic adds; the first
// response of a new code pair takes the exclusive lock once); Write from the scrape thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>
#include <shared_mutex>
#include <string_view>
#include <utility>

#include "metrics/exposition.h"
#include "metrics/histogram.h"
#include "remoting/response_observer.h"

namespace apogee::broker {

class RpcLatencyRecorder final : public remoting::ResponseObserver {
 public:
  void OnResponse(int32_t request_code, int32_t response_code, int64_t elapsed_us) override;
  // The family with `node` labels (cluster, node_type, node_id) first on every series.
  void Write(metrics::PromWriter& w, std::string_view cluster, std::string_view node_id) const;

 private:
  mutable std::shared_mutex mu_;
  std::map<std::pair<int32_t, int32_t>, std::unique_ptr<metrics::Histogram>> table_;  // guarded
};

}  // namespace apogee::broker
