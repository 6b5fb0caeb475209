//===- Portfolio.cpp - engine composition (--engine=auto) -----------------===//
#include "driver/Portfolio.h"
#include "smt/WorkBudget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>
#include <tuple>

using namespace llvm;

namespace crace::driver {

/// Developers' hook (docs/testing.md): CRACE_DEBUG_STALL_STAGE=ENGINE makes
/// that engine start with 60 s that ignore the time limit, as a
/// Z3 call that does not stop when interrupted does; the tests of the
/// watchdog's hard stop use it.
static void debugStall(StringRef Stage) {
  if (const char *S = std::getenv("CRACE_DEBUG_STALL_STAGE"); S && Stage == S)
    std::this_thread::sleep_for(std::chrono::seconds(60));
}

Result runEngine(EngineKind K, const ProgramModel &PM,
                 const EngineOptions &EO) {
  static std::map<EngineKind, std::string> Phases;
  std::string &Text = Phases[K];
  if (Text.empty())
    Text = "running the " + engineName(K).str() + " engine";
  Phase = Text.c_str();
  debugStall(engineName(K));
  if (EO.Progress)
    EO.Progress->begin("", 0); // the engine starts its own count, if any
  return createEngine(K)->run(PM, EO);
}

bool hasDataRace(const Result &R) {
  for (const Finding &F : R.Findings)
    if (F.Category == FindingCategory::DataRace)
      return true;
  return false;
}

namespace {

/// Shares of the time budget in --engine=auto (docs/usage.md, "Time
/// budget"): whoop gets the work of at most WhoopShareCap seconds and of
/// WhoopShare of the run's limit (a deterministic work budget at the
/// calibrated rate, WorkMeter.h; its wall clock is only a safety net of
/// WallSafety times that), explore ExploreShare of what is left then, kiss
/// the work of at most KissCap seconds and of KissWorkShare of the run's
/// limit (its wall clock, KissShare of what is left after explore, is the
/// safety net) (kiss
/// encodes the whole sequentialised program before its first query, which
/// on a large program takes long and rarely pays). Whatever a stage leaves
/// unused goes to the next.
constexpr double WhoopShare = 0.1, WhoopShareCap = 10, WallSafety = 3;
constexpr uint64_t AutoMaxTransitions = 4'000'000;
/// And of executed instructions, replays included: on a big program
/// (automount_incl_lib) a scheduling point costs thousands of instructions
/// and 4000000 of them took minutes (about 14 million instructions a
/// second on the 2-core machine, loaded).
constexpr uint64_t AutoMaxInstructions = 300'000'000;
constexpr double MoreRacesShare = 0.25;
/// circ: the work of at most CircShareCap seconds and of CircShare of the
/// run's limit (a small share: it proves few programs so far).
constexpr double CircShare = 0.1, CircShareCap = 3;
constexpr double ExploreShare = 0.8, KissShare = 0.5, KissCap = 15,
                 KissWorkShare = 0.25;

/// A portfolio stage's work budget in units: the user's --X-work when
/// given, else the work of at most Cap seconds, of Share of the run's
/// limit and of the user's --X-budget seconds, at the calibrated rate.
uint64_t stageWork(const Watchdog &Dog, double Cap, double Share,
                   unsigned BudgetSecs, uint64_t Work) {
  if (Work)
    return Work;
  double Secs = Cap;
  if (Dog.budgetBasisSeconds())
    Secs = std::min(Secs, Dog.budgetBasisSeconds() * Share);
  if (BudgetSecs)
    Secs = std::min(Secs, double(BudgetSecs));
  return std::max<uint64_t>(1, unitsForSeconds(Secs));
}

/// kiss gives one reason per target ("kiss (x): WHY"); on a large program
/// hundreds of targets fail for one cause. One line per cause, naming the
/// first targets, in the order the causes first appear (a line keeps the
/// kind of its cause's first reason).
std::vector<Reason> groupKissReasons(const std::vector<Reason> &In) {
  std::vector<std::pair<std::string, ReasonKind>> Order;
  std::vector<Reason> Out;
  std::map<std::string, std::vector<std::string>> Targets;
  for (const Reason &R : In) {
    StringRef S(R.Text);
    size_t Close = S.find("): ");
    if (!S.starts_with("kiss (") || Close == StringRef::npos) {
      Order.push_back({"\x01" + R.Text, R.Kind}); // kept as it is
      continue;
    }
    std::string Why = S.substr(Close + 3).str();
    std::string Target = S.substr(6, Close - 6).str();
    auto &L = Targets[Why];
    if (L.empty())
      Order.push_back({Why, R.Kind});
    L.push_back(Target);
  }
  for (const auto &[K, Kind] : Order) {
    if (StringRef(K).starts_with("\x01")) {
      Out.push_back({Kind, K.substr(1)});
      continue;
    }
    const auto &L = Targets[K];
    std::string Names;
    for (size_t I = 0; I < L.size() && I < 3; ++I)
      Names += (I ? ", " : "") + L[I];
    if (L.size() > 3)
      Names += formatv(" and {0} more targets", L.size() - 3).str();
    Out.push_back({Kind, "kiss (" + Names + "): " + K});
  }
  return Out;
}

/// A confirming engine's result, followed by the static stage's possible
/// races on other pairs of source lines (a confirmed race does not settle
/// them: the user still needs to see them, unless the confirming search
/// was complete), at most Max findings in all (0: no limit).
Result withRemainingPossibleRaces(Result Confirmed, const Result &Static,
                                  unsigned Max) {
  // An explore search over every schedule and input reported every race.
  if (Confirmed.SearchComplete)
    return Confirmed;
  auto Key = [](const Finding &F) {
    auto A = std::make_tuple(F.First.Loc.File, F.First.Loc.Line);
    auto B = std::make_tuple(F.Second.Loc.File, F.Second.Loc.Line);
    return A < B ? std::make_pair(A, B) : std::make_pair(B, A);
  };
  std::set<decltype(Key(std::declval<const Finding &>()))> Seen;
  for (const Finding &F : Confirmed.Findings)
    if (F.Category == FindingCategory::DataRace)
      Seen.insert(Key(F));
  for (const Finding &F : Static.Findings)
    if (F.Category == FindingCategory::DataRace && Seen.insert(Key(F)).second)
      Confirmed.Findings.push_back(F);
  cutFindings(Confirmed, Max);
  Confirmed.Omitted += Static.Omitted;
  return Confirmed;
}

} // namespace

std::string portfolioWorkBudgets(const Watchdog &Dog, const EngineOptions &EO) {
  return formatv(
             "whoop {0}, kiss {1}",
             stageWork(Dog, WhoopShareCap, WhoopShare, EO.WhoopBudget,
                       EO.WhoopWork),
             stageWork(Dog, KissCap, KissWorkShare, EO.KissBudget, EO.KissWork))
      .str();
}

/// --engine=auto (DESIGN.md's portfolio, as far as the engines exist):
/// 1. the lockset engine refined by whoop; race-free is the answer;
/// 2. explore on what they cannot prove: a confirmed race or an
///    exhaustive proof of race freedom is the answer;
/// 3. kiss, when possible races remain and explore did not decide (it
///    sampled inputs, or hit a bound): a race it confirms is the answer
///    (kiss never proves race freedom);
/// otherwise the lockset/whoop possible races stand, with every engine's
/// reasons. The reported engine is the one whose verdict is given. Each
/// stage gets a share of the remaining time budget (above); when the run's
/// limit cuts a stage, what the stages found so far is returned.
Result runPortfolio(const ProgramModel &PM, const EngineOptions &EO,
                    Watchdog &Dog, const std::atomic<bool> &Cancel) {
  auto Merge = [](Result &Into, const Result &From) {
    Into.Stats.insert(Into.Stats.end(), From.Stats.begin(), From.Stats.end());
  };
  // Stage 1, static: whoop (it runs the lockset engine first and refines
  // its pairs; the candidate pairs PDP uses are the lockset engine's).
  EngineOptions StaticOpts = EO;
  StaticOpts.Cancelled = &Dog.StageCancel;
  // From the configured limit, not the time left after the front end: the
  // budget, hence the report, must not depend on how long parsing took.
  StaticOpts.WhoopWork =
      stageWork(Dog, WhoopShareCap, WhoopShare, EO.WhoopBudget, EO.WhoopWork);
  StaticOpts.WhoopWallLimit =
      WallSafety * double(StaticOpts.WhoopWork) / double(UnitsPerSecond);
  Dog.beginStage(0);
  Result Static = runEngine(EngineKind::Whoop, PM, StaticOpts);
  if (Static.Program == Verdict::RaceFree || Cancel)
    return Static;

  // Stage 1b, circ: context inference on whoop's remaining locations
  // (flags and state protocols, unboundedly many threads). A proof of
  // every location is the answer; the locations it proves leave the
  // report (the candidate pairs stay whoop's: explore's pruning uses them).
  if (Static.Program == Verdict::PossibleRace && Static.CandidatesComplete) {
    // What each stage starts from is what a hard stop at the time limit
    // reports (Watchdog::publish): a stage that does not stop on time (a
    // Z3 call ignoring its interruption) loses nothing found before it.
    Dog.publish(Static);
    EngineOptions CircOpts = EO;
    CircOpts.Static = &Static;
    CircOpts.MaxFindings = 0;
    CircOpts.Cancelled = &Dog.StageCancel;
    CircOpts.CircWork =
        stageWork(Dog, CircShareCap, CircShare, EO.CircBudget, EO.CircWork);
    Dog.beginStage(WallSafety * double(CircOpts.CircWork) /
                   double(UnitsPerSecond));
    Result Circ = runEngine(EngineKind::Circ, PM, CircOpts);
    if (Circ.Program == Verdict::RaceFree) {
      Circ.Stats.insert(Circ.Stats.begin(), Static.Stats.begin(),
                        Static.Stats.end());
      return Circ;
    }
    // Circ's reasons follow Static's (it starts from a copy); its note
    // says how many locations it proved.
    auto Proved =
        std::find_if(Circ.Reasons.begin() +
                         std::min(Circ.Reasons.size(), Static.Reasons.size()),
                     Circ.Reasons.end(), [](const Reason &W) {
                       return W.Kind == ReasonKind::Note;
                     });
    if (Proved != Circ.Reasons.end() &&
        Circ.Findings.size() < Static.Findings.size()) {
      // Circ kept Static's findings of the locations it did not prove, in
      // their order (it cut none: MaxFindings 0 below).
      for (Finding &F : Circ.Findings)
        F.Engine = Static.Engine;
      Static.Findings = std::move(Circ.Findings);
      Static.reason(ReasonKind::Note, Proved->Text);
    }
    Merge(Static, Circ);
    if (Cancel)
      return Static;
  }

  // Stage 2, explore.
  Dog.publish(Static);
  EngineOptions DynOpts = EO;
  DynOpts.Static = &Static;
  DynOpts.Cancelled = &Dog.StageCancel;
  // explore's deterministic budget is its scheduling points; the
  // standalone default (20000000) took 133 s on goblint-bench's
  // pfscan_comb (PDP checks at every point), over the 60 s a default run
  // may take, so the portfolio bounds it lower unless it was given.
  if (!EO.MaxInstructionsGiven)
    DynOpts.MaxInstructions = AutoMaxInstructions;
  if (!EO.MaxTransitionsGiven)
    DynOpts.MaxTransitions =
        EO.MaxTransitions ? std::min(EO.MaxTransitions, AutoMaxTransitions)
                          : AutoMaxTransitions;
  // After a first race, more are looked for with a quarter of the budget
  // (the remaining static possible races are reported either way).
  DynOpts.MoreRacesShare = MoreRacesShare;
  double Remaining = Dog.remaining();
  double ExploreSecs = std::isinf(Remaining) ? 0 : Remaining * ExploreShare;
  Dog.beginStage(ExploreSecs);
  Result Dynamic = runEngine(EngineKind::Explore, PM, DynOpts);
  bool ExploreRanOut = Dog.stageRanOut();
  if (Dynamic.Program == Verdict::RaceFree) {
    Dynamic.Stats.insert(Dynamic.Stats.begin(), Static.Stats.begin(),
                         Static.Stats.end());
    return Dynamic;
  }
  if (Dynamic.Program == Verdict::Race) {
    Dynamic.Stats.insert(Dynamic.Stats.begin(), Static.Stats.begin(),
                         Static.Stats.end());
    return withRemainingPossibleRaces(std::move(Dynamic), Static,
                                      EO.MaxFindings);
  }
  // (The share's length is not printed: it depends on the time the
  // earlier stages took, and the report must not change between runs.)
  if (ExploreRanOut)
    Static.reason(ReasonKind::Budget,
                  formatv("explore: its share of the time budget ({0} % of "
                          "the time left) ran out",
                          unsigned(ExploreShare * 100)));
  for (const Reason &Why : Dynamic.Reasons)
    Static.reason(Why.Kind, "explore: " + Why.Text);
  // Deadlocks found on the way are still worth reporting.
  for (Finding &F : Dynamic.Findings)
    if (F.Category != FindingCategory::DataRace)
      Static.Findings.push_back(std::move(F));
  Merge(Static, Dynamic);
  if (Cancel || !hasDataRace(Static))
    return Static;

  // Stage 3, kiss: a bounded model checker over the sequentialised
  // program tries every input value, where explore sampled them.
  Dog.publish(Static);
  EngineOptions KissOpts = EO;
  KissOpts.Cancelled = &Dog.StageCancel;
  KissOpts.Static = &Static; // Yield-MR's candidate pairs
  // A work budget (deterministic) of at most KissCap seconds and of
  // KissWorkShare of the run's limit, at the calibrated rate; the wall
  // clock (KissShare of the time left, at most WallSafety times those
  // seconds) is the safety net.
  KissOpts.KissWork =
      stageWork(Dog, KissCap, KissWorkShare, EO.KissBudget, EO.KissWork);
  Remaining = Dog.remaining();
  double KissWall =
      WallSafety * double(KissOpts.KissWork) / double(UnitsPerSecond);
  if (!std::isinf(Remaining))
    KissWall = std::min(KissWall, Remaining * KissShare);
  Dog.beginStage(KissWall);
  Result Kiss = runEngine(EngineKind::Kiss, PM, KissOpts);
  bool KissRanOut = Dog.stageRanOut();
  if (Kiss.Program == Verdict::Race && hasDataRace(Kiss)) {
    // Confirmed: kiss's findings (trace and input values) are the answer.
    Kiss.Stats.insert(Kiss.Stats.begin(), Static.Stats.begin(),
                      Static.Stats.end());
    return withRemainingPossibleRaces(std::move(Kiss), Static, EO.MaxFindings);
  }
  // Only a safety net now: kiss's work budget ends it first on a machine
  // like the calibrated one, loaded or not (and says so, deterministically).
  if (KissRanOut)
    Static.reason(ReasonKind::Budget,
                  formatv("kiss: its wall-clock safety limit ({0} % of the "
                          "time left, at most {1} times its work budget's "
                          "seconds) ran out before its work budget",
                          unsigned(KissShare * 100), unsigned(WallSafety)));
  for (const Reason &Why : groupKissReasons(Kiss.Reasons)) {
    // Where the share cut kiss (transform, encoding, which target) depends
    // on the machine's speed: the line above says it.
    if (KissRanOut && StringRef(Why.Text).ends_with("cancelled"))
      continue;
    Static.reason(Why.Kind, StringRef(Why.Text).starts_with("kiss")
                                ? Why.Text
                                : "kiss: " + Why.Text);
  }
  // Assertion failures kiss confirmed are reported alongside.
  for (Finding &F : Kiss.Findings)
    if (F.Category != FindingCategory::DataRace)
      Static.Findings.push_back(std::move(F));
  Merge(Static, Kiss);
  return Static;
}

} // namespace crace::driver
