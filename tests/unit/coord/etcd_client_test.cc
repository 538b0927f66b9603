#include "coord/etcd_client.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace apogee::coord {
namespace {

TEST(Base64Test, RoundTripsEveryPaddingLength) {
  for (const std::string& s : std::vector<std::string>{"", "a", "ab", "abc", "abcd",
                                                      std::string("\0\xff/", 3)}) {
    auto decoded = Base64Decode(Base64Encode(s));
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, s);
  }
  EXPECT_EQ(Base64Encode("a"), "YQ==");
  EXPECT_FALSE(Base64Decode("YQ=").ok());
  EXPECT_FALSE(Base64Decode("!!!!").ok());
}

TEST(PrefixEndTest, IncrementsTheLastByte) {
  EXPECT_EQ(PrefixEnd("/a/b/"), "/a/b0");
  EXPECT_EQ(PrefixEnd(std::string("a\xff", 2)), "b");
}

TEST(EtcdCodecTest, TxnUsesTheGatewayFieldNames) {
  const std::string json =
      EncodeTxn({Compare::Absent("k"), Compare::ModRevision("e", 7)},
                {TxnOp::Put("k", "v", 42), TxnOp::Delete("d")}, {TxnOp::Range("k")});
  EXPECT_EQ(json,
            R"({"compare":[{"key":"aw==","target":"CREATE","result":"EQUAL","create_revision":"0"},)"
            R"({"key":"ZQ==","target":"MOD","result":"EQUAL","mod_revision":"7"}],)"
            R"("success":[{"request_put":{"key":"aw==","value":"dg==","lease":"42"}},)"
            R"({"request_delete_range":{"key":"ZA=="}}],)"
            R"("failure":[{"request_range":{"key":"aw=="}}]})");
}

TEST(EtcdCodecTest, DecodesRangeAndTxnAnswersOfEtcd34) {
  // Captured from etcd 3.4.23's gateway.
  auto range = DecodeRangeResponse(
      R"({"header":{"cluster_id":"1","member_id":"2","revision":"9","raft_term":"2"},)"
      R"("kvs":[{"key":"YQ==","create_revision":"2","mod_revision":"5","version":"3",)"
      R"("value":"Yg==","lease":"77"}],"count":"1"})");
  ASSERT_TRUE(range.ok()) << range.status().ToString();
  EXPECT_EQ(range->revision, 9);
  ASSERT_EQ(range->kvs.size(), 1u);
  EXPECT_EQ(range->kvs[0].key, "a");
  EXPECT_EQ(range->kvs[0].value, "b");
  EXPECT_EQ(range->kvs[0].create_revision, 2);
  EXPECT_EQ(range->kvs[0].mod_revision, 5);
  EXPECT_EQ(range->kvs[0].lease, 77);

  // "succeeded" is omitted when false.
  auto failed = DecodeTxnResponse(
      R"({"header":{"revision":"2"},"responses":[{"response_range":{"header":{"revision":"2"},)"
      R"("kvs":[{"key":"YQ==","create_revision":"2","mod_revision":"2","version":"1","value":"Yg=="}],)"
      R"("count":"1"}}]})");
  ASSERT_TRUE(failed.ok());
  EXPECT_FALSE(failed->succeeded);
  ASSERT_EQ(failed->ranges.size(), 1u);
  ASSERT_EQ(failed->ranges[0].size(), 1u);
  EXPECT_EQ(failed->ranges[0][0].value, "b");

  auto ok = DecodeTxnResponse(R"({"header":{"revision":"3"},"succeeded":true,"responses":[{"response_put":{}}]})");
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ok->succeeded);
  EXPECT_EQ(ok->revision, 3);

  EXPECT_FALSE(DecodeRangeResponse("not json").ok());
  EXPECT_FALSE(DecodeRangeResponse(R"({"kvs":[{"key":"***"}]})").ok());
}

TEST(EtcdCodecTest, ErrorAnswersBecomeStatuses) {
  EXPECT_TRUE(DecodeError(200, R"({"header":{}})").ok());
  Status nf = DecodeError(
      404, R"({"error":"etcdserver: requested lease not found","message":"etcdserver: requested lease not found","code":5})");
  EXPECT_EQ(nf.code(), StatusCode::kNotFound);
  EXPECT_NE(nf.message().find("lease not found"), std::string::npos);
  EXPECT_FALSE(DecodeError(400, "garbage").ok());
}

TEST(EtcdClientTest, RejectsBadEndpoints) {
  EXPECT_FALSE(EtcdClient::Create("", std::chrono::milliseconds(100)).ok());
  EXPECT_FALSE(EtcdClient::Create("127.0.0.1:2379", std::chrono::milliseconds(100)).ok());
  EXPECT_FALSE(EtcdClient::Create("https://127.0.0.1:2379", std::chrono::milliseconds(100)).ok());
  EXPECT_FALSE(EtcdClient::Create("http://127.0.0.1:0", std::chrono::milliseconds(100)).ok());
  auto two = EtcdClient::Create(" http://127.0.0.1:2379/, http://127.0.0.2:2380",
                                std::chrono::milliseconds(100));
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_EQ((*two)->endpoints(), (std::vector<std::string>{"127.0.0.1:2379", "127.0.0.2:2380"}));
}

// A fake transport: the first endpoint is down, the second answers from a table.
TEST(EtcdClientTest, MovesToTheNextEndpointAndKeepsUsingIt) {
  std::vector<std::string> calls;
  HttpTransport fake = [&](const std::string& endpoint, const std::string& path,
                           const std::string& body) -> Result<HttpAnswer> {
    calls.push_back(endpoint + path);
    if (endpoint == "a:1") return Status::Unavailable("connection refused");
    if (path == "/v3/lease/grant") {
      EXPECT_EQ(body, R"({"TTL":"3"})");
      return HttpAnswer{200, R"({"header":{},"ID":"4111120372960023306","TTL":"3"})"};
    }
    if (path == "/v3/lease/keepalive") {
      // An unknown lease: TTL omitted.
      return HttpAnswer{200, R"({"result":{"header":{},"ID":"5"}})"};
    }
    if (path == "/v3/lease/revoke") return HttpAnswer{404, R"({"message":"not found","code":5})"};
    if (path == "/v3/kv/range") return HttpAnswer{503, "overloaded"};
    return HttpAnswer{200, "{}"};
  };
  auto client = EtcdClient::Create("http://a:1,http://b:2", fake);
  ASSERT_TRUE(client.ok());
  auto lease = (*client)->LeaseGrant(3);
  ASSERT_TRUE(lease.ok()) << lease.status().ToString();
  EXPECT_EQ(*lease, 4111120372960023306);
  auto ttl = (*client)->LeaseKeepAlive(5);
  ASSERT_TRUE(ttl.ok());
  EXPECT_EQ(*ttl, 0);
  EXPECT_TRUE((*client)->LeaseRevoke(5).ok()) << "an expired lease is already revoked";
  // b answered last: it is tried first now.
  EXPECT_EQ(calls, (std::vector<std::string>{"a:1/v3/lease/grant", "b:2/v3/lease/grant",
                                             "b:2/v3/lease/keepalive", "b:2/v3/lease/revoke"}));
  auto range = (*client)->Get("k");
  EXPECT_EQ(range.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(range.status().message().find("HTTP 503"), std::string::npos);
  EXPECT_NE(range.status().message().find("connection refused"), std::string::npos);
}

TEST(EtcdClientTest, BeastTransportReportsARefusedConnection) {
  auto client = EtcdClient::Create("http://127.0.0.1:1", std::chrono::milliseconds(500));
  ASSERT_TRUE(client.ok());
  auto r = (*client)->Get("k");
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace apogee::coord
