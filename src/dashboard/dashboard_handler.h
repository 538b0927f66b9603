// DashboardHandler: what mqdashboard's HTTP server runs for every request. GET of a
// non-API path serves a built-in asset; /api/... dispatches to the page handlers
// (cluster_api.h, topic_api.h, consumer_api.h, message_api.h, producer_api.h), each one
// answering JSON. Errors are {"error": "..."} with 400 (bad parameter), 404 (no such
// topic / group / message / route), 405 (wrong method) or 502 (a broker or NameServer
// refused or did not answer; the message carries its response code and remark).
//
// Thread-safety: Handle may be called from any thread; calls are serialized (the admin
// client is not thread-safe and each request is a few synchronous RPCs).
#pragma once

#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "admin/admin_client.h"
#include "dashboard/api_request.h"
#include "dashboard/static_assets.h"
#include "metrics/http_server.h"

namespace apogee::dashboard {

class DashboardHandler {
 public:
  DashboardHandler(admin::MQAdminClient* admin, std::span<const StaticAsset> assets);

  metrics::HttpResponse Handle(const metrics::HttpRequest& request);

  // The HTTP status for a failed call's Status.
  static int HttpStatusOf(const Status& status);

 private:
  using ApiFn = std::function<Result<std::string>(admin::MQAdminClient*, const ApiRequest&)>;
  struct Route {
    std::string method;
    std::string path;
    ApiFn fn;
  };

  metrics::HttpResponse HandleApi(const metrics::HttpRequest& request);
  metrics::HttpResponse HandleAsset(const metrics::HttpRequest& request) const;

  admin::MQAdminClient* admin_;
  std::span<const StaticAsset> assets_;
  std::vector<Route> routes_;
  std::mutex mu_;
};

}  // namespace apogee::dashboard
