#include "acl/signature.h"

#include <gtest/gtest.h>

namespace apogee::acl {
namespace {

protocol::RemotingCommand SendV2Request() {
  protocol::RemotingCommand cmd = protocol::RemotingCommand::MakeRequest(310);
  const std::pair<const char*, const char*> fields[] = {
      {"a", "PG"}, {"b", "TopicTest"}, {"c", "TBW102"}, {"d", "4"}, {"e", "1"},
      {"f", "0"}, {"g", "1700000000000"}, {"h", "0"}, {"i", "UNIQ_KEY\x01" "1\x02"},
      {"j", "0"}, {"k", "false"}, {"m", "false"}};
  for (const auto& [k, v] : fields) cmd.ext_fields.Set(k, v);
  cmd.body = "hello";
  return cmd;
}

// The value ali-ons 3.12's Channel.beforeRequest (lib/channel.js, the npm package the
// compat tests pin) computes for the same header and body with accessKey "RocketMQAK" and
// secretKey "12345678secret": node's crypto, not our code, produced it.
TEST(SignatureTest, MatchesAliOnsForTheSameRequest) {
  protocol::RemotingCommand cmd = SendV2Request();
  Credentials c{"RocketMQAK", "12345678secret", std::nullopt, "ALIYUN"};
  SignRequest(c, &cmd);
  EXPECT_EQ(cmd.ext_fields.Get(kSignatureField), "yBI3NHPpWF7/+nbdfmDTBZu0y4E=");
  EXPECT_EQ(cmd.ext_fields.Get(kAccessKeyField), "RocketMQAK");
  EXPECT_EQ(cmd.ext_fields.Get(kOnsChannelField), "ALIYUN");
}

TEST(SignatureTest, HmacSha1Base64KnownVector) {
  // RFC 2202 test case 2: HMAC-SHA1("Jefe", "what do ya want for nothing?").
  EXPECT_EQ(CalSignature("what do ya want for nothing?", "Jefe"), "7/zfauXrL6LSdBbV8YTfnCWafHk=");
}

TEST(SignatureTest, ContentSortsByKeyAndSkipsSignatureAndUniqueKeyFlag) {
  protocol::RemotingCommand cmd = protocol::RemotingCommand::MakeRequest(12);
  cmd.ext_fields.Set("topic", "T");
  cmd.ext_fields.Set("AccessKey", "ak");
  cmd.ext_fields.Set("Signature", "zzz");
  cmd.ext_fields.Set("_UNIQUE_KEY_QUERY", "true");
  cmd.ext_fields.Set("key", "K");
  cmd.body = "B";
  EXPECT_EQ(SignedContent(cmd), "akKTB");
}

// A request whose body is partly borrowed (an async send) signs the body the wire carries.
TEST(SignatureTest, BorrowedBodyIsSignedAsTheBodyOnTheWire) {
  protocol::RemotingCommand owned = protocol::RemotingCommand::MakeRequest(310);
  owned.ext_fields.Set("a", "G");
  owned.body = "BODY";
  protocol::RemotingCommand borrowing = protocol::RemotingCommand::MakeRequest(310);
  borrowing.ext_fields.Set("a", "G");
  borrowing.body = "BO";
  std::string rest = "DY";
  borrowing.borrowed_body = rest;
  EXPECT_EQ(SignedContent(borrowing), SignedContent(owned));
  EXPECT_EQ(SignedContent(borrowing), "GBODY");
}

TEST(SignatureTest, SignIsStableAndCoversEverything) {
  protocol::RemotingCommand a = SendV2Request();
  Credentials c{"RocketMQAK", "12345678secret", "token", std::nullopt};
  SignRequest(c, &a);
  EXPECT_EQ(a.ext_fields.Get(kSecurityTokenField), "token");
  protocol::RemotingCommand again = a;
  SignRequest(c, &again);  // re-signing replaces, it does not sign the old signature
  EXPECT_EQ(again.ext_fields.Get(kSignatureField), a.ext_fields.Get(kSignatureField));
  protocol::RemotingCommand body = SendV2Request();
  body.body = "hellp";
  SignRequest(c, &body);
  EXPECT_NE(body.ext_fields.Get(kSignatureField), a.ext_fields.Get(kSignatureField));
  protocol::RemotingCommand other_secret = SendV2Request();
  SignRequest(Credentials{"RocketMQAK", "12345678secreT", "token", std::nullopt}, &other_secret);
  EXPECT_NE(other_secret.ext_fields.Get(kSignatureField), a.ext_fields.Get(kSignatureField));
}

TEST(SignatureTest, EmptyCredentialsLeaveTheRequestAlone) {
  protocol::RemotingCommand cmd = SendV2Request();
  SignRequest(Credentials{}, &cmd);
  EXPECT_FALSE(cmd.ext_fields.Has(kSignatureField));
  EXPECT_FALSE(cmd.ext_fields.Has(kAccessKeyField));
}

}  // namespace
}  // namespace apogee::acl
