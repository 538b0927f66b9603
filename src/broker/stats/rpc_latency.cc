#include "broker/stats/rpc_latency.h"

#include <cctype>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/request_code.h"
#include "protocol/response_code.h"

namespace apogee::broker {
namespace {

// RemotingHelper's code maps: the constant's field name in lower case, else the number.
std::string CodeDesc(std::string_view name, int32_t code) {
  if (name.empty() || name == "UNKNOWN") return std::to_string(code);
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void RpcLatencyRecorder::OnResponse(const remoting::ResponseSample& sample) {
  const Key key{sample.request_code, sample.response_code, sample.long_polling, sample.written};
  // Java records elapsed(TimeUnit.MILLISECONDS): whole milliseconds, truncated.
  const double ms = static_cast<double>(sample.elapsed_us / 1000);
  {
    std::shared_lock lock(mu_);
    auto it = table_.find(key);
    if (it != table_.end()) {
      it->second->Observe(ms);
      return;
    }
  }
  std::unique_lock lock(mu_);
  auto& slot = table_[key];
  if (!slot) {
    slot = std::make_unique<metrics::Histogram>(
        std::vector<double>{1, 3, 5, 7, 10, 100, 1000, 2000, 3000});
  }
  slot->Observe(ms);
}

void RpcLatencyRecorder::Write(metrics::PromWriter& w, std::string_view cluster,
                               std::string_view node_id) const {
  w.Family("rocketmq_rpc_latency", "histogram",
           "ms from a request's decoding to its response's write, by request and response code");
  std::shared_lock lock(mu_);
  for (const auto& [key, histogram] : table_) {
    const auto& [request_code, response_code, long_polling, written] = key;
    const std::string request = CodeDesc(protocol::request_code::Name(request_code), request_code);
    const std::string response = CodeDesc(protocol::response_code::Name(response_code), response_code);
    w.Histogram("rocketmq_rpc_latency",
                {{"cluster", cluster}, {"node_type", "broker"}, {"node_id", node_id},
                 {"protocol_type", "remoting"}, {"is_long_polling", long_polling ? "true" : "false"},
                 {"request_code", request}, {"response_code", response},
                 {"result", written ? "success" : "write_channel_failed"}},
                histogram->Snapshot());
  }
}

}  // namespace apogee::broker
