//===- ExploreEngine.h - stateless model checking with DPOR ---------------===//
//
// The `explore` engine (DESIGN.md; paper: pdp-dynamic-model-checking.txt):
// runs the program under a controlled scheduler (Executor) and explores its
// interleavings statelessly, by replaying schedule prefixes, with dynamic
// partial-order reduction (Flanagan–Godefroid persistent/backtrack sets
// from vector-clock happens-before, plus sleep sets). In every state it
// reaches it checks the paper's race condition: two enabled operations of
// different threads access overlapping bytes, at least one writes, not both
// atomic. A race found this way is real, and comes with the schedule that
// reaches it. The verdict is `race-free` only when the search was
// exhaustive: no bound hit, no nondeterministic input sampled, nothing
// unsupported met.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/Engine.h"

namespace crace {

class ExploreEngine final : public Engine {
public:
  [[nodiscard]] llvm::StringRef name() const override { return "explore"; }
  Result run(const ProgramModel &PM, const EngineOptions &Opts) override;
};

} // namespace crace
