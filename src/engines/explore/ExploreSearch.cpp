//===- ExploreSearch.cpp - the search's passes, levels and input draws ----===//
//
// How explore goes through the space of runs: a pass over the classes of
// inputs the program only compares with constants (InputClasses.h), the
// levels of iterative deepening, the input rounds of each level and the
// odometer of enumerated inputs; and where each drawn input's value comes
// from (a replayed prefix, an enumerated domain or class, a guided edit,
// a sample). The DPOR loop itself is in ExploreEngine.cpp.
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Explorer.h"

using namespace llvm;

namespace crace::explore {

Word Explorer::drawNondet(unsigned Bits) {
  // Values drawn before the first step (main's start) or during the step of
  // node StepNode; a replayed prefix gets its recorded values back, new
  // steps a fresh sample biased to small values (loop bounds, indices).
  std::vector<Word> &Vals = StepNode < 0 ? InitNondet : Stack[StepNode].Nondet;
  std::vector<InputSlot> &Slots =
      StepNode < 0 ? InitNondetSlots : Stack[StepNode].NondetSlots;
  DrawRef D = Exec.currentDraw();
  std::vector<Word> &Drawn = RunDraws[D.Tid];
  auto Record = [&](Word V) {
    if (D.Count)
      RunCounts[D.Tid].insert(uint32_t(Drawn.size()));
    Drawn.push_back(V);
    return V;
  };
  if (ClassPass && ++ClassDraws > MaxClassDraws)
    ClassPassGivenUp = true;
  if (NondetPos < Vals.size())
    return Record(Vals[NondetPos++]);
  // A value chosen here, and how.
  uint8_t Width = uint8_t(std::min(Bits, 64u));
  auto Choose = [&](Word V, InputSlot S) {
    Vals.push_back(V);
    Slots.push_back(S);
    ++NondetPos;
    return Record(V);
  };
  // Not enumerated: counts as sampled for the verdict.
  auto Sampled = [&](Word V) {
    SampledInput = true;
    if (Bits < 64)
      V &= (Word(1) << Bits) - 1;
    return Choose(V, {Width});
  };
  if (ClassPass) {
    // An input the program only compares with constants: one value of
    // each class is every value (InputClasses.h), starting with 0. Any
    // other input, or a run drawing more than MaxClassDraws of them (in
    // a loop: their combinations would not be exhausted), ends the pass.
    const std::vector<Word> *C = D.Site ? Classes.lookup(D.Site) : nullptr;
    if (!C || ClassPassGivenUp) {
      ClassPassGivenUp = true;
      return Sampled(0);
    }
    AnyClassified = true;
    return Choose(C->front(), {uint8_t(Width | EnumeratedInput), C});
  }
  if (auto F = Forced.find(D.Tid); F != Forced.end() &&
                                   D.Index < F->second.size() &&
                                   Bits > Opts.EnumerateInputBits)
    return Sampled(F->second[D.Index]); // a guided run: an edit's value
  if (Bits <= Opts.EnumerateInputBits) {
    // A small declared domain (bool, or --enumerate-inputs): every value
    // is tried, starting with 0; backtrack() moves the odometer.
    AnyEnumerated = true;
    return Choose(0, {uint8_t(Width | EnumeratedInput)});
  }
  unsigned Pick = unsigned(Rng() % 10);
  if (Pick < 4)
    return Sampled(Rng() % 4);
  if (Pick < 7)
    return Sampled(Rng() % 16);
  if (Pick < 8)
    return Sampled(Word(-1));
  return Sampled(Rng());
}

bool Explorer::searchLevels() {
  // Iterative deepening on the run length and the number of threads: a
  // program whose runs are long (a thread looping forever, a long spin)
  // or that starts many threads has its races among few threads in short
  // runs found first, since DFS backtracks from the bottom up and the
  // interleavings grow with every thread. A level that finishes without
  // cutting a run, holding back a thread creation or running out of its
  // budget is the complete search. Each earlier level may use a quarter
  // of what is left of the budgets.
  //
  // First, a probe of at most ParkProbeRuns runs where creations past 3
  // threads park their thread (Executor::park()): the creator goes on
  // without it, so what main does after creating thousands of threads is
  // reached at once. Later levels hold the creator back at the bound
  // instead: a loop creating threads for ever would spend every run
  // parking (the executor parks up to ParkedPerRun threads a run).
  struct Level {
    uint64_t Depth;
    unsigned Threads;
    bool Park = false;
  };
  constexpr uint64_t ParkProbeRuns = 64;
  constexpr unsigned ParkedPerRun = 16384;
  std::vector<Level> Levels;
  for (Level L : {Level{256, 3, true}, Level{256, 3}, Level{2048, 8}}) {
    L.Depth = std::min<uint64_t>(L.Depth, Opts.MaxDepth);
    L.Threads = std::min(L.Threads, Opts.MaxThreads);
    if (L.Threads < Opts.MaxThreads || (L.Depth < Opts.MaxDepth && !L.Park))
      Levels.push_back(L);
  }
  Levels.push_back({Opts.MaxDepth, Opts.MaxThreads});
  auto Share = [](uint64_t Now, uint64_t Bound, bool Last, unsigned Parts) {
    if (!Bound)
      return uint64_t(0); // no bound
    uint64_t End =
        Last ? Bound : Now + (Bound > Now ? (Bound - Now) / 4 : 0) + 1;
    return Now + (End > Now ? (End - Now) / Parts : 0) + 1;
  };
  unsigned NRounds = std::max(1u, Opts.InputRounds);
  bool AnySampled = false;
  size_t I = 0;
  for (; I < Levels.size(); ++I) {
    bool Last = I + 1 == Levels.size();
    DepthLimit = Levels[I].Depth;
    Exec.setMaxThreads(Levels[I].Threads);
    Exec.setMaxParked(Levels[I].Park ? ParkedPerRun : 0);
    DepthCut = LevelCut = ThreadCut = false;
    // Each round explores the interleavings for one sampled input vector
    // (the same vector at every level: the generator restarts per round);
    // programs without sampled inputs need one round. Inputs of small
    // declared domains are enumerated inside a round (before main's first
    // step: an odometer around the whole search). Rounds share the
    // level's budget; a program without sampled inputs gets it all.
    for (unsigned Round = 0; Round < NRounds && !finished(); ++Round) {
      Rng.seed(Opts.Seed + Round);
      InitNondet.clear();
      InitNondetSlots.clear();
      SampledInput = false;
      Rounds = std::max(Rounds, Round);
      RoundFirstExecution = Executions + 1;
      for (;;) {
        Stack.clear();
        unsigned Parts = NRounds - Round;
        for (;;) {
          LevelExecEnd = Share(Executions, Opts.MaxExecutions, Last, Parts);
          if (Levels[I].Park)
            LevelExecEnd = std::min(LevelExecEnd ? LevelExecEnd : UINT64_MAX,
                                    Executions + ParkProbeRuns / Parts + 1);
          LevelTransEnd = Share(Transitions, Opts.MaxTransitions, Last, Parts);
          LevelCut = false;
          exploreRound();
          if (!LevelCut || SampledInput || Parts == 1 || finished())
            break;
          Parts = 1; // one round only: resume with the whole share
        }
        if (LevelCut || finished() || !nextInputs(InitNondet, InitNondetSlots))
          break;
        ++InputVariants;
      }
      guidedRounds();
      AnySampled |= SampledInput;
      if (!SampledInput)
        break;
    }
    if (finished() || Last || (!DepthCut && !ThreadCut && !LevelCut))
      break;
    // A probe that finished within its runs explored every state of the
    // level after it (those where a creator at the bound has not created
    // yet are prefixes of its runs): that level is skipped.
    if (Levels[I].Park && !LevelCut)
      ++I;
  }
  LevelExecEnd = LevelTransEnd = 0;
  Exec.setMaxParked(0);
  AtLastLevel = I + 1 >= Levels.size();
  return AnySampled;
}

void Explorer::search() {
  // A program with inputs it only compares with constants is first
  // searched with those inputs enumerated over their classes: complete,
  // that pass is the whole search and can prove the program race-free,
  // and it finds every race sampling would (a class's lowest member
  // behaves as all of it does). It ends early when a run draws another
  // input or more than MaxClassDraws of these (a loop drawing one per
  // iteration: a depth-first enumeration would spend the budget on the
  // last draws' variants); the usual search, sampling them, follows.
  bool Settled = false;
  if (!Classes.empty()) {
    ClassPass = true;
    SampledInput = searchLevels();
    ClassPass = false;
    bool GivenUp = ClassPassGivenUp;
    ClassPassGivenUp = false;
    Settled = finished() || (!GivenUp && !SampledInput && !DepthCut &&
                             !ThreadCut && !LevelCut);
    if (!Settled) {
      AnyClassified = false;
      ++ClassPassesGivenUp;
    }
  }
  if (!Settled)
    SampledInput = searchLevels();
  if (ThreadCut) {
    note(ReasonKind::Budget,
         formatv("runs were limited to {0} threads (the search stopped "
                 "before reaching --max-threads={1})",
                 Exec.maxThreads(), Opts.MaxThreads));
    Exhaustive = false;
  }
  if (DepthCut) {
    note(ReasonKind::Budget,
         AtLastLevel ? formatv("depth bound of {0} operations per run "
                               "reached "
                               "(spin loops or long runs; --max-depth)",
                               Opts.MaxDepth)
                           .str()
                     : formatv("runs were cut at {0} operations (the search "
                               "stopped before reaching --max-depth={1})",
                               DepthLimit, Opts.MaxDepth)
                           .str());
    Exhaustive = false;
  }
  if (LevelCut)
    Exhaustive = false; // each sampled input vector had a share only
}

} // namespace crace::explore
