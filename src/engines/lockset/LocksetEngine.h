//===- LocksetEngine.h - static lockset race detection --------------------===//
//
// The first engine (DESIGN.md: `lockset`): reports the candidate pairs of
// the must-lockset analysis (analysis/Lockset.h) as possible races, or
// proves race freedom when there are none and the program model is
// complete.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/Engine.h"

namespace crace {

class LocksetEngine final : public Engine {
public:
  [[nodiscard]] llvm::StringRef name() const override { return "lockset"; }
  Result run(const ProgramModel &PM, const EngineOptions &Opts) override;
};

} // namespace crace
