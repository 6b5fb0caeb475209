//===- WhoopEngine.h - symbolic pairwise lockset analysis (WHOOP) --------===//
//
// `--engine=whoop` (whoop-symbolic-pairwise-lockset, first half): every
// thread template -- in driver mode, every entry point, and main -- is
// encoded symbolically, twice (two renamed copies), by a guarded
// symbolic execution of its LLVM IR into Z3 terms:
//   - each access to shared memory is logged with its path condition, the
//     abstract object (memory region) it may touch, its symbolic byte offset
//     in that region, and the symbolic lockset held at that point;
//   - every read of shared memory is havocked (another entry point may have
//     written it), so the two copies are independent sequential programs;
//   - lock operations update per-lock Boolean state (held / held
//     exclusively); try-locks acquire on their success path only;
//   - calls are inlined (recursion: the template is not encoded);
//   - loops are cut at their headers: the header's SSA values are havocked
//     and each lock's state is kept equal to its value on loop entry when
//     Houdini (candidate invariants, dropped until the remaining ones are
//     inductive) proves that invariant; otherwise it is havocked too.
// For a pair of templates, the possible races the lockset engine found are
// then checked against the two copies with the watchdog encoding: one
// symbolic watched offset per region; a race needs both accesses to reach
// the watched offset on feasible paths, one to write, not both to be
// atomic, and no lock held by both (not both only for reading). UNSAT
// refutes the pair; SAT keeps it as a possible race.
//
// Both analyses are sound for race freedom, so a pair refuted by either is
// not a race: whoop starts from the lockset engine's candidate pairs and
// can only remove some of them (never report more). Pairs involving a
// template whoop could not encode keep the lockset verdict.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/Engine.h"

namespace crace {

class WhoopEngine final : public Engine {
public:
  [[nodiscard]] llvm::StringRef name() const override { return "whoop"; }
  Result run(const ProgramModel &PM, const EngineOptions &Opts) override;
};

} // namespace crace
