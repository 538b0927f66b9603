#include "base/clock.h"

#include <chrono>

namespace apogee {
namespace {

class RealClock : public Clock {
 public:
  int64_t NowMillis() const override {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  }
  int64_t SteadyMillis() const override {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
  }
};

}  // namespace

Clock* Clock::Real() {
  static RealClock clock;
  return &clock;
}

int64_t NowMillis() { return Clock::Real()->NowMillis(); }
int64_t SteadyMillis() { return Clock::Real()->SteadyMillis(); }

}  // namespace apogee
