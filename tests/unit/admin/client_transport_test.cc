#include "admin/client_transport.h"

#include <gtest/gtest.h>

namespace apogee::admin {
namespace {

TEST(ClientTransportTest, BadNameServerListIsRefusedUpFront) {
  auto t = ClientTransport::Create("not-an-address");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("not-an-address"), std::string::npos) << t.status().message();
}

TEST(ClientTransportTest, KeepsTheNameServersInOrder) {
  auto t = ClientTransport::Create("127.0.0.1:1;127.0.0.1:2");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ((*t)->NameServers(), (std::vector<std::string>{"127.0.0.1:1", "127.0.0.1:2"}));
}

TEST(ClientTransportTest, UnreachableNameServerIsAnError) {
  auto t = ClientTransport::Create("127.0.0.1:1");
  ASSERT_TRUE(t.ok());
  auto r = (*t)->InvokeNamesrv(protocol::RemotingCommand::MakeRequest(106), std::chrono::milliseconds(500));
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace apogee::admin
