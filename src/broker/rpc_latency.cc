#include "broker/rpc_latency.h"

#include <mutex>
#include <string>

#include "protocol/request_code.h"
#include "protocol/response_code.h"

namespace apogee::broker {
namespace {

std::string CodeName(std::string_view name, int32_t code) {
  return name.empty() || name == "UNKNOWN" ? std::to_string(code) : std::string(name);
}

}  // namespace

void RpcLatencyRecorder::OnResponse(int32_t request_code, int32_t response_code,
                                    int64_t elapsed_us) {
  const std::pair<int32_t, int32_t> key{request_code, response_code};
  const double ms = static_cast<double>(elapsed_us) / 1000.0;
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
        std::vector<double>{1, 3, 5, 10, 50, 100, 1000, 3000, 5000, 10000, 30000});
  }
  slot->Observe(ms);
}

void RpcLatencyRecorder::Write(metrics::PromWriter& w, std::string_view cluster,
                               std::string_view node_id) const {
  w.Family("rocketmq_rpc_latency", "histogram",
           "ms from a request's dispatch to its response, by request and response code");
  std::shared_lock lock(mu_);
  for (const auto& [codes, histogram] : table_) {
    const std::string request = CodeName(protocol::request_code::Name(codes.first), codes.first);
    const std::string response = CodeName(protocol::response_code::Name(codes.second), codes.second);
    w.Histogram("rocketmq_rpc_latency",
                {{"cluster", cluster}, {"node_type", "broker"}, {"node_id", node_id},
                 {"protocol_type", "remoting"}, {"request_code", request},
                 {"response_code", response}},
                histogram->Snapshot());
  }
}

}  // namespace apogee::broker
