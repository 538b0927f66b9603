#include "metrics/exposition.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

namespace apogee::metrics {
namespace {

void AppendDouble(std::string* out, double v) {
  if (std::isnan(v)) {
    out->append("NaN");
  } else if (std::isinf(v)) {
    out->append(v > 0 ? "+Inf" : "-Inf");
  } else {
    fmt::format_to(std::back_inserter(*out), "{}", v);
  }
}

}  // namespace

void PromWriter::AppendEscaped(std::string* out, std::string_view value) {
  for (char c : value) {
    switch (c) {
      case '\\':
        out->append("\\\\");
        break;
      case '"':
        out->append("\\\"");
        break;
      case '\n':
        out->append("\\n");
        break;
      default:
        out->push_back(c);
    }
  }
}

void PromWriter::Family(std::string_view name, std::string_view type, std::string_view help) {
  fmt::format_to(std::back_inserter(*out_), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

void PromWriter::Series(std::string_view name, std::string_view suffix,
                        std::initializer_list<Label> labels, std::string_view le) {
  out_->append(name);
  out_->append(suffix);
  if (labels.size() == 0 && le.empty()) {
    out_->push_back(' ');
    return;
  }
  out_->push_back('{');
  bool first = true;
  for (const Label& l : labels) {
    if (!first) out_->push_back(',');
    first = false;
    out_->append(l.name);
    out_->append("=\"");
    AppendEscaped(out_, l.value);
    out_->push_back('"');
  }
  if (!le.empty()) {
    if (!first) out_->push_back(',');
    out_->append("le=\"");
    out_->append(le);
    out_->push_back('"');
  }
  out_->append("} ");
}

void PromWriter::Sample(std::string_view name, std::initializer_list<Label> labels, double value) {
  Series(name, {}, labels);
  AppendDouble(out_, value);
  out_->push_back('\n');
}

void PromWriter::Sample(std::string_view name, std::initializer_list<Label> labels, int64_t value) {
  Series(name, {}, labels);
  fmt::format_to(std::back_inserter(*out_), "{}\n", value);
}

void PromWriter::Histogram(std::string_view name, std::initializer_list<Label> labels,
                           const HistogramSnapshot& s) {
  char le[32];
  for (size_t i = 0; i < s.bounds.size(); ++i) {
    auto end = fmt::format_to_n(le, sizeof(le) - 1, "{}", s.bounds[i]).out;
    Series(name, "_bucket", labels, std::string_view(le, static_cast<size_t>(end - le)));
    fmt::format_to(std::back_inserter(*out_), "{}\n", s.cumulative[i]);
  }
  Series(name, "_bucket", labels, "+Inf");
  fmt::format_to(std::back_inserter(*out_), "{}\n", s.count);
  Series(name, "_sum", labels);
  AppendDouble(out_, s.sum);
  out_->push_back('\n');
  Series(name, "_count", labels);
  fmt::format_to(std::back_inserter(*out_), "{}\n", s.count);
}

}  // namespace apogee::metrics
