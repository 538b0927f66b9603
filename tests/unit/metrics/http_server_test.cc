#include "metrics/http_server.h"

#include <gtest/gtest.h>

#include <string>

#include "testutil/http_get.h"

namespace apogee::metrics {
namespace {

using apogee::testing::HttpGet;
using apogee::testing::HttpPost;
using apogee::testing::HttpRaw;

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<HttpServer>([](const HttpRequest& r) {
      if (r.target == "/boom") throw std::runtime_error("handler failed");
      return HttpResponse{200, "text/plain", r.method + " " + r.target + " " + r.body};
    });
    ASSERT_TRUE(server_->Start("127.0.0.1", 0).ok());
    ASSERT_NE(server_->port(), 0);
  }
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerTest, AnswersGetAndPost) {
  auto get = HttpGet(server_->port(), "/metrics?x=1");
  EXPECT_EQ(get.status, 200);
  EXPECT_EQ(get.body, "GET /metrics?x=1 ");
  EXPECT_NE(get.headers.find("Content-Type: text/plain"), std::string::npos) << get.headers;
  auto post = HttpPost(server_->port(), "/api/x", "{\"a\":1}");
  EXPECT_EQ(post.status, 200);
  EXPECT_EQ(post.body, "POST /api/x {\"a\":1}");
}

TEST_F(HttpServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  auto r = HttpRaw(server_->port(),
                   "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("GET /b"), std::string::npos) << r.body;
}

TEST_F(HttpServerTest, MalformedRequestsCloseOnlyTheirConnection) {
  auto bad = HttpRaw(server_->port(), "NOT HTTP AT ALL\r\n\r\n");
  EXPECT_EQ(bad.status, 400);
  auto huge = HttpRaw(server_->port(), "GET / HTTP/1.1\r\nX: " + std::string(64 * 1024, 'a') + "\r\n\r\n");
  EXPECT_EQ(huge.status, 400);
  auto boom = HttpGet(server_->port(), "/boom");
  EXPECT_EQ(boom.status, 500);
  EXPECT_NE(boom.body.find("handler failed"), std::string::npos);
  EXPECT_EQ(HttpGet(server_->port(), "/still-up").status, 200);
}

TEST(HttpServerStartTest, BusyPortIsAnErrorNamingTheAddress) {
  HttpServer first([](const HttpRequest&) { return HttpResponse{}; });
  ASSERT_TRUE(first.Start("127.0.0.1", 0).ok());
  HttpServer second([](const HttpRequest&) { return HttpResponse{}; });
  Status s = second.Start("127.0.0.1", first.port());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find(std::to_string(first.port())), std::string::npos) << s.ToString();
  second.Stop();
  first.Stop();
  first.Stop();  // twice is fine
}

}  // namespace
}  // namespace apogee::metrics
