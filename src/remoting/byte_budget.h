// ByteBudget: a process-wide (per server) count of bytes of one kind that connections
// hold, with a limit, so that many connections together cannot take unbounded memory
// (docs/security.md, "Resource limits"). The remoting server keeps one for partial
// frames (bytes a FrameDecoder buffers for frames not yet complete) and one for write
// queues (responses not yet handed to the kernel).
//
// Thread-safety: every method may be called from any thread (relaxed atomics: the
// numbers steer flow control, they order nothing).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace apogee::remoting {

class ByteBudget {
 public:
  // `limit` 0 = unlimited.
  explicit ByteBudget(uint64_t limit = 0) : limit_(limit) {}
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  // Takes `n` bytes when they fit under the limit; false (nothing taken) otherwise.
  bool TryAcquire(size_t n) {
    uint64_t used = used_.load(std::memory_order_relaxed);
    do {
      if (limit_ != 0 && used + n > limit_) return false;
    } while (!used_.compare_exchange_weak(used, used + n, std::memory_order_relaxed));
    return true;
  }
  // Takes `n` bytes whatever the limit (memory already allocated that must be counted).
  void Acquire(size_t n) { used_.fetch_add(n, std::memory_order_relaxed); }
  void Release(size_t n) {
    used_.fetch_sub(n, std::memory_order_relaxed);
    released_.fetch_add(n, std::memory_order_relaxed);
  }

  // Memory freed without leaving the count (a buffer replaced by a bigger one), for the
  // same decision.
  void NoteFreed(size_t n) { released_.fetch_add(n, std::memory_order_relaxed); }

  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_; }
  bool over_limit() const { return limit_ != 0 && used() > limit_; }
  // Bytes released since the last call (for deciding when to give memory back to the OS).
  uint64_t TakeReleased() { return released_.exchange(0, std::memory_order_relaxed); }

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> used_{0};
  std::atomic<uint64_t> released_{0};
};

}  // namespace apogee::remoting
