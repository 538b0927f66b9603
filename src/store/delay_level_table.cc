#include "store/delay_level_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/string_util.h"

namespace apogee::store {

namespace {

int64_t UnitMillis(char unit) {
  switch (unit) {
    case 's':
      return 1000;
    case 'm':
      return 60 * 1000;
    case 'h':
      return 60 * 60 * 1000;
    case 'd':
      return 24 * 60 * 60 * 1000;
    default:
      return 0;
  }
}

}  // namespace

Result<DelayLevelTable> DelayLevelTable::Parse(std::string_view text) {
  DelayLevelTable table;
  for (const std::string& piece : SplitString(text, ' ', /*skip_empty=*/true)) {
    const int64_t unit = UnitMillis(piece.back());
    std::optional<int64_t> number =
        piece.size() > 1 ? ParseInt64(std::string_view(piece).substr(0, piece.size() - 1))
                         : std::nullopt;
    if (unit == 0 || !number || *number < 0 || *number > INT64_MAX / unit) {
      return Status::InvalidArgument(fmt::format(
          "messageDelayLevel: level {} is '{}', expected a non-negative number followed by one "
          "of the units s, m, h, d (e.g. 10s)",
          table.millis_.size() + 1, piece));
    }
    table.millis_.push_back(*number * unit);
  }
  if (table.millis_.empty()) {
    return Status::InvalidArgument("messageDelayLevel is empty: at least one level is needed");
  }
  return table;
}

int32_t DelayLevelTable::Clamp(int32_t level) const {
  if (level < 1) return 0;
  return std::min(level, max_level());
}

int64_t DelayLevelTable::DelayMillis(int32_t level) const {
  const int32_t clamped = Clamp(level);
  if (clamped < 1) return 0;
  return millis_[static_cast<size_t>(clamped - 1)];
}

}  // namespace apogee::store
