#include "metrics/http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <optional>
#include <utility>

#include "base/logging.h"
#include "net/io_context_pool.h"
#include "net/tcp_acceptor.h"

namespace apogee::metrics {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

constexpr auto kIdleTimeout = std::chrono::seconds(30);
constexpr uint32_t kHeaderLimit = 8 * 1024;
constexpr uint64_t kBodyLimit = 1024 * 1024;

// One connection: read a request, answer it, repeat while keep-alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const HttpHandler* handler)
      : stream_(std::move(socket)), handler_(handler) {}

  void Read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    stream_.expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

 private:
  void OnRead(beast::error_code ec) {
    if (ec == http::error::end_of_stream) return Close();
    if (ec) {
      // Bad request line, headers too large, body too long: tell the client, then close.
      if (ec != beast::error::timeout && ec != boost::asio::error::operation_aborted &&
          ec != boost::asio::error::connection_reset) {
        return Respond(HttpResponse{400, "text/plain; charset=utf-8", "bad request: " + ec.message() + "\n"},
                       false, 11);
      }
      return Close();
    }
    const auto& req = parser_->get();
    HttpRequest request{std::string(req.method_string()), std::string(req.target()), req.body()};
    HttpResponse response;
    try {
      response = (*handler_)(request);
    } catch (const std::exception& e) {
      response = HttpResponse{500, "text/plain; charset=utf-8", std::string("internal error: ") + e.what() + "\n"};
    }
    Respond(std::move(response), req.keep_alive(), req.version());
  }

  void Respond(HttpResponse response, bool keep_alive, unsigned version) {
    auto res = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(response.status), version);
    res->set(http::field::server, "apogee");
    res->set(http::field::content_type, response.content_type);
    res->set(http::field::cache_control, "no-store");
    res->keep_alive(keep_alive);
    res->body() = std::move(response.body);
    res->prepare_payload();
    stream_.expires_after(kIdleTimeout);
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res, keep_alive](beast::error_code ec, size_t) {
                        if (ec || !keep_alive) return self->Close();
                        self->Read();
                      });
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  const HttpHandler* handler_;
};

}  // namespace

struct HttpServer::Impl {
  explicit Impl(HttpHandler h) : handler(std::move(h)), pool(1, "http"), acceptor(&pool) {}
  HttpHandler handler;
  net::IoContextPool pool;
  net::TcpAcceptor acceptor;
  bool started = false;
  bool stopped = false;
};

HttpServer::HttpServer(HttpHandler handler) : impl_(std::make_unique<Impl>(std::move(handler))) {}

HttpServer::~HttpServer() { Stop(); }

Status HttpServer::Start(const std::string& host, uint16_t port) {
  APOGEE_RETURN_IF_ERROR(impl_->acceptor.Listen(host, port));
  impl_->pool.Start();
  const HttpHandler* handler = &impl_->handler;
  impl_->acceptor.Start([handler](std::shared_ptr<boost::asio::io_context>, tcp::socket socket) {
    std::make_shared<Session>(std::move(socket), handler)->Read();
  });
  impl_->started = true;
  return Status::OK();
}

uint16_t HttpServer::port() const { return impl_->acceptor.port(); }

void HttpServer::Stop() {
  if (!impl_ || impl_->stopped) return;
  impl_->stopped = true;
  if (impl_->started) impl_->acceptor.Close();
  impl_->pool.StopNow();
}

}  // namespace apogee::metrics
