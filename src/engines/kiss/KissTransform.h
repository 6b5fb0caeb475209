//===- KissTransform.h - KISS sequentialisation of a concurrent module ----===//
//
// Issue 5, item 1: the transform of Qadeer & Wu, "KISS: Keep It Simple and
// Sequential" (PLDI 2004), on crace's prepared LLVM module. The input module
// (the one the ProgramModel refers to) is cloned and never changed; the
// clone becomes a *sequential* program whose failure calls
// (`__crace_bmc_fail`) are reachable only when the concurrent program has a
// data race on one of the targets (or, for the program's own failure calls,
// an assertion failure), in an execution that KISS simulates:
//   * `raise` (RAISE: set it and return; every call that may raise is
//     followed by `if (raise) return`), the bounded multiset `ts` of forked
//     but unscheduled threads (`KissOptions::Max` slots), and `schedule()`,
//     which runs a nondeterministic number of threads from `ts` to
//     completion (or to their RAISE);
//   * schedule points and nondeterministic RAISEs before every *visible*
//     instruction only (accesses to shared memory, synchronisation, thread
//     operations and calls of functions that contain such instructions), as
//     the paper allows: local statements commute with the other threads;
//   * thread creation puts (start routine, argument, id) into `ts`, or runs
//     the thread at once when `ts` is full;
//   * one `access` variable per target (a shared global, or a shared heap
//     or stack object of the points-to analysis): before each access that
//     may touch the target (points-to prunes the others) a
//     nondeterministic check: conflict with the recorded access, in the
//     same object (`__crace_bmc_same_object`, the bmc's object ids) and on
//     overlapping bytes → `__crace_bmc_fail()`; otherwise record this
//     access and RAISE (the thread stops *at* the access, which stays
//     pending, so a later conflicting access of another thread is a real
//     race). A heap or stack target stands for every object its allocation
//     site makes: two instances are told apart by the object check;
//   * locks as in the paper's OS models: a table of held locks; acquiring a
//     held lock is an infeasible path (`__crace_assume`); a thread stopped
//     by RAISE keeps its locks. Atomic sections set a flag that turns off
//     schedule points and RAISE;
//   * `main` runs the original main as the first thread; when it stops by
//     RAISE (or pthread_exit) the remaining threads are scheduled; a normal
//     return from main ends the program, as in C.
// Every path of the output is an execution (prefix) of the input, so a
// reachable failure is a real race; the converse holds only for balanced
// executions, hence the kiss engine never claims race freedom.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>

#include "engines/Engine.h"
#include "model/ProgramModel.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class CallBase;
class GlobalVariable;
class Instruction;
class Module;
} // namespace llvm

namespace crace {
class WorkMeter;
}

namespace crace::kiss {

struct KissOptions {
  /// Size of the multiset ts (the paper's MAX).
  unsigned Max = 0;
  /// Thread ids available for handles (creations beyond are cut).
  unsigned MaxThreads = 16;
  /// Locks held at once (acquiring more is cut).
  unsigned MaxLocks = 4;
  /// K of the K-round round-robin (Lal-Reps) form instead of KISS's
  /// balanced executions (0: off; see Rounds.h).
  unsigned Rounds = 0;
  /// With Rounds: created threads that may be scheduled (later creations
  /// are threads that never run).
  unsigned RoundsThreads = 4;
  /// With Rounds: the largest copied shared state, in bytes.
  unsigned RoundsMaxBytes = 4096;
  /// Yield-MR (EngineOptions::Yields::Racy): the input's plain-access
  /// instructions that may race (the static stage's candidate pairs);
  /// other plain accesses get no schedule point, RAISE or check. Null:
  /// every visible operation has them.
  const std::set<const llvm::Instruction *> *RacySites = nullptr;
  /// Polled while instrumenting (a large program takes tens of seconds);
  /// when set, transform() fails with "cancelled".
  const std::atomic<bool> *Cancel = nullptr;
  /// The stage's work budget (WorkMeter.h), or null: a step per
  /// instrumented instruction; when spent, transform() fails with
  /// WorkBudgetRanOut.
  WorkMeter *Work = nullptr;
  /// Compiles the runtime's C (EngineOptions::CompileC); required.
  CompileCFn CompileC;
};

/// A location checked for races: an abstract object of the points-to
/// analysis (PointsTo::object) — a global variable of the input module, or
/// a heap allocation site or stack slot (every instance of it).
struct Target {
  uint32_t Obj = 0;
  /// The global variable; null for heap and stack objects.
  const llvm::GlobalVariable *G = nullptr;
  /// Unique among the targets: the global's name, "heap object allocated
  /// at f.c:12", "kernel object <struct foo>" (driver harness), "local
  /// variable x of main (f.c:7)"; `--kiss-target=NAME` selects by it.
  std::string Name;
};

/// An access of the input module, as instrumented.
struct SiteInfo {
  const llvm::Instruction *Orig = nullptr;
  AccessKind Kind = AccessKind::Read;
  bool Atomic = false;
  uint64_t Size = 0;
  unsigned Target = 0;
};

struct KissProgram {
  std::unique_ptr<llvm::Module> M;
  std::vector<Target> Targets;
  /// `__crace_bmc_fail` calls of the output → the access that conflicts
  /// (the second one).
  std::map<const llvm::CallBase *, SiteInfo> FailSites;
  /// Blocks of the output that record an access and RAISE → that access
  /// (the first, pending one).
  std::map<const llvm::BasicBlock *, SiteInfo> SetBlocks;
  /// With Rounds: blocks that see the conflicting access (the failure call
  /// itself comes at the end, once the guessed rounds are validated).
  std::map<const llvm::BasicBlock *, SiteInfo> RaceBlocks;
  /// Instructions of the output → the input's (for traces and reports).
  std::map<const llvm::Instruction *, const llvm::Instruction *> ToOrig;
  unsigned SchedulePoints = 0, Checks = 0;
};

/// The default targets: the shared global variables that some access may
/// write, then the shared heap and stack objects that some access may write
/// (not those of crace's own runtime), in a deterministic order.
[[nodiscard]] std::vector<Target> sharedTargets(const ProgramModel &PM);

/// Builds the sequential program for these targets (none: assertion
/// checking only). The output passes llvm::verifyModule.
[[nodiscard]] llvm::Expected<KissProgram>
transform(const ProgramModel &PM, const std::vector<Target> &Targets,
          const KissOptions &O);

} // namespace crace::kiss
