// Every constant of RocketMQ's message formats, in one place: the stored record (CommitLog
// entry = PULL_MESSAGE body), the BLANK end-of-file filler, sysFlag bits, the property string,
// the well-known property keys, message ids and the SEND_BATCH_MESSAGE body.
// Spec: docs/format/message_record.md. Facts from apache/rocketmq MessageDecoder,
// CommitLog/MessageExtEncoder, MessageSysFlag, MessageConst, MessageClientIDSetter.
// No other file may spell one of these numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace apogee::message {

// ---- Magic codes (int32 at record offset 4) ----
inline constexpr uint32_t kMagicCodeV1 = 0xDAA320A7;     // 1-byte (signed) topic length
inline constexpr uint32_t kMagicCodeV2 = 0xDAA320AB;     // 2-byte topic length (5.x, long topics)
inline constexpr uint32_t kBlankMagicCode = 0xCBD43194;  // end-of-file filler

// ---- Record field offsets (two IPv4 hosts; an IPv6 born host shifts everything after it
// by 12, an IPv6 store host shifts what follows it by 12) ----
inline constexpr size_t kTotalSizeOffset = 0;
inline constexpr size_t kMagicCodeOffset = 4;
inline constexpr size_t kBodyCrcOffset = 8;
inline constexpr size_t kQueueIdOffset = 12;
inline constexpr size_t kFlagOffset = 16;
inline constexpr size_t kQueueOffsetOffset = 20;
inline constexpr size_t kPhysicalOffsetOffset = 28;
inline constexpr size_t kSysFlagOffset = 36;
inline constexpr size_t kBornTimestampOffset = 40;
inline constexpr size_t kBornHostOffset = 48;
// STORETIMESTAMP is at kBornHostOffset + born host length (56 with an IPv4 born host).

// ---- Host address fields ----
inline constexpr size_t kIPv4AddressLength = 4;
inline constexpr size_t kIPv6AddressLength = 16;
inline constexpr size_t kHostPortLength = 4;
inline constexpr size_t kIPv4HostLength = kIPv4AddressLength + kHostPortLength;  // 8
inline constexpr size_t kIPv6HostLength = kIPv6AddressLength + kHostPortLength;  // 20

// ---- Record sizes ----
// Every fixed-width field, with IPv4 hosts, v1 topic length, and empty body/topic/properties:
// 4 total + 4 magic + 4 crc + 4 queueId + 4 flag + 8 queueOffset + 8 physicalOffset +
// 4 sysFlag + 8 bornTs + 8 bornHost + 8 storeTs + 8 storeHost + 4 reconsume + 8 prepared +
// 4 bodyLen + 1 topicLen + 2 propsLen.
inline constexpr size_t kRecordFixedSizeV1IPv4 = 91;
inline constexpr size_t kTopicLengthSizeV1 = 1;
inline constexpr size_t kTopicLengthSizeV2 = 2;
inline constexpr size_t kPropertiesLengthSize = 2;
// Largest topic a v1 record can hold: the length byte is a Java (signed) byte.
inline constexpr size_t kMaxTopicLengthV1 = 127;
inline constexpr size_t kMaxTopicLengthV2 = 32767;
// The properties length is a Java short.
inline constexpr size_t kMaxPropertiesLength = 32767;
// Java's maxMessageSize default (a body limit) and the slack it allows for the whole record.
inline constexpr size_t kDefaultMaxMessageSize = 4 * 1024 * 1024;
inline constexpr size_t kRecordSizeSlack = 64 * 1024;

// ---- BLANK end-of-file filler: int32 remaining-bytes, int32 kBlankMagicCode ----
inline constexpr size_t kBlankRecordSize = 8;  // END_FILE_MIN_BLANK_LENGTH

// ---- sysFlag bits (MessageSysFlag) ----
inline constexpr int32_t kCompressedFlag = 0x1;
inline constexpr int32_t kMultiTagsFlag = 0x2;
inline constexpr int32_t kTransactionTypeMask = 0xC;
inline constexpr int32_t kTransactionNotType = 0x0;
inline constexpr int32_t kTransactionPreparedType = 0x4;
inline constexpr int32_t kTransactionCommitType = 0x8;
inline constexpr int32_t kTransactionRollbackType = 0xC;
inline constexpr int32_t kBornHostV6Flag = 0x10;
inline constexpr int32_t kStoreHostV6Flag = 0x20;
inline constexpr int32_t kNeedUnwrapFlag = 0x40;
inline constexpr int32_t kInnerBatchFlag = 0x80;
inline constexpr int32_t kCompressionTypeMask = 0x700;
inline constexpr int kCompressionTypeShift = 8;
inline constexpr int32_t kCompressionLz4 = 0x100;
inline constexpr int32_t kCompressionZstd = 0x200;
// Type bits 0 with kCompressedFlag also mean zlib (clients before 4.9.4).
inline constexpr int32_t kCompressionZlib = 0x300;
// Java producers compress bodies of at least this many bytes, zlib level 5.
inline constexpr size_t kDefaultCompressOverBytes = 4096;
inline constexpr int kDefaultZlibLevel = 5;

// ---- Property string ----
inline constexpr char kNameValueSeparator = '\x01';
inline constexpr char kPropertySeparator = '\x02';

// ---- Well-known property keys (MessageConst) ----
inline constexpr std::string_view kPropertyKeys = "KEYS";
inline constexpr std::string_view kPropertyTags = "TAGS";
inline constexpr std::string_view kPropertyWaitStoreMsgOk = "WAIT";
inline constexpr std::string_view kPropertyDelayTimeLevel = "DELAY";
inline constexpr std::string_view kPropertyRetryTopic = "RETRY_TOPIC";
inline constexpr std::string_view kPropertyRealTopic = "REAL_TOPIC";
inline constexpr std::string_view kPropertyRealQueueId = "REAL_QID";
inline constexpr std::string_view kPropertyTransactionPrepared = "TRAN_MSG";
inline constexpr std::string_view kPropertyProducerGroup = "PGROUP";
inline constexpr std::string_view kPropertyMinOffset = "MIN_OFFSET";
inline constexpr std::string_view kPropertyMaxOffset = "MAX_OFFSET";
inline constexpr std::string_view kPropertyBuyerId = "BUYER_ID";
inline constexpr std::string_view kPropertyOriginMessageId = "ORIGIN_MESSAGE_ID";
inline constexpr std::string_view kPropertyTransferFlag = "TRANSFER_FLAG";
inline constexpr std::string_view kPropertyCorrectionFlag = "CORRECTION_FLAG";
inline constexpr std::string_view kPropertyMq2Flag = "MQ2_FLAG";
inline constexpr std::string_view kPropertyReconsumeTime = "RECONSUME_TIME";
inline constexpr std::string_view kPropertyMsgRegion = "MSG_REGION";
inline constexpr std::string_view kPropertyTraceSwitch = "TRACE_ON";
inline constexpr std::string_view kPropertyUniqClientMessageIdKeyIdx = "UNIQ_KEY";
inline constexpr std::string_view kPropertyMaxReconsumeTimes = "MAX_RECONSUME_TIMES";
inline constexpr std::string_view kPropertyConsumeStartTimestamp = "CONSUME_START_TIME";
inline constexpr std::string_view kPropertyTranPreparedQueueOffset = "TRAN_PREPARED_QUEUE_OFFSET";
inline constexpr std::string_view kPropertyTransactionCheckTimes = "TRANSACTION_CHECK_TIMES";
inline constexpr std::string_view kPropertyCheckImmunityTimeInSeconds =
    "CHECK_IMMUNITY_TIME_IN_SECONDS";
inline constexpr std::string_view kPropertyInstanceId = "INSTANCE_ID";
inline constexpr std::string_view kPropertyCorrelationId = "CORRELATION_ID";
inline constexpr std::string_view kPropertyMessageReplyToClient = "REPLY_TO_CLIENT";
inline constexpr std::string_view kPropertyMessageTtl = "TTL";
inline constexpr std::string_view kPropertyReplyMessageArriveTime = "ARRIVE_TIME";
inline constexpr std::string_view kPropertyPushReplyTime = "PUSH_REPLY_TIME";
inline constexpr std::string_view kPropertyCluster = "CLUSTER";
inline constexpr std::string_view kPropertyMessageType = "MSG_TYPE";
inline constexpr std::string_view kPropertyInnerMultiDispatch = "INNER_MULTI_DISPATCH";
inline constexpr std::string_view kPropertyInnerMultiQueueOffset = "INNER_MULTI_QUEUE_OFFSET";
inline constexpr std::string_view kPropertyTransactionId = "__transactionId__";
inline constexpr std::string_view kPropertyShardingKey = "__SHARDINGKEY";
inline constexpr std::string_view kPropertyCrc32 = "__CRC32#";
inline constexpr std::string_view kPropertyTimerDeliverMs = "TIMER_DELIVER_MS";
inline constexpr std::string_view kPropertyTimerDelaySec = "TIMER_DELAY_SEC";
inline constexpr std::string_view kPropertyTimerDelayMs = "TIMER_DELAY_MS";
inline constexpr std::string_view kPropertyTimerOutMs = "TIMER_OUT_MS";
inline constexpr std::string_view kPropertyPopCk = "POP_CK";
inline constexpr std::string_view kPropertyFirstPopTime = "1ST_POP_TIME";
inline constexpr std::string_view kPropertyStartDeliverTime = "__STARTDELIVERTIME";
inline constexpr std::string_view kPropertyTransientPrefix = "__RMQ.TRANSIENT.";
// KEYS holds several keys separated by one space.
inline constexpr char kKeySeparator = ' ';

// ---- Topics whose records the store dispatches differently ----
// Their ConsumeQueue tag code is a delivery time instead of a tag hash: a DELAY-level message
// waits in SCHEDULE_TOPIC_XXXX (queue = level - 1), a timer message in Java 5.x's timer topic
// (docs/format/timer_messages.md). protocol/system_topics.h lists them with the other system
// topics.
inline constexpr std::string_view kScheduleTopic = "SCHEDULE_TOPIC_XXXX";
inline constexpr std::string_view kTimerTopic = "rmq_sys_wheel_timer";

// ---- Message ids ----
// Offset msgId: store address (4 or 16 bytes) + int32 port + int64 physical offset, as
// upper-case hex. UNIQ_KEY: client address (4 or 16) + int16 pid + int32 class-loader hash +
// int32 ms since the start of the month + int16 counter, as upper-case hex.
inline constexpr size_t kOffsetMsgIdLengthIPv4 = 32;  // hex chars for 16 bytes
inline constexpr size_t kOffsetMsgIdLengthIPv6 = 56;  // hex chars for 28 bytes
inline constexpr size_t kUniqKeyLengthIPv4 = 32;
inline constexpr size_t kUniqKeyLengthIPv6 = 56;
// A batch send answers the offset ids of its messages joined with this.
inline constexpr char kMsgIdBatchSeparator = ',';

// ---- SEND_BATCH_MESSAGE body: per message int32 total size, int32 magic (0), int32 body
// CRC (0), int32 flag, int32 body length + body, int16 properties length + properties ----
inline constexpr size_t kBatchEntryFixedSize = 22;

}  // namespace apogee::message
