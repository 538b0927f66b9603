// Helpers for the remoting tests: raw blocking sockets that speak (or break) the frame
// format, and small waits.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "base/coding.h"
#include "protocol/remoting_command.h"

namespace apogee::remoting::test {

// A plain blocking TCP socket to 127.0.0.1:port.
class RawSocket {
 public:
  explicit RawSocket(uint16_t port) : socket_(ctx_) {
    socket_.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  }

  void Write(std::string_view bytes) { boost::asio::write(socket_, boost::asio::buffer(bytes)); }
  // For writes the server may refuse half-way by closing the connection: false when it did.
  bool TryWrite(std::string_view bytes) {
    boost::system::error_code ec;
    boost::asio::write(socket_, boost::asio::buffer(bytes), ec);
    return !ec;
  }
  void WriteCommand(const protocol::RemotingCommand& command) {
    std::string out;
    protocol::EncodeCommand(command, &out);
    Write(out);
  }
  // Reads one frame and decodes it; nullopt on EOF or error.
  std::optional<protocol::RemotingCommand> ReadCommand() {
    char prefix[4];
    boost::system::error_code ec;
    boost::asio::read(socket_, boost::asio::buffer(prefix, 4), ec);
    if (ec) return std::nullopt;
    std::string frame(DecodeFixed32(reinterpret_cast<const uint8_t*>(prefix)), '\0');
    boost::asio::read(socket_, boost::asio::buffer(frame), ec);
    if (ec) return std::nullopt;
    last_frame_ = frame;
    auto command = protocol::DecodeCommand(frame);
    if (!command.ok()) return std::nullopt;
    return std::move(command).value();
  }
  // True when the peer closed the connection (reads EOF or reset).
  bool ReadsEof() {
    char c;
    boost::system::error_code ec;
    socket_.read_some(boost::asio::buffer(&c, 1), ec);
    return ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset ||
           ec == boost::asio::error::broken_pipe;
  }
  const std::string& last_frame() const { return last_frame_; }
  void Close() {
    boost::system::error_code ignored;
    socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

 private:
  boost::asio::io_context ctx_;
  boost::asio::ip::tcp::socket socket_;
  std::string last_frame_;
};

inline protocol::RemotingCommand Request(int32_t code, std::string body = "") {
  auto request = protocol::RemotingCommand::MakeRequest(code);
  request.body = std::move(body);
  return request;
}

template <typename Pred>
bool WaitFor(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

}  // namespace apogee::remoting::test
