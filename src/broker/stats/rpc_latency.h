// rocketmq_rpc_latency: a histogram per label set of how long the broker took to answer,
// fed by the remoting servers' ResponseObserver. Labels as RocketMQ 5.1 sets them
// (RemotingMetricsManager, NettyRemotingAbstract.writeResponse): protocol_type="remoting",
// is_long_polling (the request was held, a long-polling pull), request_code and
// response_code by name in lower case (RemotingHelper.getRequestCodeDesc /
// getResponseCodeDesc: "send_message_v2", "success"; the number when the code has no
// name) and result ("success", or "write_channel_failed" when the response could not be
// written). Whole milliseconds from the request's decoding to the response's write, as
// Java's LongHistogram records them; Java's buckets (1, 3, 5, 7, 10, 100 ms, 1, 2, 3 s).
//
// Thread-safety: OnResponse from any thread (a shared lock and atomic adds; the first
// response of a new label set takes the exclusive lock once); Write from the scrape thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string_view>
#include <tuple>

#include "metrics/exposition.h"
#include "metrics/histogram.h"
#include "remoting/response_observer.h"

namespace apogee::broker {

class RpcLatencyRecorder final : public remoting::ResponseObserver {
 public:
  void OnResponse(const remoting::ResponseSample& sample) override;
  // The family with `node` labels (cluster, node_type, node_id) first on every series.
  void Write(metrics::PromWriter& w, std::string_view cluster, std::string_view node_id) const;

 private:
  // (request code, response code, long polling, written)
  using Key = std::tuple<int32_t, int32_t, bool, bool>;
  mutable std::shared_mutex mu_;
  std::map<Key, std::unique_ptr<metrics::Histogram>> table_;  // guarded
};

}  // namespace apogee::broker
