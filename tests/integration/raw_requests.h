// Raw SEND_MESSAGE_V2 and PULL_MESSAGE requests for black-box broker tests that speak the
// remoting protocol directly (no client library between the test and the broker), so a
// test can send what a real client never would: any topic, properties, sysFlag.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/clock.h"
#include "message/properties.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/send_headers.h"

namespace apogee::testing {

// A send of `body` to `topic`/`queue_id` with `properties`, as `producer_group`.
inline protocol::RemotingCommand RawSendRequest(
    const std::string& producer_group, const std::string& topic, int32_t queue_id,
    std::string body, const std::map<std::string, std::string>& properties = {},
    int32_t sys_flag = 0) {
  protocol::SendMessageRequestHeaderV2 h;
  h.producer_group = producer_group;
  h.topic = topic;
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.sys_flag = sys_flag;
  h.born_timestamp = NowMillis();
  message::MessageProperties props;
  for (const auto& [k, v] : properties) (void)props.Set(k, v);
  h.properties = props.Encode();
  auto request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kSendMessageV2);
  protocol::EncodeCustomHeader(h, &request);
  request.body = std::move(body);
  return request;
}

// A pull of up to 32 messages from `offset`, subscription "*", as `consumer_group`.
inline protocol::RemotingCommand RawPullRequest(const std::string& consumer_group,
                                                const std::string& topic, int32_t queue_id,
                                                int64_t offset) {
  constexpr int32_t kSubscription = 0x4;  // PullSysFlag: the request carries a subscription
  protocol::PullMessageRequestHeader h;
  h.consumer_group = consumer_group;
  h.topic = topic;
  h.queue_id = queue_id;
  h.queue_offset = offset;
  h.max_msg_nums = 32;
  h.sys_flag = kSubscription;
  h.subscription = "*";
  h.sub_version = 1;
  auto request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kPullMessage);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

}  // namespace apogee::testing
