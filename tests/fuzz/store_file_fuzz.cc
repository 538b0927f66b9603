// libFuzzer target for the store's readers of files it finds on disk at start: the
// checkpoint, an IndexFile and a ConsumeQueue, each written with the fuzzer's bytes into an
// in-memory Env and then opened, recovered and queried as the store does. Byte 0 picks the
// file (low 2 bits) and, for a ConsumeQueue, where its first file starts. Checks, besides the
// sanitizers: lookups stay within their limits, a recovered queue only serves written
// entries, the checkpoint reads back what it flushed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "env/env.h"
#include "env/mem_env.h"
#include "store/consume_queue.h"
#include "store/index_file.h"
#include "store/mapped_file.h"
#include "store/store_checkpoint.h"
#include "quiet_logs.h"

namespace {

using namespace apogee::store;  // NOLINT: a fuzz driver

void Check(bool ok) {
  if (!ok) std::abort();
}

constexpr int32_t kSlots = 8;
constexpr int32_t kEntries = 16;
constexpr int64_t kCqFileSize = 20 * 16;

// `bytes` cut or zero-padded to `size`.
std::string Sized(std::string_view bytes, size_t size) {
  std::string out(bytes.substr(0, size));
  out.resize(size, '\0');
  return out;
}

void Checkpoint(apogee::env::Env* env, std::string_view bytes) {
  const std::string path = "/store/checkpoint";
  // A short file is one cut by a crash at creation; a longer one is a 4 KiB checkpoint.
  const std::string file = bytes.size() < 40 ? std::string(bytes) : Sized(bytes, 4096);
  Check(apogee::env::WriteFileAtomically(env, path, file).ok());
  auto first = StoreCheckpoint::Open(env, path);
  if (!first.ok()) return;
  StoreCheckpoint& cp = **first;
  Check(cp.MinTimestamp() >= 0);
  (void)cp.MinTimestampIndex();
  Check(cp.Flush().ok());
  auto second = StoreCheckpoint::Open(env, path);
  Check(second.ok());
  Check((*second)->physic_msg_timestamp() == cp.physic_msg_timestamp());
  Check((*second)->logics_msg_timestamp() == cp.logics_msg_timestamp());
  Check((*second)->index_msg_timestamp() == cp.index_msg_timestamp());
  Check((*second)->master_flushed_offset() == cp.master_flushed_offset());
  Check((*second)->confirm_phy_offset() == cp.confirm_phy_offset());
}

void Index(apogee::env::Env* env, std::string_view bytes) {
  const std::string path = "/store/index/20260101000000000";
  const size_t size = static_cast<size_t>(IndexFile::FileSizeFor(kSlots, kEntries));
  Check(apogee::env::WriteFileAtomically(env, path, Sized(bytes, size)).ok());
  auto opened = IndexFile::Open(env, path, kSlots, kEntries);
  if (!opened.ok()) return;
  IndexFile& file = **opened;
  const IndexHeader header = file.header();
  Check(header.index_count >= 1 && header.index_count <= kEntries);
  const std::vector<std::string> keys = {"T#k", "T#a", "T#b", "T#c", "T#d", "T#e"};
  for (const std::string& key : keys) {
    std::vector<int64_t> out;
    file.SelectPhyOffsets(key, 4, INT64_MIN, INT64_MAX, &out);
    Check(out.size() <= 4);
    out.clear();
    file.SelectPhyOffsets(key, 64, header.begin_timestamp, header.end_timestamp, &out);
    Check(out.size() <= static_cast<size_t>(kEntries));
  }
  (void)file.IsTimeMatched(INT64_MIN, INT64_MAX);
  (void)file.IsTimeMatched(header.begin_timestamp, header.begin_timestamp);
  // The reput thread keeps adding to the last file it finds, with the store times of real
  // records (never negative).
  for (int i = 0; i < 4 && !file.IsFull(); ++i) {
    Check(file.PutKey(keys[i], 1000 + i, int64_t{1700000000000} + i));
  }
  std::vector<int64_t> out;
  file.SelectPhyOffsets(keys[0], 64, INT64_MIN, INT64_MAX, &out);
  Check(out.size() <= static_cast<size_t>(kEntries));
}

void Queue(apogee::env::Env* env, int first_file, std::string_view bytes) {
  const std::string dir = "/store/consumequeue/T/0";
  Check(env->CreateDirs(dir).ok());
  // Up to three consecutive files, the first at file index `first_file`.
  for (int i = 0; i < 3 && (i == 0 || !bytes.empty()); ++i) {
    const int64_t start = (first_file + i) * kCqFileSize;
    const std::string name = dir + "/" + MappedFile::FileNameOf(start);
    Check(apogee::env::WriteFileAtomically(env, name, Sized(bytes, kCqFileSize)).ok());
    bytes.remove_prefix(std::min<size_t>(bytes.size(), kCqFileSize));
  }
  ConsumeQueue cq(env, "T", 0, dir, kCqFileSize);
  if (!cq.Load().ok() || !cq.Recover().ok()) return;
  const int64_t min = cq.MinOffset();
  const int64_t max = cq.MaxOffset();
  Check(min <= max || max == 0);
  for (int64_t offset = min; offset < max; offset += 7) {
    std::vector<CqEntry> entries = cq.GetEntries(offset, 8);
    Check(entries.size() <= 8);
    for (const CqEntry& e : entries) Check(e.size > 0 && e.phy_offset >= 0);
  }
  Check(!cq.GetEntry(max).has_value());
  (void)cq.OffsetByTime(1000, [](int64_t phy_offset, int32_t) -> std::optional<int64_t> {
    return phy_offset;
  });
  // Dispatch continues after the recovered end, then a CommitLog truncation cuts back.
  const int64_t next_phy = cq.max_phy_offset() < 0 ? 0 : cq.max_phy_offset();
  (void)cq.PutEntry(CqEntry{next_phy, 100, 7}, max);
  (void)cq.TruncateDirty(next_phy);
  (void)cq.DeleteExpiredFiles(next_phy);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  std::unique_ptr<apogee::env::Env> env = apogee::env::NewMemEnv();
  Check(env->CreateDirs("/store/index").ok());
  switch (data[0] % 3) {
    case 0:
      Checkpoint(env.get(), bytes);
      break;
    case 1:
      Index(env.get(), bytes);
      break;
    default:
      Queue(env.get(), (data[0] >> 2) % 4, bytes);
      break;
  }
  return 0;
}
