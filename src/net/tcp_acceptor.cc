#include "net/tcp_acceptor.h"

#include <fmt/format.h>

#include <boost/asio/post.hpp>
#include <future>

#include "base/logging.h"
#include "net/host_port.h"

namespace apogee::net {

namespace asio = boost::asio;
using asio::ip::tcp;

TcpAcceptor::TcpAcceptor(IoContextPool* pool)
    : pool_(pool), context_(pool->context(0)), acceptor_(*context_), retry_timer_(*context_) {}

TcpAcceptor::~TcpAcceptor() { Close(); }

Status TcpAcceptor::Listen(const std::string& host, uint16_t port) {
  boost::system::error_code ec;
  auto ip = asio::ip::make_address(host.empty() ? "0.0.0.0" : host, ec);
  if (ec) return Status::InvalidArgument(fmt::format("listen address '{}' is not an IP", host));
  tcp::endpoint endpoint(ip, port);
  address_ = FormatEndpoint(endpoint);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    return Status::IOError(fmt::format("cannot listen on {}: {}", address_, ec.message()));
  }
  port_ = acceptor_.local_endpoint().port();
  address_ = FormatEndpoint(acceptor_.local_endpoint());
  return Status::OK();
}

void TcpAcceptor::Start(AcceptHandler handler) {
  handler_ = std::move(handler);
  started_ = true;
  asio::post(*context_, [this] { AcceptNext(); });
}

void TcpAcceptor::AcceptNext() {
  if (closed_) return;
  auto target = pool_->Next();
  acceptor_.async_accept(*target, [this, target](const boost::system::error_code& ec,
                                                 tcp::socket socket) {
    if (ec == asio::error::operation_aborted || closed_) return;
    if (ec) {
      // EMFILE and friends: retrying at once would spin; Netty logs and retries too.
      GetLogger("net")->warn("accept on {} failed: {}; retrying in 100 ms", address_, ec.message());
      retry_timer_.expires_after(std::chrono::milliseconds(100));
      retry_timer_.async_wait([this](const boost::system::error_code& tec) {
        if (!tec) AcceptNext();
      });
      return;
    }
    boost::system::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    handler_(target, std::move(socket));
    AcceptNext();
  });
}

void TcpAcceptor::Close() {
  auto do_close = [this] {
    closed_ = true;
    boost::system::error_code ignored;
    retry_timer_.cancel();
    acceptor_.close(ignored);
  };
  if (!started_ || context_->get_executor().running_in_this_thread() || context_->stopped()) {
    do_close();
    return;
  }
  std::promise<void> done;
  asio::post(*context_, [&] {
    do_close();
    done.set_value();
  });
  done.get_future().wait();
  started_ = false;
}

}  // namespace apogee::net
