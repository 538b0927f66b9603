// The admin and message-query families against a real mqbroker process (with a real
// NameServer): what mqadmin's updateTopic, topicStatus, queryMsgByKey / queryMsgById,
// updateBrokerConfig, updateSubGroup, deleteSubGroup, clusterList and deleteTopic send.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "broker_process.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/admin_bodies.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/kv_table.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/remoting_client.h"

namespace apogee::testing {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;
using namespace std::chrono_literals;

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

class BrokerAdminTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cluster_.Start());
    client_.Start();
  }
  void TearDown() override { client_.Shutdown(); }

  RemotingCommand Call(RemotingCommand request) {
    auto response = client_.InvokeSync(cluster_.broker().addr(), std::move(request), 5s);
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    return response.ok() ? std::move(*response) : RemotingCommand{};
  }

  RemotingCommand CreateTopic(const std::string& topic, int32_t queues) {
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = "TBW102";
    h.read_queue_nums = queues;
    h.write_queue_nums = queues;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    return Call(Request(req::kUpdateAndCreateTopic, h));
  }

  // SEND_MESSAGE_V2 as the Java producer sends it; returns the response.
  RemotingCommand Send(const std::string& topic, int32_t queue_id, const std::string& keys,
                       const std::string& body) {
    protocol::SendMessageRequestHeader h;
    h.producer_group = "AdminTestPG";
    h.topic = topic;
    h.default_topic = "TBW102";
    h.default_topic_queue_nums = 4;
    h.queue_id = queue_id;
    h.born_timestamp = 1700000000000;
    message::MessageProperties props;
    EXPECT_TRUE(props.Set("KEYS", keys).ok());
    h.properties = props.Encode();
    RemotingCommand request = RemotingCommand::MakeRequest(req::kSendMessageV2);
    protocol::EncodeCustomHeader(protocol::SendMessageRequestHeaderV2{h}, &request);
    request.body = body;
    return Call(std::move(request));
  }

  SingleBrokerCluster cluster_;
  remoting::RemotingClient client_;
};

TEST_F(BrokerAdminTest, TopicLifecycleThroughAdminRequests) {
  ASSERT_EQ(CreateTopic("AdminTopic", 2).code, rc::kSuccess);
  // The change is registered with the NameServer at once.
  ASSERT_TRUE(WaitUntil(
      [&] { return QueryRoute(client_, cluster_.namesrv().addr(), "AdminTopic").ok(); }, 10s));

  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(Send("AdminTopic", 1, "k" + std::to_string(i), "payload").code, rc::kSuccess);
  }
  protocol::GetTopicStatsInfoRequestHeader stats_header{"AdminTopic"};
  ASSERT_TRUE(WaitUntil(
      [&] {
        RemotingCommand r = Call(Request(req::kGetTopicStatsInfo, stats_header));
        auto table = protocol::DecodeTopicStatsTable(r.body);
        if (r.code != rc::kSuccess || !table.ok()) return false;
        auto it = table->offset_table.find(
            protocol::MessageQueue{"AdminTopic", cluster_.broker().broker_name(), 1});
        return it != table->offset_table.end() && it->second.max_offset == 3;
      },
      10s));

  protocol::DeleteTopicRequestHeader del{"AdminTopic"};
  ASSERT_EQ(Call(Request(req::kDeleteTopicInBroker, del)).code, rc::kSuccess);
  RemotingCommand gone = Call(Request(req::kGetTopicStatsInfo, stats_header));
  EXPECT_EQ(gone.code, rc::kTopicNotExist);
  EXPECT_EQ(gone.remark.value_or(""), "topic[AdminTopic] not exist");
}

TEST_F(BrokerAdminTest, QueryByKeyAndViewById) {
  ASSERT_EQ(CreateTopic("QueryTopic", 1).code, rc::kSuccess);
  RemotingCommand sent = Send("QueryTopic", 0, "order-42", "the body");
  ASSERT_EQ(sent.code, rc::kSuccess) << sent.remark.value_or("");
  auto msg_id = message::ParseOffsetMsgId(sent.ext_fields.Get("msgId").value_or(""));
  ASSERT_TRUE(msg_id.ok()) << msg_id.status().ToString();

  protocol::QueryMessageRequestHeader q;
  q.topic = "QueryTopic";
  q.key = "order-42";
  q.max_num = 32;
  q.begin_timestamp = 0;
  q.end_timestamp = INT64_MAX;
  RemotingCommand found;
  ASSERT_TRUE(WaitUntil(
      [&] {
        found = Call(Request(req::kQueryMessage, q));
        return found.code == rc::kSuccess;
      },
      10s))
      << found.remark.value_or("");
  auto messages = message::DecodeMessages(found.body);
  ASSERT_TRUE(messages.ok()) << messages.status().ToString();
  ASSERT_EQ(messages->size(), 1u);
  EXPECT_EQ((*messages)[0].body, "the body");

  protocol::ViewMessageRequestHeader v;
  v.offset = msg_id->physical_offset;
  RemotingCommand viewed = Call(Request(req::kViewMessageById, v));
  ASSERT_EQ(viewed.code, rc::kSuccess) << viewed.remark.value_or("");
  auto one = message::DecodeMessages(viewed.body);
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].properties.Get("KEYS").value_or(""), "order-42");

  q.key = "no-such-key";
  RemotingCommand miss = Call(Request(req::kQueryMessage, q));
  EXPECT_EQ(miss.code, rc::kQueryNotFound);
  v.offset = 1LL << 40;
  EXPECT_EQ(Call(Request(req::kViewMessageById, v)).code, rc::kSystemError);
}

TEST_F(BrokerAdminTest, BrokerConfigRuntimeInfoAndGroups) {
  RemotingCommand update = RemotingCommand::MakeRequest(req::kUpdateBrokerConfig);
  update.body = "storePathRootDir=/tmp/stolen\n";
  RemotingCommand refused = Call(std::move(update));
  EXPECT_EQ(refused.code, rc::kNoPermission);
  EXPECT_NE(refused.remark.value_or("").find("storePathRootDir"), std::string::npos);

  RemotingCommand ok = RemotingCommand::MakeRequest(req::kUpdateBrokerConfig);
  ok.body = "defaultTopicQueueNums=3\n";
  ASSERT_EQ(Call(std::move(ok)).code, rc::kSuccess);
  RemotingCommand config = Call(RemotingCommand::MakeRequest(req::kGetBrokerConfig));
  ASSERT_EQ(config.code, rc::kSuccess);
  EXPECT_NE(config.body.find("defaultTopicQueueNums=3\n"), std::string::npos);
  EXPECT_NE(config.body.find("storePathRootDir=" + cluster_.broker().store_dir()), std::string::npos);

  RemotingCommand runtime = Call(RemotingCommand::MakeRequest(req::kGetBrokerRuntimeInfo));
  ASSERT_EQ(runtime.code, rc::kSuccess);
  auto kv = protocol::DecodeKVTable(runtime.body);
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ(kv->table.count("putTps"), 1u);
  EXPECT_EQ(kv->table.count("commitLogDiskRatio"), 1u);

  RemotingCommand group = RemotingCommand::MakeRequest(req::kUpdateAndCreateSubscriptiongroup);
  group.body = "{\"groupName\":\"AdminGroup\",\"retryMaxTimes\":2}";
  ASSERT_EQ(Call(std::move(group)).code, rc::kSuccess);
  RemotingCommand groups = Call(RemotingCommand::MakeRequest(req::kGetAllSubscriptiongroupConfig));
  EXPECT_NE(groups.body.find("\"AdminGroup\""), std::string::npos);
  protocol::DeleteSubscriptionGroupRequestHeader del;
  del.group_name = "AdminGroup";
  ASSERT_EQ(Call(Request(req::kDeleteSubscriptiongroup, del)).code, rc::kSuccess);
  groups = Call(RemotingCommand::MakeRequest(req::kGetAllSubscriptiongroupConfig));
  EXPECT_EQ(groups.body.find("\"AdminGroup\""), std::string::npos);

  protocol::GetConsumerConnectionListRequestHeader cc{"AdminGroup"};
  RemotingCommand offline = Call(Request(req::kGetConsumerConnectionList, cc));
  EXPECT_EQ(offline.code, rc::kConsumerNotOnline);
}

}  // namespace
}  // namespace apogee::testing
