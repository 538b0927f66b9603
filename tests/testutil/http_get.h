// A curl-like HTTP/1.1 client for tests: one request on a fresh loopback connection,
// "Connection: close", the whole response read back.
#pragma once

#include <cstdint>
#include <string>

namespace apogee::testing {

struct HttpResult {
  int status = 0;      // 0 when the connection or the response failed
  std::string headers;  // status line and headers
  std::string body;
};

// Sends `raw` as is (for malformed requests) or, via HttpGet, a well-formed GET.
HttpResult HttpRaw(uint16_t port, const std::string& raw, const std::string& host = "127.0.0.1");
HttpResult HttpGet(uint16_t port, const std::string& target, const std::string& host = "127.0.0.1");
HttpResult HttpPost(uint16_t port, const std::string& target, const std::string& body,
                    const std::string& host = "127.0.0.1");

}  // namespace apogee::testing
