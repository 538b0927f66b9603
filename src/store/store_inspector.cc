#include "store/store_inspector.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "base/coding.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "store/consume_queue_table.h"
#include "store/dispatch_request.h"
#include "store/index_file.h"
#include "store/mapped_file.h"
#include "store/store_checkpoint.h"
#include "store/store_format.h"

namespace apogee::store {
namespace {

std::string FormatTime(int64_t ms) {
  if (ms <= 0) return "-";
  time_t secs = static_cast<time_t>(ms / 1000);
  struct tm local {};
  localtime_r(&secs, &local);
  return fmt::format("{:04d}-{:02d}-{:02d} {:02d}:{:02d}:{:02d}.{:03d}", local.tm_year + 1900,
                     local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
                     static_cast<int>(ms % 1000));
}

// The store files of `path`: itself when it is a file, else its 20-digit entries, sorted.
Result<std::vector<std::string>> StoreFiles(env::Env* env, const std::string& path) {
  if (!env->IsDirectory(path)) {
    if (!env->FileExists(path)) return Status::NotFound(fmt::format("{} does not exist", path));
    return std::vector<std::string>{path};
  }
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> names, env->ListDir(path));
  std::vector<std::string> out;
  for (const std::string& n : names) {
    if (MappedFile::ParseFileName(n).ok()) out.push_back(env::JoinPath(path, n));
  }
  return out;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Result<std::shared_ptr<MappedFile>> OpenForReading(env::Env* env, const std::string& path) {
  APOGEE_ASSIGN_OR_RETURN(int64_t start, MappedFile::ParseFileName(BaseName(path)));
  APOGEE_ASSIGN_OR_RETURN(uint64_t size, env->GetFileSize(path));
  return MappedFile::Open(env, path, start, static_cast<int64_t>(size));
}

void Line(InspectReport* r, const InspectOptions& o, size_t* lines, const std::string& s) {
  if (*lines < o.max_dump_lines) r->text += s + "\n";
  ++*lines;
}

}  // namespace

Result<InspectReport> InspectCommitLog(env::Env* env, const std::string& path,
                                       const InspectOptions& options) {
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> paths, StoreFiles(env, path));
  InspectReport report;
  std::map<std::string, int64_t> per_topic;
  int64_t min_ts = INT64_MAX;
  int64_t max_ts = 0;
  int64_t first_offset = -1;
  int64_t end_offset = 0;
  size_t lines = 0;
  message::DecodeOptions decode;
  decode.check_crc = options.verify_crc;
  decode.read_body = options.verify_crc;
  for (const std::string& p : paths) {
    APOGEE_ASSIGN_OR_RETURN(auto file, OpenForReading(env, p));
    ++report.files;
    if (first_offset < 0) first_offset = file->start_offset();
    int64_t pos = 0;
    std::string file_end = "end of data";
    while (pos < file->file_size()) {
      message::RecordDecodeResult r = message::DecodeRecord(
          file->data() + pos, static_cast<size_t>(file->file_size() - pos), decode);
      int64_t offset = file->start_offset() + pos;
      if (r.status == message::RecordStatus::kMessage &&
          r.record.physical_offset != offset) {
        r.status = message::RecordStatus::kCorrupt;
        r.reason = fmt::format("PHYSICALOFFSET says {}", r.record.physical_offset);
      }
      if (r.status == message::RecordStatus::kMessage) {
        const message::RecordView& v = r.record;
        ++report.records;
        report.bytes += static_cast<int64_t>(r.size);
        ++per_topic[std::string(v.topic)];
        if (ShouldDispatchToConsumeQueue(v.sys_flag) && !IsIndexableQueue(v.topic, v.queue_id)) {
          report.warnings.push_back(fmt::format(
              "{} offset {}: topic '{}' queue {} cannot have a ConsumeQueue; the broker skips "
              "this record at dispatch (not consumable)",
              p, offset, v.topic.substr(0, 256), v.queue_id));
        }
        min_ts = std::min(min_ts, v.store_timestamp);
        max_ts = std::max(max_ts, v.store_timestamp);
        if (options.dump) {
          Line(&report, options, &lines,
               fmt::format("{} size={} topic={} queueId={} queueOffset={} sysFlag={} "
                           "storeTime={} msgId={} tags={} keys={} uniqKey={}",
                           offset, r.size, v.topic, v.queue_id, v.queue_offset, v.sys_flag,
                           FormatTime(v.store_timestamp),
                           message::CreateOffsetMsgId(v.store_host, offset),
                           message::FindProperty(v.properties, message::kPropertyTags).value_or(""),
                           message::FindProperty(v.properties, message::kPropertyKeys).value_or(""),
                           message::FindProperty(v.properties,
                                                 message::kPropertyUniqClientMessageIdKeyIdx)
                               .value_or("")));
        }
        pos += static_cast<int64_t>(r.size);
        end_offset = file->start_offset() + pos;
        continue;
      }
      if (r.status == message::RecordStatus::kBlank) {
        ++report.blanks;
        if (options.dump) Line(&report, options, &lines, fmt::format("{} BLANK {}", offset, r.size));
        pos = file->file_size();
        end_offset = file->start_offset() + pos;
        file_end = "BLANK filler";
        break;
      }
      if (r.status != message::RecordStatus::kEndOfData) {
        report.problems.push_back(fmt::format("{} offset {} (position {}): {}: {}", p, offset,
                                              pos, message::RecordStatusName(r.status),
                                              r.reason));
        file_end = "stopped at a bad record";
      }
      break;
    }
    report.text += fmt::format("file {}: {} bytes used of {} ({})\n", BaseName(p), pos,
                               file->file_size(), file_end);
  }
  report.text += fmt::format(
      "CommitLog {}: {} file(s), {} message(s), {} BLANK filler(s), {} bytes of records, "
      "offsets [{}, {})\n",
      path, report.files, report.records, report.blanks, report.bytes,
      std::max<int64_t>(first_offset, 0), end_offset);
  if (report.records > 0) {
    report.text += fmt::format("store time {} .. {}\n", FormatTime(min_ts), FormatTime(max_ts));
  }
  for (const auto& [topic, n] : per_topic) report.text += fmt::format("  topic {}: {}\n", topic, n);
  for (const std::string& warning : report.warnings) report.text += "WARNING " + warning + "\n";
  for (const std::string& problem : report.problems) report.text += "PROBLEM " + problem + "\n";
  report.text += report.ok() ? "OK: every record verified\n"
                             : fmt::format("{} PROBLEM(S)\n", report.problems.size());
  return report;
}

Result<InspectReport> InspectConsumeQueue(env::Env* env, const std::string& path,
                                          const std::string& commit_log_dir,
                                          const InspectOptions& options) {
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> paths, StoreFiles(env, path));
  std::vector<std::shared_ptr<MappedFile>> commit_log;
  int64_t cl_file_size = 0;
  if (!commit_log_dir.empty()) {
    APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> cl_paths, StoreFiles(env, commit_log_dir));
    for (const std::string& p : cl_paths) {
      APOGEE_ASSIGN_OR_RETURN(auto f, OpenForReading(env, p));
      cl_file_size = f->file_size();
      commit_log.push_back(std::move(f));
    }
  }
  auto find_cl = [&](int64_t offset) -> const MappedFile* {
    for (const auto& f : commit_log) {
      if (offset >= f->start_offset() && offset < f->start_offset() + cl_file_size) return f.get();
    }
    return nullptr;
  };
  InspectReport report;
  size_t lines = 0;
  int64_t last_phy = -1;
  for (const std::string& p : paths) {
    APOGEE_ASSIGN_OR_RETURN(auto file, OpenForReading(env, p));
    ++report.files;
    int64_t pos = 0;
    for (; pos + kCqUnitSize <= file->file_size(); pos += kCqUnitSize) {
      const uint8_t* e = file->data() + pos;
      int64_t phy = static_cast<int64_t>(DecodeFixed64(e + kCqPhyOffsetPos));
      int32_t size = static_cast<int32_t>(DecodeFixed32(e + kCqSizePos));
      int64_t tag = static_cast<int64_t>(DecodeFixed64(e + kCqTagCodePos));
      int64_t queue_offset = (file->start_offset() + pos) / kCqUnitSize;
      if (phy == 0 && size == 0) break;  // end of written entries
      if (size == kCqBlankEntrySize) {
        ++report.blanks;
        continue;
      }
      ++report.records;
      if (options.dump) {
        Line(&report, options, &lines,
             fmt::format("queueOffset={} phyOffset={} size={} tagCode={}", queue_offset, phy,
                         size, tag));
      }
      if (phy < 0 || size <= 0 || phy <= last_phy) {
        report.problems.push_back(fmt::format("{} queue offset {}: entry {{{}, {}}} out of order",
                                              p, queue_offset, phy, size));
      }
      last_phy = phy;
      if (commit_log.empty()) continue;
      const MappedFile* cl = find_cl(phy);
      if (!cl) continue;  // deleted by retention or beyond the CommitLog: not checkable
      message::DecodeOptions decode;
      decode.read_body = false;
      int64_t in_file = phy - cl->start_offset();
      message::RecordDecodeResult r = message::DecodeRecord(
          cl->data() + in_file, static_cast<size_t>(cl->file_size() - in_file), decode);
      if (r.status != message::RecordStatus::kMessage || static_cast<int32_t>(r.size) != size ||
          r.record.queue_offset != queue_offset) {
        report.problems.push_back(fmt::format(
            "{} queue offset {}: points at CommitLog {} size {} but finds {} (size {}, queue "
            "offset {})",
            p, queue_offset, phy, size, message::RecordStatusName(r.status), r.size,
            r.record.queue_offset));
      }
    }
    report.bytes += pos;
    report.text += fmt::format("file {}: {} entries used of {}\n", BaseName(p), pos / kCqUnitSize,
                               file->file_size() / kCqUnitSize);
  }
  report.text += fmt::format("ConsumeQueue {}: {} file(s), {} entries, {} pre-fill blank(s){}\n",
                             path, report.files, report.records, report.blanks,
                             commit_log.empty() ? "" : ", checked against the CommitLog");
  for (const std::string& problem : report.problems) report.text += "PROBLEM " + problem + "\n";
  report.text += report.ok() ? "OK\n" : fmt::format("{} PROBLEM(S)\n", report.problems.size());
  return report;
}

Result<InspectReport> InspectIndexFile(env::Env* env, const std::string& path,
                                       int32_t hash_slot_num, int32_t index_num,
                                       const InspectOptions& options) {
  APOGEE_ASSIGN_OR_RETURN(auto file, IndexFile::Open(env, path, hash_slot_num, index_num));
  APOGEE_ASSIGN_OR_RETURN(std::string bytes, env::ReadFileToString(env, path));
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  IndexHeader h = file->header();
  InspectReport report;
  report.files = 1;
  report.bytes = static_cast<int64_t>(bytes.size());
  report.records = h.index_count - 1;
  size_t lines = 0;
  const uint8_t* slots = base + kIndexHeaderSize;
  const uint8_t* entries = slots + int64_t{hash_slot_num} * kIndexSlotSize;
  int64_t used_slots = 0;
  for (int64_t s = 0; s < hash_slot_num; ++s) {
    int32_t v = static_cast<int32_t>(DecodeFixed32(slots + s * kIndexSlotSize));
    if (v == 0) continue;
    ++used_slots;
    if (v < 0 || v >= h.index_count) {
      report.problems.push_back(fmt::format("slot {} points at entry {} (count {})", s, v,
                                            h.index_count));
    }
  }
  for (int32_t n = 1; n < h.index_count; ++n) {
    const uint8_t* e = entries + int64_t{n} * kIndexEntrySize;
    int32_t hash = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryKeyHashPos));
    int64_t phy = static_cast<int64_t>(DecodeFixed64(e + kIndexEntryPhyOffsetPos));
    int32_t diff = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryTimeDiffPos));
    int32_t prev = static_cast<int32_t>(DecodeFixed32(e + kIndexEntryPrevIndexPos));
    if (options.dump) {
      Line(&report, options, &lines,
           fmt::format("entry {} keyHash={} phyOffset={} time={} prev={}", n, hash, phy,
                       FormatTime(h.begin_timestamp + int64_t{diff} * 1000), prev));
    }
    if (hash < 0 || diff < 0 || prev < 0 || prev >= n) {
      report.problems.push_back(fmt::format("entry {}: keyHash {} timeDiff {} prev {} invalid", n,
                                            hash, diff, prev));
    }
  }
  report.text += fmt::format(
      "IndexFile {}: {} entries, {} slot(s) in use (header says {}), phy offsets [{}, {}], "
      "time {} .. {}\n",
      path, report.records, used_slots, h.hash_slot_count, h.begin_phy_offset, h.end_phy_offset,
      FormatTime(h.begin_timestamp), FormatTime(h.end_timestamp));
  if (used_slots != h.hash_slot_count) {
    report.problems.push_back(fmt::format("header counts {} used slots, found {}",
                                          h.hash_slot_count, used_slots));
  }
  for (const std::string& problem : report.problems) report.text += "PROBLEM " + problem + "\n";
  report.text += report.ok() ? "OK\n" : fmt::format("{} PROBLEM(S)\n", report.problems.size());
  return report;
}

Result<InspectReport> InspectCheckpoint(env::Env* env, const std::string& path) {
  if (!env->FileExists(path)) return Status::NotFound(fmt::format("{} does not exist", path));
  APOGEE_ASSIGN_OR_RETURN(std::string bytes, env::ReadFileToString(env, path));
  InspectReport report;
  report.files = 1;
  report.bytes = static_cast<int64_t>(bytes.size());
  if (bytes.size() < 40) {
    report.problems.push_back(fmt::format("{} is {} bytes, shorter than its 40-byte layout", path,
                                          bytes.size()));
    report.text = "PROBLEM " + report.problems.back() + "\n";
    return report;
  }
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  auto field = [&](int pos) { return static_cast<int64_t>(DecodeFixed64(p + pos)); };
  int64_t physic = field(kCheckpointPhysicMsgTimestampPos);
  int64_t logics = field(kCheckpointLogicsMsgTimestampPos);
  int64_t index = field(kCheckpointIndexMsgTimestampPos);
  report.text += fmt::format("checkpoint {} ({} bytes)\n", path, bytes.size());
  report.text += fmt::format("  physicMsgTimestamp  {} ({})\n", physic, FormatTime(physic));
  report.text += fmt::format("  logicsMsgTimestamp  {} ({})\n", logics, FormatTime(logics));
  report.text += fmt::format("  indexMsgTimestamp   {} ({})\n", index, FormatTime(index));
  report.text += fmt::format("  masterFlushedOffset {}\n", field(kCheckpointMasterFlushedOffsetPos));
  report.text += fmt::format("  confirmPhyOffset    {}\n", field(kCheckpointConfirmPhyOffsetPos));
  int64_t min_ts = std::max<int64_t>(std::min(physic, logics) - kCheckpointSafetyMarginMs, 0);
  report.text += fmt::format("  crash recovery would start at the CommitLog file whose first "
                             "record is not after {} ({})\n",
                             min_ts, FormatTime(min_ts));
  return report;
}

}  // namespace apogee::store
