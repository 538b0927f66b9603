#include "ha/ha_auth.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>

namespace apogee::ha {
namespace {

using namespace std::chrono_literals;

// A connected pair over loopback: {master side, slave side}.
std::pair<BlockingSocket, BlockingSocket> Pair() {
  auto listener = BlockingSocket::Listen("127.0.0.1", 0);
  EXPECT_TRUE(listener.ok());
  auto slave = BlockingSocket::Connect("127.0.0.1:" + std::to_string(listener->local_port()), 3s);
  EXPECT_TRUE(slave.ok());
  auto master = listener->Accept(3s);
  EXPECT_TRUE(master.ok());
  return {std::move(*master), std::move(*slave)};
}

// The "signature" is the challenge reversed plus the key: enough to prove both sides
// exchange exactly what the format says (the real HMAC is acl::VerifyHaChallenge's).
HaAuth TestAuth(std::string key) {
  HaAuth auth;
  auth.sign = [key](std::string_view challenge) {
    return std::make_pair(key, std::string(challenge.rbegin(), challenge.rend()) + key);
  };
  auth.verify = [](std::string_view key, std::string_view challenge, std::string_view sig) {
    if (key != "goodKey") return Status::PermissionDenied("unknown key");
    if (sig != std::string(challenge.rbegin(), challenge.rend()) + std::string(key)) {
      return Status::PermissionDenied("bad signature");
    }
    return Status::OK();
  };
  return auth;
}

TEST(HaAuthTest, SlaveThatSignsIsAccepted) {
  auto [master, slave] = Pair();
  HaAuth auth = TestAuth("goodKey");
  auto accepted = std::async(std::launch::async, [&] { return MasterHandshake(master, auth, 3s); });
  EXPECT_TRUE(SlaveHandshake(slave, auth, 3s).ok());
  EXPECT_TRUE(accepted.get().ok());
}

TEST(HaAuthTest, WrongKeyIsRefused) {
  auto [master, slave] = Pair();
  HaAuth good = TestAuth("goodKey");
  HaAuth bad = TestAuth("badKey");
  auto verdict = std::async(std::launch::async, [&] { return MasterHandshake(master, good, 3s); });
  EXPECT_TRUE(SlaveHandshake(slave, bad, 3s).ok());
  Status s = verdict.get();
  EXPECT_TRUE(s.Is(StatusCode::kPermissionDenied)) << s.ToString();
}

TEST(HaAuthTest, AnOffsetReportInsteadOfTheHelloIsRefused) {
  auto [master, slave] = Pair();
  HaAuth auth = TestAuth("goodKey");
  auto verdict = std::async(std::launch::async, [&] { return MasterHandshake(master, auth, 3s); });
  const uint8_t report[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_TRUE(slave.WriteAll(report, sizeof(report), 3s).ok());
  Status s = verdict.get();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("did not authenticate"), std::string::npos) << s.ToString();
}

TEST(HaAuthTest, AnOffsetReportInsteadOfAnAnswerIsRefused) {
  auto [master, slave] = Pair();
  HaAuth auth = TestAuth("goodKey");
  auto verdict = std::async(std::launch::async, [&] { return MasterHandshake(master, auth, 3s); });
  const uint8_t hello[kHelloSize] = {'A', 'P', 'G', 'H', kAuthVersion};
  ASSERT_TRUE(slave.WriteAll(hello, sizeof(hello), 3s).ok());
  uint8_t challenge[kChallengeFrameSize];
  size_t got = 0;
  while (got < sizeof(challenge)) {
    auto n = slave.ReadSome(challenge + got, sizeof(challenge) - got, 3s);
    ASSERT_TRUE(n.ok());
    got += *n;
  }
  EXPECT_EQ(std::string(reinterpret_cast<char*>(challenge), 4), "APGH");
  const uint8_t report[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_TRUE(slave.WriteAll(report, sizeof(report), 3s).ok());
  EXPECT_FALSE(verdict.get().ok());
}

TEST(HaAuthTest, ChallengesDiffer) {
  auto read_challenge = [] {
    auto [master, slave] = Pair();
    HaAuth auth = TestAuth("goodKey");
    auto verdict = std::async(std::launch::async, [&] { return MasterHandshake(master, auth, 1s); });
    const uint8_t hello[kHelloSize] = {'A', 'P', 'G', 'H', kAuthVersion};
    EXPECT_TRUE(slave.WriteAll(hello, sizeof(hello), 3s).ok());
    std::string out(kChallengeFrameSize, '\0');
    size_t got = 0;
    while (got < out.size()) {
      auto n = slave.ReadSome(out.data() + got, out.size() - got, 3s);
      if (!n.ok()) break;
      got += *n;
    }
    slave.Shutdown();
    (void)verdict.get();
    return out;
  };
  EXPECT_NE(read_challenge(), read_challenge());
}

TEST(HaAuthTest, SlaveWithoutChallengeFailsClearly) {
  auto [master, slave] = Pair();
  Status s = SlaveHandshake(slave, TestAuth("goodKey"), 200ms);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("aclEnable"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace apogee::ha
