//===- WorkMeter.h - deterministic work budgets for Z3-based stages -------===//
//
// A stage cut by wall-clock time finds what the machine's speed at that
// moment let it find, so two runs of one input could give two reports
// (bench/results/goblint-default-run.md). A stage that can be cut (whoop,
// kiss) therefore counts its work in units that do not depend on the
// machine or its load, and stops when its work budget is spent:
//   - Z3's resource counter ("rlimit count" in the solver statistics, one
//     counter per context, cumulative over the context's life; every
//     rewriting step, simplification, propagation and conflict counts), and
//   - the engine's own encoding steps (an instruction encoded, a points-to
//     target expanded), each worth StepCost units, polled by the engine, and
//   - units charged directly for work whose size the engine measures (the
//     bmc's Z3 term traversals: the terms' nodes, TermNodesPerUnit).
// Each check gets Z3's "rlimit" parameter set to what the budget has left
// (capped by a per-query limit), so no single query can overrun it. A
// budget is given in units; its default is derived from the stage's
// seconds at a fixed rate (UnitsPerSecond, measured on the 2-core CI
// machine, docs/usage.md "Work budgets"), so that on that machine, loaded
// or not, the work budget runs out no later than the time share would
// have: the wall clock (--timeout) is left as the safety net only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "smt/WorkBudget.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <z3++.h>

namespace crace {

/// Z3's cumulative resource count of Ctx, read through Reader (a solver of
/// that context kept for it: a fresh solver per read costs a unit itself).
uint64_t z3ResourceCount(z3::solver &Reader);

/// Counts one stage's work against its budget (Limit 0: no budget).
/// Only the thread running the stage uses it.
class WorkMeter {
public:
  /// Ctx: the context whose Z3 work counts (nullptr: encoding steps only).
  /// Cost: what one step is worth, in units.
  WorkMeter(uint64_t Limit, z3::context *Ctx, uint64_t Cost = StepCost);
  /// Counts Ctx's Z3 work from now on too (a stage whose context is made
  /// after its first steps, as kiss's bmc). Replaces an earlier context:
  /// what that one spent stays counted.
  void attach(z3::context &Ctx);
  /// Stops reading the attached context (before it is deleted); what it
  /// spent stays counted.
  void detach();
  /// One encoding step (Cost units). Returns true when the budget is
  /// spent (then it stays spent). Z3's count is read every 256 steps.
  bool step(uint64_t N = 1);
  /// Units of work measured by the caller (not steps). Returns true when
  /// the budget is spent.
  bool charge(uint64_t Units);
  /// Units left of the budget as of the last step(), charge() or poll()
  /// (0 when spent; the largest value when there is no budget).
  uint64_t left() const;
  /// Rereads Z3's count (after a check or simplification) and tells
  /// whether the budget is spent.
  bool poll();
  /// The budget is spent (as of the last step() or poll()).
  bool exhausted() const { return Exhausted; }
  /// Units spent so far (as of the last step() or poll()).
  uint64_t used() const { return Steps * Cost + Z3Used + Charged; }
  uint64_t limit() const { return Limit; }
  uint64_t steps() const { return Steps; }
  uint64_t z3Units() const { return Z3Used; }
  uint64_t chargedUnits() const { return Charged; }
  /// The "rlimit" for the next check: what is left (Z3's count reread
  /// first), at most PerQuery (0: no per-query cap); 0 only when neither
  /// bounds it. Never below 1 while a budget is set (Z3 takes 0 as "no
  /// limit").
  unsigned queryLimit(uint64_t PerQuery);

  /// When set, poll() stores the units used here (progress display).
  std::atomic<uint64_t> *Publish = nullptr;
  /// When set, the budget follows it: another thread may lower it while
  /// the stage runs (smt/BudgetedTasks.h). Read at every step, charge,
  /// poll and query limit.
  const std::atomic<uint64_t> *LimitFeed = nullptr;
  /// The budget was lowered to one already spent: the decisions made so
  /// far were made under the larger one and may differ from a run that
  /// had the lower budget from the start.
  bool loweredLate() const { return LoweredLate; }

private:
  uint64_t Limit, Cost;
  std::optional<z3::solver> Reader;
  uint64_t Z3Base = 0, Z3Used = 0, Z3Earlier = 0, Steps = 0, Charged = 0;
  bool Exhausted = false, LoweredLate = false;
  /// Rereads Z3's count.
  void readZ3();
  /// Takes a new budget from LimitFeed.
  void follow();
};

} // namespace crace
