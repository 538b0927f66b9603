// Test helper: two commands carry the same header (every field a header codec writes).
#pragma once

#include <gtest/gtest.h>

#include "protocol/remoting_command.h"

namespace apogee::protocol {

inline void ExpectSameHeader(const RemotingCommand& a, const RemotingCommand& b) {
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(a.language, b.language);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.opaque, b.opaque);
  EXPECT_EQ(a.flag, b.flag);
  EXPECT_EQ(a.remark, b.remark);
  EXPECT_EQ(a.has_ext_fields, b.has_ext_fields);
  EXPECT_EQ(a.ext_fields, b.ext_fields);
  EXPECT_EQ(a.serialize_type, b.serialize_type);
}

}  // namespace apogee::protocol
