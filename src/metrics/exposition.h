// Prometheus text exposition (format 0.0.4): metric families with HELP and TYPE lines,
// samples with escaped labels, and histograms as _bucket / _sum / _count. Appends to one
// string, so a scrape of N series is N appends and no per-series allocation.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "metrics/histogram.h"

namespace apogee::metrics {

struct Label {
  std::string_view name;
  std::string_view value;
};

class PromWriter {
 public:
  explicit PromWriter(std::string* out) : out_(out) {}

  // "# HELP name help" and "# TYPE name type" (counter, gauge, histogram). Call once per
  // family, before its samples.
  void Family(std::string_view name, std::string_view type, std::string_view help);
  void Sample(std::string_view name, std::initializer_list<Label> labels, double value);
  void Sample(std::string_view name, std::initializer_list<Label> labels, int64_t value);
  // name_bucket{...,le="b"} for every bound and +Inf, name_sum, name_count.
  void Histogram(std::string_view name, std::initializer_list<Label> labels,
                 const HistogramSnapshot& snapshot);

  // Label values escape backslash, double quote and newline, as the format requires.
  static void AppendEscaped(std::string* out, std::string_view value);

 private:
  void Series(std::string_view name, std::string_view suffix, std::initializer_list<Label> labels,
              std::string_view le = {});

  std::string* out_;
};

}  // namespace apogee::metrics
