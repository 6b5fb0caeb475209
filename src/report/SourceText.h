//===- SourceText.h - lines of the analysed sources, read once ------------===//
//
// The text report quotes source lines, SARIF fingerprints hash them, and
// suppression comments (`// crace: benign-race`) are read from them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>
#include <vector>

namespace crace {

/// File relative to the working directory when it lies below it.
std::string shortPath(const std::string &File);

class SourceCache {
public:
  /// Line Line (1-based) of File without its line break, or nothing when
  /// the file cannot be read or is shorter.
  std::optional<std::string> line(const std::string &File, unsigned Line);

private:
  llvm::StringMap<std::vector<std::string>> Files;
};

} // namespace crace
