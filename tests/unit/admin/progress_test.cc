#include "admin/progress.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace apogee::admin {
namespace {

TEST(TerminalProgressTest, RewritesOneLineAndErasesIt) {
  std::ostringstream out;
  {
    TerminalProgress p("resetOffsetByTime", 2, &out, true);
    p.Step("broker-a");
    p.Step("b");
  }
  EXPECT_EQ(out.str(),
            "\rresetOffsetByTime: 1/2 broker-a"
            "\rresetOffsetByTime: 2/2 b       "
            "\r" + std::string(24, ' ') + "\r");  // the last line's own width: its padding is blank already
}

TEST(TerminalProgressTest, SilentWhenNotATerminalOrForOneItem) {
  std::ostringstream out;
  {
    TerminalProgress off("x", 5, &out, false);
    off.Step("a");
    TerminalProgress single("y", 1, &out, true);
    single.Step("a");
  }
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace apogee::admin
