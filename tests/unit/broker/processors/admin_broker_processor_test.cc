#include "broker/processors/admin_broker_processor.h"

#include <gtest/gtest.h>

#include "unit/broker/admin_processors_test_util.h"
#include "broker/client/consumer_offset_manager.h"
#include "env/env.h"
#include "protocol/admin_bodies.h"
#include "protocol/admin_headers.h"
#include "protocol/client_headers.h"
#include "protocol/custom_header.h"
#include "protocol/heartbeat_data.h"
#include "protocol/kv_table.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/topic_config.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;
using testing::AdminFixture;
using testing::Ext;

template <typename H>
RemotingCommand Request(int32_t code, const H& header) {
  RemotingCommand request = RemotingCommand::MakeRequest(code);
  protocol::EncodeCustomHeader(header, &request);
  return request;
}

RemotingCommand CreateTopic(const std::string& topic, int32_t queues = 4, int32_t perm = 6) {
  protocol::CreateTopicRequestHeader h;
  h.topic = topic;
  h.default_topic = "TBW102";
  h.read_queue_nums = queues;
  h.write_queue_nums = queues;
  h.perm = perm;
  h.topic_filter_type = "SINGLE_TAG";
  return Request(req::kUpdateAndCreateTopic, h);
}

class AdminBrokerProcessorTest : public AdminFixture {
 protected:
  // A heartbeat from client_ registering consumer group CG on `topic` and producer PG.
  void Heartbeat(const std::string& topic = "T") {
    protocol::HeartbeatData data;
    data.client_id = "127.0.0.1@test";
    protocol::ConsumerData consumer;
    consumer.group_name = "CG";
    protocol::SubscriptionData sub;
    sub.topic = topic;
    sub.sub_string = "*";
    sub.sub_version = 1;
    consumer.subscription_data_set.push_back(sub);
    data.consumer_data_set.push_back(consumer);
    data.producer_data_set.push_back(protocol::ProducerData{"PG"});
    RemotingCommand request = RemotingCommand::MakeRequest(req::kHeartBeat);
    request.body = protocol::EncodeHeartbeatData(data);
    ASSERT_EQ(Invoke(std::move(request)).code, rc::kSuccess);
  }
  ConsumerOffsetManager& offsets() { return *harness_.context.consumer_offset_manager; }
};

TEST_F(AdminBrokerProcessorTest, CreateTopicThenListIt) {
  RemotingCommand response = Invoke(CreateTopic("NewTopic", 3));
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  auto stored = harness_.topics->SelectTopicConfig("NewTopic");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->write_queue_nums, 3);
  EXPECT_EQ(stored->perm, 6);

  RemotingCommand all = Invoke(RemotingCommand::MakeRequest(req::kGetAllTopicConfig));
  ASSERT_EQ(all.code, rc::kSuccess);
  auto wrapper = protocol::DecodeTopicConfigSerializeWrapper(all.body);
  ASSERT_TRUE(wrapper.ok()) << wrapper.status().ToString();
  EXPECT_EQ(wrapper->topic_config_table.count("NewTopic"), 1u);
  EXPECT_EQ(wrapper->data_version, harness_.topics->data_version());
}

TEST_F(AdminBrokerProcessorTest, CreateTopicWithAttributes) {
  RemotingCommand request = CreateTopic("AttrTopic");
  request.ext_fields.Set("attributes", "+message.type=FIFO");
  ASSERT_EQ(Invoke(std::move(request)).code, rc::kSuccess);
  EXPECT_EQ(harness_.topics->SelectTopicConfig("AttrTopic")->attributes.at("message.type"), "FIFO");

  RemotingCommand bad = CreateTopic("AttrTopic");
  bad.ext_fields.Set("attributes", "message.type");
  RemotingCommand response = Invoke(std::move(bad));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_NE(response.remark->find("message.type"), std::string::npos) << *response.remark;
}

TEST_F(AdminBrokerProcessorTest, CreateTopicRefusesBadAndSystemNames) {
  RemotingCommand bad = Invoke(CreateTopic("bad topic!"));
  EXPECT_EQ(bad.code, rc::kSystemError);
  EXPECT_NE(bad.remark.value_or("").find("bad topic!"), std::string::npos) << *bad.remark;

  RemotingCommand system = Invoke(CreateTopic("SCHEDULE_TOPIC_XXXX"));
  EXPECT_EQ(system.code, rc::kSystemError);
  EXPECT_EQ(system.remark.value_or(""),
            "The topic[SCHEDULE_TOPIC_XXXX] is conflict with system topic.");

  RemotingCommand missing = RemotingCommand::MakeRequest(req::kUpdateAndCreateTopic);
  missing.has_ext_fields = true;
  missing.ext_fields.Set("topic", "X");
  RemotingCommand response = Invoke(std::move(missing));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_NE(response.remark.value_or("").find("defaultTopic"), std::string::npos);
}

TEST_F(AdminBrokerProcessorTest, DeleteTopicRemovesConfigAndQueues) {
  harness_.AddTopic("Doomed", 2);
  Put("Doomed", 0);
  harness_.WaitDispatched();
  ASSERT_EQ(harness_.store->GetMaxOffsetInQueue("Doomed", 0), 1);
  offsets().CommitOffset("CG", "Doomed", 0, 1);
  offsets().CommitOffset("CG", "Kept", 0, 4);

  protocol::DeleteTopicRequestHeader h{"Doomed"};
  ASSERT_EQ(Invoke(Request(req::kDeleteTopicInBroker, h)).code, rc::kSuccess);
  EXPECT_FALSE(harness_.topics->ContainsTopic("Doomed"));
  EXPECT_EQ(offsets().QueryOffset("CG", "Doomed", 0), -1);
  EXPECT_EQ(offsets().QueryOffset("CG", "Kept", 0), 4);
  EXPECT_EQ(harness_.store->GetMaxOffsetInQueue("Doomed", 0), 0);
  // Deleting again is not an error, as in Java.
  EXPECT_EQ(Invoke(Request(req::kDeleteTopicInBroker, h)).code, rc::kSuccess);

  protocol::GetTopicStatsInfoRequestHeader stats{"Doomed"};
  RemotingCommand response = Invoke(Request(req::kGetTopicStatsInfo, stats));
  EXPECT_EQ(response.code, rc::kTopicNotExist);
  EXPECT_EQ(response.remark.value_or(""), "topic[Doomed] not exist");

  protocol::DeleteTopicRequestHeader system{"TBW102"};
  EXPECT_EQ(Invoke(Request(req::kDeleteTopicInBroker, system)).code, rc::kSystemError);
}

TEST_F(AdminBrokerProcessorTest, BrokerConfigReadAndReloadableUpdate) {
  RemotingCommand get = Invoke(RemotingCommand::MakeRequest(req::kGetBrokerConfig));
  ASSERT_EQ(get.code, rc::kSuccess);
  EXPECT_NE(get.body.find("brokerName=broker-a\n"), std::string::npos);
  EXPECT_NE(Ext(get, "version").find("\"counter\""), std::string::npos) << Ext(get, "version");

  RemotingCommand update = RemotingCommand::MakeRequest(req::kUpdateBrokerConfig);
  update.body = "defaultTopicQueueNums=5\n";
  ASSERT_EQ(Invoke(std::move(update)).code, rc::kSuccess);
  EXPECT_EQ(harness_.config->Get()->default_topic_queue_nums, 5);
  RemotingCommand again = Invoke(RemotingCommand::MakeRequest(req::kGetBrokerConfig));
  EXPECT_NE(again.body.find("defaultTopicQueueNums=5\n"), std::string::npos);
  EXPECT_NE(Ext(again, "version"), Ext(get, "version"));
}

TEST_F(AdminBrokerProcessorTest, BrokerConfigUpdateRefusesHarmfulAndUnknownKeys) {
  auto update = [&](const std::string& body) {
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateBrokerConfig);
    request.body = body;
    return Invoke(std::move(request));
  };
  RemotingCommand path = update("storePathRootDir=/tmp/elsewhere\n");
  EXPECT_EQ(path.code, rc::kNoPermission);
  EXPECT_NE(path.remark.value_or("").find("storePathRootDir"), std::string::npos);
  EXPECT_EQ(update("brokerConfigPath=/x\n").remark.value_or(""), "Can not update config path");
  EXPECT_EQ(update("rocketmqHome=/opt\n").code, rc::kNoPermission);
  EXPECT_EQ(update("messageStorePlugIn=com.evil.Store\n").code, rc::kNoPermission);

  // Known but not reloadable (a port): the config table refuses it.
  RemotingCommand port = update("listenPort=1\n");
  EXPECT_EQ(port.code, rc::kNoPermission);
  EXPECT_NE(port.remark.value_or("").find("listenPort"), std::string::npos);

  RemotingCommand unknown = update("noSuchKey=1\n");
  EXPECT_EQ(unknown.code, rc::kInvalidParameter);
  EXPECT_NE(unknown.remark.value_or("").find("noSuchKey"), std::string::npos);
  RemotingCommand bad_value = update("defaultTopicQueueNums=many\n");
  EXPECT_EQ(bad_value.code, rc::kInvalidParameter);
  // All or nothing: a refused update changed nothing.
  EXPECT_EQ(update("defaultTopicQueueNums=6\nstorePathCommitLog=/x\n").code, rc::kNoPermission);
  EXPECT_EQ(harness_.config->Get()->default_topic_queue_nums, 8);
}

TEST_F(AdminBrokerProcessorTest, RuntimeInfoIsAKVTable) {
  RemotingCommand response = Invoke(RemotingCommand::MakeRequest(req::kGetBrokerRuntimeInfo));
  ASSERT_EQ(response.code, rc::kSuccess);
  auto kv = protocol::DecodeKVTable(response.body);
  ASSERT_TRUE(kv.ok()) << kv.status().ToString();
  EXPECT_EQ(kv->table.at("brokerVersionDesc"), "V4_9_4");
  EXPECT_EQ(kv->table.count("putTps"), 1u);
}

TEST_F(AdminBrokerProcessorTest, SubscriptionGroupLifecycle) {
  RemotingCommand create = RemotingCommand::MakeRequest(req::kUpdateAndCreateSubscriptiongroup);
  create.body = "{\"groupName\":\"GroupA\",\"retryMaxTimes\":3,\"consumeBroadcastEnable\":false}";
  ASSERT_EQ(Invoke(std::move(create)).code, rc::kSuccess);
  auto stored = harness_.groups->SelectSubscriptionGroupConfig("GroupA");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->retry_max_times, 3);
  EXPECT_FALSE(stored->consume_broadcast_enable);

  RemotingCommand all = Invoke(RemotingCommand::MakeRequest(req::kGetAllSubscriptiongroupConfig));
  ASSERT_EQ(all.code, rc::kSuccess);
  EXPECT_NE(all.body.find("\"GroupA\""), std::string::npos);
  EXPECT_NE(all.body.find("\"subscriptionGroupTable\""), std::string::npos);

  offsets().CommitOffset("GroupA", "T", 0, 9);
  protocol::DeleteSubscriptionGroupRequestHeader del;
  del.group_name = "GroupA";
  del.clean_offset = true;
  ASSERT_EQ(Invoke(Request(req::kDeleteSubscriptiongroup, del)).code, rc::kSuccess);
  EXPECT_FALSE(harness_.groups->ContainsSubscriptionGroup("GroupA"));
  EXPECT_EQ(offsets().QueryOffset("GroupA", "T", 0), -1);
}

TEST_F(AdminBrokerProcessorTest, SubscriptionGroupBadBodies) {
  auto create = [&](std::string body) {
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateAndCreateSubscriptiongroup);
    request.body = std::move(body);
    return Invoke(std::move(request));
  };
  RemotingCommand bad_name = create("{\"groupName\":\"no spaces allowed\"}");
  EXPECT_EQ(bad_name.code, rc::kInvalidParameter);
  EXPECT_NE(bad_name.remark.value_or("").find("no spaces allowed"), std::string::npos);
  EXPECT_EQ(create("{\"groupName\":").code, rc::kInvalidParameter);
  RemotingCommand empty = create("");
  EXPECT_EQ(empty.code, rc::kInvalidParameter);
  EXPECT_NE(empty.remark.value_or("").find("SubscriptionGroupConfig"), std::string::npos);
}

TEST_F(AdminBrokerProcessorTest, TopicStatsPerQueue) {
  harness_.AddTopic("Stats", 2);
  Put("Stats", 1);
  Put("Stats", 1);
  harness_.WaitDispatched();
  protocol::GetTopicStatsInfoRequestHeader h{"Stats"};
  RemotingCommand response = Invoke(Request(req::kGetTopicStatsInfo, h));
  ASSERT_EQ(response.code, rc::kSuccess);
  auto table = protocol::DecodeTopicStatsTable(response.body);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ(table->offset_table.size(), 2u);
  const auto& q1 = table->offset_table.at(protocol::MessageQueue{"Stats", "broker-a", 1});
  EXPECT_EQ(q1.min_offset, 0);
  EXPECT_EQ(q1.max_offset, 2);
  EXPECT_GT(q1.last_update_timestamp, 0);
  const auto& q0 = table->offset_table.at(protocol::MessageQueue{"Stats", "broker-a", 0});
  EXPECT_EQ(q0.max_offset, 0);
  EXPECT_EQ(q0.last_update_timestamp, 0);
}

TEST_F(AdminBrokerProcessorTest, ConsumeStatsFromCommittedOffsets) {
  harness_.AddTopic("T", 2);
  for (int i = 0; i < 3; ++i) Put("T", 0);
  harness_.WaitDispatched();
  offsets().CommitOffset("CG", "T", 0, 2);
  protocol::GetConsumeStatsRequestHeader h;
  h.consumer_group = "CG";
  RemotingCommand response = Invoke(Request(req::kGetConsumeStats, h));
  ASSERT_EQ(response.code, rc::kSuccess);
  auto stats = protocol::DecodeConsumeStats(response.body);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(stats->offset_table.size(), 2u);
  const auto& q0 = stats->offset_table.at(protocol::MessageQueue{"T", "broker-a", 0});
  EXPECT_EQ(q0.broker_offset, 3);
  EXPECT_EQ(q0.consumer_offset, 2);
  EXPECT_GT(q0.last_timestamp, 0);
  // A queue the group never committed reports 0, not -1.
  EXPECT_EQ(stats->offset_table.at(protocol::MessageQueue{"T", "broker-a", 1}).consumer_offset, 0);

  h.consumer_group = "Nobody";
  auto none = protocol::DecodeConsumeStats(Invoke(Request(req::kGetConsumeStats, h)).body);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->offset_table.empty());
}

TEST_F(AdminBrokerProcessorTest, ConnectionsAfterHeartbeat) {
  harness_.AddTopic("T", 2);
  protocol::GetConsumerConnectionListRequestHeader ch{"CG"};
  RemotingCommand offline = Invoke(Request(req::kGetConsumerConnectionList, ch));
  EXPECT_EQ(offline.code, rc::kConsumerNotOnline);
  EXPECT_EQ(offline.remark.value_or(""), "the consumer group[CG] not online");
  protocol::GetProducerConnectionListRequestHeader ph{"PG"};
  RemotingCommand no_producer = Invoke(Request(req::kGetProducerConnectionList, ph));
  EXPECT_EQ(no_producer.code, rc::kSystemError);
  EXPECT_EQ(no_producer.remark.value_or(""), "the producer group[PG] not exist");

  Heartbeat();
  RemotingCommand consumers = Invoke(Request(req::kGetConsumerConnectionList, ch));
  ASSERT_EQ(consumers.code, rc::kSuccess) << consumers.remark.value_or("");
  auto cc = protocol::DecodeConsumerConnection(consumers.body);
  ASSERT_TRUE(cc.ok()) << cc.status().ToString();
  ASSERT_EQ(cc->connection_set.size(), 1u);
  EXPECT_EQ(cc->connection_set[0].client_id, "127.0.0.1@test");
  EXPECT_EQ(cc->connection_set[0].client_addr.rfind("127.0.0.1:", 0), 0u);
  EXPECT_EQ(cc->subscription_table.count("T"), 1u);

  RemotingCommand producers = Invoke(Request(req::kGetProducerConnectionList, ph));
  ASSERT_EQ(producers.code, rc::kSuccess);
  auto pc = protocol::DecodeProducerConnection(producers.body);
  ASSERT_TRUE(pc.ok());
  ASSERT_EQ(pc->connection_set.size(), 1u);
  EXPECT_EQ(pc->connection_set[0].client_id, "127.0.0.1@test");
}

TEST_F(AdminBrokerProcessorTest, AllConsumerOffsetsAndDelayOffsets) {
  offsets().CommitOffset("CG", "T", 1, 250);
  RemotingCommand all = Invoke(RemotingCommand::MakeRequest(req::kGetAllConsumerOffset));
  ASSERT_EQ(all.code, rc::kSuccess);
  ConsumerOffsetManager copy(harness_.env.get(), "/copy.json");
  ASSERT_TRUE(copy.Decode(all.body).ok());
  EXPECT_EQ(copy.QueryOffset("CG", "T", 1), 250);

  RemotingCommand none = Invoke(RemotingCommand::MakeRequest(req::kGetAllDelayOffset));
  EXPECT_EQ(none.code, rc::kSystemError);
  EXPECT_EQ(none.remark.value_or(""), "No delay offset in this broker");

  const std::string delay = "{\"offsetTable\":{1:5,3:7}}";
  harness_.AddTopic("T", 1);  // makes sure the config directory exists
  ASSERT_TRUE(
      env::WriteFileAtomically(harness_.env.get(), "/store/config/delayOffset.json", delay).ok());
  RemotingCommand present = Invoke(RemotingCommand::MakeRequest(req::kGetAllDelayOffset));
  ASSERT_EQ(present.code, rc::kSuccess);
  EXPECT_EQ(present.body, delay);
}

TEST_F(AdminBrokerProcessorTest, QueryTopicConsumeByWhoUnitesOnlineAndOffsetGroups) {
  harness_.AddTopic("T", 1);
  offsets().CommitOffset("OldGroup", "T", 0, 1);
  Heartbeat();
  protocol::QueryTopicConsumeByWhoRequestHeader h{"T"};
  RemotingCommand response = Invoke(Request(req::kQueryTopicConsumeByWho, h));
  ASSERT_EQ(response.code, rc::kSuccess);
  auto groups = protocol::DecodeGroupList(response.body);
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups->group_list, (std::set<std::string>{"CG", "OldGroup"}));
}

TEST_F(AdminBrokerProcessorTest, ResetOffsetErrorPaths) {
  protocol::ResetOffsetRequestHeader h;
  h.group = "CG";
  h.topic = "Missing";
  h.timestamp = -1;
  RemotingCommand missing = Invoke(Request(req::kInvokeBrokerToResetOffset, h));
  EXPECT_EQ(missing.code, rc::kTopicNotExist);
  EXPECT_NE(missing.remark.value_or("").find("topic=Missing"), std::string::npos);

  harness_.AddTopic("T", 1);
  h.topic = "T";
  RemotingCommand no_offsets = Invoke(Request(req::kInvokeBrokerToResetOffset, h));
  EXPECT_EQ(no_offsets.code, rc::kSystemError);
  EXPECT_EQ(no_offsets.remark.value_or(""), "THe consumer group <CG> not exist");

}

TEST_F(AdminBrokerProcessorTest, ResetOffsetOfAnOfflineGroupRewritesTheStoredOffsets) {
  harness_.AddTopic("T", 1);
  for (int i = 0; i < 3; ++i) Put("T", 0);
  harness_.WaitDispatched();
  offsets().CommitOffset("CG", "T", 0, 3);
  protocol::ResetOffsetRequestHeader h;
  h.group = "CG";
  h.topic = "T";
  h.timestamp = 1;  // before every message
  h.is_force = true;
  // Java 4.9 answers CONSUMER_NOT_ONLINE; Apogee rewrites the offsets so the group
  // re-reads from that time when it starts again.
  RemotingCommand offline = Invoke(Request(req::kInvokeBrokerToResetOffset, h));
  ASSERT_EQ(offline.code, rc::kSuccess) << offline.remark.value_or("");
  EXPECT_EQ(offsets().QueryOffset("CG", "T", 0), 0);
  auto body = protocol::DecodeResetOffsetBody(offline.body);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(body->offset_table.at(protocol::MessageQueue{"T", "broker-a", 0}), 0);
}

TEST_F(AdminBrokerProcessorTest, ResetOffsetToTheEndAndBackByTime) {
  harness_.AddTopic("T", 2);
  for (int i = 0; i < 4; ++i) Put("T", 0);
  harness_.WaitDispatched();
  offsets().CommitOffset("CG", "T", 0, 1);
  offsets().CommitOffset("CG", "T", 1, 0);
  Heartbeat();

  protocol::ResetOffsetRequestHeader h;
  h.group = "CG";
  h.topic = "T";
  h.timestamp = -1;  // the end
  h.is_force = true;
  RemotingCommand response = Invoke(Request(req::kInvokeBrokerToResetOffset, h));
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  auto body = protocol::DecodeResetOffsetBody(response.body);
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->offset_table.at(protocol::MessageQueue{"T", "broker-a", 0}), 4);
  EXPECT_EQ(offsets().QueryOffset("CG", "T", 0), 4);

  // Not forced: a reset to the end keeps offsets that are already smaller... here the
  // group is at the end, and a time far in the past moves it back to 0.
  h.timestamp = 1;
  h.is_force = false;
  ASSERT_EQ(Invoke(Request(req::kInvokeBrokerToResetOffset, h)).code, rc::kSuccess);
  EXPECT_EQ(offsets().QueryOffset("CG", "T", 0), 0);
  h.timestamp = -1;
  ASSERT_EQ(Invoke(Request(req::kInvokeBrokerToResetOffset, h)).code, rc::kSuccess);
  EXPECT_EQ(offsets().QueryOffset("CG", "T", 0), 0) << "unforced resets never move forward";
}

TEST_F(AdminBrokerProcessorTest, CloneGroupOffset) {
  harness_.AddTopic("T", 2);
  harness_.AddTopic("U", 1);
  offsets().CommitOffset("Src", "T", 0, 5);
  offsets().CommitOffset("Src", "T", 1, 6);
  offsets().CommitOffset("Src", "U", 0, 7);
  offsets().CommitOffset("Src", "Gone", 0, 8);  // no such topic: skipped, as Java

  protocol::CloneGroupOffsetRequestHeader h;
  h.src_group = "Src";
  h.dest_group = "Dst";
  h.topic = "T";
  ASSERT_EQ(Invoke(Request(req::kCloneGroupOffset, h)).code, rc::kSuccess);
  EXPECT_EQ(offsets().QueryOffsets("Dst", "T"), (std::map<int32_t, int64_t>{{0, 5}, {1, 6}}));
  EXPECT_EQ(offsets().QueryOffset("Dst", "U", 0), -1);

  h.dest_group = "All";
  h.topic.reset();
  ASSERT_EQ(Invoke(Request(req::kCloneGroupOffset, h)).code, rc::kSuccess);
  EXPECT_EQ(offsets().QueryOffset("All", "U", 0), 7);
  EXPECT_EQ(offsets().QueryOffset("All", "Gone", 0), -1);
}

class SlaveAdminTest : public AdminFixture {
 protected:
  static BrokerSettings SlaveSettings() {
    BrokerSettings s = testing::TestSettings();
    s.broker_id = 1;
    s.store.broker_role = "SLAVE";
    return s;
  }
  SlaveAdminTest() : AdminFixture(SlaveSettings()) {}
};

TEST_F(SlaveAdminTest, SlaveRefusesTopicAndGroupChanges) {
  ASSERT_TRUE(harness_.config->Get()->IsSlave());
  RemotingCommand response = Invoke(CreateTopic("OnSlave"));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_NE(response.remark.value_or("").find("slave broker"), std::string::npos);
  protocol::DeleteSubscriptionGroupRequestHeader del;
  del.group_name = "G";
  EXPECT_EQ(Invoke(Request(req::kDeleteSubscriptiongroup, del)).code, rc::kSystemError);
  // Reads still work on a slave.
  EXPECT_EQ(Invoke(RemotingCommand::MakeRequest(req::kGetAllTopicConfig)).code, rc::kSuccess);
}

}  // namespace
}  // namespace apogee::broker
