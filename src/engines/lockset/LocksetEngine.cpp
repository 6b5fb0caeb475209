//===- LocksetEngine.cpp - static lockset race detection ------------------===//
#include "engines/lockset/LocksetEngine.h"
#include "analysis/Lockset.h"

namespace crace {

Result LocksetEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  Result R = analyseLocksets(PM, Opts.Cancelled, Opts.MaxPairs);
  cutFindings(R, Opts.MaxFindings);
  return R;
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createLocksetEngine() {
  return std::make_unique<LocksetEngine>();
}

} // namespace crace
