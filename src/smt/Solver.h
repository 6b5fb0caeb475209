//===- Solver.h - the one solver interface of crace's SMT users -----------===//
//
// Every satisfiability check crace makes goes through a `smt::Solver`
// (whoop's guard, pair and Houdini queries, the bmc's reachability queries,
// and the engines to come). One interface gives every check the same
// limits, interruption, statistics and debugging aids, KLEE-style, as a
// chain of decorators over one core:
//
//   QueryLog (--smt-log=DIR)  ->  QueryCache (SolverOptions::Cache)  ->  Z3
//
//  * The Z3 core keeps the assertions in one Z3 solver with push/pop
//    scopes. Each check either runs on that solver (incremental), or, with
//    SolverOptions::FreshPerCheck, on a fresh Z3 solver given the current
//    assertions: Z3's non-incremental pipeline (simplification,
//    bit-blasting) is far faster on one-shot bit-vector formulas.
//  * Limits: a check gets what the stage's work budget has left as Z3's
//    deterministic "rlimit" (capped per query), and an optional wall-clock
//    timeout (the safety net only). While a check runs, the cancellation
//    flag is watched and Z3 interrupted when it is set.
//  * The query cache answers a check whose assertions and assumptions are
//    the same terms as an earlier check's (Z3 hash-conses terms, so this is
//    structural equality within one context) without asking Z3. An
//    answer the work budget or a cancellation cut is not kept.
//  * The query log writes each check as an SMT-LIB 2 file
//    DIR/<stage>-<number>.smt2 before it runs and appends the answer after
//    it, so a check that hangs or crashes Z3 is on disk.
//
// A Solver is used by one thread; its context must outlive it. Z3 terms
// (z3::expr) are the currency between the encoders and this layer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <z3++.h>

namespace crace {
class WorkMeter;
}

namespace crace::smt {

enum class Answer { Sat, Unsat, Unknown };
[[nodiscard]] llvm::StringRef answerName(Answer A);

/// How a solver runs its checks. Plain data; the engine fills it in.
struct SolverOptions {
  /// Short name of the checks' purpose, used in the query log's file names
  /// ("whoop-pair", "bmc").
  std::string Stage = "query";
  /// Each check on a fresh Z3 solver given the current assertions (else on
  /// the one incremental solver).
  bool FreshPerCheck = false;
  /// With FreshPerCheck: keep the assertions in a Z3 solver too (never
  /// checked), not only here. It costs Z3 work, and it changes which terms
  /// Z3 makes and frees, which decides how fast it solves a hard query:
  /// the bmc keeps it, measured (one query of test/regression/precision/
  /// indexed_locks_mismatch.c: 0.6 s with it, 30-43 s without).
  bool KeepInZ3 = false;
  /// Wall-clock limit per check in milliseconds (0: none).
  unsigned TimeoutMs = 0;
  /// The stage's work budget (WorkMeter.h), or null: each check gets what
  /// it has left as Z3's rlimit, at most PerQueryUnits (0: no cap).
  WorkMeter *Work = nullptr;
  uint64_t PerQueryUnits = 0;
  /// Watched while a check runs: when it is set, Z3 is interrupted and the
  /// check answers Unknown ("cancelled").
  const std::atomic<bool> *Cancel = nullptr;
  /// Answer repeated checks from a cache (see above).
  bool Cache = false;
  /// Write every check as SMT-LIB 2 into this directory (empty: off).
  std::string LogDir;
};

/// What a solver chain did, summed over its life.
struct SolverStats {
  unsigned Checks = 0; ///< checks asked of the chain
  unsigned Solved = 0; ///< checks that reached Z3
  unsigned CacheHits = 0;
  unsigned Sat = 0, Unsat = 0, Unknown = 0;
  double Seconds = 0; ///< in Z3
};

class Solver {
public:
  virtual ~Solver();
  virtual z3::context &context() = 0;
  virtual void add(const z3::expr &E) = 0;
  virtual void push() = 0;
  virtual void pop() = 0;
  /// The assertions of every open scope, oldest first.
  virtual z3::expr_vector assertions() = 0;
  /// Are the assertions and Assumptions (Boolean terms) satisfiable
  /// together?
  virtual Answer check(llvm::ArrayRef<z3::expr> Assumptions = {}) = 0;
  /// A model of the last check, which answered Sat.
  virtual z3::model model() = 0;
  /// Why the last check answered Unknown.
  virtual std::string reasonUnknown() = 0;
  /// The last check answered Unknown because the work budget ran out or
  /// the check was cancelled (not for its own per-query limit).
  virtual bool lastWasCut() = 0;
  [[nodiscard]] virtual SolverStats stats() const = 0;
};

/// The chain SolverOptions describes, on Ctx.
[[nodiscard]] std::unique_ptr<Solver> makeSolver(z3::context &Ctx,
                                                 SolverOptions O);

/// One check of E alone on S, in a scope of its own.
Answer checkAlone(Solver &S, const z3::expr &E);

/// How many times a wall-clock limit cut work short in this process (an
/// Interrupter's deadline, the driver's stage shares and run limit): a
/// result made while it grew depends on the machine's speed, so the driver
/// does not cache it (docs/usage.md, "The cache").
std::atomic<unsigned> &wallClockCuts();

/// Interrupts a Z3 context while it may be working: polls a cancellation
/// flag (and a wall-clock deadline) every 20 ms on a thread of its own,
/// and interrupts Ctx each time one holds (Z3 forgets an interruption that
/// comes before a check starts, so it is repeated). Declare it after the
/// context: it is joined before the context goes.
class Interrupter {
public:
  /// Seconds: the deadline from Start (0: none).
  Interrupter(z3::context &Ctx, const std::atomic<bool> *Cancelled,
              std::chrono::steady_clock::time_point Start =
                  std::chrono::steady_clock::now(),
              double Seconds = 0);
  ~Interrupter();
  Interrupter(const Interrupter &) = delete;
  Interrupter &operator=(const Interrupter &) = delete;
  /// Set once the flag or the deadline held.
  std::atomic<bool> Stop{false};
  /// Why Stop was set: the deadline (else the cancellation flag).
  std::atomic<bool> DeadlinePassed{false};

private:
  void loop();
  z3::context &Ctx;
  const std::atomic<bool> *Cancelled;
  std::chrono::steady_clock::time_point Start;
  double Seconds;
  bool Done = false;
  std::mutex M;
  std::condition_variable CV;
  std::thread Thread;
};

} // namespace crace::smt
