// Helpers for the HA tests. unit_ha links only ha's allowed deps (net, store headers for the
// ReplicationStore interface), so the tests replicate between in-memory ReplicationStores
// that behave like a CommitLog: fixed-size files, reads that stop at a file end, contiguous
// raw appends. The real MessageStore path is covered by the broker and integration tests.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ha/ha_options.h"
#include "store/replication.h"

namespace apogee::ha::testing {

inline constexpr int64_t kFileSize = 64 * 1024;

inline HaOptions FastOptions() {
  HaOptions o;
  o.listen_host = "127.0.0.1";
  o.listen_port = 0;
  o.heartbeat_interval_ms = 200;
  o.housekeeping_interval_ms = 5000;
  o.transfer_batch_size = 8 * 1024;
  o.slave_timeout_ms = 3000;
  o.commit_log_file_size = kFileSize;
  o.reconnect_min_ms = 50;
  o.reconnect_max_ms = 200;
  return o;
}

class MemLog : public store::ReplicationStore {
 public:
  explicit MemLog(int64_t file_size = kFileSize) : file_size_(file_size) {}

  // A master write: `n` bytes derived from `seed`; rolls to the next file (padding the
  // old one, as a BLANK filler does) when they do not fit.
  void Write(size_t n, char seed) {
    std::string record(n, seed);
    for (size_t i = 0; i < n; ++i) record[i] = static_cast<char>(seed + i % 7);
    std::lock_guard<std::mutex> lock(mu_);
    if (files_.empty()) files_[0] = "";
    std::string* last = &files_.rbegin()->second;
    if (static_cast<int64_t>(last->size() + n) > file_size_) {
      last->append(static_cast<size_t>(file_size_) - last->size(), '\0');
      const int64_t start = files_.rbegin()->first + file_size_;
      last = &files_[start];
    }
    last->append(record);
  }
  // Overwrites one byte (to make two logs differ).
  void Corrupt(int64_t offset) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = std::prev(files_.upper_bound(offset));
    it->second[static_cast<size_t>(offset - it->first)] ^= 0x5A;
  }

  int64_t MaxPhyOffset() const override {
    std::lock_guard<std::mutex> lock(mu_);
    if (files_.empty()) return 0;
    return files_.rbegin()->first + static_cast<int64_t>(files_.rbegin()->second.size());
  }
  int64_t MinPhyOffset() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return files_.empty() ? 0 : files_.begin()->first;
  }
  Result<store::RawSegment> ReadRaw(int64_t offset, size_t max_bytes) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.upper_bound(offset);
    if (it == files_.begin()) return Status::NotFound(fmt::format("no file at {}", offset));
    --it;
    const int64_t pos = offset - it->first;
    if (pos >= static_cast<int64_t>(it->second.size())) {
      return Status::NotFound(fmt::format("nothing written at {}", offset));
    }
    auto copy = std::make_shared<std::string>(it->second.substr(static_cast<size_t>(pos), max_bytes));
    store::RawSegment seg;
    seg.offset = offset;
    seg.data = *copy;
    seg.keepalive = copy;
    return seg;
  }
  Status AppendRaw(int64_t offset, std::string_view data) override {
    std::lock_guard<std::mutex> lock(mu_);
    int64_t end = files_.empty() ? 0
                                 : files_.rbegin()->first +
                                       static_cast<int64_t>(files_.rbegin()->second.size());
    if (!files_.empty() && offset != end) {
      return Status::InvalidArgument(fmt::format("append at {} but the log ends at {}", offset, end));
    }
    ++appends_;
    while (!data.empty()) {
      if (files_.empty() ||
          static_cast<int64_t>(files_.rbegin()->second.size()) == file_size_) {
        files_[offset - offset % file_size_];
      }
      std::string& last = files_.rbegin()->second;
      const size_t n = std::min(data.size(), static_cast<size_t>(file_size_) - last.size());
      last.append(data.substr(0, n));
      data.remove_prefix(n);
      offset += static_cast<int64_t>(n);
    }
    return Status::OK();
  }

  // The whole log from `from` (for comparisons).
  std::string Bytes(int64_t from) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::string out;
    for (const auto& [start, data] : files_) {
      if (start + static_cast<int64_t>(data.size()) <= from) continue;
      const int64_t skip = std::max<int64_t>(from - start, 0);
      out.append(data.substr(static_cast<size_t>(skip)));
    }
    return out;
  }
  int appends() const {
    std::lock_guard<std::mutex> lock(mu_);
    return appends_;
  }

 private:
  const int64_t file_size_;
  mutable std::mutex mu_;
  std::map<int64_t, std::string> files_;  // start offset -> written bytes
  int appends_ = 0;
};

// Writes `n` records of about 1 KiB each.
inline void WriteRecords(MemLog* log, int n, char seed = 'a') {
  for (int i = 0; i < n; ++i) log->Write(1000 + static_cast<size_t>(i % 50), static_cast<char>(seed + i % 20));
}

}  // namespace apogee::ha::testing
