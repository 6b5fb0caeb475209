//===- CircEngine.h - race freedom by context inference (CIRC) ------------===//
//
// The `circ` engine: the lockset engine's candidate pairs are refuted all
// at once by CIRC (Circ.h) over the thread templates' CFAs (Cfa.h):
// race-free when the inferred contexts are sound and no abstract state
// puts two threads at the two accesses of a candidate pair; otherwise the
// lockset engine's possible races stand, with circ's reason. It never
// reports a race itself (no concretisation of abstract races yet).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/Engine.h"

namespace crace {

class CircEngine final : public Engine {
public:
  [[nodiscard]] llvm::StringRef name() const override { return "circ"; }
  Result run(const ProgramModel &PM, const EngineOptions &Opts) override;
};

} // namespace crace
