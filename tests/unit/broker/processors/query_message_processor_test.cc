#include "broker/processors/query_message_processor.h"

#include <gtest/gtest.h>

#include "unit/broker/admin_processors_test_util.h"
#include "message/message_record.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;
using testing::AdminFixture;
using testing::Ext;

RemotingCommand QueryRequest(const std::string& topic, const std::string& key, int32_t max_num) {
  protocol::QueryMessageRequestHeader h;
  h.topic = topic;
  h.key = key;
  h.max_num = max_num;
  h.begin_timestamp = 0;
  h.end_timestamp = INT64_MAX;
  RemotingCommand request = RemotingCommand::MakeRequest(req::kQueryMessage);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

RemotingCommand ViewRequest(int64_t offset) {
  protocol::ViewMessageRequestHeader h;
  h.offset = offset;
  RemotingCommand request = RemotingCommand::MakeRequest(req::kViewMessageById);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

class QueryMessageProcessorTest : public AdminFixture {
 protected:
  QueryMessageProcessorTest() { harness_.AddTopic("T", 2); }
};

TEST_F(QueryMessageProcessorTest, QueryByKeyAnswersTheStoredRecordsWithIndexHeaders) {
  Put("T", 0, "order-1 shared");
  Put("T", 1, "order-2 shared");
  Put("T", 1, "other");
  harness_.WaitDispatched();

  RemotingCommand response = Invoke(QueryRequest("T", "shared", 32));
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  auto messages = message::DecodeMessages(response.body);
  ASSERT_TRUE(messages.ok()) << messages.status().ToString();
  ASSERT_EQ(messages->size(), 2u);
  for (const auto& m : *messages) {
    EXPECT_EQ(m.topic, "T");
    EXPECT_NE(m.properties.Get("KEYS").value_or("").find("shared"), std::string::npos);
  }
  EXPECT_NE(Ext(response, "indexLastUpdateTimestamp"), "<absent>");
  EXPECT_GT(std::stoll(Ext(response, "indexLastUpdatePhyoffset")), 0);

  RemotingCommand one = Invoke(QueryRequest("T", "shared", 1));
  ASSERT_EQ(one.code, rc::kSuccess);
  EXPECT_EQ(message::DecodeMessages(one.body)->size(), 1u);
}

TEST_F(QueryMessageProcessorTest, UniqueKeyQueryUsesTheStoreDefaultMaxNum) {
  for (int i = 0; i < 3; ++i) Put("T", 0, "", "7F00000100002A9F0000000000000001");
  harness_.WaitDispatched();
  RemotingCommand request = QueryRequest("T", "7F00000100002A9F0000000000000001", 1);
  request.ext_fields.Set(kUniqueMsgQueryFlag, "true");
  RemotingCommand response = Invoke(std::move(request));
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  // maxNum 1 was replaced by defaultQueryMaxNum (32): every copy comes back.
  EXPECT_EQ(message::DecodeMessages(response.body)->size(), 3u);
}

TEST_F(QueryMessageProcessorTest, QueryMissAnswersQueryNotFoundWithHeaders) {
  Put("T", 0, "present");
  harness_.WaitDispatched();
  RemotingCommand response = Invoke(QueryRequest("T", "absent", 32));
  EXPECT_EQ(response.code, rc::kQueryNotFound);
  EXPECT_EQ(response.remark.value_or(""), "can not find message, maybe time range not correct");
  EXPECT_NE(Ext(response, "indexLastUpdatePhyoffset"), "<absent>");
  EXPECT_TRUE(response.body.empty());
}

TEST_F(QueryMessageProcessorTest, ViewByOffsetReturnsOneRecord) {
  Put("T", 0, "a");
  store::PutResult second = Put("T", 0, "b", "", "second body");
  harness_.WaitDispatched();
  RemotingCommand response = Invoke(ViewRequest(second.wrote_offset.value()));
  ASSERT_EQ(response.code, rc::kSuccess) << response.remark.value_or("");
  auto messages = message::DecodeMessages(response.body);
  ASSERT_TRUE(messages.ok());
  ASSERT_EQ(messages->size(), 1u);
  EXPECT_EQ((*messages)[0].body, "second body");
  EXPECT_EQ((*messages)[0].commit_log_offset, second.wrote_offset.value());
}

TEST_F(QueryMessageProcessorTest, ViewByBadOffsetIsSystemErrorNamingTheOffset) {
  Put("T", 0, "a");
  harness_.WaitDispatched();
  RemotingCommand response = Invoke(ViewRequest(123456789));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_EQ(response.remark.value_or(""), "can not find message by the offset, 123456789");
}

TEST_F(QueryMessageProcessorTest, MissingRequiredFieldIsNamed) {
  RemotingCommand request = RemotingCommand::MakeRequest(req::kQueryMessage);
  request.has_ext_fields = true;
  request.ext_fields.Set("topic", "T");
  RemotingCommand response = Invoke(std::move(request));
  EXPECT_EQ(response.code, rc::kSystemError);
  EXPECT_NE(response.remark.value_or("").find("key"), std::string::npos) << *response.remark;
}

}  // namespace
}  // namespace apogee::broker
