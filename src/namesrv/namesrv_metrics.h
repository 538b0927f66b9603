// The NameServer's Prometheus families (node_type="namesrv"): topics, broker sets and live
// brokers from the route table, per cluster. docs/operating/metrics.md lists them.
#pragma once

#include <string>

namespace apogee::namesrv {

class RouteInfoManager;

// `node_id` names this NameServer ("host:port").
std::string RenderNamesrvMetrics(const RouteInfoManager& routes, const std::string& node_id);

}  // namespace apogee::namesrv
