#include "metrics/http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <mutex>
#include <optional>
#include <vector>
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

 public:
  // From any thread: closes the connection on its own thread, so its pending read or write
  // completes (aborted) and releases the session.
  void CloseSoon() {
    boost::asio::post(stream_.get_executor(), [self = shared_from_this()] { self->Close(); });
  }

 private:

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
  // Live connections, closed by Stop(): a session's pending read holds the session, so
  // without this an idle keep-alive connection would outlive the server.
  std::mutex mu;
  std::vector<std::weak_ptr<Session>> sessions;  // guarded by mu
};

HttpServer::HttpServer(HttpHandler handler) : impl_(std::make_unique<Impl>(std::move(handler))) {}

HttpServer::~HttpServer() { Stop(); }

Status HttpServer::Start(const std::string& host, uint16_t port) {
  APOGEE_RETURN_IF_ERROR(impl_->acceptor.Listen(host, port));
  impl_->pool.Start();
  Impl* impl = impl_.get();
  impl_->acceptor.Start([impl](std::shared_ptr<boost::asio::io_context>, tcp::socket socket) {
    auto session = std::make_shared<Session>(std::move(socket), &impl->handler);
    {
      std::lock_guard<std::mutex> lock(impl->mu);
      // Drop the entries of finished sessions as new ones come.
      std::erase_if(impl->sessions, [](const std::weak_ptr<Session>& w) { return w.expired(); });
      impl->sessions.push_back(session);
    }
    session->Read();
  });
  impl_->started = true;
  return Status::OK();
}

uint16_t HttpServer::port() const { return impl_->acceptor.port(); }

void HttpServer::Stop() {
  if (!impl_ || impl_->stopped) return;
  impl_->stopped = true;
  if (impl_->started) {
    impl_->acceptor.Close();
    std::vector<std::weak_ptr<Session>> sessions;
    {
      std::lock_guard<std::mutex> lock(impl_->mu);
      sessions.swap(impl_->sessions);
    }
    for (const auto& weak : sessions) {
      if (auto session = weak.lock()) session->CloseSoon();
    }
  }
  // Runs the closes and the aborted completions they cause, then joins.
  impl_->pool.Stop();
}

}  // namespace apogee::metrics
