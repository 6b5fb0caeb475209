//===- Circ.h - thread-modular race checking by context inference --------===//
//
// The CIRC algorithm (Henzinger, Jhala, Majumdar, PLDI'04) over the CFAs of
// Cfa.h, generalised from one symmetric thread to several templates:
// every template T has a context abstraction, an ACFA A_T (abstract
// locations labelled by predicates on globals and atomicity, edges by the
// globals they write and the candidate accesses they make), run as a
// counter abstraction: the number of threads at each abstract location,
// 0..K or omega. Then, until the contexts are sound:
//   ReachAndBuild: for every template T, abstract reachability of one
//     thread of T (predicate abstraction, Cartesian) in the context of the
//     other threads (main once, a template created in a loop omega times,
//     T itself once less), building the reach graph G_T; a reachable
//     abstract state where T is at an access and a context thread at an
//     access that form a candidate pair is an abstract race;
//   CheckSim: every G_T is strand-simulated by A_T: the contexts were
//     sound (assume-guarantee), the candidate pairs are not races;
//   Collapse: A_T := the quotient of G_T (locals quantified out).
// Starting from empty contexts. No refinement loop yet: the predicates are
// seeded from the program (Cfa.h's seedPredicates); an abstract race makes
// the answer unknown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/circ/Cfa.h"
#include "report/Finding.h"

#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace crace {
class WorkMeter;
namespace smt {
class Solver;
}
} // namespace crace

namespace crace::circ {

struct CircOptions {
  /// Counter bound K (counts above it are omega).
  unsigned K = 1;
  unsigned MaxIterations = 40;
  /// Abstract states per ReachAndBuild.
  size_t MaxStates = 200000;
  const std::atomic<bool> *Cancelled = nullptr;
  /// The engine's work budget (the solver charges it too), or null.
  WorkMeter *Work = nullptr;
  /// Stop when Work has used this many units (0: only its own limit): one
  /// location's share of the engine's budget.
  uint64_t StopAtUnits = 0;
};

/// Instances of a template: 1, or unboundedly many.
struct TemplateCount {
  unsigned Template = 0;
  bool Many = false;
};

struct CircOutcome {
  enum Kind { Safe, AbstractRace, GaveUp } K = GaveUp;
  /// GaveUp because the work budget, or this location's share of it, ran
  /// out.
  bool OutOfWork = false;
  /// Why (GaveUp) or which pair (AbstractRace).
  std::string Why;
  unsigned Iterations = 0, Predicates = 0;
  size_t States = 0, PostChecks = 0;
  /// The final contexts' sizes (abstract locations per template).
  std::vector<size_t> ContextSizes;
  /// AbstractRace: the pair's instructions (main thread's first).
  const llvm::Instruction *RaceA = nullptr, *RaceB = nullptr;
};

/// Candidate pairs as (instruction, template, instruction, template), both
/// orders.
using PairSet = std::set<std::tuple<const llvm::Instruction *, unsigned,
                                    const llvm::Instruction *, unsigned>>;

CircOutcome runCirc(const std::vector<Cfa> &Cfas,
                    const std::vector<TemplateCount> &Counts, Vars &V,
                    const std::vector<z3::expr> &Preds, const PairSet &Pairs,
                    smt::Solver &S, const CircOptions &O);

} // namespace crace::circ
