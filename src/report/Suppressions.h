//===- Suppressions.h - findings the user marked as intended races --------===//
//
// Three ways to say a race is intended (docs/usage.md, "Suppressions"):
//  - --suppressions=FILE, in the sanitizers' special-case-list syntax
//    (llvm::SpecialCaseList): race:PATTERN (a function of either access,
//    or the variable), fun:PATTERN, src:PATTERN (either access's file),
//    global:PATTERN (the variable), field:PATTERN (its last field);
//  - a `// crace: benign-race REASON` comment on either access's line or
//    the line above it;
//  - __attribute__((no_sanitize("thread"))) on a function of either access
//    (module metadata "crace.no_sanitize_thread", from the front end).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report/Finding.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SpecialCaseList.h"
#include <memory>
#include <set>
#include <string>

namespace crace {

struct SuppressionSources {
  const llvm::SpecialCaseList *List = nullptr;
  std::string ListFile;
  std::set<std::string> NoSanitizeThread;
};

/// Reads a --suppressions file; an error names the file and the line.
llvm::Expected<std::unique_ptr<llvm::SpecialCaseList>>
loadSuppressions(const std::string &File);

/// Removes the data races S or a comment suppresses from R and says so
/// (stat "suppressed_findings", and a reason, or an assumption when the
/// verdict becomes race-free). The verdict is recomputed from the findings
/// left: when none is left it is race-free only if R's candidate list was
/// complete (CandidatesComplete, not cut by MaxFindings; 0: no cut), with
/// the program's Assumptions and the suppressed pairs as assumptions, else
/// unknown.
void applySuppressions(Result &R, const SuppressionSources &S,
                       unsigned MaxFindings,
                       const std::vector<std::string> &Assumptions);

/// The fingerprints of the findings of an earlier report (crace's JSON or
/// SARIF). An error names the file and what is wrong with it.
llvm::Expected<std::set<std::string>> loadBaseline(const std::string &File);

/// --baseline: drops the findings whose fingerprint is in Baseline and says
/// how many (stat "baseline_findings", a reason). The verdict is then the
/// new findings': race, possible-race, or, with none new, unknown (the
/// baseline's races are still there: never race-free).
void applyBaseline(Result &R, const std::set<std::string> &Baseline,
                   const std::string &File);

} // namespace crace
