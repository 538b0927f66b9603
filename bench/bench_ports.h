// Loopback port picking shared by the bench programs that start a broker in process.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace apogee::bench {

inline bool PortFree(int port) {
  if (port <= 1024 || port > 65535) return false;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

// A listenPort p whose fast port (p - 2) and HA port (p + 1) are free too; 0 if none found.
inline int PickBrokerPort() {
  for (int i = 0; i < 1000; ++i) {
    const int p = 20000 + std::rand() % 40000;
    if (PortFree(p) && PortFree(p - 2) && PortFree(p + 1)) return p;
  }
  return 0;
}

}  // namespace apogee::bench
