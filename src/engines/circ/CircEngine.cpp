//===- CircEngine.cpp - the circ engine's run -----------------------------===//
#include "engines/circ/CircEngine.h"
#include "engines/circ/Circ.h"

#include "analysis/Lockset.h"
#include "model/ProgramModel.h"
#include "smt/Solver.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"
#include "smt/Z3Reaper.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>

using namespace llvm;

namespace crace {

using namespace circ;

Result CircEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  Result L = analyseLocksets(PM, Opts.Cancelled, Opts.MaxPairs);
  auto Finish = [&](Result &Out) -> Result & {
    cutFindings(Out, Opts.MaxFindings);
    Out.stat("circ_seconds", std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - Start)
                                 .count());
    return Out;
  };
  // Nothing to refute: the lockset engine's verdict is the answer.
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
                "the lockset engine's list of candidate pairs is incomplete");

  DenseSet<const Instruction *> Wanted;
  PairSet Pairs;
  for (const Candidate &C : L.Candidates) {
    Wanted.insert(C.A);
    Wanted.insert(C.B);
    Pairs.insert({C.A, C.ThreadA, C.B, C.ThreadB});
    Pairs.insert({C.B, C.ThreadB, C.A, C.ThreadA});
  }
  ReapedContext Owner;
  z3::context &Ctx = Owner.get();
  uint64_t Limit =
      Opts.CircWork ? Opts.CircWork : unitsForSeconds(Opts.CircBudget);
  WorkMeter Work(Limit, &Ctx);
  Vars V(Ctx);
  std::vector<Cfa> Cfas;
  std::vector<TemplateCount> Counts;
  for (const ThreadTemplate &T : PM.threads()) {
    Cfas.push_back(buildCfa(PM, T.Id, V, Wanted));
    if (!Cfas.back().Unsupported.empty())
      return Keep(ReasonKind::Unmodelled,
                  formatv("thread '{0}' is not modelled: {1}", T.Name,
                          Cfas.back().Unsupported));
    Counts.push_back({T.Id, T.Multi});
  }
  std::vector<z3::expr> Preds = seedPredicates(Cfas, V, 40);
  smt::SolverOptions SO;
  SO.Stage = "circ";
  SO.Work = &Work;
  SO.Cancel = Opts.Cancelled;
  SO.LogDir = Opts.SmtLogDir;
  auto S = smt::makeSolver(Ctx, std::move(SO));
  CircOptions CO;
  CO.Cancelled = Opts.Cancelled;
  CO.Work = &Work;
  CircOutcome Out = runCirc(Cfas, Counts, V, Preds, Pairs, *S, CO);
  size_t Locations = 0;
  for (const Cfa &C : Cfas)
    Locations += C.size();
  R.stat("circ_locations", Locations);
  R.stat("circ_variables", V.List.size());
  R.stat("circ_predicates", Out.Predicates);
  R.stat("circ_iterations", Out.Iterations);
  R.stat("circ_abstract_states", Out.States);
  R.stat("circ_solver_checks", Out.PostChecks);
  Work.poll();
  R.stat("circ_work_units", Work.used());
  if (Out.K == CircOutcome::Safe) {
    R.Program = Verdict::RaceFree;
    R.Findings.clear();
    R.Omitted = 0;
    R.Reasons.clear();
    R.Assumptions = PM.assumptions();
    size_t Ctxs = 0;
    for (size_t N : Out.ContextSizes)
      Ctxs += N;
    R.Assumptions.push_back(formatv(
        "circ: sequential consistency; every access stays inside the "
        "object it points to; the lockset engine's candidate pairs are the "
        "only ones, and none is reachable in the abstraction ({0} "
        "predicates, contexts of {1} abstract locations for {2} thread "
        "templates, counters up to {3} then unbounded)",
        Out.Predicates, Ctxs, Cfas.size(), CO.K));
    return Finish(R);
  }
  if (Out.K == CircOutcome::AbstractRace) {
    std::string Where;
    if (Out.RaceA && Out.RaceB)
      Where = formatv(" ({0} / {1})", PM.location(Out.RaceA).str(),
                      PM.location(Out.RaceB).str());
    return Keep(ReasonKind::Overapproximation,
                "the inferred context lets two threads reach a candidate "
                "pair" +
                    Where + " and circ does not refine its predicates yet");
  }
  return Keep(Work.exhausted() ? ReasonKind::Budget : ReasonKind::Incomplete,
              Work.exhausted() ? "its work budget ran out" : Out.Why);
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createCircEngine() {
  return std::make_unique<CircEngine>();
}

} // namespace crace
