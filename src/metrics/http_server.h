// A small HTTP/1.1 server (Boost.Beast) for the metrics endpoint and the dashboard: one IO
// thread of its own, so a slow or hostile HTTP client never touches the remoting threads
// or the send path. Requests are bounded (8 KiB of headers, 1 MiB of body, 30 s idle
// timeout); a malformed request closes that connection only.
//
// Thread-safety: Start and Stop from the owner; the handler runs on the server's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"

namespace apogee::metrics {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, as sent ("/metrics", "/api/topics?x=1")
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  explicit HttpServer(HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds host:port (port 0: ephemeral, see port()) and starts serving. Errors name the
  // address.
  Status Start(const std::string& host, uint16_t port);
  uint16_t port() const;
  // Stops accepting, closes connections and joins the thread. Safe to call twice.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace apogee::metrics
