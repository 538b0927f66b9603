// MD5 (RFC 1321), only for the consistent-hash allocation ring, which must hash exactly as
// Java's MessageDigest "MD5" does. Not for security. Kept here because the client module
// does not link OpenSSL.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace apogee::client {

std::array<uint8_t, 16> Md5Digest(std::string_view data);

}  // namespace apogee::client
