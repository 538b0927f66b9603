#include "namesrv/namesrv_metrics.h"

#include <cstdint>

#include "metrics/exposition.h"
#include "namesrv/route_info_manager.h"

namespace apogee::namesrv {

std::string RenderNamesrvMetrics(const RouteInfoManager& routes, const std::string& node_id) {
  std::string out;
  metrics::PromWriter w(&out);
  const protocol::ClusterInfo clusters = routes.GetClusterInfo();
  w.Family("rocketmq_topic_number", "gauge", "topics the NameServer routes");
  w.Sample("rocketmq_topic_number", {{"node_type", "namesrv"}, {"node_id", node_id}},
           static_cast<int64_t>(routes.GetAllTopics().size()));
  w.Family("apogee_namesrv_live_brokers", "gauge", "brokers registered and not expired");
  w.Sample("apogee_namesrv_live_brokers", {{"node_type", "namesrv"}, {"node_id", node_id}},
           static_cast<int64_t>(routes.LiveBrokerCount()));
  w.Family("apogee_namesrv_broker_sets", "gauge", "broker names (master and slaves) per cluster");
  for (const auto& [cluster, names] : clusters.cluster_addr_table) {
    w.Sample("apogee_namesrv_broker_sets",
             {{"cluster", cluster}, {"node_type", "namesrv"}, {"node_id", node_id}},
             static_cast<int64_t>(names.size()));
  }
  return out;
}

}  // namespace apogee::namesrv
