#include "net/tcp_connector.h"

#include <fmt/format.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace apogee::net {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// One attempt. Lives on the context's thread only, so `done` needs no lock: whichever of
// connect completion and timer expiry comes first reports, the other is ignored.
struct ConnectAttempt : std::enable_shared_from_this<ConnectAttempt> {
  ConnectAttempt(asio::io_context& ctx, HostPort t, std::chrono::milliseconds to, ConnectHandler h)
      : socket(ctx), resolver(ctx), timer(ctx), target(std::move(t)), timeout(to),
        handler(std::move(h)) {}

  void Begin() {
    timer.expires_after(timeout);
    timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (ec || self->done) return;
      self->timed_out = true;
      boost::system::error_code ignored;
      self->resolver.cancel();
      self->socket.close(ignored);
    });
    boost::system::error_code ec;
    auto ip = asio::ip::make_address(target.host, ec);
    if (!ec) {
      Connect(tcp::endpoint(ip, target.port));
      return;
    }
    resolver.async_resolve(
        target.host, std::to_string(target.port),
        [self = shared_from_this()](const boost::system::error_code& rec,
                                    tcp::resolver::results_type results) {
          if (rec || results.empty()) {
            self->Finish(rec ? rec : asio::error::host_not_found, "cannot resolve host");
            return;
          }
          self->Connect(*results.begin());
        });
  }

  void Connect(const tcp::endpoint& endpoint) {
    if (done || timed_out) {
      Finish(asio::error::operation_aborted, "connect");
      return;
    }
    socket.async_connect(endpoint, [self = shared_from_this()](const boost::system::error_code& cec) {
      self->Finish(cec, "connect");
    });
  }

  void Finish(const boost::system::error_code& ec, std::string_view what) {
    if (done) return;
    done = true;
    timer.cancel();
    if (timed_out) {
      handler(Status::Timeout(fmt::format("connect to {} timed out after {} ms", target.ToString(),
                                          timeout.count())));
      return;
    }
    if (ec) {
      handler(Status::Unavailable(
          fmt::format("{} to {} failed: {}", what, target.ToString(), ec.message())));
      return;
    }
    boost::system::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    handler(std::move(socket));
  }

  tcp::socket socket;
  tcp::resolver resolver;
  asio::steady_timer timer;
  HostPort target;
  std::chrono::milliseconds timeout;
  ConnectHandler handler;
  bool done = false;
  bool timed_out = false;
};

}  // namespace

void AsyncConnect(const std::shared_ptr<asio::io_context>& context, const HostPort& target,
                  std::chrono::milliseconds timeout, ConnectHandler handler) {
  auto attempt = std::make_shared<ConnectAttempt>(*context, target, timeout, std::move(handler));
  asio::post(*context, [attempt] { attempt->Begin(); });
}

}  // namespace apogee::net
