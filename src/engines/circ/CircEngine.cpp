//===- CircEngine.cpp - the circ engine's run -----------------------------===//
#include "engines/circ/CircEngine.h"
#include "engines/circ/Circ.h"

#include "analysis/Lockset.h"
#include "model/ProgramModel.h"
#include "smt/BudgetedTasks.h"
#include "smt/Solver.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"
#include "smt/Z3Reaper.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <map>
#include <memory>
#include <optional>

using namespace llvm;

namespace crace {

using namespace circ;

namespace {

/// What circ needs for one location's proof, in a Z3 context of its own.
struct CircInputs {
  std::unique_ptr<z3::context> Ctx = std::make_unique<z3::context>();
  std::unique_ptr<Vars> V;
  std::vector<Cfa> Cfas;
  std::vector<z3::expr> Preds;
  ~CircInputs() {
    Preds.clear();
    Cfas.clear();
    V.reset();
    deleteInBackground(std::move(Ctx));
  }
};

/// Copies V, Cfas and Preds into In's context, in one translation (the
/// subterms they share stay shared).
void translateInputs(const Vars &V, const std::vector<Cfa> &Cfas,
                     const std::vector<z3::expr> &Preds, CircInputs &In) {
  z3::expr_vector All(V.Ctx);
  auto Put = [&](const std::vector<z3::expr> &Es) {
    for (const z3::expr &E : Es)
      All.push_back(E);
  };
  Put(V.Cur);
  Put(V.Next);
  Put(V.Comparisons);
  for (const std::optional<z3::expr> &E : V.Init)
    if (E)
      All.push_back(*E);
  Put(Preds);
  for (const Cfa &C : Cfas)
    for (const Edge &E : C.Edges) {
      Put(E.Guards);
      for (const auto &[Var, T] : E.Assigns)
        All.push_back(T);
    }
  z3::context &To = *In.Ctx;
  z3::expr_vector W(To, Z3_ast_vector_translate(V.Ctx, All, To));
  unsigned K = 0;
  auto Take = [&](size_t N) {
    std::vector<z3::expr> Out;
    for (size_t I = 0; I < N; ++I)
      Out.push_back(W[K++]);
    return Out;
  };
  In.V = std::make_unique<Vars>(To);
  Vars &NV = *In.V;
  NV.List = V.List;
  NV.LoadedFrom = V.LoadedFrom;
  NV.Globals = V.Globals;
  NV.Locks = V.Locks;
  NV.AccessList = V.AccessList;
  NV.AccessId = V.AccessId;
  NV.Cur = Take(V.Cur.size());
  NV.Next = Take(V.Next.size());
  NV.Comparisons = Take(V.Comparisons.size());
  for (const std::optional<z3::expr> &E : V.Init)
    NV.Init.push_back(E ? std::optional<z3::expr>(W[K++]) : std::nullopt);
  In.Preds = Take(Preds.size());
  In.Cfas = Cfas;
  for (Cfa &C : In.Cfas)
    for (Edge &E : C.Edges) {
      E.Guards = Take(E.Guards.size());
      for (auto &[Var, T] : E.Assigns)
        T = W[K++];
    }
}

} // namespace

Result CircEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  // The static stage's result to refine: the portfolio's (whoop's), else
  // the lockset engine's.
  Result L = Opts.Static ? *Opts.Static
                         : analyseLocksets(PM, Opts.Cancelled, Opts.MaxPairs);
  auto Finish = [&](Result &Out) -> Result & {
    cutFindings(Out, Opts.MaxFindings);
    Out.stat("circ_seconds", std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - Start)
                                 .count());
    return Out;
  };
  // Nothing to refute: the static verdict is the answer.
  if (L.Program != Verdict::PossibleRace || L.Candidates.empty())
    return Finish(L);
  Result R = L;
  R.Engine = "circ";
  for (Finding &F : R.Findings)
    F.Engine = "circ";
  auto Keep = [&](ReasonKind K, std::string Why) -> Result & {
    R.reason(K, "circ: " + Why);
    return Finish(R);
  };
  if (!PM.unsoundness().empty())
    return Keep(ReasonKind::Unmodelled,
                "the program model is incomplete (above), so circ does not "
                "try to prove race freedom");
  if (!L.CandidatesComplete)
    return Keep(ReasonKind::Incomplete,
                "the static stage's list of candidate pairs is incomplete");

  // One proof per location (the variable or field the pair accesses), in
  // the order the findings name them: fewer accesses to tell apart make
  // smaller contexts, and a location proved is one possible race less.
  std::vector<std::string> Names;
  std::map<std::string, std::vector<size_t>> Groups;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    if (F.Category != FindingCategory::DataRace)
      continue;
    auto [It, New] = Groups.try_emplace(F.First.Variable);
    if (New)
      Names.push_back(F.First.Variable);
    It->second.push_back(I);
  }
  ReapedContext Owner;
  z3::context &Ctx = Owner.get();
  uint64_t Limit =
      Opts.CircWork ? Opts.CircWork : unitsForSeconds(Opts.CircBudget);
  CircOptions CO;
  std::vector<bool> Proved(R.Findings.size());
  size_t Locations = 0, States = 0, Checks = 0, Iterations = 0, Done = 0;
  uint64_t Used = 0, MaxLocation = 0;
  std::vector<std::pair<std::string, std::string>> NotProved;
  ReasonKind WorstKind = ReasonKind::Overapproximation;
  // The CFAs, built once with every candidate access on its edges; each
  // location's proof keeps only its own.
  DenseSet<const Instruction *> AllWanted;
  for (const Candidate &C : L.Candidates) {
    AllWanted.insert(C.A);
    AllWanted.insert(C.B);
  }
  Vars V(Ctx);
  std::vector<Cfa> AllCfas;
  std::vector<TemplateCount> Counts;
  std::string Unsupported;
  for (const ThreadTemplate &T : PM.threads()) {
    AllCfas.push_back(buildCfa(PM, T.Id, V, AllWanted));
    if (!AllCfas.back().Unsupported.empty()) {
      Unsupported = formatv("thread '{0}' is not modelled: {1}", T.Name,
                            AllCfas.back().Unsupported);
      break;
    }
    Counts.push_back({T.Id, T.Multi});
  }
  if (!Unsupported.empty())
    return Keep(ReasonKind::Unmodelled, Unsupported);
  for (const Cfa &C : AllCfas)
    Locations += C.size();
  std::vector<z3::expr> Preds = seedPredicates(AllCfas, V, 40);

  // Each location is a task with a Z3 context of its own (the CFAs with
  // its accesses, translated into it) and an equal share of the budget,
  // fixed in advance, so that one hard location does not take the
  // others' and the locations run on up to --jobs threads with no task
  // ahead of its budget (smt/BudgetedTasks.h: with shares of what the
  // locations before left, a location that uses its whole share, as most
  // do that circ cannot prove, ran past it and again).
  std::vector<CircOutcome> Outcomes(Names.size());
  auto Prepare = [&](size_t I, const std::atomic<uint64_t> &Budget,
                     const std::atomic<bool> &Stop) -> TaskWork {
    DenseSet<const Instruction *> Wanted;
    auto Pairs = std::make_shared<PairSet>();
    for (size_t FI : Groups[Names[I]])
      for (unsigned CI : R.Findings[FI].Candidates) {
        const Candidate &C = L.Candidates[CI];
        Wanted.insert(C.A);
        Wanted.insert(C.B);
        Pairs->insert({C.A, C.ThreadA, C.B, C.ThreadB});
        Pairs->insert({C.B, C.ThreadB, C.A, C.ThreadA});
      }
    std::vector<Cfa> Cfas = AllCfas;
    for (Cfa &C : Cfas)
      for (Edge &E : C.Edges)
        llvm::erase_if(E.Accesses, [&](const Instruction *I) {
          return !Wanted.contains(I);
        });
    auto In = std::make_shared<CircInputs>();
    translateInputs(V, Cfas, Preds, *In);
    Outcomes[I] = CircOutcome();
    return [&, I, In, Pairs, Budget = &Budget, Stop = &Stop] {
      TaskRun Run;
      WorkMeter Work(Budget->load(), In->Ctx.get());
      Work.LimitFeed = Budget;
      smt::SolverOptions SO;
      SO.Stage = "circ";
      SO.Work = &Work;
      SO.Cancel = Stop;
      SO.LogDir = Opts.SmtLogDir;
      auto S = smt::makeSolver(*In->Ctx, std::move(SO));
      CircOptions TaskCO = CO;
      TaskCO.Cancelled = Stop;
      TaskCO.Work = &Work;
      Outcomes[I] =
          runCirc(In->Cfas, Counts, *In->V, In->Preds, *Pairs, *S, TaskCO);
      S.reset();
      Work.poll();
      Run.Used = Work.used();
      Run.Cut = Work.exhausted();
      Run.Limit = Work.limit();
      Run.LoweredLate = Work.loweredLate();
      Run.Stopped = *Stop && !Run.Cut;
      Work.detach();
      return Run;
    };
  };
  auto Commit = [&](size_t I, const TaskRun &Run) {
    const std::string &Name = Names[I];
    Used += Run.Used;
    MaxLocation = std::max(MaxLocation, Run.Used);
    if (Run.Skipped) {
      NotProved.push_back({Name, "not tried: the budget ran out"});
      WorstKind = ReasonKind::Budget;
      return;
    }
    const CircOutcome &Out = Outcomes[I];
    States += Out.States;
    Checks += Out.PostChecks;
    Iterations += Out.Iterations;
    if (Out.K == CircOutcome::Safe) {
      ++Done;
      for (size_t FI : Groups[Name])
        Proved[FI] = true;
      return;
    }
    std::string Why = Out.Why;
    if (Out.K == CircOutcome::AbstractRace) {
      Why = "the inferred context lets two threads reach a candidate pair";
      if (Out.RaceA && Out.RaceB)
        Why += formatv(" ({0} / {1})", PM.location(Out.RaceA).str(),
                       PM.location(Out.RaceB).str())
                   .str();
      Why += " and circ does not refine its predicates yet";
    } else if (Out.OutOfWork) {
      WorstKind = ReasonKind::Budget;
    } else if (WorstKind == ReasonKind::Overapproximation) {
      WorstKind = ReasonKind::Incomplete;
    }
    NotProved.push_back({Name, Why});
  };
  TaskScheduleOptions TO;
  TO.Limit = Limit;
  TO.Jobs = Opts.SmtLogDir.empty() ? Opts.Jobs : 1;
  TO.Cancel = Opts.Cancelled;
  TO.FixedShares = true;
  TaskSchedule Sched = runBudgetedTasks(Names.size(), TO, Prepare, Commit);
  // The locations not reached: the run was cancelled.
  for (size_t I = Sched.Committed; I < Names.size(); ++I) {
    NotProved.push_back({Names[I], "not tried: the budget ran out"});
    WorstKind = ReasonKind::Budget;
  }
  R.stat("circ_locations", Names.size());
  R.stat("circ_locations_proved", Done);
  R.stat("circ_cfa_locations", Locations);
  R.stat("circ_iterations", Iterations);
  R.stat("circ_abstract_states", States);
  R.stat("circ_solver_checks", Checks);
  R.stat("circ_work_units", Used);
  R.stat("circ_location_max_units", MaxLocation);
  // These depend on the threads' timing (json_without_timing.py drops
  // them).
  R.stat("jobs_circ_reruns", Sched.Reruns);
  R.stat("jobs_circ_dropped", Sched.Dropped);
  // The findings of the locations not proved.
  std::vector<Finding> Left;
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (!Proved[I])
      Left.push_back(std::move(R.Findings[I]));
  R.Findings = std::move(Left);
  std::string Assumption = formatv(
      "circ: the static stage's candidate pairs are the only ones; on {0} "
      "of {1} locations none is reachable in CIRC's abstraction "
      "(predicates on integer globals and locks, inferred thread contexts, "
      "counters up to {2} then unbounded)",
      Done, Names.size(), CO.K);
  if (NotProved.empty() && R.Omitted == 0) {
    R.Program = Verdict::RaceFree;
    R.Findings.clear();
    R.Reasons.clear();
    R.Assumptions = PM.assumptions();
    R.Assumptions.push_back(Assumption);
    return Finish(R);
  }
  if (Done)
    R.reason(ReasonKind::Note,
             formatv("circ proved {0} of {1} locations free of races (their "
                     "possible races are not reported)",
                     Done, Names.size()));
  // One line per cause, naming the first locations.
  std::vector<std::string> Order;
  std::map<std::string, std::vector<std::string>> ByWhy;
  for (const auto &[Name, Why] : NotProved) {
    auto &V = ByWhy[Why];
    if (V.empty())
      Order.push_back(Why);
    V.push_back(Name);
  }
  for (const std::string &Why : Order) {
    const auto &V = ByWhy[Why];
    std::string Names2;
    for (size_t I = 0; I < V.size() && I < 3; ++I)
      Names2 += (I ? ", '" : "'") + V[I] + "'";
    if (V.size() > 3)
      Names2 += formatv(" and {0} more", V.size() - 3).str();
    R.reason(WorstKind, "circ (" + Names2 + "): " + Why);
  }
  return Finish(R);
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createCircEngine() {
  return std::make_unique<CircEngine>();
}

} // namespace crace
