//===- Engine.h - the one interface every engine implements ---------------===//
//
// Protocol: the driver builds one ProgramModel, creates an engine with
// createEngine(), and calls run() once, on the driver's thread. The engine
// reads the model (and the IR it points to) without changing it, polls
// Budget.Cancelled often enough to stop within a fraction of a second, and
// returns a Result whose program verdict obeys the rules of DESIGN.md: it
// says race-free only when it proved it (listing its assumptions), race only
// with a confirmed interleaving; otherwise possible-race or unknown with the
// reasons. When cancelled it returns Unknown with the reason.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace crace {

class ProgramModel;

/// Compiles C that an engine carries with it (kiss's runtime) into a
/// module in Like's context, for Like's target triple and data layout, as
/// the frontend compiles its C models (freestanding, no debug info, no
/// optimisation). Name is the unit's file name (diagnostics), Args extra
/// compiler arguments (-DNAME=VALUE, -fwrapv). Engines sit below the
/// frontend (Clang lives only in src/frontend/), so the driver passes the
/// frontend's compiler down as EngineOptions::CompileC.
using CompileCFn = std::function<llvm::Expected<std::unique_ptr<llvm::Module>>(
    llvm::StringRef Name, llvm::StringRef Source,
    llvm::ArrayRef<std::string> Args, const llvm::Module &Like)>;

enum class EngineKind {
#define ENGINE(E, N, D) E,
#include "engines/Engines.def"
};

struct EngineInfo {
  EngineKind Kind;
  llvm::StringRef Name;
  llvm::StringRef Description;
};
[[nodiscard]] const std::vector<EngineInfo> &allEngines();
[[nodiscard]] std::optional<EngineKind> engineByName(llvm::StringRef Name);
/// K's name on the command line ("lockset", ...), from Engines.def.
[[nodiscard]] llvm::StringRef engineName(EngineKind K);

/// How far an engine is, for the driver's progress display: Done of
/// Total (0: no known total) Units. Engines without a count leave it alone.
struct EngineProgress {
  std::atomic<uint64_t> Done{0}, Total{0};
  std::atomic<const char *> Unit{""};
  void begin(const char *U, uint64_t T) {
    Done = 0;
    Total = T;
    Unit = U;
  }
};

/// Options every engine may read; filled once by the driver.
struct EngineOptions {
  /// Where to show progress, or null.
  EngineProgress *Progress = nullptr;
  /// Set by the driver when the time budget runs out.
  const std::atomic<bool> *Cancelled = nullptr;
  /// At most this many findings are reported (0: no limit).
  unsigned MaxFindings = 0;
  /// Threads an engine may use for its independent tasks (--jobs; 1: the
  /// calling thread only). The report does not depend on it.
  unsigned Jobs = 1;
  /// The static stage pairs at most this many conflicting instruction
  /// pairs (0: no limit; --max-pairs): the verdict (possible-race) is
  /// settled long before, and time and memory stay bounded where a pointer
  /// of unknown origin conflicts with everything.
  unsigned MaxPairs = 20000;
  // explore: bounds and input sampling (docs/usage.md).
  uint64_t Seed = 1;
  unsigned MaxThreads = 64;
  unsigned MaxDepth = 10000;
  uint64_t MaxExecutions = 100000;
  /// Scheduling points over all runs (the default keeps a run to seconds).
  uint64_t MaxTransitions = 20'000'000;
  /// --max-transitions was given: --engine=auto keeps it instead of its own
  /// (smaller) default for the explore stage.
  bool MaxTransitionsGiven = false;
  /// Instructions executed over all runs, replays included (0: no limit);
  /// --engine=auto sets its own unless --max-instructions is given.
  uint64_t MaxInstructions = 0;
  bool MaxInstructionsGiven = false;
  /// Input vectors tried when the program reads nondeterministic inputs.
  unsigned InputRounds = 16;
  /// Inputs whose domain has at most 2^EnumerateInputBits values are
  /// enumerated exhaustively, not sampled (1: bool inputs).
  unsigned EnumerateInputBits = 1;
  /// explore: replay this schedule (Finding::Schedule) instead of
  /// searching, and report what the final state shows.
  std::string Replay;
  /// explore: property-driven pruning (PDP) with the static candidate
  /// pairs of this result (lockset engine's), when complete.
  bool Pdp = true;
  const Result *Static = nullptr;
  /// Stop at the first confirmed race (SV-COMP mode needs only one).
  bool StopAtFirstRace = false;
  /// explore, when not stopping at the first race: after it, look for more
  /// with at most this share of the scheduling-point and instruction
  /// budgets (0: the whole budget). The portfolio sets it: its remaining
  /// static possible races stay reported either way.
  double MoreRacesShare = 0;
  // kiss: the KISS sequentialisation checked by the bmc (docs/usage.md).
  /// Size of the multiset of forked but not yet scheduled threads.
  unsigned KissMax = 0;
  /// KissMax was chosen (--kiss-max). If not, a race-free pass at ts size
  /// 0 is followed by one at ts size 1 within a share of the work.
  bool KissMaxGiven = false;
  /// bmc loop unwinding bound.
  unsigned Unwind = 8;
  /// Seconds per target query of the bmc (0: no limit); a query past it
  /// answers unknown for its target.
  unsigned KissQueryTimeout = 0;
  /// Only this target (a global's name, or a heap or stack object's as
  /// kiss names it; empty: every shared object that is written).
  std::string KissTarget;
  /// Write the sequential module here ("-": standard output).
  std::string EmitSequential;
  /// whoop: its work budget, in seconds at the calibrated rate
  /// (smt/WorkMeter.h; 0: no limit), used when WhoopWork is 0;
  /// past it, the remaining candidate pairs keep the lockset engine's
  /// result. Counted in machine-independent work, so the same input stops
  /// at the same point on every run.
  unsigned WhoopBudget = 45;
  /// whoop: its work budget in units (0: from WhoopBudget).
  uint64_t WhoopWork = 0;
  /// whoop: wall-clock safety limit in seconds (0: none but the run's
  /// --timeout); set by the portfolio well above the work budget's time.
  double WhoopWallLimit = 0;
  /// Every SMT check of whoop and kiss is written as SMT-LIB 2 into this
  /// directory (--smt-log; empty: off; smt/Solver.h).
  std::string SmtLogDir;
  /// kiss: its work budget in units (smt/WorkMeter.h; 0: none):
  /// the transform, the encoding and the queries count against it; past
  /// it, the remaining targets are not checked.
  uint64_t KissWork = 0;
  /// kiss: its work budget in seconds at the calibrated rate, used when
  /// KissWork is 0 (0: none; the portfolio gives kiss at most 15).
  unsigned KissBudget = 0;
  /// Round-robin context bound K of the Lal-Reps sequentialisation (0: off,
  /// the paper's KISS).
  unsigned KissRounds = 0;
  /// kiss: where the sequential program may switch threads (WHOOP's yield
  /// placements): before every visible operation (All, Yield-ALL), or only
  /// before synchronisation, atomic accesses and the plain accesses the
  /// static lockset stage could not prove race-free (Racy, Yield-MR: the
  /// others commute with every other thread's operation, so moving them
  /// to the thread's nearest schedule point keeps every race reachable).
  enum class Yields { All, Racy };
  Yields KissYields = Yields::Racy;
  /// circ: its work budget in units (0: from CircBudget, seconds at the
  /// calibrated rate; smt/WorkMeter.h).
  uint64_t CircWork = 0;
  unsigned CircBudget = 10;
  /// The C compiler (the frontend's compileEmbeddedC), set by the driver;
  /// kiss compiles its runtime with it and fails without it.
  CompileCFn CompileC;
};

class Engine {
public:
  Engine() = default;
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;
  virtual ~Engine();
  [[nodiscard]] virtual llvm::StringRef name() const = 0;
  virtual Result run(const ProgramModel &PM, const EngineOptions &Opts) = 0;
};

[[nodiscard]] std::unique_ptr<Engine> createEngine(EngineKind K);

} // namespace crace
