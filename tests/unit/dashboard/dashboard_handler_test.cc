#include "dashboard/dashboard_handler.h"

#include <gtest/gtest.h>

#include "api_test_util.h"

namespace apogee::dashboard {
namespace {

namespace rc = protocol::request_code;
using testing::ApiHarness;
using testing::Text;

const StaticAsset kAssets[] = {{"/index.html", "<!doctype html>"}, {"/app.js", "route();"}};

metrics::HttpRequest Get(std::string target) { return {"GET", std::move(target), ""}; }
metrics::HttpRequest Post(std::string target, std::string body) { return {"POST", std::move(target), std::move(body)}; }

TEST(DashboardHandlerTest, ServesBuiltInAssetsWithTheirTypes) {
  ApiHarness h;
  DashboardHandler handler(h.admin(), kAssets);
  auto index = handler.Handle(Get("/"));
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.body, "<!doctype html>");
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  auto js = handler.Handle(Get("/app.js?v=1"));
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(handler.Handle(Get("/missing.js")).status, 404);
  EXPECT_EQ(handler.Handle(Post("/index.html", "")).status, 405);
  EXPECT_TRUE(h.transport().calls().empty());
}

TEST(DashboardHandlerTest, ApiErrorsMapToStatusesWithJsonBodies) {
  ApiHarness h;
  DashboardHandler handler(h.admin(), kAssets);
  auto unknown = handler.Handle(Get("/api/nothing"));
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.content_type, "application/json");
  EXPECT_EQ(Text(testing::ParseJson(unknown.body)["error"]), "no API /api/nothing");
  EXPECT_EQ(handler.Handle(Get("/api/topic/update")).status, 405);
  EXPECT_EQ(handler.Handle(Post("/api/cluster", "")).status, 405);
  auto missing = handler.Handle(Get("/api/topic"));
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(Text(testing::ParseJson(missing.body)["error"]), "missing parameter topic");
  EXPECT_EQ(handler.Handle(Get("/api/topic?topic=%zz")).status, 400);
  EXPECT_EQ(handler.Handle(Post("/api/topic/update", "{not json")).status, 400);
  EXPECT_EQ(handler.Handle(Post("/api/topic/update", R"({"topic":{"x":1}})")).status, 400);
}

TEST(DashboardHandlerTest, BrokerRefusalIs502WithTheRemark) {
  ApiHarness h;
  h.transport().On(rc::kUpdateAndCreateTopic, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSystemError,
                                                   "the topic name 'a b' contains illegal characters");
  });
  DashboardHandler handler(h.admin(), kAssets);
  auto r = handler.Handle(Post("/api/topic/update", R"({"topic":"a b","readQueueNums":4})"));
  EXPECT_EQ(r.status, 502);
  std::string error = Text(testing::ParseJson(r.body)["error"]);
  EXPECT_NE(error.find("SYSTEM_ERROR (1): the topic name 'a b' contains illegal characters"), std::string::npos)
      << error;
  auto calls = h.transport().CallsWithCode(rc::kUpdateAndCreateTopic);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].request.ext_fields.Get("readQueueNums"), std::optional<std::string_view>("4"));
}

TEST(DashboardHandlerTest, NotFoundFromTheNameServerIs404) {
  ApiHarness h;
  DashboardHandler handler(h.admin(), kAssets);
  auto r = handler.Handle(Get("/api/topic?topic=%25DLQ%25G"));
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(Text(testing::ParseJson(r.body)["error"]).find("%DLQ%G"), std::string::npos);
}

TEST(DashboardHandlerTest, StatusMapping) {
  EXPECT_EQ(DashboardHandler::HttpStatusOf(Status::InvalidArgument("x")), 400);
  EXPECT_EQ(DashboardHandler::HttpStatusOf(Status::NotFound("x")), 404);
  EXPECT_EQ(DashboardHandler::HttpStatusOf(Status::PermissionDenied("x")), 403);
  EXPECT_EQ(DashboardHandler::HttpStatusOf(Status::Timeout("x")), 502);
  EXPECT_EQ(DashboardHandler::HttpStatusOf(Status::Internal("x")), 502);
}

}  // namespace
}  // namespace apogee::dashboard
