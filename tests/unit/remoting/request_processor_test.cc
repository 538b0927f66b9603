#include "remoting/request_processor.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace apogee::remoting {
namespace {

using protocol::RemotingCommand;

class RecordingChannel : public Channel {
 public:
  uint64_t id() const override { return 1; }
  const std::string& RemoteAddress() const override { return address_; }
  const std::string& LocalAddress() const override { return address_; }
  bool IsActive() const override { return true; }
  void InvokeAsync(RemotingCommand, std::chrono::milliseconds, ResponseCallback) override {}
  Result<RemotingCommand> InvokeSync(RemotingCommand, std::chrono::milliseconds) override {
    return Status::NotSupported("fake");
  }
  void InvokeOneway(RemotingCommand, WriteCallback) override {}
  void SendResponse(RemotingCommand response) override { sent.push_back(std::move(response)); }
  void Close() override {}
  std::vector<RemotingCommand> sent;

 private:
  std::string address_ = "1.2.3.4:5";
};

TEST(ResponderTest, FillsOpaqueFlagAndMirrorsSerialization) {
  auto channel = std::make_shared<RecordingChannel>();
  auto request = RemotingCommand::MakeRequest(105);
  request.opaque = 77;
  request.serialize_type = protocol::SerializeType::kRocketMQ;
  Responder responder(channel, request);
  RemotingCommand response;  // processor forgot opaque, flag and type
  response.code = 17;
  responder.Send(response);
  ASSERT_EQ(channel->sent.size(), 1u);
  EXPECT_EQ(channel->sent[0].opaque, 77);
  EXPECT_TRUE(channel->sent[0].IsResponse());
  EXPECT_EQ(channel->sent[0].serialize_type, protocol::SerializeType::kRocketMQ);
  EXPECT_EQ(channel->sent[0].code, 17);
  EXPECT_TRUE(responder.responded());
}

TEST(ResponderTest, OnewayRequestsGetNoResponse) {
  auto channel = std::make_shared<RecordingChannel>();
  auto request = RemotingCommand::MakeRequest(15);
  request.flag = protocol::kFlagOneway;
  Responder responder(channel, request);
  EXPECT_TRUE(responder.oneway());
  responder.SendCode(0);
  EXPECT_TRUE(channel->sent.empty());
}

TEST(ResponderTest, SecondResponseIsDropped) {
  auto channel = std::make_shared<RecordingChannel>();
  auto request = RemotingCommand::MakeRequest(10);
  Responder responder(channel, request);
  Responder copy = responder;
  responder.SendCode(0);
  copy.SendCode(1);
  ASSERT_EQ(channel->sent.size(), 1u);
  EXPECT_EQ(channel->sent[0].code, 0);
}

TEST(ResponderTest, ACopyMadeAfterTheAnswerKnowsIt) {
  auto channel = std::make_shared<RecordingChannel>();
  auto request = RemotingCommand::MakeRequest(10);
  Responder responder(channel, request);
  responder.SendCode(0);
  Responder copy = responder;
  EXPECT_TRUE(copy.responded());
  copy.SendCode(1);
  ASSERT_EQ(channel->sent.size(), 1u);
}

TEST(ResponderTest, MovesCarryTheFlagAndCopiesOfCopiesShareIt) {
  auto channel = std::make_shared<RecordingChannel>();
  auto request = RemotingCommand::MakeRequest(10);
  Responder first(channel, request);
  Responder moved = std::move(first);
  moved.SendCode(0);
  Responder moved_again(std::move(moved));
  EXPECT_TRUE(moved_again.responded());
  moved_again.SendCode(1);

  Responder fresh(channel, request);
  Responder a = fresh;
  Responder b = a;
  Responder c(channel, RemotingCommand::MakeRequest(11));
  c = b;  // copy-assigned: now the same request as the others
  Responder d = std::move(fresh);
  EXPECT_FALSE(d.responded());
  c.SendCode(2);
  EXPECT_TRUE(a.responded());
  EXPECT_TRUE(b.responded());
  EXPECT_TRUE(d.responded());
  d.SendCode(3);
  a.SendCode(4);
  ASSERT_EQ(channel->sent.size(), 2u);
  EXPECT_EQ(channel->sent[0].code, 0);
  EXPECT_EQ(channel->sent[1].code, 2);
}

TEST(ResponderTest, CopiesOnOtherThreadsAnswerOnce) {
  // The held-pull shape: a wake-up and a rejection hold copies and race to answer.
  for (int round = 0; round < 50; ++round) {
    auto channel = std::make_shared<RecordingChannel>();
    Responder responder(channel, RemotingCommand::MakeRequest(10));
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) {
      threads.emplace_back([copy = Responder(responder), i] { copy.SendCode(i); });
    }
    for (auto& t : threads) t.join();
    ASSERT_EQ(channel->sent.size(), 1u) << "round " << round;
  }
}

TEST(MakeProcessorTest, WrapsFunction) {
  int calls = 0;
  auto processor = MakeProcessor([&](RemotingCommand req, Responder) { calls += req.code; });
  auto channel = std::make_shared<RecordingChannel>();
  auto request = RemotingCommand::MakeRequest(5);
  processor->ProcessRequest(request, Responder(channel, request));
  EXPECT_EQ(calls, 5);
  EXPECT_FALSE(processor->RejectRequest());
}

}  // namespace
}  // namespace apogee::remoting
