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
#include <chrono>
#include <map>
#include <set>

using namespace llvm;

namespace crace {

using namespace whoop;

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

  unsigned Queries = 0, Unmatched = 0, TimedOut = 0, DecidedAlone = 0,
           ByModel = 0, UnknownTargets = 0;
  auto SolverFor = [&](const char *Stage, bool Fresh, bool Cache) {
    smt::SolverOptions SO;
    SO.Stage = Stage;
    SO.FreshPerCheck = Fresh;
    SO.Work = &Work;
    SO.PerQueryUnits = QueryUnits;
    SO.Cache = Cache;
    SO.LogDir = Opts.SmtLogDir;
    return smt::makeSolver(Ctx, std::move(SO));
  };
  // Path guards, each checked alone and at most once.
  std::unique_ptr<smt::Solver> Guards =
      SolverFor("whoop-guard", /*Fresh=*/true, /*Cache=*/true);

  double SolveSeconds = 0;
  // A Z3 failure that is not an interruption: a fault, not an answer. The
  // engine does not throw it on (no exception leaves an engine); the
  // candidates not settled keep the lockset engine's result, which stays
  // sound, and the reason says what failed.
  std::string Z3Fault;
  for (auto &[TP, Cands] : ByPair) {
    if (Stopped())
      break;
    // An interrupted Z3 call throws (a simplification) or answers unknown
    // (a check, after which get_model throws): either way the remaining
    // candidates keep the lockset engine's result.
    try {
      const Encoded &EA = Enc[TP.first], &EB = Enc[TP.second];
      const std::vector<AccRec> &RA = EA.Copy[0]->Recs, &RB = EB.Copy[1]->Recs;
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
        const Candidate &C = L.Candidates[CI];
        // Orientation: the instruction run by TP.first goes to copy 1.
        std::vector<std::pair<const Instruction *, const Instruction *>>
            Orients;
        if (C.ThreadA == TP.first)
          Orients.push_back({C.A, C.B});
        if (C.ThreadB == TP.first)
          Orients.push_back({C.B, C.A});
        z3::expr_vector D(Ctx);
        bool Keep = false, SatAlone = false;
        for (auto [IA, IB] : Orients) {
          auto ItA = EA.ByInst[0].find(IA);
          auto ItB = EB.ByInst[1].find(IB);
          if (ItA == EA.ByInst[0].end() || ItB == EB.ByInst[1].end()) {
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
                ++UnknownTargets;
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
          ++DecidedAlone;
          continue;
        }
        if (Keep) {
          ++Unmatched;
          continue;
        }
        if (D.empty()) {
          Kept[CI] = false;
          continue;
        }
        Disj.emplace(CI, z3::mk_or(D));
      }
      // One watchdog query per candidate, on one solver per template pair.
      if (Stopped())
        break;
      std::unique_ptr<smt::Solver> S =
          SolverFor("whoop-pair", /*Fresh=*/false, /*Cache=*/false);
      std::vector<z3::model> Models;
      S->check(); // no assertions yet: the all-default model
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
          ++ByModel;
          continue;
        }
        z3::expr B = Ctx.bool_const(formatv("cand_{0}", CI).str().c_str());
        S->add(z3::implies(B, E));
        auto T0 = std::chrono::steady_clock::now();
        if (Work.poll())
          break;
        smt::Answer CR = S->check({B});
        SolveSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
                .count();
        ++Queries;
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
          Kept[CI] = false;
        else if (CR == smt::Answer::Unknown && !Stopped())
          ++TimedOut;
      }
    } catch (const z3::exception &X) {
      if (!Stopped()) {
        Z3Fault = X.msg();
        break;
      }
    }
    if (Stopped())
      break;
  }

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
  R.stat("whoop_kept_unencoded", Unmatched);
  R.stat("whoop_queries", Queries);
  R.stat("whoop_guard_queries", Guards->stats().Solved);
  R.stat("whoop_kept_by_guards", DecidedAlone);
  R.stat("whoop_kept_by_earlier_model", ByModel);
  R.stat("whoop_unknown_target_pairs", UnknownTargets);
  R.stat("whoop_query_timeouts", TimedOut);
  R.stat("whoop_solve_seconds", SolveSeconds);
  R.stat("whoop_houdini_rounds", HoudiniRounds);
  R.stat("whoop_houdini_queries", HoudiniQueries);
  R.stat("whoop_houdini_dropped", HoudiniDropped);
  R.stat("whoop_houdini_seconds", HoudiniSeconds);
  R.stat("whoop_locks", Locks.Names.size() - 1);
  Work.poll();
  R.stat("whoop_work_units", Work.used());
  R.stat("whoop_work_limit", Work.limit());
  R.stat("whoop_work_steps", Work.steps());
  R.stat("whoop_z3_units", Work.z3Units());
  return Finish(R);
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createWhoopEngine() {
  return std::make_unique<WhoopEngine>();
}

} // namespace crace
