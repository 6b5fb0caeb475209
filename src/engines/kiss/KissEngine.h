//===- KissEngine.h - races found by KISS + bounded model checking -------===//
//
// `--engine=kiss`: builds the KISS sequential program (KissTransform.h) for
// the shared globals (or `--kiss-target`), encodes it once with the bmc
// (bmc/Bmc.h) and asks one query per target, then one for the
// program's own assertions. A reachable `__crace_bmc_fail` is a confirmed
// race (the counterexample is a real execution); a reachable assertion
// failure is an AssertionFailure finding. KISS simulates only balanced
// executions (and the bmc only bounded ones), so "no failure reachable"
// is reported as `unknown`, never as race freedom.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/Engine.h"

namespace crace {

class KissEngine final : public Engine {
public:
  [[nodiscard]] llvm::StringRef name() const override { return "kiss"; }
  Result run(const ProgramModel &PM, const EngineOptions &Opts) override;
};

} // namespace crace
