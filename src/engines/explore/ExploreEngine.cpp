//===- ExploreEngine.cpp - DPOR exploration
//---------------------------------===//
//
// The search: stateless model checking with DPOR (Flanagan-Godefroid),
// sleep sets and PDP pruning, and the budgets (Explorer.h); its passes,
// levels and input draws are in ExploreSearch.cpp.
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Explorer.h"
#include "model/Counters.h"

#define DEBUG_TYPE "crace-explore"

using namespace llvm;

CRACE_STATISTIC(NumExecutions, "Executions explored");
CRACE_STATISTIC(NumTransitions, "Transitions executed");
CRACE_STATISTIC(NumBacktracks, "Backtrack points taken (another thread)");
CRACE_STATISTIC(NumPdpChecks, "States PDP checked for a possible race");
CRACE_STATISTIC(NumPdpPruned, "Backtrack points pruned by PDP");
CRACE_STATISTIC(NumExploreRaces, "Races the exploration confirmed");

namespace crace::explore {

std::vector<uint64_t> keysOf(const PendingOp &Op, unsigned T) {
  std::vector<uint64_t> Keys;
  for (const MemRef &R : Op.Refs)
    Keys.push_back(R.Obj);
  if (syncKind(Op.K)) {
    if (Op.Sync)
      Keys.push_back((uint64_t(1) << 63) | Op.Sync);
    if (Op.Sync2)
      Keys.push_back((uint64_t(1) << 63) | Op.Sync2);
  }
  if (Op.K == PendingOp::Join)
    Keys.push_back((uint64_t(1) << 62) | (Op.Sync - 1));
  if (Op.K == PendingOp::ThreadEnd)
    Keys.push_back((uint64_t(1) << 62) | T);
  return Keys;
}

void Explorer::record(unsigned T, const PendingOp &Op) {
  Event E;
  E.Tid = T;
  E.Op = Op;
  E.InAtomic = ownsAtomic(T);
  if (ThreadClock.size() <= T) {
    ThreadClock.resize(T + 1);
    ThreadEvents.resize(T + 1, 0);
  }
  Clock C = ThreadClock[T];
  if (globalKind(Op.K)) {
    for (const Event &P : Events)
      joinInto(C, P.VC);
  } else {
    for (unsigned J : GlobalEvents)
      if (Events[J].Tid != T)
        joinInto(C, Events[J].VC);
    latestDependent(Op, T, [&](unsigned J) { joinInto(C, Events[J].VC); });
  }
  if (C.size() <= T)
    C.resize(T + 1, 0);
  C[T] = ++ThreadEvents[T];
  E.VC = C;
  ThreadClock[T] = C;
  unsigned Idx = Events.size();
  if (globalKind(Op.K))
    GlobalEvents.push_back(Idx);
  for (uint64_t K : keysOf(Op, T)) {
    auto &PerThread = EventsByKey[K];
    if (PerThread.size() <= T)
      PerThread.resize(T + 1);
    if (PerThread[T].empty() || PerThread[T].back() != Idx)
      PerThread[T].push_back(Idx);
  }
  if (SectionRaces.size() <= T) {
    SectionRaces.resize(T + 1);
    SectionAccesses.resize(T + 1, 0);
  }
  if (Op.K == PendingOp::AtomicBegin && !ownsAtomic(T)) {
    SectionRaces[T].clear();
    SectionAccesses[T] = 0;
  } else if (Op.K == PendingOp::Memory && ownsAtomic(T)) {
    ++SectionAccesses[T];
  }
  if (Op.K == PendingOp::AtomicBegin) {
    if (AtomicNesting.size() <= T)
      AtomicNesting.resize(T + 1, 0);
    ++AtomicNesting[T];
  } else if (Op.K == PendingOp::AtomicEnd && ownsAtomic(T)) {
    --AtomicNesting[T];
    if (!ownsAtomic(T)) {
      // The section completed: its races happened.
      std::vector<DeferredRace> Done = std::move(SectionRaces[T]);
      SectionRaces[T].clear();
      for (DeferredRace &D : Done)
        reportRace(D.Key, std::move(D.F));
    }
  }
  Events.push_back(std::move(E));
  // A created thread starts with its creator's clock.
  for (unsigned U = ThreadClock.size(); U < Exec.numThreads(); ++U) {
    ThreadClock.push_back(C);
    ThreadEvents.push_back(0);
  }
}

/// Flanagan–Godefroid: for every thread's next operation, find the last
/// event it depends on that does not happen before it, and make sure the
/// state before that event also tries this thread (or everything enabled).
void Explorer::analyseState(size_t D) {
  for (unsigned P = 0; P < Exec.numThreads(); ++P) {
    const PendingOp &Op = Exec.pending(P);
    if (Op.K == PendingOp::Done || Op.K == PendingOp::Blocked)
      continue;
    Clock CP = clockOf(P);
    int Last = -1;
    auto Consider = [&](unsigned J) {
      const Event &E = Events[J];
      if (int(J) <= Last || E.Tid == P)
        return;
      if (E.Tid < CP.size() && E.VC[E.Tid] <= CP[E.Tid])
        return; // happens before P
      if (dependent(E.Op, E.Tid, Op, P) && !notReversible(E.Op, E.Tid, Op))
        Last = int(J);
    };
    if (globalKind(Op.K)) {
      for (unsigned J = 0; J < Events.size(); ++J)
        Consider(J);
    } else {
      for (unsigned J : GlobalEvents)
        Consider(J);
      latestDependent(Op, P, Consider, [&](const Event &E) {
        return notReversible(E.Op, E.Tid, Op);
      });
    }
    if (Last < 0 || size_t(Last) >= D)
      continue;
    Node &N = Stack[Last];
    if (N.SubspaceRaceFree) {
      // PDP: nothing below that state can race; do not backtrack there.
      // The executions skipped there could have added backtrack points
      // above it, so the ancestors get their partner threads instead.
      ++Pruned;
      applyPartners(size_t(Last));
      continue;
    }
    if (std::find(N.Enabled.begin(), N.Enabled.end(), P) != N.Enabled.end())
      N.Backtrack.insert(P);
    else
      N.Backtrack.insert(N.Enabled.begin(), N.Enabled.end());
  }
}

bool Explorer::execute() {
  Events.clear();
  ThreadClock.clear();
  ThreadEvents.clear();
  EventsByKey.clear();
  GlobalEvents.clear();
  AtomicNesting.clear();
  SectionRaces.clear();
  SectionAccesses.clear();
  SyncClock.clear();
  SyncObjClock.clear();
  EventSyncVC.clear();
  PlainByObj.clear();
  HintPair.reset();
  LocksetHint.reset();
  Depth = 0;
  StepNode = -1;
  NondetPos = 0;
  ClassDraws = 0;
  RunDraws.clear();
  RunCounts.clear();
  size_t Prefix = Stack.size(); // nodes to replay (the last one re-chosen)
  Instructions += Exec.instructionsExecuted(); // the previous run's
  Status S = Exec.reset([this](unsigned Bits) { return drawNondet(Bits); });
  ++Executions;
  std::set<unsigned> NextSleep;
  auto Fail = [&](Status St) {
    if (HintMode)
      return false; // the hint does not fit: nothing learnt
    std::string Where;
    if (Exec.errorInst()) {
      SourceLoc L = PM.location(Exec.errorInst());
      Where = L.valid() ? " at " + L.str() : "";
    }
    switch (St) {
    case Status::Unsupported:
      note(ReasonKind::Unmodelled,
           "the explore engine cannot execute: " + Exec.error() + Where);
      Stop = true;
      return false;
    case Status::MemoryError:
      note(ReasonKind::Incomplete,
           "memory error: " + Exec.error() + Where +
               " (the run stops there; behaviour after undefined behaviour "
               "is not explored)");
      Exhaustive = false;
      return true;
    case Status::BoundHit:
      note(ReasonKind::Budget,
           Exec.error() + Where + " (the run was cut there)");
      Exhaustive = false;
      return true;
    case Status::Ok:
      break;
    }
    return true;
  };
  if (S != Status::Ok)
    return Fail(S);
  noteStopped();
  noteHavocs();
  RunTainted = false;
  while (true) {
    if (cancelled()) {
      Stop = true;
      return false;
    }
    unsigned NT = Exec.numThreads();
    std::vector<unsigned> Enabled;
    for (unsigned T = 0; T < NT; ++T)
      if (Exec.enabled(T))
        Enabled.push_back(T);
    if (Depth >= Prefix && HintMode) {
      // A hint's witness ends here; the later access's thread may go on
      // alone a little (its path can differ from the run's once the other
      // thread is held: a semaphore it now waits on, say).
      checkRaces(Depth);
      if (HintFocus < 0 || HintSteps == 0 || Races != HintRacesBefore ||
          !Exec.enabled(unsigned(HintFocus))) {
        finishSections();
        break;
      }
      --HintSteps;
      Node N;
      N.Chosen = unsigned(HintFocus);
      Stack.push_back(std::move(N));
    } else if (Depth >= Prefix) {
      // A new state: check it, then extend the stack.
      bool AtBound = Exec.parkedThreads() > 0;
      for (unsigned T = 0; T < NT && !AtBound; ++T)
        AtBound = Exec.atThreadBound(T);
      if (!HintMode && AtBound) {
        if (Exec.maxThreads() < Opts.MaxThreads) {
          ThreadCut = true; // a level of explore(), noted there
        } else {
          if (Exhaustive)
            note(ReasonKind::Budget,
                 formatv("thread bound of {0} reached (--max-threads): "
                         "runs with more threads were not explored",
                         Exec.maxThreads()));
          Exhaustive = false;
        }
      }
      checkRaces(Depth);
      if (ReplayMode) {
        finishSections();
        break; // the replayed schedule ends here
      }
      // Also in a final state: a pending operation dependent with the
      // last events (a thread cut off by exit) must be tried before them.
      analyseState(Depth);
      if (Enabled.empty()) {
        if (!Exec.exited())
          checkDeadlock();
        break;
      }
      if (Depth >= DepthLimit) {
        DepthCut = true; // noted by explore() for the last level only
        break;
      }
      Node N;
      N.Enabled = Enabled;
      N.Sleep = NextSleep;
      if (Oracle) {
        // Monotone along a run: a race-free subspace stays race-free.
        if (Depth > 0 && Stack[Depth - 1].SubspaceRaceFree) {
          N.SubspaceRaceFree = true;
        } else {
          // The positions stay with a node that is not race-free, for
          // applyPartners.
          for (unsigned T = 0; T < NT; ++T) {
            N.Pos.push_back(Exec.position(T));
            N.Pending.push_back(Exec.enabled(T) ? Exec.pending(T).Inst
                                                : nullptr);
          }
          ++PdpChecks;
          N.SubspaceRaceFree = Oracle->raceFree(N.Pos);
          if (N.SubspaceRaceFree) {
            N.Pos.clear();
            N.Pending.clear();
          }
        }
      }
      // Keep the running thread when possible (few context switches
      // first), but after SliceSteps steps in a row let the next thread
      // run: a thread that never stops (a server loop, a livelock) would
      // otherwise keep the others from ever showing their later steps
      // before the run is cut, and DPOR only sees what runs.
      constexpr unsigned SliceSteps = 64;
      unsigned Choice = NT;
      unsigned Prev = Events.empty() ? 0 : Events.back().Tid;
      unsigned InARow = 0;
      for (auto It = Events.rbegin();
           It != Events.rend() && InARow < SliceSteps && It->Tid == Prev; ++It)
        ++InARow;
      auto Awake = [&](unsigned T) { return !N.Sleep.count(T); };
      bool PrevOk =
          std::count(Enabled.begin(), Enabled.end(), Prev) && Awake(Prev);
      if (PrevOk && InARow < SliceSteps)
        Choice = Prev;
      else {
        // Round robin from the thread after Prev.
        for (unsigned T : Enabled)
          if (Awake(T) && T > Prev) {
            Choice = T;
            break;
          }
        if (Choice == NT)
          for (unsigned T : Enabled)
            if (Awake(T)) {
              Choice = T;
              break;
            }
      }
      if (Choice == NT) {
        ++SleepBlocked; // every enabled thread sleeps: explored elsewhere
        break;
      }
      N.Chosen = Choice;
      N.Backtrack.insert(Choice);
      // A parked spinner woken by another thread's pending write: its loop
      // reads what that write changes, so it must also run first here
      // (its pending operation alone does not show the conflict).
      for (unsigned T : Enabled)
        if (Exec.spinning(T) && !N.Sleep.count(T)) {
          if (!N.SubspaceRaceFree)
            N.Backtrack.insert(T);
          else if (Oracle) { // pruned (PDP)
            ++Pruned;
            applyPartners(Depth);
          }
        }
      Stack.push_back(std::move(N));
    }
    Node &N = Stack[Depth];
    unsigned T = N.Chosen;
    if (!Exec.enabled(T) && HintMode)
      return false;
    if (!Exec.enabled(T)) {
      note(ReasonKind::Failure,
           ReplayMode ? formatv("the trace does not fit this program: step "
                                "{0} runs a thread that cannot run there",
                                Depth + 1)
                            .str()
                      : "internal: replay diverged (nondeterminism outside "
                        "the scheduler's control)");
      Stop = true;
      return false;
    }
    // Sleep set of the next state: sleeping/done threads independent of T.
    NextSleep.clear();
    const PendingOp Op = Exec.pending(T);
    for (const std::set<unsigned> *Set : {&N.Sleep, &N.Done})
      for (unsigned U : *Set)
        if (U != T && !dependent(Exec.pending(U), U, Op, T))
          NextSleep.insert(U);
    NondetPos = 0;
    StepNode = int(Depth);
    unsigned ThreadsBefore = Exec.numThreads();
    unsigned ParkedBefore = Exec.parkedThreads();
    // A visible operation of a thread that ran past a call it did not
    // execute: what the others see from here on may not be the program's.
    RunTainted |= Exec.havocked(T);
    S = Exec.step(T);
    record(T, Op);
    syncRecord(T, Op, unsigned(Events.size() - 1));
    Events.back().Parked = Exec.parkedThreads() - ParkedBefore;
    if (Exec.numThreads() > ThreadsBefore) {
      Events.back().Child = int(ThreadsBefore);
      if (SyncClock.size() <= ThreadsBefore)
        SyncClock.resize(ThreadsBefore + 1);
      SyncClock[ThreadsBefore] = SyncClock[T]; // created after this
    }
    ++Transitions;
    if (Opts.Progress && (Transitions & 1023) == 0)
      Opts.Progress->Done.store(Transitions, std::memory_order_relaxed);
    ++Depth;
    StepNode = -1;
    MaxDepthSeen = std::max<uint64_t>(MaxDepthSeen, Depth);
    if (S != Status::Ok)
      return Fail(S);
    noteStopped();
    noteHavocs();
    if (Exec.divergedAt() && !HintMode) {
      SourceLoc L = PM.location(Exec.divergedAt());
      note(ReasonKind::Budget,
           formatv("a thread ran {0} instructions without a visible "
                   "operation{1}; it was taken as looping for good (a "
                   "longer finite loop would have done more)",
                   ExecLimits().MaxLocalSteps,
                   L.valid() ? " at " + L.str() : std::string())
               .str());
      Exhaustive = false;
    }
    if (Exec.exited() && Op.Error && (RunTainted || Exec.havocked(T))) {
      // Not confirmed: the run depends on a call it did not execute.
      UnconfirmedAsserts.insert(Op.Inst);
    } else if (Exec.exited() && Op.Error &&
               AssertsSeen.insert(Op.Inst).second) {
      // Its own finding kind, with the run that reaches it; it does not
      // change the race verdict.
      Finding F;
      F.Kind = Verdict::Race;
      F.Category = FindingCategory::AssertionFailure;
      F.Engine = "explore";
      F.First.Thread = Exec.threadName(T);
      F.First.Loc = PM.location(Op.Inst);
      F.First.Variable = "assertion";
      F.Trace = trace();
      F.Schedule = schedule();
      R.Findings.push_back(std::move(F));
    }
    // (After an exit nothing is enabled: the loop ends at the next state.)
  }
  return true;
}

bool Explorer::backtrack() {
  while (!Stack.empty()) {
    Node &N = Stack.back();
    // Every input vector of the chosen step first: the variants share the
    // step's visible operation (inputs are local), so they share its
    // dependencies, and a thread in a sleep set stands for all of them.
    if (nextInputs(N.Nondet, N.NondetSlots)) {
      ++InputVariants;
      return true;
    }
    N.Done.insert(N.Chosen);
    for (unsigned T : N.Backtrack)
      if (!N.Done.count(T) && !N.Sleep.count(T)) {
        ++NumBacktracks;
        N.Chosen = T;
        N.Nondet.clear(); // they belonged to another thread's step
        N.NondetSlots.clear();
        return true;
      }
    Stack.pop_back();
  }
  return false;
}

Result Explorer::run() {
  auto Start = std::chrono::steady_clock::now();
  R.Engine = "explore";
  if (Opts.Progress)
    Opts.Progress->begin("transitions", Opts.MaxTransitions);
  if (!Opts.Replay.empty()) {
    ReplayMode = true;
    if (loadSchedule(Opts.Replay))
      execute();
    if (Races)
      R.Program = Verdict::Race;
    else {
      R.Program = Verdict::Unknown;
      R.Reasons = Reasons;
      R.reason(ReasonKind::Incomplete,
               "the replayed interleaving does not end in a race");
    }
    R.stat("replayed_steps", double(Transitions));
    return std::move(R);
  }
  search();
  finish(Start);
  return std::move(R);
}

std::optional<std::string> Explorer::boundReached() const {
  if (Opts.MaxExecutions && Executions >= Opts.MaxExecutions)
    return formatv("execution bound of {0} reached (--max-executions)",
                   Opts.MaxExecutions)
        .str();
  if (Opts.MaxTransitions && Transitions >= Opts.MaxTransitions)
    return formatv("bound of {0} scheduling points over all runs reached "
                   "(--max-transitions)",
                   Opts.MaxTransitions)
        .str();
  if (Opts.MaxInstructions && instructions() >= Opts.MaxInstructions)
    return formatv("bound of {0} executed instructions over all runs "
                   "reached (--max-instructions)",
                   Opts.MaxInstructions)
        .str();
  if (moreRacesSpent())
    return formatv("after the first race, the search for more stopped at "
                   "{0} % of its budget",
                   unsigned(Opts.MoreRacesShare * 100))
        .str();
  return std::nullopt;
}

bool Explorer::moreRacesSpent() const {
  if (!Races || Opts.StopAtFirstRace || Opts.MoreRacesShare <= 0)
    return false;
  auto Past = [&](uint64_t Now, uint64_t AtFirst, uint64_t Bound) {
    return Bound &&
           Now >= AtFirst + uint64_t(double(Bound) * Opts.MoreRacesShare);
  };
  return Past(Transitions, FirstRaceTransitions, Opts.MaxTransitions) ||
         Past(instructions(), FirstRaceInstructions, Opts.MaxInstructions);
}

void Explorer::exploreRound() {
  bool More = true;
  while (More && !Stop) {
    if (!execute())
      break;
    learnFromRun();
    if (!(Opts.StopAtFirstRace && Races))
      tryHints();
    if (Stop)
      break;
    if (Opts.StopAtFirstRace && Races)
      break;
    if (ClassPassGivenUp)
      break;
    if (auto Bound = boundReached()) {
      if (backtrack()) {
        note(ReasonKind::Budget, *Bound);
        Exhaustive = false;
      }
      break;
    }
    if ((LevelExecEnd && Executions >= LevelExecEnd) ||
        (LevelTransEnd && Transitions >= LevelTransEnd)) {
      LevelCut = backtrack();
      break;
    }
    More = backtrack();
  }
}

bool Explorer::finished() const {
  return Stop || (Opts.StopAtFirstRace && Races) || cancelled() ||
         budgetSpent() || ClassPassGivenUp;
}

void Explorer::finish(std::chrono::steady_clock::time_point Start) {
  if (cancelled())
    Exhaustive = false;
  if (SampledInput) {
    note(ReasonKind::Incomplete,
         formatv("nondeterministic inputs were sampled ({0} input vector{1}, "
                 "seed {2}), not enumerated",
                 Rounds + 1, Rounds ? "s" : "", Opts.Seed));
  }
  bool AnyRace = false;
  for (const Finding &F : R.Findings)
    AnyRace |=
        F.Category == FindingCategory::DataRace && F.Kind == Verdict::Race;
  for (const Instruction *I : AssertsSeen)
    Notes.push_back({ReasonKind::Note, "an assertion fails in some run at " +
                                           PM.location(I).str()});
  std::vector<Reason> MayFail;
  std::optional<Reason> HavocNote = havocReasons(MayFail);
  addUnconfirmed();
  bool AnyPossible = false;
  for (const Finding &F : R.Findings)
    AnyPossible |= F.Category == FindingCategory::DataRace &&
                   F.Kind == Verdict::PossibleRace;
  if (AnyRace || Races)
    R.Program = Verdict::Race;
  else if (Exhaustive && !SampledInput && !Stop && Reasons.empty())
    R.Program = Verdict::RaceFree;
  else
    R.Program = AnyPossible ? Verdict::PossibleRace : Verdict::Unknown;
  if (R.Program == Verdict::Race || R.Program == Verdict::RaceFree) {
    R.Reasons = Notes;
    // The possible races listed after the confirmed ones say why.
    if (HavocNote && (AnyPossible || !MayFail.empty()))
      R.Reasons.push_back(*HavocNote);
  }
  for (Reason &Why : MayFail)
    (R.Program == Verdict::Race ? R.Reasons : Reasons).push_back(Why);
  if (R.Program == Verdict::RaceFree) {
    // The program model's assumptions (main's input bounds, driver
    // harness, signal handlers) hold for every engine's proof.
    R.Assumptions = PM.assumptions();
    if (Pruned)
      R.Assumptions.push_back("the search skipped subspaces the static "
                              "lockset analysis shows race-free "
                              "(property-driven pruning; --no-pdp turns it "
                              "off)");
    if (AnyEnumerated)
      R.Assumptions.push_back(formatv("every value of each input of at most "
                                      "{0} bit(s) was tried",
                                      Opts.EnumerateInputBits));
    if (AnyClassified)
      R.Assumptions.push_back(formatv(
          "an input the program only compares with constants (but where "
          "the branches taken leave it at most {0} values) was tried with "
          "one value between each two of those constants and each "
          "constant itself: the others take the same branches",
          InputClasses::MaxValues));
  } else if (R.Program != Verdict::Race) {
    R.Reasons = Reasons;
    R.Reasons.insert(R.Reasons.end(), Notes.begin(), Notes.end());
    if (R.Reasons.empty())
      R.reason(ReasonKind::Incomplete, "the search was not exhaustive");
  }
  std::chrono::duration<double> Secs = std::chrono::steady_clock::now() - Start;
  R.stat("explore_seconds", Secs.count());
  R.stat("executions", double(Executions));
  R.stat("sleep_blocked", double(SleepBlocked));
  R.stat("transitions", double(Transitions));
  R.stat("instructions", double(instructions()));
  R.stat("max_depth", double(MaxDepthSeen));
  R.stat("races", double(Races));
  R.stat("input_rounds", double(Rounds + 1));
  R.stat("input_variants", double(InputVariants));
  R.stat("input_class_passes_given_up", double(ClassPassesGivenUp));
  R.stat("guided_runs", double(GuidedRuns));
  R.stat("race_hints_tried", double(HintRuns));
  R.stat("race_hints_confirmed", double(HintRaces));
  R.stat("pdp", Oracle ? 1.0 : 0.0);
  R.stat("pdp_candidate_pairs", Oracle ? double(Oracle->candidates()) : 0.0);
  R.stat("pdp_checks", double(PdpChecks));
  R.stat("pdp_pruned_backtracks", double(Pruned));
  NumExecutions += Executions;
  NumTransitions += Transitions;
  NumPdpChecks += PdpChecks;
  NumPdpPruned += Pruned;
  NumExploreRaces += Races;
  // Every schedule of every input was explored: a pair it did not report
  // is not a race (the portfolio then drops the static stage's pairs).
  bool Complete = Exhaustive && !SampledInput && !Stop && Reasons.empty() &&
                  !(Opts.StopAtFirstRace && Races) && !budgetSpent() &&
                  !cancelled();
  R.SearchComplete = Complete;
  R.stat("complete", Complete ? 1.0 : 0.0);
}

} // namespace crace::explore

namespace crace {

Result ExploreEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  explore::Explorer X(PM, Opts);
  return X.run();
}

/// The registry's factory entry (engines/Registry.cpp).
std::unique_ptr<Engine> createExploreEngine() {
  return std::make_unique<ExploreEngine>();
}

} // namespace crace
