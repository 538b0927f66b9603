#include "admin/table_printer.h"

#include <algorithm>
#include <sstream>

namespace apogee::admin {

std::string Pad(const std::string& cell, int width, bool left_align) {
  if (width <= 0 || cell.size() >= static_cast<size_t>(width)) return cell;
  std::string fill(static_cast<size_t>(width) - cell.size(), ' ');
  return left_align ? cell + fill : fill + cell;
}

std::string TablePrinter::FormatLine(const std::vector<std::string>& cells) const {
  std::string line;
  size_t n = std::max(cells.size(), columns_.size());
  for (size_t i = 0; i < n; ++i) {
    const std::string empty;
    const std::string& cell = i < cells.size() ? cells[i] : empty;
    if (i < columns_.size()) {
      const Column& c = columns_[i];
      bool last = i + 1 == columns_.size();
      // The last column is not padded when left-aligned: Java's lines would carry
      // trailing blanks there, which only make diffs and tests noisy.
      line += last && c.left_align ? cell : Pad(cell, c.width, c.left_align);
      if (!last) line += c.separator;
    } else {
      line += ' ';
      line += cell;
    }
  }
  return line;
}

void TablePrinter::Print(std::ostream& out, bool with_header) const {
  if (with_header) {
    std::vector<std::string> headers;
    for (const Column& c : columns_) headers.push_back(c.header);
    out << FormatLine(headers) << '\n';
  }
  for (const auto& row : rows_) out << FormatLine(row) << '\n';
}

std::string TablePrinter::ToString(bool with_header) const {
  std::ostringstream out;
  Print(out, with_header);
  return out.str();
}

}  // namespace apogee::admin
