//===- ExploreGuided.cpp - comparison-guided runs
//---------------------------===//
//
// After a round, the failed comparisons of input bytes with constants
// become edited input streams, run one at a time (Guidance.h).
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Explorer.h"

using namespace llvm;

namespace crace::explore {

namespace {
/// Guided runs per search, and edits waiting at most.
constexpr uint64_t MaxGuidedRuns = 512;
constexpr size_t MaxGuidedQueued = 1024;
constexpr size_t MaxCmpsLearnt = 16;

uint64_t hashStreams(const DrawStreams &S) {
  uint64_t H = 1469598103934665603ull;
  auto Mix = [&](uint64_t V) {
    H ^= V;
    H *= 1099511628211ull;
  };
  for (const auto &[T, Vals] : S) {
    Mix(T);
    Mix(Vals.size());
    for (Word V : Vals)
      Mix(V);
  }
  return H;
}
} // namespace

void Explorer::learnFromRun() {
  // Learnt from the first run of a round and from guided runs (DPOR's
  // other runs of a round vary the schedule, not the input). Every failed
  // comparison of the run gives edits, queued in the order the run made
  // the comparisons; a run that failed at a comparison site no run failed
  // at before went further into the input's parser, and its edits go
  // ahead of all others (depth first), the others behind (breadth first).
  if (Executions != RoundFirstExecution && Forced.empty())
    return;
  // A guided run follows the thread whose input it edited (other threads'
  // comparisons are those of the run it was made from, or of inputs
  // nobody edited).
  std::vector<const InputCmp *> Cmps;
  for (const InputCmp &C : Exec.inputCmps())
    if ((Forced.empty() || C.Tid == ForcedFocus) && Cmps.size() < MaxCmpsLearnt)
      Cmps.push_back(&C);
  bool NewSite = false;
  for (const InputCmp *C : Cmps)
    NewSite |= GuidedSites.insert(C->Site).second;
  std::vector<GuidedRun> Edits;
  for (const InputCmp *C : Cmps)
    for (DrawStreams &E : guidedEdits(*C, RunDraws, RunCounts))
      if (GuidedSeen.insert(hashStreams(E)).second)
        Edits.push_back({std::move(E), C->Tid});
  if (NewSite)
    for (auto It = Edits.rbegin(); It != Edits.rend(); ++It)
      Guided.push_front(std::move(*It));
  else
    for (GuidedRun &E : Edits)
      Guided.push_back(std::move(E));
  while (Guided.size() > MaxGuidedQueued)
    Guided.pop_back();
}

void Explorer::guidedRounds() {
  // One run per edit, with the default schedule (its races are found as
  // in any run; DPOR over the inputs it reaches is the sampled rounds'
  // business, not this search's).
  // Guided runs go as deep as the search may (a parser is far into a run).
  uint64_t ExecEnd = LevelExecEnd, TransEnd = LevelTransEnd;
  bool Cut = LevelCut, DCut = DepthCut, TCut = ThreadCut;
  uint64_t Depth0 = DepthLimit;
  unsigned Threads0 = Exec.maxThreads();
  DepthLimit = Opts.MaxDepth;
  Exec.setMaxThreads(Opts.MaxThreads);
  while (!Guided.empty() && GuidedRuns < MaxGuidedRuns && !finished()) {
    Forced = std::move(Guided.front().Draws);
    ForcedFocus = Guided.front().Focus;
    Guided.pop_front();
    ++GuidedRuns;
    Stack.clear();
    InitNondet.clear();
    InitNondetSlots.clear();
    LevelExecEnd = Executions + 1;
    LevelTransEnd = 0;
    exploreRound();
  }
  Forced.clear();
  LevelExecEnd = ExecEnd;
  LevelTransEnd = TransEnd;
  LevelCut = Cut;
  DepthCut = DCut;
  ThreadCut = TCut;
  DepthLimit = Depth0;
  Exec.setMaxThreads(Threads0);
}

} // namespace crace::explore
