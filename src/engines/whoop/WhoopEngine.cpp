//===- WhoopEngine.cpp - symbolic pairwise lockset analysis (WHOOP) ------===//
//
// See WhoopEngine.h for the method. The engine's run: templates and their
// copies encoded (WhoopEncoder.h), Houdini's fixpoint, then a query per
// candidate pair of the lockset stage, under a work budget.
//
//===----------------------------------------------------------------------===//
#include "engines/whoop/WhoopEngine.h"
#include "engines/whoop/WhoopEncoder.h"

#include "analysis/Lockset.h"
#include "model/LockTable.h"
#include "model/ProgramModel.h"
#include "smt/BudgetedTasks.h"
#include "smt/IRTerms.h"
#include "smt/Solver.h"
#include "smt/WorkMeter.h"
#include "smt/Z3Reaper.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace llvm;

namespace crace {

using namespace whoop;

namespace {

/// What checking one template pair's candidates found: one task of
/// runBudgetedTasks (smt/BudgetedTasks.h), committed in order.
struct PairCheck {
  std::vector<unsigned> Refuted;
  unsigned Queries = 0, Unmatched = 0, TimedOut = 0, DecidedAlone = 0,
           ByModel = 0, UnknownTargets = 0, GuardQueries = 0;
  double SolveSeconds = 0;
  uint64_t Steps = 0, Z3Units = 0;
  bool BudgetHit = false, WallHit = false, Cancelled = false;
  std::string Z3Fault;
};

/// The records of two template copies with their formulas moved to To, in
/// one translation (subterms both share stay shared).
std::array<std::vector<AccRec>, 2> translateRecs(const std::vector<AccRec> &RA,
                                                 const std::vector<AccRec> &RB,
                                                 z3::context &From,
                                                 z3::context &To) {
  z3::expr_vector V(From);
  for (const std::vector<AccRec> *Rs : {&RA, &RB})
    for (const AccRec &R : *Rs) {
      V.push_back(R.Guard);
      V.push_back(R.Atomic);
      for (const Target &T : R.Targets) {
        V.push_back(T.Pts);
        V.push_back(T.Off);
      }
      for (const z3::expr &E : R.Locks.Held)
        V.push_back(E);
      for (const z3::expr &E : R.Locks.Excl)
        V.push_back(E);
    }
  z3::expr_vector W(To, Z3_ast_vector_translate(From, V, To));
  unsigned K = 0;
  std::array<std::vector<AccRec>, 2> Out;
  for (unsigned C = 0; C < 2; ++C)
    for (const AccRec &R : C ? RB : RA) {
      AccRec N{R.Inst, R.Kind, R.Size, W[K], W[K + 1], {}, R.UnknownTarget, {}};
      K += 2;
      for (const Target &T : R.Targets) {
        N.Targets.push_back({T.Obj, W[K], W[K + 1], T.FreeBase});
        K += 2;
      }
      for (size_t I = 0; I < R.Locks.Held.size(); ++I)
        N.Locks.Held.push_back(W[K++]);
      for (size_t I = 0; I < R.Locks.Excl.size(); ++I)
        N.Locks.Excl.push_back(W[K++]);
      Out[C].push_back(std::move(N));
    }
  return Out;
}

using ByInstMap = std::map<const Instruction *, std::vector<size_t>>;

/// Checks the candidates Cands (indices into Candidates) of the template
/// pair TP: RA are TP.first's records in copy 1, RB TP.second's in copy 2,
/// both in Ctx, whose work Work counts; Watch stops it.
void checkPair(const PointsTo &PTA, const std::vector<Candidate> &Candidates,
               std::pair<unsigned, unsigned> TP,
               const std::vector<unsigned> &Cands,
               const std::vector<AccRec> &RA, const ByInstMap &ByA,
               const std::vector<AccRec> &RB, const ByInstMap &ByB,
               z3::context &Ctx, WorkMeter &Work, smt::Interrupter &Watch,
               const std::string &SmtLogDir, PairCheck &Out) {
  auto Stopped = [&] {
    if (Work.exhausted())
      Out.BudgetHit = true;
    else if (Watch.Stop && Watch.DeadlinePassed)
      Out.WallHit = true;
    else if (Watch.Stop)
      Out.Cancelled = true;
    return Out.BudgetHit || Out.WallHit || Out.Cancelled;
  };
  auto SolverFor = [&](const char *Stage, bool Fresh, bool Cache) {
    smt::SolverOptions SO;
    SO.Stage = Stage;
    SO.FreshPerCheck = Fresh;
    SO.Work = &Work;
    SO.PerQueryUnits = QueryUnits;
    SO.Cache = Cache;
    SO.LogDir = SmtLogDir;
    return smt::makeSolver(Ctx, std::move(SO));
  };
  // Path guards, each checked alone and at most once.
  std::unique_ptr<smt::Solver> Guards =
      SolverFor("whoop-guard", /*Fresh=*/true, /*Cache=*/true);
  // An interrupted Z3 call throws (a simplification) or answers unknown
  // (a check, after which get_model throws): either way the remaining
  // candidates keep the lockset engine's result.
  try {
    std::map<uint32_t, z3::expr> Watched;
    auto WatchedOf = [&](uint32_t Obj) {
      auto It = Watched.find(Obj);
      if (It == Watched.end())
        It = Watched
                 .emplace(Obj,
                          Ctx.bv_const(
                              formatv("watched_{0}", Obj).str().c_str(), 64))
                 .first;
      return It->second;
    };
    auto Hit = [&](const AccRec &R, const Target &T) {
      z3::expr W = WatchedOf(T.Obj);
      z3::expr E = R.Guard && T.Pts && z3::ule(T.Off, W);
      if (R.Size)
        E = E && z3::ult(W - T.Off, Ctx.bv_val(R.Size, 64));
      if (uint64_t Size = PTA.object(T.Obj).Size)
        E = E && z3::ult(W, Ctx.bv_val(Size, 64));
      return E;
    };
    auto Protected = [&](const AccRec &X, const AccRec &Y) {
      z3::expr_vector V(Ctx);
      size_t N = std::min(X.Locks.Held.size(), Y.Locks.Held.size());
      for (size_t Id = 0; Id < N; ++Id)
        V.push_back(X.Locks.Held[Id] && Y.Locks.Held[Id] &&
                    (X.Locks.Excl[Id] || Y.Locks.Excl[Id]));
      return V.empty() ? Ctx.bool_val(false) : z3::mk_or(V);
    };
    // A record pair whose offsets are constants, with no lock or atomic
    // section that could protect it, races exactly when both paths are
    // feasible: the two copies share no symbol, so that is two small
    // queries on the guards alone (cached), not one on the pair.
    auto GuardSat = [&](const z3::expr &G) {
      // Unknown counts as feasible; an answer the work budget cut is not
      // cached: nothing after it is decided (Stopped() holds from here on).
      return smt::checkAlone(*Guards, G) != smt::Answer::Unsat;
    };
    auto Trivial = [&](const AccRec &X, const Target &TX, const AccRec &Y,
                       const Target &TY) -> std::optional<bool> {
      bool NX = TX.Off.is_numeral(), NY = TY.Off.is_numeral();
      if (!(NX || TX.FreeBase) || !(NY || TY.FreeBase))
        return std::nullopt;
      if (!Protected(X, Y).simplify().is_false())
        return std::nullopt;
      if (!(X.Atomic && Y.Atomic).simplify().is_false())
        return std::nullopt;
      if (!TX.Pts.is_true() && !TX.Pts.is_const())
        return std::nullopt;
      if (!TY.Pts.is_true() && !TY.Pts.is_const())
        return std::nullopt;
      // The bytes both may touch: a free base reaches any offset.
      uint64_t Lo = 0, Hi = UINT64_MAX;
      if (NX) {
        uint64_t O = TX.Off.get_numeral_uint64();
        Lo = std::max(Lo, O);
        Hi = std::min(Hi, X.Size ? O + X.Size : UINT64_MAX);
      }
      if (NY) {
        uint64_t O = TY.Off.get_numeral_uint64();
        Lo = std::max(Lo, O);
        Hi = std::min(Hi, Y.Size ? O + Y.Size : UINT64_MAX);
      }
      if (uint64_t Size = PTA.object(TX.Obj).Size)
        Hi = std::min(Hi, Size);
      if (Lo >= Hi)
        return false;
      return GuardSat(X.Guard) && GuardSat(Y.Guard);
    };
    std::map<unsigned, z3::expr> Disj;
    for (unsigned CI : Cands) {
      if (Work.step() || Stopped())
        break;
      const Candidate &C = Candidates[CI];
      // Orientation: the instruction run by TP.first goes to copy 1.
      std::vector<std::pair<const Instruction *, const Instruction *>> Orients;
      if (C.ThreadA == TP.first)
        Orients.push_back({C.A, C.B});
      if (C.ThreadB == TP.first)
        Orients.push_back({C.B, C.A});
      z3::expr_vector D(Ctx);
      bool Keep = false, SatAlone = false;
      for (auto [IA, IB] : Orients) {
        auto ItA = ByA.find(IA);
        auto ItB = ByB.find(IB);
        if (ItA == ByA.end() || ItB == ByB.end()) {
          Keep = true; // the encoding did not meet the access: keep it
          continue;
        }
        for (size_t XA : ItA->second)
          for (size_t XB : ItB->second) {
            const AccRec &X = RA[XA], &Y = RB[XB];
            if (X.Kind == AccessKind::Read && Y.Kind == AccessKind::Read)
              continue;
            if (X.UnknownTarget || Y.UnknownTarget) {
              Keep = true;
              ++Out.UnknownTargets;
              continue;
            }
            for (const Target &TX : X.Targets)
              for (const Target &TY : Y.Targets) {
                if (TX.Obj != TY.Obj || Keep || SatAlone)
                  continue;
                Work.step();
                if (auto T = Trivial(X, TX, Y, TY)) {
                  // Decided without a pair query: a satisfiable one keeps
                  // the candidate, an unsatisfiable one adds nothing.
                  SatAlone |= *T;
                  continue;
                }
                D.push_back(Hit(X, TX) && Hit(Y, TY) &&
                            !(X.Atomic && Y.Atomic) && !Protected(X, Y));
              }
          }
      }
      if (SatAlone && !Keep) {
        ++Out.DecidedAlone;
        continue;
      }
      if (Keep) {
        ++Out.Unmatched;
        continue;
      }
      if (D.empty()) {
        Out.Refuted.push_back(CI);
        continue;
      }
      Disj.emplace(CI, z3::mk_or(D));
    }
    // One watchdog query per candidate, on one solver per template pair.
    if (Stopped())
      return;
    std::unique_ptr<smt::Solver> S =
        SolverFor("whoop-pair", /*Fresh=*/false, /*Cache=*/false);
    std::vector<z3::model> Models;
    // No assertions yet: the all-default model. Not sat: the check was cut
    // or stopped, and nothing after it is decided.
    if (S->check() != smt::Answer::Sat)
      return;
    Models.push_back(S->model());
    for (auto &[CI, E] : Disj) {
      if (Stopped())
        break;
      // A model of an earlier query (or the all-default one) that
      // satisfies this pair's formula settles it without the solver.
      bool Witnessed = false;
      for (const z3::model &M : Models)
        if (Work.step(), M.eval(E, true).is_true()) {
          Witnessed = true;
          break;
        }
      if (Witnessed) {
        ++Out.ByModel;
        continue;
      }
      z3::expr B = Ctx.bool_const(formatv("cand_{0}", CI).str().c_str());
      S->add(z3::implies(B, E));
      auto T0 = std::chrono::steady_clock::now();
      if (Work.poll())
        break;
      smt::Answer CR = S->check({B});
      Out.SolveSeconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
              .count();
      ++Out.Queries;
      // Cut by the work budget (not the query's own limit): undecided, as
      // every candidate after it.
      if (CR == smt::Answer::Unknown && S->lastWasCut())
        break;
      if (CR == smt::Answer::Sat) {
        if (Models.size() == 8)
          Models.erase(Models.begin() + 1);
        Models.push_back(S->model());
      }
      if (CR == smt::Answer::Unsat)
        Out.Refuted.push_back(CI);
      else if (CR == smt::Answer::Unknown && !Stopped())
        ++Out.TimedOut;
    }
  } catch (const z3::exception &X) {
    if (!Stopped())
      Out.Z3Fault = X.msg();
  }
  Out.GuardQueries = Guards->stats().Solved;
}

} // namespace

Result WhoopEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  Result L = analyseLocksets(PM, Opts.Cancelled, Opts.MaxPairs);
  double LocksetSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  auto Finish = [&](Result &Out) -> Result & {
    cutFindings(Out, Opts.MaxFindings);
    Out.stat("whoop_seconds", std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - Start)
                                  .count());
    return Out;
  };
  // Nothing to refine: the lockset engine's verdict is the answer, and it
  // is reported as that engine's.
  if (L.Program != Verdict::PossibleRace || L.Candidates.empty())
    return Finish(L);
  Result R = L;
  R.Engine = "whoop";
  for (Finding &F : R.Findings)
    F.Engine = "whoop";

  const PointsTo &PTA = PM.pointsTo();
  // Deleted in the background at the end of run() (Z3Reaper.h): declared
  // before everything that refers to it.
  ReapedContext Owner;
  z3::context &Ctx = Owner.get();
  // Stops whoop on time: sets Watch.Stop and interrupts Z3 (which cannot
  // poll a flag: a long check or simplification would otherwise run past
  // the limit) when the driver cancels or whoop's wall-clock safety net
  // (EngineOptions::WhoopWallLimit) runs out. Whoop's budget proper is its
  // work budget (WorkMeter), which does not depend on the machine's speed.
  smt::Interrupter Watch(Ctx, Opts.Cancelled, Start, Opts.WhoopWallLimit);
  // The work budget: --whoop-work units, else --whoop-budget seconds at the
  // calibrated rate (WorkMeter.h).
  uint64_t WorkLimit =
      Opts.WhoopWork ? Opts.WhoopWork : unitsForSeconds(Opts.WhoopBudget);
  WorkMeter Work(WorkLimit, &Ctx);
  if (Opts.Progress) {
    Opts.Progress->begin("work units", WorkLimit);
    Work.Publish = &Opts.Progress->Done;
  }
  LockTable Locks{PM};
  std::map<const Function *, std::unique_ptr<FnInfo>> Infos;

  // The templates that take part in candidate pairs.
  std::set<unsigned> Wanted;
  for (const Candidate &C : L.Candidates) {
    Wanted.insert(C.ThreadA);
    Wanted.insert(C.ThreadB);
  }
  struct Encoded {
    std::unique_ptr<Encoder> Copy[2];
    std::optional<std::string> Failure;
    std::map<const Instruction *, std::vector<size_t>> ByInst[2];
  };
  std::map<unsigned, Encoded> Enc;
  bool BudgetHit = false, WallHit = false;
  auto OverBudget = [&] {
    if (Work.exhausted())
      BudgetHit = true;
    else if (Watch.Stop && Watch.DeadlinePassed)
      WallHit = true;
    return BudgetHit || WallHit;
  };
  bool Cancelled = false;
  auto Stopped = [&] {
    if (Watch.Stop && !Watch.DeadlinePassed)
      Cancelled = true;
    return OverBudget() || Cancelled;
  };
  unsigned HoudiniRounds = 0, HoudiniQueries = 0, HoudiniDropped = 0;
  double HoudiniSeconds = 0;
  for (unsigned T : Wanted) {
    const ThreadTemplate &TT = PM.threads()[T];
    Encoded &E = Enc[T];
    // Main is encoded like any thread (from its entry: its accesses
    // before any thread exists are not in the candidates anyway).
    if (!TT.Entry) {
      E.Failure = "no entry function";
      continue;
    }
    if (Stopped()) {
      E.Failure = "budget exhausted";
      continue;
    }
    for (unsigned C = 0; C < 2 && !E.Failure; ++C) {
      E.Copy[C] = std::make_unique<Encoder>(PM, Ctx, Locks, Infos, C + 1,
                                            &Watch.Stop, Work, Opts.SmtLogDir);
      E.Failure = E.Copy[C]->encode(*TT.Entry);
      HoudiniRounds += E.Copy[C]->Rounds;
      HoudiniQueries += E.Copy[C]->HoudiniQueries;
      HoudiniDropped += E.Copy[C]->DroppedCandidates;
      HoudiniSeconds += E.Copy[C]->HoudiniSeconds;
      if (!E.Failure)
        for (size_t I = 0; I < E.Copy[C]->Recs.size(); ++I)
          E.ByInst[C][E.Copy[C]->Recs[I].Inst].push_back(I);
    }
    if (E.Failure && !Stopped())
      R.reason(ReasonKind::Unmodelled,
               formatv("whoop could not encode {0} ({1}); its pairs keep "
                       "the lockset engine's result",
                       TT.Name, *E.Failure));
  }

  double EncodeSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count() -
      LocksetSeconds;
  // Candidates by template pair (A <= B), oriented so A runs in copy 1.
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> ByPair;
  std::vector<bool> Kept(L.Candidates.size(), true);
  for (unsigned I = 0; I < L.Candidates.size(); ++I) {
    const Candidate &C = L.Candidates[I];
    if (Enc[C.ThreadA].Failure || Enc[C.ThreadB].Failure)
      continue;
    ByPair[{std::min(C.ThreadA, C.ThreadB), std::max(C.ThreadA, C.ThreadB)}]
        .push_back(I);
  }

  // Each template pair is a task with a Z3 context of its own (its two
  // copies' records translated into it), run on up to --jobs threads with
  // exactly the results of running them in order (smt/BudgetedTasks.h):
  // the pairs share what the encoding left of the work budget. The query
  // log numbers its files in the order checks run, so with --smt-log the
  // pairs run one after the other.
  struct PairTask {
    std::unique_ptr<z3::context> Ctx = std::make_unique<z3::context>();
    std::optional<std::array<std::vector<AccRec>, 2>> Recs;
    ~PairTask() {
      Recs.reset();
      deleteInBackground(std::move(Ctx));
    }
  };
  std::vector<
      std::pair<std::pair<unsigned, unsigned>, const std::vector<unsigned> *>>
      Pairs;
  for (auto &[TP, Cands] : ByPair)
    Pairs.push_back({TP, &Cands});
  std::vector<PairCheck> Checks(Pairs.size());
  PairCheck Sum;
  Work.poll();
  uint64_t EncodeUsed = Work.used(), PairsUsed = 0, MaxPair = 0;
  auto PairsStart = std::chrono::steady_clock::now();
  TaskSchedule Sched;
  auto Prepare = [&](size_t I, const std::atomic<uint64_t> &Budget,
                     const std::atomic<bool> &Stop) -> TaskWork {
    auto [TP, Cands] = Pairs[I];
    const Encoded &EA = Enc[TP.first], &EB = Enc[TP.second];
    auto T = std::make_shared<PairTask>();
    T->Recs = translateRecs(EA.Copy[0]->Recs, EB.Copy[1]->Recs, Ctx, *T->Ctx);
    Checks[I] = PairCheck();
    return [&, I, TP = TP, Cands = Cands, T, Budget = &Budget, Stop = &Stop] {
      z3::context &C = *T->Ctx;
      TaskRun Run;
      {
        smt::Interrupter TaskWatch(C, Stop, Start, Opts.WhoopWallLimit);
        WorkMeter TaskWork(Budget->load(), &C);
        TaskWork.LimitFeed = Budget;
        PairCheck &Out = Checks[I];
        checkPair(PTA, L.Candidates, TP, *Cands, (*T->Recs)[0],
                  Enc.at(TP.first).ByInst[0], (*T->Recs)[1],
                  Enc.at(TP.second).ByInst[1], C, TaskWork, TaskWatch,
                  Opts.SmtLogDir, Out);
        TaskWork.poll();
        Out.Steps = TaskWork.steps();
        Out.Z3Units = TaskWork.z3Units();
        Run.Used = TaskWork.used();
        Run.Cut = TaskWork.exhausted();
        Run.Limit = TaskWork.limit();
        Run.LoweredLate = TaskWork.loweredLate();
        Run.Stopped = Out.WallHit || Out.Cancelled || !Out.Z3Fault.empty();
      }
      return Run;
    };
  };
  auto Commit = [&](size_t I, const TaskRun &Run) {
    const PairCheck &C = Checks[I];
    for (unsigned CI : C.Refuted)
      Kept[CI] = false;
    Sum.Queries += C.Queries;
    Sum.Unmatched += C.Unmatched;
    Sum.TimedOut += C.TimedOut;
    Sum.DecidedAlone += C.DecidedAlone;
    Sum.ByModel += C.ByModel;
    Sum.UnknownTargets += C.UnknownTargets;
    Sum.GuardQueries += C.GuardQueries;
    Sum.SolveSeconds += C.SolveSeconds;
    Sum.Steps += C.Steps;
    Sum.Z3Units += C.Z3Units;
    BudgetHit |= Run.Cut;
    WallHit |= C.WallHit;
    Cancelled |= C.Cancelled;
    if (Sum.Z3Fault.empty())
      Sum.Z3Fault = C.Z3Fault;
    PairsUsed += Run.Used;
    MaxPair = std::max(MaxPair, Run.Used);
    if (Opts.Progress)
      Opts.Progress->Done = EncodeUsed + PairsUsed;
  };
  if (!Stopped() && !Pairs.empty()) {
    TaskScheduleOptions TO;
    TO.Limit = WorkLimit ? WorkLimit - EncodeUsed : 0;
    TO.Jobs = Opts.SmtLogDir.empty() ? Opts.Jobs : 1;
    TO.Cancel = Opts.Cancelled;
    Sched = runBudgetedTasks(Pairs.size(), TO, Prepare, Commit);
  }
  double PairsSeconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - PairsStart)
                            .count();
  // Tasks left out for no reason of their own: the run was cancelled.
  if (Sched.Committed < Pairs.size() && !BudgetHit && !WallHit &&
      Sum.Z3Fault.empty())
    Cancelled = true;
  const std::string &Z3Fault = Sum.Z3Fault;

  // The findings of the kept candidates.
  std::vector<Finding> Out;
  unsigned Refuted = 0;
  for (unsigned I = 0; I < Kept.size(); ++I)
    Refuted += !Kept[I];
  for (Finding &F : R.Findings) {
    bool Any = F.Candidates.empty();
    for (unsigned CI : F.Candidates)
      Any |= Kept[CI];
    if (Any)
      Out.push_back(std::move(F));
  }
  R.Findings = std::move(Out);
  // The lockset engine's own over-approximation is whoop's now (below,
  // when pairs remain).
  llvm::erase_if(R.Reasons, [](const Reason &W) {
    return W.Kind == ReasonKind::Overapproximation;
  });
  if (!Z3Fault.empty())
    R.reason(ReasonKind::Failure,
             "internal error: Z3 failed during whoop's pair checks (" +
                 Z3Fault +
                 "): the remaining candidate pairs keep the lockset "
                 "engine's result");
  // No seconds measured at run time in these reasons: the work budget's
  // reason is the same on every run of the input.
  if (BudgetHit)
    R.reason(ReasonKind::Budget,
             formatv("whoop's work budget of {0} units ran out (raise it "
                     "with --whoop-work=UNITS, or --whoop-budget=SECONDS at "
                     "{1} units a second): the remaining candidate pairs "
                     "keep the lockset engine's result",
                     WorkLimit, UnitsPerSecond));
  else if (WallHit)
    R.reason(ReasonKind::Budget,
             formatv("whoop's wall-clock safety limit of {0:F1} s ran out "
                     "before its work budget (the machine is much slower "
                     "than the calibrated rate): the remaining candidate "
                     "pairs keep the lockset engine's result",
                     Opts.WhoopWallLimit));
  if (Cancelled) {
    R.Program = Verdict::Unknown;
    R.reason(ReasonKind::Budget,
             "time limit reached during whoop's pair checks");
  } else if (!R.Findings.empty()) {
    R.Program = Verdict::PossibleRace;
    R.Reasons.insert(R.Reasons.begin(),
                     {ReasonKind::Overapproximation,
                      "whoop over-approximates (havocked shared reads, loop "
                      "abstraction): it cannot confirm that a reported pair "
                      "is reachable"});
  } else if (!PM.unsoundness().empty()) {
    R.Program = Verdict::Unknown;
  } else if (!L.CandidatesComplete) {
    R.Program = Verdict::Unknown;
    R.reason(ReasonKind::Incomplete,
             "the lockset engine's list of candidate pairs is incomplete, "
             "so whoop cannot prove race freedom");
  } else {
    R.Program = Verdict::RaceFree;
    R.Reasons.clear();
    R.Assumptions = PM.assumptions();
    R.Assumptions.push_back(
        "whoop: every access stays inside the object it points to (memory "
        "safety is not checked), and the lockset engine's candidate pairs "
        "are the only ones (whoop refutes them; both analyses are sound)");
  }
  R.stat("whoop_lockset_seconds", LocksetSeconds);
  R.stat("whoop_encode_seconds", EncodeSeconds);
  R.stat("whoop_candidates", L.Candidates.size());
  R.stat("whoop_refuted", Refuted);
  R.stat("whoop_kept_unencoded", Sum.Unmatched);
  R.stat("whoop_queries", Sum.Queries);
  R.stat("whoop_guard_queries", Sum.GuardQueries);
  R.stat("whoop_kept_by_guards", Sum.DecidedAlone);
  R.stat("whoop_kept_by_earlier_model", Sum.ByModel);
  R.stat("whoop_unknown_target_pairs", Sum.UnknownTargets);
  R.stat("whoop_query_timeouts", Sum.TimedOut);
  R.stat("whoop_solve_seconds", Sum.SolveSeconds);
  R.stat("whoop_houdini_rounds", HoudiniRounds);
  R.stat("whoop_houdini_queries", HoudiniQueries);
  R.stat("whoop_houdini_dropped", HoudiniDropped);
  R.stat("whoop_houdini_seconds", HoudiniSeconds);
  R.stat("whoop_locks", Locks.Names.size() - 1);
  R.stat("whoop_work_units", EncodeUsed + PairsUsed);
  R.stat("whoop_work_limit", Work.limit());
  R.stat("whoop_work_steps", Work.steps() + Sum.Steps);
  R.stat("whoop_z3_units", Work.z3Units() + Sum.Z3Units);
  R.stat("whoop_pair_tasks", Pairs.size());
  R.stat("whoop_pair_tasks_run", Sched.Committed);
  R.stat("whoop_pair_units", PairsUsed);
  R.stat("whoop_pair_max_units", MaxPair);
  R.stat("whoop_pairs_seconds", PairsSeconds);
  // These depend on the threads' timing (json_without_timing.py drops
  // them): the runs repeated with their exact budget, and those dropped.
  R.stat("jobs_whoop_reruns", Sched.Reruns);
  R.stat("jobs_whoop_dropped", Sched.Dropped);
  return Finish(R);
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createWhoopEngine() {
  return std::make_unique<WhoopEngine>();
}

} // namespace crace
