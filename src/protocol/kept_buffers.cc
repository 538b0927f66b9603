#include "protocol/kept_buffers.h"

#include <cstddef>
#include <vector>

namespace apogee::protocol {
namespace {

// Strings of one kind a thread keeps: at most max_count, each with room between
// min_room (smaller ones are not worth a slot; short strings live in the object anyway)
// and max_room (bigger ones would pin memory for a rare request).
class KeptStrings {
 public:
  KeptStrings(size_t max_count, size_t min_room, size_t max_room)
      : max_count_(max_count), min_room_(min_room), max_room_(max_room) {}

  bool Take(std::string* out, size_t min_capacity) {
    // The smallest that fits, so that a short value does not take the room a long one needs.
    size_t best = kept_.size();
    for (size_t i = 0; i < kept_.size(); ++i) {
      const size_t room = kept_[i].capacity();
      if (room >= min_capacity && (best == kept_.size() || room < kept_[best].capacity())) best = i;
    }
    if (best == kept_.size()) return false;
    out->swap(kept_[best]);
    kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
    return true;
  }

  void Keep(std::string* s) {
    const size_t room = s->capacity();
    if (room < min_room_ || room > max_room_) return;
    if (kept_.capacity() == 0) kept_.reserve(max_count_);
    // Full: the oldest goes, so buffers no request takes any more do not hold every slot.
    if (kept_.size() >= max_count_) kept_.erase(kept_.begin());
    s->clear();
    kept_.push_back(std::move(*s));
    s->clear();
  }

 private:
  const size_t max_count_;
  const size_t min_room_;
  const size_t max_room_;
  std::vector<std::string> kept_;
};

constexpr size_t kMaxKeptTexts = 8;
constexpr size_t kMinKeptTextRoom = 16;  // anything not held inside the string object
constexpr size_t kMaxKeptTextRoom = 4096;
constexpr size_t kMaxKeptBodies = 4;
constexpr size_t kMinKeptBodyRoom = 256;
constexpr size_t kMaxKeptBodyRoom = 64 * 1024;

KeptStrings& Texts() {
  thread_local KeptStrings texts(kMaxKeptTexts, kMinKeptTextRoom, kMaxKeptTextRoom);
  return texts;
}

KeptStrings& Bodies() {
  thread_local KeptStrings bodies(kMaxKeptBodies, kMinKeptBodyRoom, kMaxKeptBodyRoom);
  return bodies;
}

}  // namespace

bool TakeKeptText(std::string* out, size_t min_capacity) {
  return out->empty() && Texts().Take(out, min_capacity);
}
void KeepText(std::string* text) { Texts().Keep(text); }

bool TakeKeptBody(std::string* out, size_t min_capacity) {
  return out->empty() && Bodies().Take(out, min_capacity);
}
void KeepBody(std::string* body) { Bodies().Keep(body); }

}  // namespace apogee::protocol
