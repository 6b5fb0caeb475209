//===- SourceText.h - lines of the analysed sources, read once ------------===//
//
// The text report quotes source lines, SARIF fingerprints hash them, and
// suppression comments (`// crace: benign-race`) are read from them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report/Finding.h"
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

/// A finding's identity across runs and edits (SARIF partialFingerprints,
/// JSON "fingerprint", --baseline): an MD5 of its category, its variable
/// and, for each access, the file name and the text of its source line,
/// not line numbers, engines or verdicts; so it survives lines moving and
/// a possible race that a later run confirms.
std::string fingerprint(const Finding &F, SourceCache &Sources);

} // namespace crace
