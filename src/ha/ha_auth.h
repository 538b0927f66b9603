// Apogee's HA authentication (docs/format/ha_protocol.md "Authentication"): with
// aclEnable on a broker set, a slave opens with a hello (magic, version), the master
// answers with a random challenge and streams nothing until the slave answers with an access key and a signature
// of the challenge that the master's ACL accepts. Without it anyone who reaches the HA
// port receives the CommitLog, message bodies included. The HA module knows nothing of
// the ACL: the broker supplies the signing and checking functions.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "base/status.h"
#include "ha/blocking_socket.h"

namespace apogee::ha {

inline constexpr char kAuthMagic[4] = {'A', 'P', 'G', 'H'};
inline constexpr uint8_t kAuthVersion = 1;
inline constexpr size_t kChallengeSize = 32;
// The slave's hello: magic, version. The slave speaks first so that a master in TLS
// permissive mode can peek at its first byte (docs/security.md, "TLS").
inline constexpr size_t kHelloSize = sizeof(kAuthMagic) + 1;
// magic, version, challenge.
inline constexpr size_t kChallengeFrameSize = sizeof(kAuthMagic) + 1 + kChallengeSize;
// Longest access key / signature a master reads.
inline constexpr size_t kMaxAuthField = 256;

struct HaAuth {
  // Master: OK when `signature` of `challenge` is valid for `access_key` (a refusal's
  // message is logged and the connection closed).
  std::function<Status(std::string_view access_key, std::string_view challenge,
                       std::string_view signature)>
      verify;
  // Slave: the access key and its signature of `challenge`.
  std::function<std::pair<std::string, std::string>(std::string_view challenge)> sign;
};

// Master side, right after accept (and TLS): reads the hello, sends the challenge and
// checks the answer.
Status MasterHandshake(BlockingSocket& socket, const HaAuth& auth,
                       std::chrono::milliseconds timeout);
// Slave side, right after connect (and TLS): sends the hello, reads the challenge and
// answers it.
Status SlaveHandshake(BlockingSocket& socket, const HaAuth& auth,
                      std::chrono::milliseconds timeout);

}  // namespace apogee::ha
