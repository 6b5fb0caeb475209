//===- KissEngine.cpp - races found by KISS + bounded model checking -----===//
#include "engines/kiss/KissEngine.h"

#include "analysis/Lockset.h"
#include "bmc/Bmc.h"
#include "engines/kiss/KissTransform.h"
#include "model/Errors.h"
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <set>

using namespace llvm;

namespace crace {

namespace {

struct Reporter {
  const ProgramModel &PM;
  const kiss::KissProgram &P;

  const Instruction *orig(const Instruction *I) const {
    auto It = P.ToOrig.find(I);
    return It == P.ToOrig.end() ? nullptr : It->second;
  }

  /// The thread running a block of the sequential program: the function
  /// entered by the innermost __kiss_run frame (none: main).
  std::string threadOf(const std::vector<const CallBase *> &Stack,
                       const BasicBlock *BB) const {
    const Function *Entry = nullptr;
    for (size_t I = 0; I < Stack.size(); ++I)
      if (Stack[I]->getFunction()->getName() == "__kiss_run")
        Entry = I + 1 < Stack.size() ? Stack[I + 1]->getFunction()
                                     : BB->getParent();
    if (!Entry)
      return "main";
    for (const ThreadTemplate &T : PM.threads())
      if (T.Entry && T.Entry->getName() == Entry->getName())
        return T.Name;
    return Entry->getName().str();
  }

  std::string variable(const kiss::SiteInfo &S) const {
    const PointsTo &PT = PM.pointsTo();
    uint32_t Obj = P.Targets[S.Target].Obj;
    for (const MemAccess &A : PM.accessesOf(*S.Orig))
      if (A.Ptr && A.Kind == S.Kind)
        for (const Loc &L : PT.pointsTo(A.Ptr))
          if (L.Obj == Obj)
            return PM.describe(L, S.Size);
    return P.Targets[S.Target].Name;
  }

  AccessInfo access(const kiss::SiteInfo &S, std::string Thread) const {
    AccessInfo A;
    A.Thread = std::move(Thread);
    A.Kind = S.Kind;
    A.Atomic = S.Atomic;
    A.Size = S.Size;
    A.Loc = PM.location(S.Orig);
    A.Variable = variable(S);
    return A;
  }

  bool isTarget(uint32_t Obj) const {
    for (const kiss::Target &T : P.Targets)
      if (T.Obj == Obj)
        return true;
    return false;
  }

  static std::string kindName(const kiss::SiteInfo &S) {
    return std::string(S.Atomic ? "atomic " : "") +
           (S.Kind == AccessKind::Write ? "write" : "read");
  }

  /// A visible operation of the input program at I (a synchronisation call
  /// or an access to a shared global or to a target object), or "".
  std::string action(const Instruction *OI) const {
    std::string Action;
    if (const auto *CB = dyn_cast<CallBase>(OI)) {
      if (const Function *F = CB->getCalledFunction()) {
        StringRef N = F->getName();
        if (N.consume_front("__crace_") &&
            (N.starts_with("thread_") || N.contains("lock") ||
             N.starts_with("atomic_") || N.starts_with("cond_") ||
             N.starts_with("sem_") || N.starts_with("barrier_")))
          Action = N.str();
      }
    }
    if (Action.empty())
      for (const MemAccess &A : PM.accessesOf(*OI)) {
        if (A.Library || !A.Ptr)
          continue;
        for (const Loc &L : PM.pointsTo().pointsTo(A.Ptr))
          if (L.Obj != PointsTo::UnknownObj &&
              PM.pointsTo().object(L.Obj).Shared &&
              (PM.pointsTo().object(L.Obj).Kind == ObjKind::Global ||
               isTarget(L.Obj))) {
            Action =
                std::string(A.Kind == AccessKind::Write ? "write " : "read ") +
                PM.describe(L, A.Size);
            break;
          }
        if (!Action.empty())
          break;
      }
    return Action;
  }

  /// An input value as the explore engine prints it (signed, bool as 0/1).
  /// `__crace_nondet_bits(K)` (the SV-COMP models' bool, char and short
  /// inputs) draws K bits in explore but a whole word in the bmc; the
  /// models convert it at once, so the program sees (v != 0) for K = 1 and
  /// the low K bits otherwise: that value is shown.
  static std::string inputValue(const bmc::NondetValue &V) {
    APInt X = V.Value;
    if (V.Call && callIntrinsic(*V.Call) == Intrinsic::NondetBits &&
        V.Call->arg_size() == 1)
      if (const auto *K = dyn_cast<ConstantInt>(V.Call->getArgOperand(0))) {
        uint64_t Bits = K->getZExtValue();
        if (Bits == 1)
          return X.isZero() ? "0" : "1";
        if (Bits > 1 && Bits < X.getBitWidth())
          X = X.trunc(unsigned(Bits));
      }
    return toString(X, 10, /*Signed=*/X.getBitWidth() > 1);
  }

  /// The visible operations of the counterexample, in the order the
  /// sequential program ran them (which is an order of the concurrent one),
  /// with the program's input values in the format of the explore engine:
  /// the values a thread reads after one of its steps (before its next
  /// one) end that step's action as ", then inputs 42, 7"; those it reads
  /// before its first step start that step as "(inputs 42) ". Last, when
  /// given, is the final step (the racing access): it belongs to the thread
  /// that reached the failure.
  std::vector<TraceStep> trace(const bmc::Counterexample &Cex,
                               std::optional<TraceStep> Last = {}) const {
    std::vector<TraceStep> Out;
    std::map<std::string, unsigned> Ids;
    auto IdOf = [&](const std::string &T) {
      if (T == "main")
        return 0u;
      return Ids.emplace(T, Ids.size() + 1).first->second;
    };
    // Threads are told apart by their activation: main is 0, every
    // __kiss_run of a thread a new one (two instances of one start
    // routine are two activations).
    unsigned NextAct = 0, FailAct = 0;
    bool Stopped = false;
    std::map<unsigned, size_t> LastStep; // activation -> Out index
    std::map<unsigned, std::vector<std::string>> Before; // before its first
    std::map<size_t, std::vector<std::string>> After;    // Out index -> inputs
    std::map<size_t, std::vector<std::string>> Prefix;   // Out index -> inputs
    size_t NextIn = 0;
    const std::vector<bmc::TraceStep> &Steps = Cex.Steps;
    auto Emit = [&](unsigned Act, TraceStep S) {
      Out.push_back(std::move(S));
      LastStep[Act] = Out.size() - 1;
      if (auto It = Before.find(Act); It != Before.end()) {
        Prefix[Out.size() - 1] = std::move(It->second);
        Before.erase(It);
      }
    };
    // One step and the steps of the calls made in it (the bmc inlines
    // calls: a callee's blocks follow the block of the call, with the call
    // appended to their call stack), so that the nondet values, recorded
    // in execution order, meet their calls in order.
    std::function<size_t(size_t, unsigned)> Walk = [&](size_t I, unsigned Act) {
      const bmc::TraceStep &St = Steps[I];
      size_t Depth = St.CallStack.size(), J = I + 1;
      std::string T = threadOf(St.CallStack, St.Block);
      if (auto It = P.SetBlocks.find(St.Block); It != P.SetBlocks.end()) {
        Emit(Act, {T, IdOf(T), PM.location(It->second.Orig),
                   kindName(It->second) + " " + variable(It->second) +
                       " (the thread stops before it: the access is "
                       "pending)"});
      }
      for (const Instruction &I2 : *St.Block) {
        const auto *CB = dyn_cast<CallBase>(&I2);
        if (CB && CB == Cex.FailureCall) {
          FailAct = Act;
          // The path may go on after a failure that returns; the trace
          // ends at it (a conditional __crace_assert fails only on some
          // of its executions, so that one is not cut).
          const Function *F = CB->getCalledFunction();
          if (!F || lookupIntrinsic(F->getName()) != Intrinsic::Assert) {
            Stopped = true;
            return J;
          }
        }
        if (CB && NextIn < Cex.Inputs.size() && Cex.Inputs[NextIn].Call == CB) {
          // Inputs of the runtime (scheduling and check choices) are not
          // the program's.
          if (orig(CB))
            (LastStep.count(Act) ? After[LastStep[Act]] : Before[Act])
                .push_back(inputValue(Cex.Inputs[NextIn]));
          ++NextIn;
        }
        if (!P.SetBlocks.count(St.Block))
          if (const Instruction *OI = orig(&I2))
            if (std::string A = action(OI); !A.empty())
              Emit(Act, {T, IdOf(T), PM.location(OI), A});
        if (CB) {
          // The thread body called by __kiss_run is a new activation.
          bool NewThread = CB->getFunction()->getName() == "__kiss_run";
          unsigned CalleeAct = Act;
          bool Entered = false;
          while (J < Steps.size() && Steps[J].CallStack.size() > Depth &&
                 Steps[J].CallStack[Depth] == CB) {
            if (NewThread && !Entered)
              CalleeAct = ++NextAct;
            Entered = true;
            J = Walk(J, CalleeAct);
            if (Stopped)
              return J;
          }
        }
      }
      return J;
    };
    while (NextIn < Cex.Inputs.size() && !Cex.Inputs[NextIn].Call)
      ++NextIn; // main's arguments
    for (size_t I = 0; I < Steps.size() && !Stopped;)
      I = Walk(I, 0);
    if (Last) {
      std::string T = Last->Thread;
      Last->ThreadId = IdOf(T);
      Emit(FailAct, std::move(*Last));
    }
    auto List = [](const std::vector<std::string> &V) {
      return llvm::join(V, ", ");
    };
    for (auto &[Idx, V] : Prefix)
      if (!V.empty())
        Out[Idx].Action = "(inputs " + List(V) + ") " + Out[Idx].Action;
    for (auto &[Idx, V] : After)
      if (!V.empty())
        Out[Idx].Action += ", then inputs " + List(V);
    if (Out.size() > 200)
      Out.erase(Out.begin(), Out.end() - 200);
    return Out;
  }
};

} // namespace

/// --rounds: the bounds in the "no race found" answers.
static std::string roundsBounds(const kiss::KissOptions &KO, unsigned Unwind) {
  return formatv("{0}-round round-robin executions, at most {1} created "
                 "threads scheduled, unwind {2}",
                 KO.Rounds, KO.RoundsThreads, Unwind)
      .str();
}

/// --rounds: the thread of the second access is the one that saw the
/// conflict (the failure call itself is in main, after the validation).
static std::string roundsSecondThread(const Reporter &Rep,
                                      const kiss::KissProgram &P,
                                      const bmc::Counterexample &Cex,
                                      unsigned T) {
  std::string Thread = "main";
  for (const bmc::TraceStep &St : Cex.Steps)
    if (auto It = P.RaceBlocks.find(St.Block);
        It != P.RaceBlocks.end() && It->second.Target == T)
      Thread = Rep.threadOf(St.CallStack, St.Block);
  return Thread;
}

namespace {
using RacySet = std::set<const Instruction *>;

/// The work (seconds at the calibrated rate, less when the budget left is
/// smaller) of the ts-size-1 pass after a race-free ts-size-0 one.
constexpr double KissTsOneSeconds = 1;

/// What one pass (one ts size) tells run() beyond its result.
struct PassInfo {
  /// Every target answered "no race in the explored executions".
  bool AllSafe = false;
  /// The targets answered so (no race in the explored executions).
  std::vector<kiss::Target> SafeTargets;
  /// The pass's work limit and the work it used (0, 0: no limit).
  uint64_t WorkLimit = 0, WorkUsed = 0;
  /// Its work budget ran out.
  bool Exhausted = false;
};
} // namespace

/// One transform and bmc check with Opts.KissMax slots of ts, of the
/// targets Only (null: every shared target, or --kiss-target's).
static Result runPass(const ProgramModel &PM, const EngineOptions &Opts,
                      PassInfo &Info, const RacySet *Racy,
                      const std::vector<kiss::Target> *Only = nullptr) {
  Result R;
  R.Engine = "kiss";
  R.Program = Verdict::Unknown;
  auto Started = std::chrono::steady_clock::now();

  std::vector<kiss::Target> Targets = Only ? *Only : kiss::sharedTargets(PM);
  if (!Only && !Opts.KissTarget.empty()) {
    std::vector<kiss::Target> Sel;
    for (const kiss::Target &T : Targets)
      if (T.Name == Opts.KissTarget)
        Sel.push_back(T);
    if (Sel.empty())
      if (const GlobalVariable *G = PM.module().getNamedGlobal(Opts.KissTarget);
          G && !G->isDeclaration())
        Sel.push_back({PM.pointsTo().objectOf(G), G, G->getName().str()});
    if (Sel.empty()) {
      R.reason(ReasonKind::Failure,
               "kiss: no global variable or shared heap or stack object "
               "named '" +
                   Opts.KissTarget + "' to check");
      return R;
    }
    Targets = std::move(Sel);
  }
  size_t ProvedTargets = 0;
  // Yield-MR: a target that no access of a candidate pair may touch was
  // proved race-free by the static stage; checking it cannot find a race.
  if (Racy && !Only && Opts.KissTarget.empty()) {
    const PointsTo &PT = PM.pointsTo();
    std::set<uint32_t> Touched;
    bool Anywhere = false;
    for (const Instruction *I : *Racy)
      for (const MemAccess &A : PM.accessesOf(*I))
        if (A.Ptr)
          for (const Loc &L : PT.pointsTo(A.Ptr)) {
            Anywhere |= L.Obj == PointsTo::UnknownObj;
            Touched.insert(L.Obj);
          }
    size_t Before = Targets.size();
    if (!Anywhere)
      std::erase_if(Targets, [&](const kiss::Target &T) {
        return !Touched.count(T.Obj);
      });
    ProvedTargets = Before - Targets.size();
    R.stat("kiss_targets_proved_by_lockset", double(ProvedTargets));
  }
  // --rounds copies global variables per round, nothing else: heap and
  // stack objects are no targets there (their accesses make the transform
  // answer unknown with the reason).
  if (Opts.KissRounds) {
    size_t Before = Targets.size();
    std::erase_if(Targets, [](const kiss::Target &T) { return !T.G; });
    if (!Opts.KissTarget.empty() && Targets.size() < Before) {
      R.reason(ReasonKind::Failure,
               "kiss: --rounds checks global variables only, not '" +
                   Opts.KissTarget + "'");
      return R;
    }
  }
  // The work budget (WorkMeter.h): where it stops kiss does not depend on
  // the machine, so neither does what kiss reports.
  uint64_t WorkLimit =
      Opts.KissWork ? Opts.KissWork : unitsForSeconds(Opts.KissBudget);
  Info.WorkLimit = WorkLimit;
  WorkMeter Work(WorkLimit, nullptr, KissStepCost);
  if (Opts.Progress) {
    Opts.Progress->begin("work units", WorkLimit);
    Work.Publish = &Opts.Progress->Done;
  }
  WorkMeter *WorkP = WorkLimit ? &Work : nullptr;
  auto WorkReason = [&] {
    return formatv("kiss: its work budget of {0} units ran out (raise it "
                   "with --kiss-work=UNITS, or --kiss-budget=SECONDS at {1} "
                   "units a second); the targets not checked by then keep "
                   "their possible races",
                   WorkLimit, UnitsPerSecond)
        .str();
  };
  auto IsWorkReason = [](StringRef Why) {
    return Why.ends_with(WorkBudgetRanOut);
  };
  kiss::KissOptions KO;
  KO.Max = Opts.KissMax;
  KO.Rounds = Opts.KissRounds;
  KO.RacySites = Racy;
  KO.Cancel = Opts.Cancelled;
  KO.Work = WorkP;
  KO.CompileC = Opts.CompileC;
  auto PorErr = kiss::transform(PM, Targets, KO);
  if (!PorErr) {
    bool Internal = PorErr.errorIsA<InternalError>();
    std::string Why = toString(PorErr.takeError());
    if (IsWorkReason(Why))
      R.reason(ReasonKind::Budget, WorkReason());
    else
      R.reason(Internal                            ? ReasonKind::Failure
               : Opts.Cancelled && *Opts.Cancelled ? ReasonKind::Budget
                                                   : ReasonKind::Unmodelled,
               "kiss: " + Why);
    return R;
  }
  kiss::KissProgram &P = *PorErr;
  R.stat("kiss_targets", double(Targets.size()));
  R.stat("kiss_schedule_points", double(P.SchedulePoints));
  R.stat("kiss_checks", double(P.Checks));
  if (!Opts.EmitSequential.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Opts.EmitSequential, EC, sys::fs::OF_Text);
    if (EC) {
      R.reason(ReasonKind::Failure, "kiss: cannot write '" +
                                        Opts.EmitSequential +
                                        "': " + EC.message());
      return R;
    }
    OS << "; KISS sequential program (crace), ts size " << KO.Max
       << "; targets:";
    for (const kiss::Target &T : Targets)
      OS << " "
         << (StringRef(T.Name).contains(' ') ? "'" + T.Name + "'" : T.Name);
    OS << "\n";
    P.M->print(OS, nullptr);
  }

  bmc::Options BO;
  BO.Unwind = Opts.Unwind;
  BO.Cancel = Opts.Cancelled;
  BO.SolverTimeoutMs = Opts.KissQueryTimeout * 1000;
  BO.Work = WorkP;
  BO.SmtLogDir = Opts.SmtLogDir;
  auto CkOrErr = bmc::Checker::create(*P.M, "main", BO);
  if (!CkOrErr) {
    R.reason(ReasonKind::Unmodelled, "kiss: " + toString(CkOrErr.takeError()));
    return R;
  }
  bmc::Checker &Ck = **CkOrErr;
  Reporter Rep{PM, P};
  std::string Bounds = formatv("ts size {0}, unwind {1}", KO.Max, BO.Unwind);
  if (KO.Rounds)
    Bounds = roundsBounds(KO, BO.Unwind);
  bool Race = false, AllSafe = true;
  double MaxQuery = 0;
  unsigned Queries = 0;
  std::vector<std::string> SafeTargets;
  for (unsigned T = 0; T < Targets.size(); ++T) {
    if (Opts.Cancelled && *Opts.Cancelled)
      break;
    if (Work.exhausted())
      break;
    if (Race && Opts.StopAtFirstRace)
      break;
    bool Any = false;
    for (const auto &[CB, S] : P.FailSites)
      Any |= S.Target == T;
    if (!Any)
      continue;
    auto QStart = std::chrono::steady_clock::now();
    double Solve0 = Ck.stats().SolveSeconds;
    bmc::Result BR = Ck.check([&](const CallBase &CB) {
      auto It = P.FailSites.find(&CB);
      return It != P.FailSites.end() && It->second.Target == T;
    });
    // Per-target (the paper's per-field) cost: the query's wall time and
    // its solver time; the encoding is shared (kiss_encode_seconds).
    double QSecs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - QStart)
            .count();
    R.stat("kiss_query_seconds." + Targets[T].Name, QSecs);
    R.stat("kiss_query_solve_seconds." + Targets[T].Name,
           Ck.stats().SolveSeconds - Solve0);
    // 0: no race on the target (bounded, balanced executions), 1: race,
    // 2: unknown (bound, over-approximation, cancelled).
    R.stat("kiss_query_status." + Targets[T].Name,
           BR.S == bmc::Status::Safe     ? 0.0
           : BR.S == bmc::Status::Unsafe ? 1.0
                                         : 2.0);
    MaxQuery = std::max(MaxQuery, QSecs);
    ++Queries;
    if (BR.S == bmc::Status::Safe) {
      SafeTargets.push_back(Targets[T].Name);
      Info.SafeTargets.push_back(Targets[T]);
      continue;
    }
    if (BR.S == bmc::Status::Unknown || !BR.Cex) {
      AllSafe = false;
      for (const std::string &Why : BR.Reasons)
        if (!(Work.exhausted() && IsWorkReason(Why)))
          R.reason(ReasonKind::Incomplete,
                   "kiss (" + Targets[T].Name + "): " + Why);
      continue;
    }
    const bmc::Counterexample &Cex = *BR.Cex;
    auto FIt = P.FailSites.find(Cex.FailureCall);
    if (FIt == P.FailSites.end())
      continue;
    // The pending access: the last access recorded before the failure
    // (__crace_bmc_fail returns, so the path may record others after it).
    const kiss::SiteInfo *First = nullptr;
    std::string FirstThread;
    for (const bmc::TraceStep &St : Cex.Steps) {
      if (St.Block == Cex.FailureCall->getParent() &&
          St.CallStack == Cex.FailureStack)
        break;
      if (auto It = P.SetBlocks.find(St.Block);
          It != P.SetBlocks.end() && It->second.Target == T) {
        First = &It->second;
        FirstThread = Rep.threadOf(St.CallStack, St.Block);
      }
    }
    if (!First) {
      AllSafe = false;
      R.reason(ReasonKind::Failure,
               "kiss (" + Targets[T].Name +
                   "): internal error: a failure without a recorded access");
      continue;
    }
    Finding F;
    F.Kind = Verdict::Race;
    F.Category = FindingCategory::DataRace;
    F.Engine = "kiss";
    F.First = Rep.access(*First, FirstThread);
    std::string SecondThread =
        KO.Rounds
            ? roundsSecondThread(Rep, P, Cex, T)
            : Rep.threadOf(Cex.FailureStack, Cex.FailureCall->getParent());
    F.Second = Rep.access(FIt->second, SecondThread);
    F.Trace = Rep.trace(Cex, TraceStep{SecondThread, 0, F.Second.Loc,
                                       Reporter::kindName(FIt->second) + " " +
                                           F.Second.Variable +
                                           " (races with the pending " +
                                           Reporter::kindName(*First) + ")"});
    if (KO.Rounds)
      F.Trace.insert(F.Trace.begin(),
                     TraceStep{"(--rounds)", 0, SourceLoc(),
                               "the steps below are listed thread by thread; "
                               "the threads run them in round-robin turns"});
    // (Finding::Schedule stays empty: it holds explore's replayable
    // schedules, which --trace-out writes.)
    R.Findings.push_back(std::move(F));
    Race = true;
  }

  // The program's own assertions (the KISS paper's second use).
  bool HasAsserts = false;
  for (const CallBase *CB : Ck.failureSites())
    if (!P.FailSites.count(CB))
      HasAsserts = true;
  if (HasAsserts && KO.Rounds)
    R.reason(ReasonKind::Unmodelled, "kiss: --rounds checks races only, not "
                                     "the program's assertions");
  if (HasAsserts && !KO.Rounds && !(Opts.Cancelled && *Opts.Cancelled) &&
      !Work.exhausted()) {
    auto QStart = std::chrono::steady_clock::now();
    bmc::Result BR =
        Ck.check([&](const CallBase &CB) { return !P.FailSites.count(&CB); });
    R.stat(
        "kiss_assertion_query_seconds",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - QStart)
            .count());
    if (BR.S == bmc::Status::Unsafe && BR.Cex) {
      const bmc::Counterexample &Cex = *BR.Cex;
      Finding F;
      F.Kind = Verdict::Race;
      F.Category = FindingCategory::AssertionFailure;
      F.Engine = "kiss";
      F.First.Thread =
          Rep.threadOf(Cex.FailureStack, Cex.FailureCall->getParent());
      // The user's call: the outermost frame that maps to the program.
      const Instruction *OI = Rep.orig(Cex.FailureCall);
      for (const CallBase *CB : Cex.FailureStack)
        if (CB->getFunction()->getName() != "main" &&
            !CB->getFunction()->getName().starts_with("__kiss_run") &&
            !CB->getFunction()->getName().starts_with("__kiss_sched"))
          if (const Instruction *O = Rep.orig(CB); O && O->getDebugLoc() && !OI)
            OI = O;
      if (OI)
        F.First.Loc = PM.location(OI);
      F.First.Variable = "assertion";
      F.Trace = Rep.trace(
          Cex, TraceStep{F.First.Thread, 0, F.First.Loc, "assertion fails"});
      R.Findings.push_back(std::move(F));
    } else if (BR.S == bmc::Status::Unknown) {
      for (const std::string &Why : BR.Reasons)
        if (!(Work.exhausted() && IsWorkReason(Why)))
          R.reason(ReasonKind::Incomplete, "kiss (assertions): " + Why);
    }
  }

  const bmc::Stats &St = Ck.stats();
  R.stat("kiss_block_visits", St.BlockVisits);
  R.stat("kiss_encode_seconds", St.EncodeSeconds);
  R.stat("kiss_solve_seconds", St.SolveSeconds);
  R.stat("kiss_target_queries", double(Queries));
  R.stat("kiss_max_query_seconds", MaxQuery);
  R.stat("kiss_seconds", std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - Started)
                             .count());
  Work.poll();
  R.stat("kiss_work_units", double(Work.used()));
  R.stat("kiss_work_limit", double(Work.limit()));
  R.stat("kiss_work_steps", double(Work.steps()));
  R.stat("kiss_z3_units", double(Work.z3Units()));
  if (Work.exhausted() && !Race) {
    R.reason(ReasonKind::Budget, WorkReason());
    AllSafe = false; // targets after it were not checked
  }
  if (Opts.Cancelled && *Opts.Cancelled && !Race) {
    R.reason(ReasonKind::Budget, "kiss: cancelled");
    AllSafe = false; // targets after the cancellation were not checked
  }
  Info.WorkUsed = WorkLimit ? Work.used() : 0;
  Info.Exhausted = Work.exhausted();
  Info.AllSafe = AllSafe && !Race && !Targets.empty();
  if (Race) {
    R.Program = Verdict::Race;
    return R;
  }
  if (Targets.empty() && ProvedTargets)
    R.reason(ReasonKind::Incomplete,
             "kiss: the lockset analysis proves every shared object that is "
             "written race-free (--kiss-yields=racy), so there is no target "
             "to check");
  else if (Targets.empty())
    R.reason(ReasonKind::Incomplete,
             KO.Rounds ? "kiss: no shared global variable is written, so there "
                         "is no target to check (--rounds checks global "
                         "variables only)"
                       : "kiss: no memory that threads share is written (no "
                         "shared global variable, heap or stack object that an "
                         "access may write), so there is no target to check");
  if (AllSafe)
    R.reason(ReasonKind::Incomplete,
             formatv("kiss: no race in the executions KISS explores ({0}{1}); "
                     "this does not prove race freedom",
                     KO.Rounds ? "" : "balanced executions, ", Bounds)
                 .str());
  else if (!SafeTargets.empty())
    R.reason(ReasonKind::Incomplete,
             formatv("kiss: no race on {0} in the executions KISS explores "
                     "({1})",
                     llvm::join(SafeTargets, ", "), Bounds));
  return R;
}

/// The program has atomic sections (__VERIFIER_atomic_begin/end or
/// __VERIFIER_atomic_ functions).
static bool hasAtomicSections(const ProgramModel &PM) {
  const Function *AtomicBegin =
      PM.module().getFunction(intrinsicName(Intrinsic::AtomicBegin));
  return AtomicBegin && !AtomicBegin->use_empty();
}

/// Yield-MR's sites: the instructions of the static stage's candidate
/// pairs (the portfolio's, else the lockset engine's); none (every
/// visible operation yields) with --kiss-yields=all, in programs with
/// atomic sections, and when the pair cap cut the list.
static std::optional<RacySet> racySites(const ProgramModel &PM,
                                        const EngineOptions &Opts, Result &R) {
  if (Opts.KissYields != EngineOptions::Yields::Racy)
    return std::nullopt;
  // Not with atomic sections: a section's first shared access is the one
  // checked against a stopped thread's plain access (as in explore), and
  // an access Yield-MR leaves alone would no longer count as that.
  if (hasAtomicSections(PM))
    return std::nullopt;
  std::optional<Result> Own;
  const Result *S = Opts.Static;
  if (!S) {
    Own = analyseLocksets(PM, Opts.Cancelled, Opts.MaxPairs);
    S = &*Own;
  }
  // An incomplete list (an unresolved call, a pair cap) is used too: a
  // schedule point fewer can only hide a race, never make one up, and kiss
  // never proves race freedom.
  // But a list the pair cap cut leaves out pairs of known code: yields
  // everywhere then.
  if (!S->CandidatesComplete && Opts.MaxPairs &&
      S->CandidatePairs.size() >= Opts.MaxPairs)
    return std::nullopt;
  R.stat("kiss_yields_candidates_complete", S->CandidatesComplete);
  RacySet Sites;
  for (const auto &[A, B] : S->CandidatePairs)
    Sites.insert({A, B});
  R.stat("kiss_racy_sites", double(Sites.size()));
  return Sites;
}

Result KissEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  PassInfo Info;
  Result Pre;
  std::optional<RacySet> Racy = racySites(PM, Opts, Pre);
  const RacySet *RacyP = Racy ? &*Racy : nullptr;
  Result R = runPass(PM, Opts, Info, RacyP);
  R.Stats.insert(R.Stats.begin(), Pre.Stats.begin(), Pre.Stats.end());
  // ts size 0 (the default) runs a created thread at its creation, to its
  // end or its stop: a race that needs the thread to start after a later
  // step of its creator (a node published under a lock, then written) is
  // not among those executions. The targets that pass finds no race on are
  // checked once more with ts size 1, within a share of the work (the bmc's
  // encoding included, bmc::Options::Work): a race found there is as real;
  // otherwise the first pass's answer stands, with one more reason.
  // Not with atomic sections: the sequential program checks a race at the
  // access inside a section, before the section completes, and a failed
  // assumption later in the section makes the whole section infeasible
  // (explore reports such a race only at the section's end); schedules at
  // ts size 1 reach that case (explore/atomic_section_failed_assumption.c).
  if (Opts.KissMaxGiven || Opts.KissMax != 0 || Opts.KissRounds ||
      hasAtomicSections(PM) || Info.SafeTargets.empty() ||
      (Opts.StopAtFirstRace && R.Program == Verdict::Race) ||
      (Opts.Cancelled && *Opts.Cancelled))
    return R;
  uint64_t Work = unitsForSeconds(KissTsOneSeconds);
  if (Info.WorkLimit)
    Work = std::min(Work, Info.WorkLimit > Info.WorkUsed
                              ? Info.WorkLimit - Info.WorkUsed
                              : uint64_t(0));
  if (!Work)
    return R;
  EngineOptions O1 = Opts;
  O1.KissMax = 1;
  O1.KissWork = Work;
  O1.Progress = nullptr;
  O1.EmitSequential.clear();
  PassInfo Info1;
  Result R1 = runPass(PM, O1, Info1, RacyP, &Info.SafeTargets);
  R.stat("kiss_ts1_targets", double(Info.SafeTargets.size()));
  R.stat("kiss_ts1_work_units", double(Info1.WorkUsed));
  R.stat("kiss_ts1_work_limit", double(Work));
  if (R1.Program == Verdict::Race) {
    // The first pass's "no race on ..." lines were about ts size 0 only.
    if (R.Program != Verdict::Race)
      std::erase_if(R.Reasons, [](const Reason &Re) {
        return StringRef(Re.Text).starts_with("kiss: no race ");
      });
    R.Program = Verdict::Race;
    for (Finding &F : R1.Findings)
      R.Findings.push_back(std::move(F));
    return R;
  }
  if (R.Program == Verdict::Race)
    return R;
  std::vector<std::string> Names;
  for (const kiss::Target &T : Info.SafeTargets)
    Names.push_back(T.Name);
  std::string Which = Info.AllSafe ? "" : " on " + llvm::join(Names, ", ");
  std::string Why;
  if (Info1.AllSafe)
    Why = "kiss: no race" + Which + " with ts size 1 either";
  else if (Info1.Exhausted)
    Why = formatv("kiss: no race found{0} with ts size 1 before its {1} "
                  "units of work ran out (executions where a created thread "
                  "starts after later steps of its creator; --kiss-max=1 "
                  "checks them without that limit)",
                  Which, Work);
  else
    Why = "kiss: no race found" + Which +
          " with ts size 1, not every target "
          "decided there" +
          (R1.Reasons.empty() ? "" : " (" + R1.Reasons.front().Text + ")");
  R.reason(ReasonKind::Incomplete, Why);
  return R;
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createKissEngine() {
  return std::make_unique<KissEngine>();
}

} // namespace crace
