#include "client/mq_client_api.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "acl/signature.h"
#include "client/async_send_call.h"
#include "fake_servers.h"
#include "protocol/client_headers.h"
#include "protocol/send_headers.h"
#include "testutil/test_util.h"

namespace apogee::client {
namespace {

using protocol::RemotingCommand;
using std::chrono::milliseconds;
using test::FakeServer;
namespace rc = protocol::request_code;
namespace rs = protocol::response_code;

std::string DeadAddress() { return "127.0.0.1:" + std::to_string(apogee::testing::PickFreePort()); }

TEST(MQClientAPITest, NameServerListIsValidated) {
  MQClientAPI api;
  EXPECT_TRUE(api.UpdateNameServerAddressList(" a:1 ; b:2;").ok());
  EXPECT_EQ(api.NameServerAddressList(), (std::vector<std::string>{"a:1", "b:2"}));
  Status bad = api.UpdateNameServerAddressList("a:1;nohost");
  EXPECT_TRUE(bad.Is(StatusCode::kInvalidArgument));
  EXPECT_NE(bad.message().find("\"nohost\""), std::string::npos);
  EXPECT_TRUE(api.UpdateNameServerAddressList(";;").Is(StatusCode::kInvalidArgument));
  EXPECT_TRUE(api.UpdateNameServerAddressList("a:70000").Is(StatusCode::kInvalidArgument));
}

TEST(MQClientAPITest, FailsOverToTheNextNameServerAndStaysThere) {
  FakeServer ns;
  ASSERT_TRUE(ns.Start());
  auto routes = std::make_shared<std::map<std::string, protocol::TopicRouteData>>();
  (*routes)["T"] = test::MakeRoute({{"broker-a", "127.0.0.1:1"}});
  test::ServeRoutes(ns, routes);

  MQClientAPI api;
  api.Start();
  std::string dead = DeadAddress();
  // Both orders, whatever the random start index is: the dead one is skipped.
  ASSERT_TRUE(api.UpdateNameServerAddressList(dead + ";" + ns.addr()).ok());
  for (int i = 0; i < 4; ++i) {
    auto route = api.GetTopicRouteInfoFromNameServer("T", milliseconds(2000));
    ASSERT_TRUE(route.ok()) << route.status().ToString();
    EXPECT_EQ(route->broker_datas.at(0).broker_name, "broker-a");
  }
  EXPECT_EQ(ns.Count(rc::kGetRouteinfoByTopic), 4u);
  api.Shutdown();
}

TEST(MQClientAPITest, AllNameServersDownNamesEveryOne) {
  MQClientAPI api;
  api.Start();
  std::string a = DeadAddress();
  std::string b = DeadAddress();
  ASSERT_TRUE(api.UpdateNameServerAddressList(a + ";" + b).ok());
  auto route = api.GetTopicRouteInfoFromNameServer("T", milliseconds(1000));
  ASSERT_FALSE(route.ok());
  EXPECT_TRUE(route.status().Is(StatusCode::kUnavailable)) << route.status().ToString();
  EXPECT_NE(route.status().message().find(a), std::string::npos);
  EXPECT_NE(route.status().message().find(b), std::string::npos);
  api.Shutdown();
}

TEST(MQClientAPITest, NoNameServerSet) {
  MQClientAPI api;
  api.Start();
  auto route = api.GetTopicRouteInfoFromNameServer("T", milliseconds(100));
  EXPECT_TRUE(route.status().Is(StatusCode::kUnavailable));
  api.Shutdown();
}

TEST(MQClientAPITest, UnknownTopicIsNotFound) {
  FakeServer ns;
  ASSERT_TRUE(ns.Start());
  test::ServeRoutes(ns, std::make_shared<std::map<std::string, protocol::TopicRouteData>>());
  MQClientAPI api;
  api.Start();
  ASSERT_TRUE(api.UpdateNameServerAddressList(ns.addr()).ok());
  auto route = api.GetTopicRouteInfoFromNameServer("Nope", milliseconds(2000));
  EXPECT_TRUE(route.status().IsNotFound());
  EXPECT_NE(route.status().message().find("No route info of this topic: Nope"), std::string::npos);
  api.Shutdown();
}

TEST(MQClientAPITest, SendUsesV2HeaderAndReadsTheAnswer) {
  FakeServer broker;
  ASSERT_TRUE(broker.Start());
  broker.On(rc::kSendMessageV2, [](const RemotingCommand& r) { return test::SendAnswer(r, 0, 42); });
  MQClientAPI api;
  api.Start();
  protocol::SendMessageRequestHeader header;
  header.producer_group = "G";
  header.topic = "T";
  header.default_topic = "TBW102";
  header.queue_id = 3;
  auto result = api.SendMessage(broker.addr(), "broker-a", header, "body", "UNIQ", milliseconds(2000));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->send_status, SendStatus::kSendOk);
  EXPECT_EQ(result->msg_id, "UNIQ");
  EXPECT_EQ(result->offset_msg_id, "7F00000100002A9F0000000000000064");
  EXPECT_EQ(result->message_queue, MessageQueue("T", "broker-a", 3));
  EXPECT_EQ(result->queue_offset, 42);
  auto sent = broker.Requests(rc::kSendMessageV2);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].ext_fields.Get("a"), "G");
  EXPECT_EQ(sent[0].ext_fields.Get("b"), "T");
  EXPECT_EQ(sent[0].ext_fields.Get("e"), "3");
  EXPECT_EQ(sent[0].body, "body");

  header.batch = true;
  broker.On(rc::kSendBatchMessage, [](const RemotingCommand& r) { return test::SendAnswer(r); });
  ASSERT_TRUE(api.SendMessage(broker.addr(), "broker-a", header, "b", "U", milliseconds(2000)).ok());
  auto batch = broker.Requests(rc::kSendBatchMessage);
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch[0].ext_fields.Get("m"), "true");
  api.Shutdown();
}

// A client without ACL credentials writes the send header straight as JSON members; the
// frame must be the one the ExtFields map gives (what Java and ali-ons brokers have always
// been sent), for single and batch sends, with the properties' escapes.
TEST(MQClientAPITest, SendRequestHeaderFormsGiveTheSameFrame) {
  protocol::SendMessageRequestHeader header;
  header.producer_group = "benchmark_producer";
  header.topic = "BenchmarkTest";
  header.default_topic = "TBW102";
  header.default_topic_queue_nums = 4;
  header.queue_id = 2;
  header.born_timestamp = 1764744000123;
  header.properties = std::string(
      "UNIQ_KEY\x01"
      "7F00000100002A9F\x02WAIT\x01true\x02KEYS\x01\"k\\\x02");
  header.broker_name = "broker-a";
  for (bool batch : {false, true}) {
    header.batch = batch;
    RemotingCommand by_map =
        MakeSendRequest(header, std::string(1024, 'x'), SendHeaderForm::kExtFieldsMap);
    RemotingCommand direct =
        MakeSendRequest(header, std::string(1024, 'x'), SendHeaderForm::kJsonMembers);
    EXPECT_EQ(direct.code, batch ? rc::kSendBatchMessage : rc::kSendMessageV2);
    EXPECT_TRUE(direct.ext_fields.empty());
    std::string by_map_frame;
    std::string direct_frame;
    protocol::EncodeCommand(by_map, &by_map_frame);
    protocol::EncodeCommand(direct, &direct_frame);
    EXPECT_EQ(by_map_frame, direct_frame);
  }
}

// An AsyncSendCall that hands its result to a function.
class FunctionSendCall final : public AsyncSendCall {
 public:
  FunctionSendCall(std::string id, std::function<void(Result<SendResult>)> done)
      : done_(std::move(done)) {
    topic = "T";
    client_msg_id = std::move(id);
  }
  void OnSendResult(std::unique_ptr<AsyncSendCall> self, Result<SendResult> result) override {
    auto done = std::move(done_);
    self.reset();
    done(std::move(result));
  }

 private:
  std::function<void(Result<SendResult>)> done_;
};

// With credentials the header stays in the map the signer signs: the broker's check
// (signature over the sorted ext fields and the body) passes on what arrives, sync and async.
TEST(MQClientAPITest, SignedSendCarriesAValidSignatureOverTheHeader) {
  FakeServer broker;
  ASSERT_TRUE(broker.Start());
  broker.On(rc::kSendMessageV2, [](const RemotingCommand& r) { return test::SendAnswer(r); });
  MQClientAPIOptions options;
  options.credentials.access_key = "ak";
  options.credentials.secret_key = "sk";
  MQClientAPI api(options);
  api.Start();
  protocol::SendMessageRequestHeader header;
  header.producer_group = "G";
  header.topic = "T";
  header.default_topic = "TBW102";
  header.properties = std::string("UNIQ_KEY\x01U\x02WAIT\x01true\x02");
  ASSERT_TRUE(api.SendMessage(broker.addr(), "b", header, "body", "U", milliseconds(2000)).ok());
  auto sent = broker.Requests(rc::kSendMessageV2);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].ext_fields.Get("a"), "G");
  EXPECT_EQ(sent[0].ext_fields.Get("i"), header.properties);
  EXPECT_EQ(sent[0].ext_fields.Get(acl::kAccessKeyField), "ak");
  std::optional<std::string_view> signature = sent[0].ext_fields.Get(acl::kSignatureField);
  ASSERT_TRUE(signature);
  EXPECT_EQ(*signature, acl::CalSignature(acl::SignedContent(sent[0]), "sk"));

  // An async send borrows its body (RemotingCommand::borrowed_body): signed as received too.
  const std::string body(1024, 'b');
  std::promise<Result<SendResult>> done;
  api.SendMessageAsync(broker.addr(), "b", header, body, milliseconds(2000),
                       /*success_on_io_thread=*/false,
                       std::make_unique<FunctionSendCall>(
                           "U", [&](Result<SendResult> r) { done.set_value(std::move(r)); }));
  auto result = done.get_future().get();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  sent = broker.Requests(rc::kSendMessageV2);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1].body, body);
  signature = sent[1].ext_fields.Get(acl::kSignatureField);
  ASSERT_TRUE(signature);
  EXPECT_EQ(*signature, acl::CalSignature(acl::SignedContent(sent[1]), "sk"));
  api.Shutdown();
}

// ProcessSendResponse as it was written before it read the answer's fields in one pass:
// DecodeCustomHeader<SendMessageResponseHeader> and two lookups. The oracle below.
Result<SendResult> SendResultThroughTheTypedHeader(const RemotingCommand& response) {
  Result<protocol::SendMessageResponseHeader> header =
      protocol::DecodeCustomHeader<protocol::SendMessageResponseHeader>(response);
  if (!header.ok()) return header.status().Prefixed("response of addr (SUCCESS)");
  SendResult result;
  result.send_status = SendStatus::kSendOk;
  result.msg_id = "U";
  result.offset_msg_id = header->msg_id;
  result.message_queue = MessageQueue("T", "b", header->queue_id);
  result.queue_offset = header->queue_offset;
  if (header->transaction_id) result.transaction_id = *header->transaction_id;
  result.region_id = std::string(response.ext_fields.Get("MSG_REGION").value_or("DefaultRegion"));
  std::optional<std::string_view> trace_on = response.ext_fields.Get("TRACE_ON");
  result.trace_on = !trace_on || *trace_on != "false";
  return result;
}

TEST(MQClientAPITest, SendAnswerReadInOnePassAsTheTypedHeaderReadsIt) {
  using Fields = std::vector<std::pair<std::string, std::string>>;
  const Fields full = {{"msgId", "7F00000100002A9F0000000000000064"},
                       {"queueId", "3"},
                       {"queueOffset", "42"},
                       {"transactionId", "TX"},
                       {"MSG_REGION", "r1"},
                       {"TRACE_ON", "false"}};
  std::vector<Fields> cases = {full, {}};
  // Each member dropped, made unparsable, or given another value.
  for (size_t i = 0; i < full.size(); ++i) {
    for (const char* value :
         {"", "x", "-1", "+7", "2147483648", "9223372036854775807", "TRUE", "true", "false"}) {
      Fields changed = full;
      changed[i].second = value;
      cases.push_back(changed);
    }
    Fields dropped = full;
    dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(i));
    cases.push_back(dropped);
  }
  Fields unknown = full;
  unknown.emplace_back("batchUniqId", "B");
  unknown.emplace_back("m", "1");
  cases.push_back(unknown);
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kSendMessageV2);
  for (const Fields& fields : cases) {
    for (bool has_ext_fields : {true, false}) {
      RemotingCommand response = RemotingCommand::MakeResponse(request, rs::kSuccess);
      response.has_ext_fields = has_ext_fields;
      for (const auto& [key, value] : fields) response.ext_fields.Set(key, value);
      Result<SendResult> expected = SendResultThroughTheTypedHeader(response);
      Result<SendResult> actual = ProcessSendResponse("addr", "b", "T", "U", response);
      std::string label = fmt::format("{}", fmt::join(fields, ", "));
      ASSERT_EQ(actual.ok(), expected.ok()) << label;
      if (!expected.ok()) {
        EXPECT_EQ(actual.status().ToString(), expected.status().ToString()) << label;
        continue;
      }
      EXPECT_EQ(actual->offset_msg_id, expected->offset_msg_id) << label;
      EXPECT_EQ(actual->message_queue, expected->message_queue) << label;
      EXPECT_EQ(actual->queue_offset, expected->queue_offset) << label;
      EXPECT_EQ(actual->transaction_id, expected->transaction_id) << label;
      EXPECT_EQ(actual->region_id, expected->region_id) << label;
      EXPECT_EQ(actual->trace_on, expected->trace_on) << label;
      EXPECT_EQ(actual->msg_id, "U");
      EXPECT_EQ(actual->send_status, SendStatus::kSendOk);
    }
  }
}

TEST(MQClientAPITest, SendStatusesAndErrorsFromResponseCodes) {
  RemotingCommand request = RemotingCommand::MakeRequest(rc::kSendMessageV2);
  auto flush = ProcessSendResponse("addr", "b", "T", "U", test::SendAnswer(request, rs::kFlushDiskTimeout));
  ASSERT_TRUE(flush.ok());
  EXPECT_EQ(flush->send_status, SendStatus::kFlushDiskTimeout);
  auto slave = ProcessSendResponse("addr", "b", "T", "U", test::SendAnswer(request, rs::kSlaveNotAvailable));
  EXPECT_EQ(slave->send_status, SendStatus::kSlaveNotAvailable);

  RemotingCommand busy = RemotingCommand::MakeResponse(request, rs::kSystemBusy, "too busy");
  auto error = ProcessSendResponse("1.2.3.4:10911", "b", "T", "U", busy);
  ASSERT_FALSE(error.ok());
  EXPECT_TRUE(error.status().Is(StatusCode::kBusy));
  EXPECT_NE(error.status().message().find("1.2.3.4:10911"), std::string::npos);
  EXPECT_NE(error.status().message().find("(2)"), std::string::npos);
  EXPECT_NE(error.status().message().find("too busy"), std::string::npos);

  EXPECT_EQ(StatusForResponseCode(rs::kTopicNotExist), StatusCode::kNotFound);
  EXPECT_EQ(StatusForResponseCode(rs::kMessageIllegal), StatusCode::kInvalidArgument);
  EXPECT_EQ(StatusForResponseCode(rs::kNoPermission), StatusCode::kPermissionDenied);
  EXPECT_EQ(StatusForResponseCode(rs::kSystemError), StatusCode::kInternal);
  EXPECT_EQ(StatusForResponseCode(rs::kRequestCodeNotSupported), StatusCode::kNotSupported);
  EXPECT_EQ(StatusForResponseCode(rs::kGoAway), StatusCode::kUnavailable);
  EXPECT_EQ(StatusForResponseCode(9999), StatusCode::kAborted);
}


// With success_on_io_thread a successful answer is delivered on the IO thread (where a sync
// call is refused), a failed one still on a callback thread (where it works), and a malformed
// answer is a failure, never a crash.
TEST(MQClientAPITest, AsyncSendSuccessCanRunOnTheIoThreadAndFailuresNever) {
  FakeServer broker;
  ASSERT_TRUE(broker.Start());
  std::atomic<int> sends{0};
  broker.On(rc::kSendMessageV2, [&](const RemotingCommand& r) {
    switch (sends++) {
      case 0:
        return test::SendAnswer(r, 0, 42);
      case 1:
        return RemotingCommand::MakeResponse(r, rs::kSystemBusy, "too busy");
      default: {
        RemotingCommand bad = test::SendAnswer(r, 0, 42);
        bad.ext_fields.Set("queueOffset", "not a number");
        return bad;
      }
    }
  });
  broker.On(rc::kHeartBeat, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kSuccess);
  });
  MQClientAPI api;
  api.Start();
  protocol::SendMessageRequestHeader header;
  header.producer_group = "G";
  header.topic = "T";
  // Each callback reports its result and whether a sync call worked on its thread.
  auto send = [&](std::string id) {
    std::promise<std::pair<Result<SendResult>, Status>> done;
    api.SendMessageAsync(broker.addr(), "b", header, "x", milliseconds(2000),
                         /*success_on_io_thread=*/true,
                         std::make_unique<FunctionSendCall>(std::move(id), [&](Result<SendResult> r) {
                           auto again = api.InvokeSync(broker.addr(),
                                                       RemotingCommand::MakeRequest(rc::kHeartBeat),
                                                       milliseconds(2000));
                           done.set_value({std::move(r), again.status()});
                         }));
    return done.get_future().get();
  };
  auto [ok, ok_sync] = send("U");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->msg_id, "U");
  EXPECT_EQ(ok->queue_offset, 42);
  EXPECT_TRUE(ok_sync.Is(StatusCode::kInternal)) << ok_sync.ToString();  // on the IO thread
  auto [busy, busy_sync] = send("V");
  EXPECT_TRUE(busy.status().Is(StatusCode::kBusy)) << busy.status().ToString();
  EXPECT_FALSE(busy_sync.Is(StatusCode::kInternal)) << busy_sync.ToString();
  auto [bad, bad_sync] = send("W");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("queueOffset"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(bad_sync.Is(StatusCode::kInternal)) << bad_sync.ToString();
  api.Shutdown();
}

TEST(MQClientAPITest, AsyncSendCallbackRunsOffTheIoThread) {
  FakeServer broker;
  ASSERT_TRUE(broker.Start());
  broker.On(rc::kSendMessageV2, [](const RemotingCommand& r) { return test::SendAnswer(r); });
  MQClientAPI api;
  api.Start();
  protocol::SendMessageRequestHeader header;
  header.producer_group = "G";
  header.topic = "T";
  std::promise<Result<SendResult>> done;
  api.SendMessageAsync(broker.addr(), "b", header, "x", milliseconds(2000),
                       /*success_on_io_thread=*/false,
                       std::make_unique<FunctionSendCall>("U", [&](Result<SendResult> r) {
                         // A sync call from the callback must work (not on an IO thread).
                         auto again = api.SendMessage(broker.addr(), "b", header, "y", "V",
                                                      milliseconds(2000));
                         done.set_value(again.ok() ? std::move(r) : again.status());
                       }));
  auto result = done.get_future().get();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->msg_id, "U");
  api.Shutdown();
}

TEST(MQClientAPITest, QueryOffsetNotFoundAndOffsetsAnswers) {
  FakeServer broker;
  ASSERT_TRUE(broker.Start());
  broker.On(rc::kQueryConsumerOffset, [](const RemotingCommand& r) {
    return RemotingCommand::MakeResponse(r, rs::kQueryNotFound, "Not found");
  });
  broker.On(rc::kGetMaxOffset, [](const RemotingCommand& r) {
    RemotingCommand response = RemotingCommand::MakeResponse(r, rs::kSuccess);
    response.ext_fields.Set("offset", "1234");
    response.has_ext_fields = true;
    return response;
  });
  MQClientAPI api;
  api.Start();
  protocol::QueryConsumerOffsetRequestHeader query;
  query.consumer_group = "G";
  query.topic = "T";
  EXPECT_TRUE(api.QueryConsumerOffset(broker.addr(), query, milliseconds(2000)).status().IsNotFound());
  auto max = api.GetMaxOffset(broker.addr(), "T", 0, milliseconds(2000));
  ASSERT_TRUE(max.ok()) << max.status().ToString();
  EXPECT_EQ(*max, 1234);
  api.Shutdown();
}

TEST(MQClientAPITest, BrokerInitiatedRequestReachesTheHandler) {
  FakeServer broker;
  ASSERT_TRUE(broker.Start());
  MQClientAPI api;
  std::promise<std::string> got;
  api.RegisterServerRequestHandler(
      rc::kNotifyConsumerIdsChanged,
      [&](const RemotingCommand& request, const std::string& addr) -> std::optional<RemotingCommand> {
        auto header = protocol::DecodeCustomHeader<protocol::NotifyConsumerIdsChangedRequestHeader>(request);
        got.set_value(header.ok() ? header->consumer_group + "@" + addr : "bad");
        return std::nullopt;
      });
  api.Start();
  // Open the connection with any call, then let the server call back on it.
  (void)api.InvokeSync(broker.addr(), RemotingCommand::MakeRequest(rc::kHeartBeat), milliseconds(2000));
  auto channels = broker.server().Channels();
  ASSERT_EQ(channels.size(), 1u);
  RemotingCommand notify = RemotingCommand::MakeRequest(rc::kNotifyConsumerIdsChanged);
  protocol::NotifyConsumerIdsChangedRequestHeader header;
  header.consumer_group = "CG";
  protocol::EncodeCustomHeader(header, &notify);
  channels[0]->InvokeOneway(std::move(notify));
  auto future = got.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_EQ(future.get(), "CG@" + broker.addr());
  api.Shutdown();
}

}  // namespace
}  // namespace apogee::client
