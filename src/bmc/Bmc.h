//===- Bmc.h - bounded model checker for sequential LLVM IR ---------------===//
//
// The `bmc` core of issue 5: decides whether a call to a *failure function*
// (reach_error, __assert_fail, __crace_bmc_fail, ...) is reachable in a
// sequential LLVM module, by bounded symbolic execution into one Z3 formula
// (loops unwound, calls inlined, recursion bounded; CBMC style, see
// Encoder.h for the encoding and the memory model). The KISS transform
// (kiss-sequentialization-pldi2004) turns races into such failure calls;
// this checker knows nothing about threads.
//
// Protocol:
//   1. `Checker::create(M, "main", Opts)` clones M (M is never modified),
//      normalises the clone's loops (LoopSimplify + LCSSA) and encodes the
//      whole bounded program once, on one Z3 solver.
//   2. `check(Filter)` asks whether one of the failure sites selected by
//      Filter is reachable; it may be called any number of times (one query
//      per target location), each query in its own push/pop scope of the
//      same solver (Options::Incremental) or on a fresh solver over the same
//      terms. `failureSites()` lists the sites that were encoded.
//   3. Instructions in results belong to the *original* module M, which must
//      outlive the checker.
// A Checker is used by one thread at a time; `Options::Cancel` may be set
// from another thread and is polled during encoding and solving.
//
// Verdicts never lie: Safe only when no selected failure is reachable *and*
// every unwinding/recursion check, memory-safety check, undefined-behaviour
// check and unsupported construct is unreachable (so the bounded program is
// the whole program); Unsafe only with a counterexample that uses no
// over-approximated (havocked) value; everything else is Unknown with the
// reasons.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/SyncAPI.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class CallBase;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace crace {
class WorkMeter;
}

namespace crace::bmc {

/// Settings of one checker. Plain data; the driver fills it in.
struct Options {
  /// Loop unwinding bound: a loop's back edge may be taken at most Unwind
  /// times per entry into the loop (so `for (i = 0; i < 8; i++)` needs 8).
  /// Taking it once more on a feasible path makes the answer Unknown.
  unsigned Unwind = 8;
  /// Recursion bound: at most this many nested recursive activations of a
  /// function beyond the first (0 forbids recursion).
  unsigned RecursionBound = 4;
  /// Calls to these functions are the failures. `__crace_assert(c, msg)`
  /// fails when c == 0 (when listed). A failure function is never inlined.
  /// Execution continues after a failure call unless the function never
  /// returns (noreturn, or one of the C library's / SV-COMP's: reach_error,
  /// __VERIFIER_error, __crace_error, __assert_fail, __assert,
  /// __assert_perror_fail).
  std::set<std::string> FailureFunctions = {
      "reach_error",
      "__assert_fail",
      intrinsicName(Intrinsic::BmcFail).str(),
      "__VERIFIER_error",
      intrinsicName(Intrinsic::Error).str(),
      intrinsicName(Intrinsic::Assert).str(),
      "__assert",
      "__assert_perror_fail"};
  /// Extra nondet functions besides `__VERIFIER_nondet_*` and
  /// `__crace_nondet_*`: their result is a fresh symbolic value.
  std::function<bool(llvm::StringRef)> IsNondet;
  /// Polled during encoding and solving; when set, the answer is Unknown.
  const std::atomic<bool> *Cancel = nullptr;
  /// Limit per solver query, in milliseconds (0 = none).
  unsigned SolverTimeoutMs = 0;
  /// The stage's work budget (WorkMeter.h), or null: the encoding counts a
  /// step per instruction (and the module's instructions for cloning it),
  /// every query gets what is left as Z3's rlimit; when it is spent the
  /// answer is Unknown with the reason WorkBudgetRanOut.
  WorkMeter *Work = nullptr;
  /// Solve every query in a push/pop scope of the one solver holding the
  /// encoding. Off by default: the encoding is still built once, but each
  /// query goes to a fresh solver over the same terms, because Z3's
  /// non-incremental pipeline is far faster on these formulas (0.1 s vs
  /// > 10 s on a 100-element array program).
  bool Incremental = false;
  /// Write every query as SMT-LIB 2 into this directory (empty: off;
  /// smt/Solver.h).
  std::string SmtLogDir;
  /// Limit on the encoding (block executions after unwinding and inlining);
  /// beyond it the answer is Unknown.
  unsigned MaxBlockVisits = 200000;
};

enum class Status { Safe, Unsafe, Unknown };
[[nodiscard]] llvm::StringRef statusName(Status S);

/// A value drawn by a nondet call (or an entry-function argument).
struct NondetValue {
  const llvm::CallBase *Call = nullptr; ///< null for an entry argument
  std::string Name;                     ///< callee name or "argument N"
  std::string Location;                 ///< file:line of the call
  llvm::APInt Value;
};

/// One executed basic block of the counterexample path.
struct TraceStep {
  const llvm::BasicBlock *Block = nullptr;
  /// Call sites of the active frames, outermost first (empty: entry).
  std::vector<const llvm::CallBase *> CallStack;
};

struct Counterexample {
  const llvm::CallBase *FailureCall = nullptr;
  std::string FailureLocation;
  std::vector<const llvm::CallBase *> FailureStack;
  std::vector<TraceStep> Steps;    ///< blocks in execution order
  std::vector<NondetValue> Inputs; ///< nondet values in execution order
};

struct Stats {
  unsigned BlockVisits = 0;
  unsigned Events = 0;
  double EncodeSeconds = 0, SolveSeconds = 0;
  unsigned Queries = 0;
};

struct Result {
  Status S = Status::Unknown;
  std::vector<std::string> Reasons;     ///< why Unknown (or what was found)
  std::vector<std::string> Assumptions; ///< under which Safe holds
  std::optional<Counterexample> Cex;    ///< for Unsafe
};

/// Selects failure sites by their call instruction (in the original module).
using FailureSiteFilter = std::function<bool(const llvm::CallBase &)>;

class Encoder;

/// Encodes a module once and answers reachability queries on it.
class Checker {
public:
  /// Encodes M from Entry. Fails only on a missing entry function; every
  /// other problem is a reason in the later Results.
  static llvm::Expected<std::unique_ptr<Checker>>
  create(const llvm::Module &M, llvm::StringRef Entry, Options Opts = {});
  ~Checker();
  Checker(const Checker &) = delete;
  Checker &operator=(const Checker &) = delete;

  /// Is a failure site selected by Filter (all when null) reachable?
  [[nodiscard]] Result check(const FailureSiteFilter &Filter = nullptr);
  /// The failure call sites met during encoding (original instructions).
  [[nodiscard]] std::vector<const llvm::CallBase *> failureSites() const;
  [[nodiscard]] const Stats &stats() const;
  /// Human-readable form of a result (for tests, logs and the driver).
  [[nodiscard]] static std::string describe(const Result &R);

private:
  Checker();
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// One-shot convenience: create + check() of every failure site.
[[nodiscard]] Result check(const llvm::Module &M, llvm::StringRef Entry,
                           const Options &Opts = {});

} // namespace crace::bmc
