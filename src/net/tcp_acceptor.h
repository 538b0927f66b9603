// TcpAcceptor: listens on host:port and hands each accepted socket, already bound to
// the next io_context of the pool, to a callback. Port 0 binds an ephemeral port
// (tests); port() tells which.
//
// Thread-safety: Listen, Start and Close are called by the owner (one thread); the
// accept handler runs on the acceptor's io_context thread. The pool must be started
// before Start() and must outlive Close().
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "net/io_context_pool.h"

namespace apogee::net {

class TcpAcceptor {
 public:
  // The socket and the io_context it is bound to (chosen round-robin from the pool).
  using AcceptHandler = std::function<void(std::shared_ptr<boost::asio::io_context> context,
                                           boost::asio::ip::tcp::socket socket)>;

  explicit TcpAcceptor(IoContextPool* pool);
  ~TcpAcceptor();
  TcpAcceptor(const TcpAcceptor&) = delete;
  TcpAcceptor& operator=(const TcpAcceptor&) = delete;

  // Binds (SO_REUSEADDR, as Netty's server does) and listens. Errors name the address.
  Status Listen(const std::string& host, uint16_t port);
  // The bound port; 0 before Listen().
  uint16_t port() const { return port_; }
  // Starts accepting; every connection goes to `handler` with TCP_NODELAY set.
  void Start(AcceptHandler handler);
  // Stops accepting and closes the listening socket; waits until that is done.
  void Close();

 private:
  void AcceptNext();

  IoContextPool* pool_;
  std::shared_ptr<boost::asio::io_context> context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;
  AcceptHandler handler_;
  std::string address_;
  uint16_t port_ = 0;
  bool started_ = false;
  bool closed_ = false;  // only touched on context_'s thread once started
};

}  // namespace apogee::net
