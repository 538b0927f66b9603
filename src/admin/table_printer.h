// Fixed-width tables as Java's mqadmin prints them with printf("%-32s  %-4d ...%n"):
// each column has a width and an alignment, cells longer than their width push the rest
// of the line right (never cut), and the header row carries Java's '#' names.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace apogee::admin {

struct Column {
  std::string header;      // "#Topic"
  int width = 0;           // printf field width; 0 = as long as the cell
  bool left_align = true;  // %-Ns (true) or %Ns
  std::string separator = "  ";  // printed after the cell, except after the last column
};

class TablePrinter {
 public:
  explicit TablePrinter(std::vector<Column> columns) : columns_(std::move(columns)) {}

  // Rows with fewer cells than columns are padded with empty cells; extra cells are kept
  // and printed after the last column, separated by one blank.
  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  size_t row_count() const { return rows_.size(); }

  // The header line (when `with_header`) then every row, each ending in '\n'.
  void Print(std::ostream& out, bool with_header = true) const;
  std::string ToString(bool with_header = true) const;

  // One formatted line: what Print writes for `cells`.
  std::string FormatLine(const std::vector<std::string>& cells) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// printf's %-Ns / %Ns on one cell.
std::string Pad(const std::string& cell, int width, bool left_align);

}  // namespace apogee::admin
