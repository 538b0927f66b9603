// RocketMQ response codes (RQ:rp/RemotingSysResponseCode.java 0-4, RQ:rp/ResponseCode.java
// for 5.x, RQ497:cp4/ResponseCode.java for 4.9.7; docs/protocol/remoting.md §6). Codes are int in
// Java but Go reads them as int16, so every code Apogee sends must fit in int16.
// 209-211 mean different things in 4.9.7 (ACL admin failures) and 5.x (POP polling, broker
// lookup); none is on a 4.x data-plane path. The controller codes 2000-2016 are out of scope.
#pragma once

#include <cstdint>
#include <string_view>

namespace apogee::protocol::response_code {

inline constexpr int32_t kRpcTimeOut = -1006;                        // 5.x only
inline constexpr int32_t kRpcSendToChannelFailed = -1004;            // 5.x only
inline constexpr int32_t kRpcAddrIsNull = -1002;                     // 5.x only
inline constexpr int32_t kRpcUnknown = -1000;                        // 5.x only
inline constexpr int32_t kSuccess = 0;                               // 4.9.7 and 5.x
inline constexpr int32_t kSystemError = 1;                           // 4.9.7 and 5.x
inline constexpr int32_t kSystemBusy = 2;                            // 4.9.7 and 5.x
inline constexpr int32_t kRequestCodeNotSupported = 3;               // 4.9.7 and 5.x
inline constexpr int32_t kTransactionFailed = 4;                     // 4.9.7 and 5.x
inline constexpr int32_t kFlushDiskTimeout = 10;                     // 4.9.7 and 5.x
inline constexpr int32_t kSlaveNotAvailable = 11;                    // 4.9.7 and 5.x
inline constexpr int32_t kFlushSlaveTimeout = 12;                    // 4.9.7 and 5.x
inline constexpr int32_t kMessageIllegal = 13;                       // 4.9.7 and 5.x
inline constexpr int32_t kServiceNotAvailable = 14;                  // 4.9.7 and 5.x
inline constexpr int32_t kVersionNotSupported = 15;                  // 4.9.7 and 5.x
inline constexpr int32_t kNoPermission = 16;                         // 4.9.7 and 5.x
inline constexpr int32_t kTopicNotExist = 17;                        // 4.9.7 and 5.x
inline constexpr int32_t kTopicExistAlready = 18;                    // 4.9.7 and 5.x
inline constexpr int32_t kPullNotFound = 19;                         // 4.9.7 and 5.x
inline constexpr int32_t kPullRetryImmediately = 20;                 // 4.9.7 and 5.x
inline constexpr int32_t kPullOffsetMoved = 21;                      // 4.9.7 and 5.x
inline constexpr int32_t kQueryNotFound = 22;                        // 4.9.7 and 5.x
inline constexpr int32_t kSubscriptionParseFailed = 23;              // 4.9.7 and 5.x
inline constexpr int32_t kSubscriptionNotExist = 24;                 // 4.9.7 and 5.x
inline constexpr int32_t kSubscriptionNotLatest = 25;                // 4.9.7 and 5.x
inline constexpr int32_t kSubscriptionGroupNotExist = 26;            // 4.9.7 and 5.x
inline constexpr int32_t kFilterDataNotExist = 27;                   // 4.9.7 and 5.x
inline constexpr int32_t kFilterDataNotLatest = 28;                  // 4.9.7 and 5.x
inline constexpr int32_t kInvalidParameter = 29;                     // 5.x only
inline constexpr int32_t kTransactionShouldCommit = 200;             // 4.9.7 and 5.x
inline constexpr int32_t kTransactionShouldRollback = 201;           // 4.9.7 and 5.x
inline constexpr int32_t kTransactionStateUnknow = 202;              // 4.9.7 and 5.x
inline constexpr int32_t kTransactionStateGroupWrong = 203;          // 4.9.7 and 5.x
inline constexpr int32_t kNoBuyerId = 204;                           // 4.9.7 and 5.x
inline constexpr int32_t kNotInCurrentUnit = 205;                    // 4.9.7 and 5.x
inline constexpr int32_t kConsumerNotOnline = 206;                   // 4.9.7 and 5.x
inline constexpr int32_t kConsumeMsgTimeout = 207;                   // 4.9.7 and 5.x
inline constexpr int32_t kNoMessage = 208;                           // 4.9.7 and 5.x
inline constexpr int32_t kPollingFull = 209;                         // 5.x only
inline constexpr int32_t kUpdateAndCreateAclConfigFailed = 209;      // 4.9.7 only
inline constexpr int32_t kDeleteAclConfigFailed = 210;               // 4.9.7 only
inline constexpr int32_t kPollingTimeout = 210;                      // 5.x only
inline constexpr int32_t kBrokerNotExist = 211;                      // 5.x only
inline constexpr int32_t kUpdateGlobalWhiteAddrsConfigFailed = 211;  // 4.9.7 only
inline constexpr int32_t kBrokerDispatchNotComplete = 212;           // 5.x only
inline constexpr int32_t kBroadcastConsumption = 213;                // 5.x only
inline constexpr int32_t kFlowControl = 215;                         // 4.9.7 and 5.x
inline constexpr int32_t kNotLeaderForQueue = 501;                   // 5.x only
inline constexpr int32_t kIllegalOperation = 604;                    // 5.x only
inline constexpr int32_t kGoAway = 1500;                             // 5.x only
inline constexpr int32_t kUserNotExist = 3001;                       // 5.x only
inline constexpr int32_t kPolicyNotExist = 3002;                     // 5.x only

// The Java name of a response code, for logs; "UNKNOWN" when not in the table. The codes
// that differ between 4.9.7 and 5.x give both names.
std::string_view Name(int32_t code);

}  // namespace apogee::protocol::response_code
