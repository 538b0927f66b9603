#include "broker/stats/stats_item.h"

#include <utility>

namespace apogee::broker {

StatsItem::StatsItem(std::string key, int64_t now_ms) : key_(std::move(key)) {
  const Point zero{now_ms, 0, 0};
  fine_.points.push_back(zero);
  hour_.points.push_back(zero);
  day_.points.push_back(zero);
}

void StatsItem::Ring::Offer(const Point& p) {
  if (!points.empty() && p.ms - points.back().ms < spacing_ms) return;
  points.push_back(p);
  while (points.size() > capacity) points.pop_front();
}

void StatsItem::Sample(int64_t now_ms) {
  const Point p{now_ms, value(), times()};
  std::lock_guard<std::mutex> lock(mu_);
  fine_.Offer(p);
  hour_.Offer(p);
  day_.Offer(p);
}

double StatsItem::Tps(int64_t now_ms, int64_t window_ms) const {
  const int64_t live = value();
  std::lock_guard<std::mutex> lock(mu_);
  const Point* base = &fine_.points.front();
  for (const Point& p : fine_.points) {
    if (p.ms > now_ms - window_ms) break;
    base = &p;
  }
  const int64_t elapsed = now_ms - base->ms;
  if (elapsed <= 0) return 0;
  return static_cast<double>(live - base->value) * 1000.0 / static_cast<double>(elapsed);
}

StatsSnapshot StatsItem::Between(const Point& first, const Point& last) {
  StatsSnapshot s;
  s.sum = last.value - first.value;
  if (last.ms > first.ms) s.tps = static_cast<double>(s.sum) * 1000.0 / (last.ms - first.ms);
  const int64_t calls = last.times - first.times;
  if (calls > 0) s.avgpt = static_cast<double>(s.sum) / static_cast<double>(calls);
  return s;
}

StatsSnapshot StatsItem::View(const std::deque<Point>& points, size_t last_n) {
  if (points.empty()) return {};
  const size_t first = points.size() > last_n ? points.size() - last_n : 0;
  return Between(points[first], points.back());
}

StatsSnapshot StatsItem::Minute() const {
  std::lock_guard<std::mutex> lock(mu_);
  return View(fine_.points, 7);  // six 10 s steps: one minute, as Java's csListMinute
}

StatsSnapshot StatsItem::Hour() const {
  std::lock_guard<std::mutex> lock(mu_);
  return View(hour_.points, hour_.capacity);
}

StatsSnapshot StatsItem::Day() const {
  std::lock_guard<std::mutex> lock(mu_);
  return View(day_.points, day_.capacity);
}

}  // namespace apogee::broker
