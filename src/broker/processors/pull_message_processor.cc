#include "broker/processors/pull_message_processor.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "base/clock.h"
#include "base/logging.h"
#include "base/string_util.h"
#include "broker/broker_config.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/permission.h"
#include "broker/longpolling/pull_request_hold_service.h"
#include "broker/store_status_mapping.h"
#include "broker/client/subscription_filter.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/heartbeat_data.h"
#include "protocol/mix_all.h"
#include "protocol/perm_name.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/response_code.h"
#include "remoting/response_observer.h"
#include "store/message_store.h"

namespace apogee::broker {

namespace rc = protocol::response_code;
using protocol::RemotingCommand;

namespace {

std::string ClientAddress(const remoting::Responder& responder) {
  return responder.channel() ? responder.channel()->RemoteAddress() : std::string("unknown");
}

}  // namespace

PullMessageProcessor::PullMessageProcessor(const Deps& deps,
                                           std::shared_ptr<PullRequestHoldService> hold)
    : deps_(deps), hold_(std::move(hold)) {}

void PullMessageProcessor::ProcessRequest(RemotingCommand request, remoting::Responder responder) {
  Process(std::make_shared<const RemotingCommand>(std::move(request)), std::move(responder),
          /*allow_suspend=*/true);
}

bool PullMessageProcessor::ServesInline(const RemotingCommand& request) const {
  const std::optional<std::string_view> topic = request.ext_fields.Get("topic");
  const std::optional<std::string_view> queue_id = request.ext_fields.Get("queueId");
  const std::optional<std::string_view> offset = request.ext_fields.Get("queueOffset");
  if (!topic || !queue_id || !offset) return false;  // the pool answers the bad header
  const std::optional<int32_t> queue = ParseInt32(*queue_id);
  const std::optional<int64_t> from = ParseInt64(*offset);
  if (!queue || !from) return false;
  // A group not yet known may be auto-created, which writes the groups' file: not on the IO
  // thread, where one client sending pulls under ever new names would stall every connection.
  const std::optional<std::string_view> group = request.ext_fields.Get("consumerGroup");
  if (!group || !deps_.groups->ContainsSubscriptionGroup(*group)) return false;
  return !deps_.store->CheckInDiskByConsumeOffset(*topic, *queue, *from);
}

void PullMessageProcessor::Hold(std::shared_ptr<const RemotingCommand> request,
                                const remoting::Responder& responder, const std::string& topic,
                                int32_t queue_id, int64_t wait_past_offset, int64_t deadline_ms) {
  HeldPullRequest held;
  held.topic = topic;
  held.queue_id = queue_id;
  held.pull_from_offset = wait_past_offset;
  held.timeout_ms = std::max<int64_t>(deadline_ms - SteadyMillis(), 0);
  held.channel = responder.channel();
  held.wakeup = [weak = weak_from_this(), request, responder, deadline_ms]() {
    if (std::shared_ptr<PullMessageProcessor> self = weak.lock()) {
      self->Process(request, responder, /*allow_suspend=*/false, deadline_ms);
    }
  };
  held.reject = [responder] {
    responder.SendCode(rc::kSystemBusy, "[OVERLOAD]system busy, start flow control for a while");
  };
  held.bytes = request->body.size();
  for (const auto& [key, value] : request->ext_fields) held.bytes += key.size() + value.size();
  // Before parking: a message may wake the held pull (and answer it) at once.
  remoting::NoteSuspended(*responder.channel(), request->opaque);
  Status parked = hold_->SuspendPullRequest(std::move(held));
  if (!parked.ok()) {
    remoting::NoteSuspended(*responder.channel(), request->opaque, false);
    // Too much held already: a retriable flow-control answer (clients pull again after
    // their back-off) instead of holding without bound.
    responder.Send(RemotingCommand::MakeResponse(
        *request, rc::kSystemBusy,
        fmt::format("[PULL_HOLD_LIMIT]system busy, start flow control for a while: {}",
                    parked.message())));
  }
}

void PullMessageProcessor::Process(std::shared_ptr<const RemotingCommand> request,
                                   remoting::Responder responder, bool allow_suspend,
                                   int64_t hold_deadline_ms) {
  const std::shared_ptr<const BrokerSettings> settings = deps_.config->Get();
  RemotingCommand response = RemotingCommand::MakeResponse(*request, rc::kSystemError);
  auto refuse = [&](int32_t code, std::string remark) {
    response.code = code;
    response.remark = std::move(remark);
    responder.Send(std::move(response));
  };

  Result<protocol::PullMessageRequestHeader> decoded =
      protocol::DecodeCustomHeader<protocol::PullMessageRequestHeader>(*request);
  if (!decoded.ok()) {
    return refuse(rc::kSystemError,
                  fmt::format("malformed pull request header: {}", decoded.status().message()));
  }
  const protocol::PullMessageRequestHeader& header = *decoded;

  if (!protocol::IsReadable(settings->broker_permission)) {
    return refuse(rc::kNoPermission,
                  fmt::format("the broker[{}] pulling message is forbidden", settings->broker_ip1));
  }
  std::optional<SubscriptionGroupConfig> group =
      deps_.groups->FindSubscriptionGroupConfig(header.consumer_group);
  if (!group) {
    return refuse(rc::kSubscriptionGroupNotExist,
                  fmt::format("subscription group [{}] does not exist and "
                              "autoCreateSubscriptionGroup is off; create it first "
                              "(mqadmin updateSubGroup)",
                              header.consumer_group));
  }
  if (!group->consume_enable) {
    return refuse(rc::kNoPermission, fmt::format("subscription group no permission, {} "
                                                 "(consumeEnable=false)",
                                                 header.consumer_group));
  }

  const bool has_suspend = protocol::HasSuspendFlag(header.sys_flag);
  const bool has_commit_offset = protocol::HasCommitOffsetFlag(header.sys_flag);
  const bool has_subscription = protocol::HasSubscriptionFlag(header.sys_flag);
  const int64_t suspend_timeout_ms = has_suspend ? header.suspend_timeout_millis : 0;

  std::optional<protocol::TopicConfig> topic =
      deps_.topics->SelectTopicConfig(header.topic);
  if (!topic) {
    return refuse(rc::kTopicNotExist,
                  fmt::format("topic[{}] not exist, apply first please! (consumer group {})",
                              header.topic, header.consumer_group));
  }
  Status perm = CheckPullPermission(*settings, *topic);
  if (!perm.ok()) return refuse(rc::kNoPermission, perm.message());
  if (header.queue_id < 0 || header.queue_id >= topic->read_queue_nums) {
    return refuse(rc::kInvalidParameter,
                  fmt::format("queueId[{}] is illegal, topic:[{}] topicConfig.readQueueNums:[{}] "
                              "consumer:[{}]",
                              header.queue_id, header.topic, topic->read_queue_nums,
                              ClientAddress(responder)));
  }

  std::shared_ptr<const protocol::SubscriptionData> subscription;
  if (has_subscription) {
    Result<protocol::SubscriptionData> built = BuildSubscriptionData(
        header.topic, header.subscription.value_or(""), header.expression_type.value_or(""),
        header.sub_version);
    if (!built.ok()) {
      return refuse(rc::kSubscriptionParseFailed,
                    fmt::format("parse the consumer's subscription[{}] failed, group: {}: {}",
                                header.subscription.value_or(""), header.consumer_group,
                                built.status().message()));
    }
    subscription = std::make_shared<const protocol::SubscriptionData>(std::move(*built));
  } else {
    ConsumerManager* consumers = deps_.consumers;
    if (consumers == nullptr || consumers->GetAllClientIds(header.consumer_group).empty()) {
      return refuse(rc::kSubscriptionNotExist,
                    fmt::format("the consumer's group info not exist: no heartbeat from group {} "
                                "reached this broker yet",
                                header.consumer_group));
    }
    if (!group->consume_broadcast_enable) {
      std::optional<ConsumerGroupSnapshot> snapshot =
          consumers->GetGroupSnapshot(header.consumer_group);
      if (snapshot && snapshot->message_model == protocol::MessageModel::kBroadcasting) {
        return refuse(rc::kNoPermission,
                      fmt::format("the consumer group[{}] can not consume by broadcast way",
                                  header.consumer_group));
      }
    }
    subscription = consumers->FindSubscriptionData(header.consumer_group, header.topic);
    if (!subscription) {
      return refuse(rc::kSubscriptionNotExist,
                    fmt::format("the consumer's subscription not exist: group {} does not "
                                "subscribe topic {} in its heartbeats",
                                header.consumer_group, header.topic));
    }
    if (subscription->sub_version < header.sub_version) {
      return refuse(rc::kSubscriptionNotLatest,
                    fmt::format("the consumer's subscription not latest: heartbeat subVersion {} "
                                "is older than the pull's {} (group {}, topic {})",
                                subscription->sub_version, header.sub_version,
                                header.consumer_group, header.topic));
    }
  }
  if (!protocol::IsTagExpressionType(subscription->expression_type) &&
      !settings->enable_property_filter) {
    return refuse(rc::kSystemError,
                  fmt::format("The broker does not support consumer to filter message by {} "
                              "(enablePropertyFilter=false)",
                              subscription->expression_type));
  }

  const int64_t max_bytes = header.max_msg_bytes && *header.max_msg_bytes > 0
                                ? *header.max_msg_bytes
                                : std::numeric_limits<int32_t>::max();
  store::GetMessageResult result = deps_.store->GetMessages(
      header.topic, header.queue_id, header.queue_offset, header.max_msg_nums, max_bytes,
      MakeTagCodeFilter(subscription));

  protocol::PullMessageResponseHeader response_header;
  response_header.next_begin_offset = result.next_begin_offset;
  response_header.min_offset = result.min_offset;
  response_header.max_offset = result.max_offset;
  response_header.suggest_which_broker_id = protocol::kMasterId;
  if (settings->slave_read_enable) {
    response_header.suggest_which_broker_id =
        result.suggest_pulling_from_slave ? group->which_broker_when_consume_slowly
                                          : group->broker_id;
  }
  // Java's role switch sets PULL_RETRY_IMMEDIATELY on a SLAVE without slaveReadEnable,
  // but the status switch that follows overwrites the code for every status, so a 4.x
  // slave serves what it has in the default configuration; what is left of the role
  // switch is suggestWhichBrokerId = 0 (set above), which sends the consumer back to the
  // master once the master is reachable. That is how consumers keep reading while the
  // master is down.
  ResponseCodeAndRemark mapped = MapGetStatus(result.status, header.queue_offset);
  RecordGet(deps_.stats, header.topic, header.consumer_group, mapped.code == rc::kSuccess,
            static_cast<int32_t>(result.messages.size()), result.total_bytes);
  if (mapped.code == rc::kSuccess && deps_.offsets) {
    // Java 5's commitPullOffset: what the group has fetched (in-flight / ready metrics).
    deps_.offsets->CommitPullOffset(header.consumer_group, header.topic,
                                                        header.queue_id, result.next_begin_offset);
  }
  if (settings->IsSlave() && mapped.code == rc::kPullOffsetMoved) {
    // Slaves do not correct offsets (offsetCheckInSlave=false): retry instead, at the
    // group's broker.
    mapped.code = rc::kPullRetryImmediately;
    response_header.suggest_which_broker_id = group->broker_id;
  }

  // Java stores commitOffset on the first execution only, suspended or not.
  if (allow_suspend && has_commit_offset && !settings->IsSlave() && deps_.offsets) {
    deps_.offsets->CommitOffset(header.consumer_group, header.topic,
                                                    header.queue_id, header.commit_offset);
  }

  if (mapped.code == rc::kPullNotFound && allow_suspend && has_suspend && hold_ &&
      suspend_timeout_ms > 0) {
    const int64_t timeout =
        settings->long_polling_enable ? suspend_timeout_ms : settings->short_polling_time_mills;
    Hold(request, responder, header.topic, header.queue_id, header.queue_offset,
         SteadyMillis() + timeout);
    return;
  }
  // Woken, but every message up to the queue's end failed the filter: wait on for newer
  // ones (only when the scan reached the end, so the consumer never misses a chance to
  // move past a long run of other tags).
  if (!allow_suspend && hold_ && result.status == store::GetStatus::kNoMatchedMessage &&
      result.next_begin_offset >= result.max_offset && SteadyMillis() < hold_deadline_ms) {
    Hold(request, responder, header.topic, header.queue_id, result.max_offset, hold_deadline_ms);
    return;
  }

  response.code = mapped.code;
  response.remark = std::move(mapped.remark);
  protocol::EncodeCustomHeader(response_header, &response);
  if (mapped.code == rc::kSuccess) {
    auto holder = std::make_shared<store::GetMessageResult>(std::move(result));
    response.body_segments.segments.reserve(holder->messages.size());
    for (const store::MessageRef& ref : holder->messages) {
      response.body_segments.segments.push_back(ref.view());
    }
    response.body_segments.keepalive = std::move(holder);
  }
  responder.Send(std::move(response));
}

}  // namespace apogee::broker
