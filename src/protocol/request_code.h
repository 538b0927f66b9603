// RocketMQ request codes (RQ:rp/RequestCode.java for 5.x, RQ497:cp4/RequestCode.java for
// 4.9.7; docs/protocol/remoting.md §4). The values are the wire contract; the names are Java's.
// The trailing comment says which Java component handles the code in 5.x and in which
// line it exists. ali-ons spells 105 GET_ROUTEINTO_BY_TOPIC and uses 217 as the Alibaba 3.x
// GET_KV_CONFIG_BY_VALUE; in 5.x 217 is REGISTER_TOPIC_IN_NAMESRV.
#pragma once

#include <cstdint>
#include <string_view>

namespace apogee::protocol::request_code {

inline constexpr int32_t kSendMessage = 10;                        // Broker; 4.9.7 and 5.x
inline constexpr int32_t kPullMessage = 11;                        // Broker; 4.9.7 and 5.x
inline constexpr int32_t kQueryMessage = 12;                       // Broker; 4.9.7 and 5.x
inline constexpr int32_t kQueryBrokerOffset = 13;                  // no handler; 4.9.7 and 5.x
inline constexpr int32_t kQueryConsumerOffset = 14;                // Broker; 4.9.7 and 5.x
inline constexpr int32_t kUpdateConsumerOffset = 15;               // Broker; 4.9.7 and 5.x
inline constexpr int32_t kUpdateAndCreateTopic = 17;               // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kUpdateAndCreateTopicList = 18;           // Broker(admin); 5.x only
inline constexpr int32_t kGetAllTopicConfig = 21;                  // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetTopicConfigList = 22;                 // no handler; 4.9.7 and 5.x
inline constexpr int32_t kGetTopicNameList = 23;                   // no handler; 4.9.7 and 5.x
inline constexpr int32_t kUpdateBrokerConfig = 25;                 // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetBrokerConfig = 26;                    // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kTriggerDeleteFiles = 27;                 // no handler; 4.9.7 and 5.x
inline constexpr int32_t kGetBrokerRuntimeInfo = 28;               // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kSearchOffsetByTimestamp = 29;            // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetMaxOffset = 30;                       // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetMinOffset = 31;                       // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetEarliestMsgStoretime = 32;            // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kViewMessageById = 33;                    // Broker; 4.9.7 and 5.x
inline constexpr int32_t kHeartBeat = 34;                          // Broker; 4.9.7 and 5.x
inline constexpr int32_t kUnregisterClient = 35;                   // Broker; 4.9.7 and 5.x
inline constexpr int32_t kConsumerSendMsgBack = 36;                // Broker; 4.9.7 and 5.x
inline constexpr int32_t kEndTransaction = 37;                     // Broker; 4.9.7 and 5.x
inline constexpr int32_t kGetConsumerListByGroup = 38;             // Broker; 4.9.7 and 5.x
inline constexpr int32_t kCheckTransactionState = 39;              // Client; 4.9.7 and 5.x
inline constexpr int32_t kNotifyConsumerIdsChanged = 40;           // Client; 4.9.7 and 5.x
inline constexpr int32_t kLockBatchMq = 41;                        // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kUnlockBatchMq = 42;                      // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetAllConsumerOffset = 43;               // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetAllDelayOffset = 45;                  // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kCheckClientConfig = 46;                  // Broker; 4.9.7 and 5.x
inline constexpr int32_t kGetClientConfig = 47;                    // no handler; 5.x only
inline constexpr int32_t kUpdateAndCreateAclConfig = 50;           // no handler; 4.9.7 only
inline constexpr int32_t kDeleteAclConfig = 51;                    // no handler; 4.9.7 only
inline constexpr int32_t kGetBrokerClusterAclInfo = 52;            // no handler; 4.9.7 only
inline constexpr int32_t kUpdateGlobalWhiteAddrsConfig = 53;       // no handler; 4.9.7 only
inline constexpr int32_t kGetBrokerClusterAclConfig = 54;          // no handler; 4.9.7 only
inline constexpr int32_t kGetTimerCheckPoint = 60;                 // Broker(admin); 5.x only
inline constexpr int32_t kGetTimerMetrics = 61;                    // Broker(admin); 5.x only
inline constexpr int32_t kPutKvConfig = 100;                       // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetKvConfig = 101;                       // NS; 4.9.7 and 5.x
inline constexpr int32_t kDeleteKvConfig = 102;                    // NS; 4.9.7 and 5.x
inline constexpr int32_t kRegisterBroker = 103;                    // NS; 4.9.7 and 5.x
inline constexpr int32_t kUnregisterBroker = 104;                  // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetRouteinfoByTopic = 105;               // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetBrokerClusterInfo = 106;              // NS; 4.9.7 and 5.x
inline constexpr int32_t kUpdateAndCreateSubscriptiongroup = 200;  // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetAllSubscriptiongroupConfig = 201;     // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetTopicStatsInfo = 202;                 // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetConsumerConnectionList = 203;         // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetProducerConnectionList = 204;         // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kWipeWritePermOfBroker = 205;             // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetAllTopicListFromNameserver = 206;     // NS; 4.9.7 and 5.x
inline constexpr int32_t kDeleteSubscriptiongroup = 207;           // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetConsumeStats = 208;                   // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kSuspendConsumer = 209;                   // no handler; 4.9.7 and 5.x
inline constexpr int32_t kResumeConsumer = 210;                    // no handler; 4.9.7 and 5.x
inline constexpr int32_t kResetConsumerOffsetInConsumer = 211;     // no handler; 4.9.7 and 5.x
inline constexpr int32_t kResetConsumerOffsetInBroker = 212;       // no handler; 4.9.7 and 5.x
inline constexpr int32_t kAdjustConsumerThreadPool = 213;          // no handler; 4.9.7 and 5.x
inline constexpr int32_t kWhoConsumeTheMessage = 214;              // no handler; 4.9.7 and 5.x
inline constexpr int32_t kDeleteTopicInBroker = 215;               // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kDeleteTopicInNamesrv = 216;              // NS; 4.9.7 and 5.x
inline constexpr int32_t kRegisterTopicInNamesrv = 217;            // NS; 5.x only
inline constexpr int32_t kGetKvlistByNamespace = 219;              // NS; 4.9.7 and 5.x
inline constexpr int32_t kResetConsumerClientOffset = 220;         // Client; 4.9.7 and 5.x
inline constexpr int32_t kGetConsumerStatusFromClient = 221;       // Client; 4.9.7 and 5.x
inline constexpr int32_t kInvokeBrokerToResetOffset = 222;         // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kInvokeBrokerToGetConsumerStatus = 223;   // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetTopicsByCluster = 224;                // NS; 4.9.7 and 5.x
inline constexpr int32_t kUpdateAndCreateSubscriptiongroupList = 225;  // Broker(admin); 5.x only
inline constexpr int32_t kQueryTopicConsumeByWho = 300;        // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kRegisterFilterServer = 301;          // no handler; 4.9.7 and 5.x
inline constexpr int32_t kRegisterMessageFilterClass = 302;    // no handler; 4.9.7 and 5.x
inline constexpr int32_t kQueryConsumeTimeSpan = 303;          // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetSystemTopicListFromNs = 304;      // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetSystemTopicListFromBroker = 305;  // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kCleanExpiredConsumequeue = 306;      // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetConsumerRunningInfo = 307;  // Broker(admin)/Client; 4.9.7 and 5.x
inline constexpr int32_t kQueryCorrectionOffset = 308;   // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kConsumeMessageDirectly = 309;  // Broker(admin)/Client; 4.9.7 and 5.x
inline constexpr int32_t kSendMessageV2 = 310;           // Broker; 4.9.7 and 5.x
inline constexpr int32_t kGetUnitTopicList = 311;        // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetHasUnitSubTopicList = 312;  // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetHasUnitSubUnunitTopicList = 313;  // NS; 4.9.7 and 5.x
inline constexpr int32_t kCloneGroupOffset = 314;              // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kViewBrokerStatsData = 315;           // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kCleanUnusedTopic = 316;              // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kGetBrokerConsumeStats = 317;         // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kUpdateNamesrvConfig = 318;           // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetNamesrvConfig = 319;              // NS; 4.9.7 and 5.x
inline constexpr int32_t kSendBatchMessage = 320;              // Broker; 4.9.7 and 5.x
inline constexpr int32_t kQueryConsumeQueue = 321;             // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kQueryDataVersion = 322;              // NS; 4.9.7 and 5.x
inline constexpr int32_t kResumeCheckHalfMessage = 323;        // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kSendReplyMessage = 324;              // Broker; 4.9.7 and 5.x
inline constexpr int32_t kSendReplyMessageV2 = 325;            // Broker; 4.9.7 and 5.x
inline constexpr int32_t kPushReplyMessageToClient = 326;      // Client; 4.9.7 and 5.x
inline constexpr int32_t kAddWritePermOfBroker = 327;          // NS; 4.9.7 and 5.x
inline constexpr int32_t kGetAllProducerInfo = 328;            // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kDeleteExpiredCommitlog = 329;        // Broker(admin); 4.9.7 and 5.x
inline constexpr int32_t kQueryTopicsByConsumer = 343;         // Broker(admin); 5.x only
inline constexpr int32_t kQuerySubscriptionByConsumer = 345;   // Broker(admin); 5.x only
inline constexpr int32_t kGetTopicConfig = 351;                // Broker(admin); 5.x only
inline constexpr int32_t kGetSubscriptiongroupConfig = 352;    // Broker(admin); 5.x only
inline constexpr int32_t kUpdateAndGetGroupForbidden = 353;    // Broker(admin); 5.x only
inline constexpr int32_t kCheckRocksdbCqWriteProgress = 354;   // Broker(admin); 5.x only
inline constexpr int32_t kExportRocksdbConfigToJson = 355;     // Broker(admin); 5.x only
inline constexpr int32_t kLitePullMessage = 361;               // Broker; 5.x only
inline constexpr int32_t kRecallMessage = 370;                 // Broker; 5.x only
inline constexpr int32_t kQueryAssignment = 400;               // Broker; 5.x only
inline constexpr int32_t kSetMessageRequestMode = 401;         // Broker; 5.x only
inline constexpr int32_t kGetAllMessageRequestMode = 402;      // Broker(admin); 5.x only
inline constexpr int32_t kUpdateAndCreateStaticTopic = 513;    // Broker(admin); 5.x only
inline constexpr int32_t kGetBrokerMemberGroup = 901;          // NS; 5.x only
inline constexpr int32_t kAddBroker = 902;                     // no handler; 5.x only
inline constexpr int32_t kRemoveBroker = 903;                  // no handler; 5.x only
inline constexpr int32_t kBrokerHeartbeat = 904;               // NS; 5.x only
inline constexpr int32_t kNotifyMinBrokerIdChange = 905;       // Broker(admin); 5.x only
inline constexpr int32_t kExchangeBrokerHaInfo = 906;          // Broker(admin); 5.x only
inline constexpr int32_t kGetBrokerHaStatus = 907;             // Broker(admin); 5.x only
inline constexpr int32_t kResetMasterFlushOffset = 908;        // Broker(admin); 5.x only
inline constexpr int32_t kControllerAlterSyncStateSet = 1001;  // Controller; 5.x only
inline constexpr int32_t kControllerElectMaster = 1002;        // Controller; 5.x only
inline constexpr int32_t kControllerRegisterBroker = 1003;     // Controller; 5.x only
inline constexpr int32_t kControllerGetReplicaInfo = 1004;     // Controller; 5.x only
inline constexpr int32_t kControllerGetMetadataInfo = 1005;    // Controller; 5.x only
inline constexpr int32_t kControllerGetSyncStateData = 1006;   // Controller; 5.x only
inline constexpr int32_t kGetBrokerEpochCache = 1007;          // Broker(admin)/Controller; 5.x only
inline constexpr int32_t kNotifyBrokerRoleChanged = 1008;      // Broker(admin)/Controller; 5.x only
inline constexpr int32_t kUpdateControllerConfig = 1009;       // Controller; 5.x only
inline constexpr int32_t kGetControllerConfig = 1010;          // Controller; 5.x only
inline constexpr int32_t kCleanBrokerData = 1011;              // Controller; 5.x only
inline constexpr int32_t kControllerGetNextBrokerId = 1012;    // Controller; 5.x only
inline constexpr int32_t kControllerApplyBrokerId = 1013;      // Controller; 5.x only
inline constexpr int32_t kBrokerCloseChannelRequest = 1014;    // Controller; 5.x only
inline constexpr int32_t kCheckNotActiveBrokerRequest = 1015;  // Controller; 5.x only
inline constexpr int32_t kGetBrokerLiveInfoRequest = 1016;     // Controller; 5.x only
inline constexpr int32_t kGetSyncStateDataRequest = 1017;      // Controller; 5.x only
inline constexpr int32_t kRaftBrokerHeartBeatEventRequest = 1018;  // Controller; 5.x only
inline constexpr int32_t kUpdateColdDataFlowCtrConfig = 2001;      // Broker(admin); 5.x only
inline constexpr int32_t kRemoveColdDataFlowCtrConfig = 2002;      // Broker(admin); 5.x only
inline constexpr int32_t kGetColdDataFlowCtrInfo = 2003;           // Broker(admin); 5.x only
inline constexpr int32_t kSetCommitlogReadMode = 2004;             // Broker(admin); 5.x only
inline constexpr int32_t kAuthCreateUser = 3001;                   // Broker(admin); 5.x only
inline constexpr int32_t kAuthUpdateUser = 3002;                   // Broker(admin); 5.x only
inline constexpr int32_t kAuthDeleteUser = 3003;                   // Broker(admin); 5.x only
inline constexpr int32_t kAuthGetUser = 3004;                      // Broker(admin); 5.x only
inline constexpr int32_t kAuthListUser = 3005;                     // Broker(admin); 5.x only
inline constexpr int32_t kAuthCreateAcl = 3006;                    // Broker(admin); 5.x only
inline constexpr int32_t kAuthUpdateAcl = 3007;                    // Broker(admin); 5.x only
inline constexpr int32_t kAuthDeleteAcl = 3008;                    // Broker(admin); 5.x only
inline constexpr int32_t kAuthGetAcl = 3009;                       // Broker(admin); 5.x only
inline constexpr int32_t kAuthListAcl = 3010;                      // Broker(admin); 5.x only
inline constexpr int32_t kPopMessage = 200050;                     // Broker; 5.x only
inline constexpr int32_t kAckMessage = 200051;                     // Broker; 5.x only
inline constexpr int32_t kPeekMessage = 200052;                    // Broker; 5.x only
inline constexpr int32_t kChangeMessageInvisibletime = 200053;     // Broker; 5.x only
inline constexpr int32_t kNotification = 200054;                   // Broker; 5.x only
inline constexpr int32_t kPollingInfo = 200055;                    // Broker; 5.x only
inline constexpr int32_t kPopRollback = 200056;                    // Broker(admin); 5.x only
inline constexpr int32_t kBatchAckMessage = 200151;                // Broker; 5.x only

// Apogee's own codes, in a range neither Java line uses (checked against 4.9.7 and 5.x).
// REDRIVE_DLQ_MESSAGE: send the messages of %DLQ%<group> back to their original topic
// (admin; header in protocol/admin_headers.h, answered by the broker's transaction family).
inline constexpr int32_t kApogeeRedriveDlqMessage = 30001;         // Broker(admin); Apogee only

// The Java name of a request code, for logs; "UNKNOWN" when not in the table.
std::string_view Name(int32_t code);

}  // namespace apogee::protocol::request_code
