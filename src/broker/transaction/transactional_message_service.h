// TransactionalMessageService: the half and op queues of transactional messages (Java's
// TransactionalMessageServiceImpl and TransactionalMessageBridge; docs/protocol/store_ha.md §8.4).
//
// The send path parks a prepared message in RMQ_SYS_TRANS_HALF_TOPIC queue 0 as a NOT_TYPE
// record with REAL_TOPIC / REAL_QID / PGROUP. This class
//   - finds a half message by physical offset and checks an END_TRANSACTION against it,
//   - builds the real message a commit stores and the op record that marks a half message
//     decided (topic RMQ_SYS_TRANS_OP_HALF_TOPIC, same queue id, tag "d", body = the half
//     queue offset),
//   - runs one check round (Check): from the half queue's consume offset of group
//     CID_RMQ_SYS_TRANS it skips decided half messages (read from the op queue), discards
//     ones checked transactionCheckMax times or older than fileReservedTime, and re-appends
//     each undecided one older than transactionTimeOut (or its CHECK_IMMUNITY_TIME_IN_SECONDS)
//     with TRANSACTION_CHECK_TIMES + 1 before handing the copy to the listener, which asks
//     the producer. Progress is the two consume offsets, so it survives restarts.
//
// Thread-safety: GetHalfMessage / Build* / Put* from any thread; Check from one thread at
// a time (the check service).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/status.h"
#include "message/host_address.h"
#include "message/message.h"
#include "protocol/send_headers.h"
#include "store/put_status.h"

namespace apogee::store {
class MessageStore;
}  // namespace apogee::store

namespace apogee::broker {

class ConsumerOffsetManager;

// What a check round does with the half messages it cannot settle alone
// (Java's AbstractTransactionalMessageCheckListener).
class TransactionCheckListener {
 public:
  virtual ~TransactionCheckListener() = default;
  // `half` is the re-appended copy (its offsets and offset msgId), still in the half topic,
  // TRANSACTION_CHECK_TIMES already incremented: ask its producer group for a decision.
  virtual void ResolveHalfMessage(const message::MessageExt& half) = 0;
  // Checked too often or too old: set it aside. A failure stops the round at this message
  // (it is tried again next round).
  virtual Status ResolveDiscardMessage(const message::MessageExt& half) = 0;
};

struct TransactionCheckRoundStats {
  int32_t checked = 0;    // re-appended and handed to ResolveHalfMessage
  int32_t discarded = 0;  // handed to ResolveDiscardMessage
  int32_t decided = 0;    // skipped because an op record decided them
  int64_t half_offset = 0;  // half queue consume offset after the round
  int64_t op_offset = 0;    // op queue consume offset after the round
};

class TransactionalMessageService {
 public:
  // All pointers must outlive the service. `store_host` is written into the records this
  // service creates (op records, half copies).
  TransactionalMessageService(store::MessageStore* store, ConsumerOffsetManager* offsets,
                              message::HostAddress store_host, const Clock* clock);

  // The half message stored at `commit_log_offset` (body as stored). NotFound when no
  // record starts there; InvalidArgument when the record is not in the half topic.
  Result<message::MessageExt> GetHalfMessage(int64_t commit_log_offset) const;

  // Java's checkPrepareMessage: the END_TRANSACTION names this half message (producer group,
  // queue offset, physical offset). The error message is the remark of SYSTEM_ERROR.
  static Status CheckPrepareMessage(const message::MessageExt& half,
                                    const protocol::EndTransactionRequestHeader& header);

  // The message a commit stores: real topic and queue from REAL_TOPIC / REAL_QID, sysFlag
  // with the COMMIT type, preparedTransactionOffset = the half's physical offset, UNIQ_KEY
  // (the transaction id) kept; TRAN_MSG, REAL_TOPIC and REAL_QID removed, WAIT=false.
  // InvalidArgument when the half message lacks a usable REAL_TOPIC / REAL_QID.
  static Result<message::MessageExt> BuildCommittedMessage(const message::MessageExt& half);

  // The op record that marks `half` decided.
  message::MessageExt BuildOpMessage(const message::MessageExt& half) const;

  // Stores `msg` (WAIT=false semantics: completes when appended). `done` runs once.
  void Put(const message::MessageExt& msg, std::function<void(const store::PutResult&)> done);
  store::PutResult PutAndWait(const message::MessageExt& msg);

  // One check round over the half queue (see the file comment). `file_reserved_ms` bounds
  // the age of a half message that is still checked.
  TransactionCheckRoundStats Check(int64_t transaction_timeout_ms, int32_t check_max,
                                   int64_t file_reserved_ms, TransactionCheckListener* listener);

  // The consume offset of CID_RMQ_SYS_TRANS on `topic` queue 0, or the queue's min offset
  // when none was committed yet.
  int64_t FetchConsumeOffset(std::string_view topic) const;

  store::MessageStore* store() const { return store_; }
  const message::HostAddress& store_host() const { return store_host_; }

 private:
  struct OpScan;

  // Reads op records from `op_offset` to the op queue's end into `scan`.
  void ReadOps(int64_t op_offset, int64_t min_half_offset, OpScan* scan) const;
  // The half message at queue offset `queue_offset`; NotFound when none is readable there.
  Result<message::MessageExt> GetHalfMessageAt(int64_t queue_offset) const;

  store::MessageStore* store_;
  ConsumerOffsetManager* offsets_;
  message::HostAddress store_host_;
  const Clock* clock_;
};

}  // namespace apogee::broker
