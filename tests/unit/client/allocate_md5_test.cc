#include "client/allocate_md5.h"

#include <gtest/gtest.h>

#include <string>

#include "base/string_util.h"

namespace apogee::client {
namespace {

std::string Hex(std::string_view data) {
  auto d = Md5Digest(data);
  return ToLowerAscii(
      HexEncodeUpper(std::string_view(reinterpret_cast<const char*>(d.data()), d.size())));
}

// RFC 1321 appendix A.5 test suite.
TEST(Md5Test, Rfc1321Vectors) {
  EXPECT_EQ(Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5Test, PaddingBoundaries) {
  // 55 bytes fit one block with the length; 56 need a second block.
  EXPECT_EQ(Hex(std::string(55, 'a')), "ef1772b6dff9a122358552954ad0df65");
  EXPECT_EQ(Hex(std::string(56, 'a')), "3b0c8ac703f828b04c6c197006d17218");
}

}  // namespace
}  // namespace apogee::client
