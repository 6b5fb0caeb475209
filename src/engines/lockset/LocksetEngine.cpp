//===- LocksetEngine.cpp - static lockset race detection ------------------===//
#include "engines/lockset/LocksetEngine.h"
#include "analysis/Lockset.h"
#include "model/Counters.h"

#define DEBUG_TYPE "crace-lockset"

CRACE_STATISTIC(NumLocksetRuns, "Runs of the lockset engine");
CRACE_STATISTIC(NumLocksetFindings, "Findings the lockset engine reported");

namespace crace {

Result LocksetEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  ++NumLocksetRuns;
  Result R = analyseLocksets(PM, Opts.Cancelled, Opts.MaxPairs);
  cutFindings(R, Opts.MaxFindings);
  NumLocksetFindings += R.Findings.size();
  return R;
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createLocksetEngine() {
  return std::make_unique<LocksetEngine>();
}

} // namespace crace
