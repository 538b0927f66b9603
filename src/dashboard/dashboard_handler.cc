#include "dashboard/dashboard_handler.h"

#include "base/string_util.h"
#include "dashboard/cluster_api.h"
#include "dashboard/consumer_api.h"
#include "dashboard/json_out.h"
#include "dashboard/message_api.h"
#include "dashboard/producer_api.h"
#include "dashboard/topic_api.h"

namespace apogee::dashboard {
namespace {

constexpr char kJson[] = "application/json";

metrics::HttpResponse Error(int status, std::string_view message) {
  return {status, kJson, ErrorJson(message)};
}

}  // namespace

std::string ErrorJson(std::string_view message) {
  return protocol::json::WriteToString([&](JsonWriter& w) {
    w.StartObject();
    Field(w, "error", message);
    w.EndObject();
  });
}

DashboardHandler::DashboardHandler(admin::MQAdminClient* admin, std::span<const StaticAsset> assets)
    : admin_(admin), assets_(assets) {
  auto no_params = [](Result<std::string> (*fn)(admin::MQAdminClient*)) {
    return [fn](admin::MQAdminClient* a, const ApiRequest&) { return fn(a); };
  };
  routes_ = {
      {"GET", "/api/cluster", no_params(ClusterJson)},
      {"GET", "/api/topics", no_params(TopicsJson)},
      {"GET", "/api/topic", TopicJson},
      {"POST", "/api/topic/update", UpdateTopic},
      {"POST", "/api/topic/delete", DeleteTopic},
      {"GET", "/api/consumers", no_params(ConsumersJson)},
      {"GET", "/api/consumer", ConsumerJson},
      {"POST", "/api/consumer/reset", ResetConsumerOffsets},
      {"POST", "/api/consumer/redrive", RedriveDeadLetters},
      {"GET", "/api/messages/byKey", MessagesByKey},
      {"GET", "/api/messages/byTime", MessagesByTime},
      {"GET", "/api/message", MessageById},
      {"POST", "/api/message/resend", ResendMessage},
      {"GET", "/api/producers", ProducersJson},
  };
}

int DashboardHandler::HttpStatusOf(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
      return 400;
    case StatusCode::kNotFound:
      return 404;
    case StatusCode::kPermissionDenied:
      return 403;
    default:
      return 502;
  }
}

metrics::HttpResponse DashboardHandler::Handle(const metrics::HttpRequest& request) {
  if (StartsWith(request.target, "/api/") || request.target == "/api") return HandleApi(request);
  return HandleAsset(request);
}

metrics::HttpResponse DashboardHandler::HandleApi(const metrics::HttpRequest& http) {
  ApiRequest request;
  request.method = http.method;
  Status parsed = ParseTarget(http.target, &request);
  if (parsed.ok() && http.method == "POST") parsed = ParseJsonBody(http.body, &request);
  if (!parsed.ok()) return Error(400, parsed.message());

  bool path_known = false;
  for (const Route& route : routes_) {
    if (route.path != request.path) continue;
    path_known = true;
    if (route.method != request.method) continue;
    std::lock_guard<std::mutex> lock(mu_);
    Result<std::string> body = route.fn(admin_, request);
    if (!body.ok()) return Error(HttpStatusOf(body.status()), body.status().message());
    return {200, kJson, std::move(*body)};
  }
  if (path_known) return Error(405, "method " + request.method + " not allowed on " + request.path);
  return Error(404, "no API " + request.path);
}

metrics::HttpResponse DashboardHandler::HandleAsset(const metrics::HttpRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    return {405, "text/plain; charset=utf-8", "method not allowed\n"};
  }
  std::string_view path = request.target;
  path = path.substr(0, path.find('?'));
  const StaticAsset* asset = FindAsset(assets_, path);
  if (asset == nullptr) return {404, "text/plain; charset=utf-8", "not found\n"};
  return {200, std::string(ContentTypeOf(asset->path)), std::string(asset->data)};
}

}  // namespace apogee::dashboard
