// Offline inspection of store files, behind the `mqstore` tool: dump CommitLog, ConsumeQueue,
// IndexFile and checkpoint files, verify every record (CRC included) and summarise. It only
// reads; it is what an operator runs after a crash, so every problem is reported with its
// file and offset, and inspection goes on past it where the format allows.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "env/env.h"

namespace apogee::store {

struct InspectOptions {
  bool dump = false;       // one line per record / entry
  bool verify_crc = true;  // check body CRCs
  size_t max_dump_lines = SIZE_MAX;
};

struct InspectReport {
  std::string text;                   // what the tool prints
  std::vector<std::string> problems;  // corruption found (file, offset, reason)
  // Sound records the broker cannot index and skips at dispatch (a topic or queue id no
  // ConsumeQueue can have): the store still opens, but they are not consumable.
  std::vector<std::string> warnings;
  int64_t files = 0;
  int64_t records = 0;  // messages, entries or index entries
  int64_t blanks = 0;   // BLANK fillers / pre-fill entries
  int64_t bytes = 0;
  bool ok() const { return problems.empty(); }
};

// `path` is a CommitLog directory or one CommitLog file.
Result<InspectReport> InspectCommitLog(env::Env* env, const std::string& path,
                                       const InspectOptions& options);
// `path` is a consumequeue/<topic>/<queueId> directory or one of its files. With
// `commit_log_dir`, every entry is checked against the record it points at.
Result<InspectReport> InspectConsumeQueue(env::Env* env, const std::string& path,
                                          const std::string& commit_log_dir,
                                          const InspectOptions& options);
// One index file, laid out for `hash_slot_num` slots and `index_num` entries.
Result<InspectReport> InspectIndexFile(env::Env* env, const std::string& path,
                                       int32_t hash_slot_num, int32_t index_num,
                                       const InspectOptions& options);
Result<InspectReport> InspectCheckpoint(env::Env* env, const std::string& path);

}  // namespace apogee::store
