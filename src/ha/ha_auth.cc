#include "ha/ha_auth.h"

#include <fmt/format.h>

#include <cstring>
#include <random>


namespace apogee::ha {
namespace {

Status ReadExact(BlockingSocket& socket, void* data, size_t n, std::chrono::milliseconds timeout) {
  auto* p = static_cast<uint8_t*>(data);
  size_t got = 0;
  while (got < n) {
    APOGEE_ASSIGN_OR_RETURN(size_t r, socket.ReadSome(p + got, n - got, timeout));
    got += r;
  }
  return Status::OK();
}

Result<std::string> ReadField(BlockingSocket& socket, std::string_view what,
                              std::chrono::milliseconds timeout) {
  uint8_t len[2];
  APOGEE_RETURN_IF_ERROR(ReadExact(socket, len, sizeof(len), timeout));
  size_t n = (static_cast<size_t>(len[0]) << 8) | len[1];
  if (n == 0 || n > kMaxAuthField) {
    return Status::InvalidArgument(fmt::format("HA handshake: {} length {} out of range", what, n));
  }
  std::string out(n, '\0');
  APOGEE_RETURN_IF_ERROR(ReadExact(socket, out.data(), n, timeout));
  return out;
}

void AppendField(std::string_view value, std::string* out) {
  out->push_back(static_cast<char>((value.size() >> 8) & 0xff));
  out->push_back(static_cast<char>(value.size() & 0xff));
  out->append(value);
}

}  // namespace

Status MasterHandshake(BlockingSocket& socket, const HaAuth& auth,
                       std::chrono::milliseconds timeout) {
  // The slave speaks first, so a master in tls.server.mode=permissive can tell a plain
  // slave from a TLS one by its first byte before this runs.
  uint8_t hello[kHelloSize];
  APOGEE_RETURN_IF_ERROR(ReadExact(socket, hello, sizeof(hello), timeout));
  if (std::memcmp(hello, kAuthMagic, sizeof(kAuthMagic)) != 0 ||
      hello[sizeof(kAuthMagic)] != kAuthVersion) {
    return Status::PermissionDenied(
        "the HA peer did not authenticate (no APGH hello): a slave of a broker set with "
        "aclEnable=true needs aclEnable=true and aclCredentialsFile");
  }
  std::string frame(kAuthMagic, sizeof(kAuthMagic));
  frame.push_back(static_cast<char>(kAuthVersion));
  std::random_device random;  // the kernel's CSPRNG on Linux
  for (size_t i = 0; i < kChallengeSize; i += 4) {
    uint32_t r = random();
    for (size_t j = 0; j < 4; ++j) frame.push_back(static_cast<char>((r >> (8 * j)) & 0xff));
  }
  APOGEE_RETURN_IF_ERROR(socket.WriteAll(frame.data(), frame.size(), timeout));
  std::string_view challenge = std::string_view(frame).substr(sizeof(kAuthMagic) + 1);
  APOGEE_ASSIGN_OR_RETURN(std::string access_key, ReadField(socket, "access key", timeout));
  APOGEE_ASSIGN_OR_RETURN(std::string signature, ReadField(socket, "signature", timeout));
  return auth.verify(access_key, challenge, signature);
}

Status SlaveHandshake(BlockingSocket& socket, const HaAuth& auth,
                      std::chrono::milliseconds timeout) {
  const uint8_t hello[kHelloSize] = {kAuthMagic[0], kAuthMagic[1], kAuthMagic[2], kAuthMagic[3],
                                     kAuthVersion};
  APOGEE_RETURN_IF_ERROR(socket.WriteAll(hello, sizeof(hello), timeout));
  uint8_t frame[kChallengeFrameSize];
  Status s = ReadExact(socket, frame, sizeof(frame), timeout);
  if (!s.ok()) {
    return Status::Unavailable(fmt::format(
        "no HA challenge from the master ({}); the broker set must agree on aclEnable",
        s.message()));
  }
  if (std::memcmp(frame, kAuthMagic, sizeof(kAuthMagic)) != 0 ||
      frame[sizeof(kAuthMagic)] != kAuthVersion) {
    return Status::Corruption("the master's HA challenge has an unknown magic or version");
  }
  std::string_view challenge(reinterpret_cast<const char*>(frame) + sizeof(kAuthMagic) + 1,
                             kChallengeSize);
  auto [access_key, signature] = auth.sign(challenge);
  std::string answer;
  AppendField(access_key, &answer);
  AppendField(signature, &answer);
  return socket.WriteAll(answer.data(), answer.size(), timeout);
}

}  // namespace apogee::ha
