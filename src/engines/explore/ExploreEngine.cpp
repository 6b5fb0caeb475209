//===- ExploreEngine.cpp - DPOR exploration and race checking -------------===//
#include "engines/explore/ExploreEngine.h"
#include "engines/explore/Executor.h"
#include "engines/explore/Guidance.h"
#include "model/ProgramModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>

using namespace llvm;

namespace crace {

using namespace explore;

namespace {

/// Thread-indexed vector clock; entry t = number of t's events that
/// happen before (or are) the event.
using Clock = std::vector<unsigned>;

void joinInto(Clock &A, const Clock &B) {
  if (A.size() < B.size())
    A.resize(B.size(), 0);
  for (size_t I = 0; I < B.size(); ++I)
    A[I] = std::max(A[I], B[I]);
}

bool overlap(const MemRef &A, const MemRef &B) {
  return A.Addr < B.Addr + B.Size && B.Addr < A.Addr + A.Size;
}

bool syncKind(PendingOp::Kind K) {
  switch (K) {
  case PendingOp::Lock:
  case PendingOp::Unlock:
  case PendingOp::CondWait:
  case PendingOp::CondWake:
  case PendingOp::CondSignal:
  case PendingOp::BarrierWait:
  case PendingOp::BarrierLeave:
  case PendingOp::SemWait:
  case PendingOp::SemPost:
    return true;
  default:
    return false;
  }
}

/// Operations that are dependent with every operation of other threads.
bool globalKind(PendingOp::Kind K) {
  return K == PendingOp::ProgramExit || K == PendingOp::ForkChild ||
         K == PendingOp::AtomicBegin || K == PendingOp::AtomicEnd;
}

/// May executing A and B in either order differ (or one disable the
/// other)? Conservative: true when unsure.
bool dependent(const PendingOp &A, unsigned TA, const PendingOp &B,
               unsigned TB) {
  if (TA == TB)
    return true;
  if (globalKind(A.K) || globalKind(B.K))
    return true;
  for (const MemRef &RA : A.Refs)
    for (const MemRef &RB : B.Refs)
      if ((RA.Write || RB.Write) && overlap(RA, RB))
        return true;
  if (syncKind(A.K) && syncKind(B.K)) {
    Word SA[2] = {A.Sync, A.Sync2}, SB[2] = {B.Sync, B.Sync2};
    for (Word X : SA)
      for (Word Y : SB)
        if (X && X == Y)
          return true;
  }
  if (A.K == PendingOp::Join && B.K == PendingOp::ThreadEnd &&
      A.Sync == TB + 1)
    return true;
  if (B.K == PendingOp::Join && A.K == PendingOp::ThreadEnd &&
      B.Sync == TA + 1)
    return true;
  return false;
}

/// The two accesses race: overlapping, one writes, not both atomic.
bool conflicting(const MemRef &A, bool AtomicA, const MemRef &B,
                 bool AtomicB) {
  return !A.Free && !B.Free && (A.Write || B.Write) && !(AtomicA && AtomicB) &&
         overlap(A, B);
}

std::vector<uint64_t> keysOf(const PendingOp &Op, unsigned T);

struct Event {
  unsigned Tid = 0;
  PendingOp Op;
  Clock VC;
  bool InAtomic = false;
  /// For a Create event: the thread it created.
  int Child = -1;
  /// For a plain memory access: the locks its thread owned (sorted).
  llvm::SmallVector<Word, 2> Held;
};

struct Node {
  unsigned Chosen = 0;
  /// PDP: no race is reachable from this state (static candidate pairs
  /// cannot be executed by two threads any more).
  bool SubspaceRaceFree = false;
  /// PDP: where the threads were and what they were about to do, so
  /// applyPartners can add the chosen step's partner threads once a
  /// subspace below is pruned; the choices it was done for.
  std::vector<ThreadPos> Pos;
  std::vector<const llvm::Instruction *> Pending;
  std::set<unsigned> PartnersAppliedFor;
  std::set<unsigned> Backtrack, Done, Sleep;
  std::vector<unsigned> Enabled;
  /// Nondeterministic values drawn while Chosen ran, and per value its
  /// width in bits, | EnumeratedInput when every value is tried.
  std::vector<Word> Nondet;
  std::vector<uint8_t> NondetBits;
};

/// The next input vector of an odometer over the enumerated positions of
/// Vals (last position fastest); later positions are drawn afresh. False
/// when every enumerated position is at its last value.
constexpr uint8_t EnumeratedInput = 0x80;

bool nextInputs(std::vector<Word> &Vals, std::vector<uint8_t> &Bits) {
  for (size_t J = Vals.size(); J-- > 0;) {
    if (!(Bits[J] & EnumeratedInput))
      continue;
    unsigned W = Bits[J] & ~EnumeratedInput;
    Word Max = W >= 64 ? ~Word(0) : (Word(1) << W) - 1;
    if (Vals[J] < Max) {
      ++Vals[J];
      Vals.resize(J + 1);
      Bits.resize(J + 1);
      return true;
    }
  }
  return false;
}

class Explorer {
public:
  Explorer(const ProgramModel &PM, const EngineOptions &Opts)
      : PM(PM), Opts(Opts), Exec(PM, limits(Opts)), Rng(Opts.Seed) {
    Exec.setInputGuidance(true);
    if (Opts.Pdp && Opts.Static && Opts.Static->CandidatesComplete)
      Oracle = std::make_unique<PdpOracle>(PM, *Opts.Static);
    MasksSignals = PM.module().getNamedMetadata("crace.signal_masking");
  }

  Result run();

private:
  void exploreRound();
  void search();
  bool finished() const;
  /// Why the search must stop for good (its first bound reached), if so.
  std::optional<std::string> boundReached() const;
  bool budgetSpent() const { return boundReached().has_value(); }
  /// The share of the budgets for more races after the first is spent
  /// (EngineOptions::MoreRacesShare).
  bool moreRacesSpent() const;
  uint64_t FirstRaceTransitions = 0, FirstRaceInstructions = 0;
  /// Instructions executed over all runs so far, replays included (a
  /// measure of explore's work that does not depend on the machine).
  uint64_t Instructions = 0;
  uint64_t instructions() const {
    return Instructions + Exec.instructionsExecuted();
  }
  void finish(std::chrono::steady_clock::time_point Start);
  static ExecLimits limits(const EngineOptions &O) {
    ExecLimits L;
    L.MaxThreads = O.MaxThreads;
    return L;
  }
  bool cancelled() const { return Opts.Cancelled && *Opts.Cancelled; }
  Word drawNondet(unsigned Bits);
  /// One execution: replays Stack's prefix, then extends it. Returns false
  /// when the exploration must stop (unsupported construct).
  bool execute();
  bool backtrack();
  void applyPartners(size_t Below);
  void analyseState(size_t Depth);
  void checkRaces(size_t Depth);
  void checkDeadlock();
  /// A thread of the run stopped where the executor cannot follow it
  /// (noted once, not at every later step of the run).
  void noteStopped() {
    if (!Exec.stoppedAt() || HintMode)
      return;
    SourceLoc L = PM.location(Exec.stoppedAt());
    note("the explore engine cannot execute: " + Exec.stoppedWhy() +
         (L.valid() ? " at " + L.str() : std::string()) +
         " (that thread stops there; the others go on)");
    Exhaustive = false;
    Exec.clearStopped();
  }
  Clock clockOf(unsigned T) const {
    return T < ThreadClock.size() ? ThreadClock[T] : Clock();
  }
  void record(unsigned T, const PendingOp &Op);
  bool ownsAtomic(unsigned T) const;
  bool enabledForRace(unsigned T) const;
  std::string action(const PendingOp &Op, unsigned T) const;
  std::vector<TraceStep> trace() const;
  std::string schedule() const;
  bool loadSchedule(llvm::StringRef Text);
  bool ReplayMode = false;
  AccessInfo access(unsigned T, const MemRef &R, bool Atomic) const;
  void note(const std::string &Reason) {
    if (std::find(Reasons.begin(), Reasons.end(), Reason) == Reasons.end())
      Reasons.push_back(Reason);
  }

  const ProgramModel &PM;
  const EngineOptions &Opts;
  Executor Exec;
  std::mt19937_64 Rng;

  // Comparison-guided inputs (Guidance.h): the draws of the current run
  // per thread, the streams forced on the runs of a guided round, the
  // guided runs still to make and the edits already queued.
  DrawStreams RunDraws, Forced;
  DrawCounts RunCounts;
  /// An edited run to make, and the thread whose comparison it is for.
  struct GuidedRun {
    DrawStreams Draws;
    unsigned Focus = 0;
  };
  std::deque<GuidedRun> Guided;
  unsigned ForcedFocus = 0;
  std::set<uint64_t> GuidedSeen;
  std::set<const llvm::Instruction *> GuidedSites;
  uint64_t GuidedRuns = 0;
  uint64_t RoundFirstExecution = 0; // Executions after a round's first run
  void learnFromRun();
  void guidedRounds();

  std::vector<Node> Stack;
  std::vector<Word> InitNondet;
  std::vector<uint8_t> InitNondetBits;
  size_t Depth = 0;
  int StepNode = -1;
  size_t NondetPos = 0;

  std::vector<Event> Events;
  std::vector<Clock> ThreadClock;
  std::vector<unsigned> ThreadEvents;
  /// Events by the memory object / sync object / thread they touch, per
  /// thread that made them (in order).
  std::map<uint64_t, std::vector<std::vector<unsigned>>> EventsByKey;
  /// Calls F(J) for the latest event of each thread other than T, among
  /// the events sharing a key with Op, that is dependent with Op: by
  /// program order and transitivity it dominates that thread's earlier ones.
  template <typename Fn>
  void latestDependent(const PendingOp &Op, unsigned T, Fn F) const {
    for (uint64_t K : keysOf(Op, T)) {
      auto It = EventsByKey.find(K);
      if (It == EventsByKey.end())
        continue;
      for (unsigned U = 0; U < It->second.size(); ++U) {
        if (U == T)
          continue;
        const std::vector<unsigned> &L = It->second[U];
        for (auto I = L.rbegin(); I != L.rend(); ++I)
          if (dependent(Events[*I].Op, U, Op, T)) {
            F(*I);
            break;
          }
      }
    }
  }
  std::vector<unsigned> GlobalEvents;
  /// Whether each thread is inside an atomic section (its accesses are
  /// atomic), tracked from AtomicBegin/End events.
  std::vector<unsigned> AtomicNesting;
  /// Races of a thread's accesses inside its current atomic section with
  /// another thread's plain access (held back by the section): they are
  /// real only if the section completes (a failed assumption inside it
  /// makes the whole section infeasible), so they are reported at its end.
  struct DeferredRace {
    std::pair<const Instruction *, const Instruction *> Key;
    Finding F;
  };
  std::vector<std::vector<DeferredRace>> SectionRaces;
  /// Memory operations a thread performed in its current atomic section.
  std::vector<unsigned> SectionAccesses;
  void reportRace(std::pair<const Instruction *, const Instruction *> Key,
                  Finding F);
  /// At the end of a replayed schedule: runs each thread with races
  /// waiting in its atomic section to the section's end (it is the only
  /// thread that can run), so they are reported if it completes.
  void finishSections() {
    for (unsigned T = 0; T < SectionRaces.size(); ++T)
      for (unsigned Steps = 0; Steps < 100000 && !SectionRaces[T].empty() &&
                               ownsAtomic(T) && Exec.enabled(T);
           ++Steps) {
        PendingOp Op = Exec.pending(T);
        if (Exec.step(T) != Status::Ok)
          break;
        record(T, Op);
      }
  }

  // Race hints: happens-before by program order and synchronisation only
  // (not by plain memory conflicts, unlike the DPOR clocks above), as a
  // dynamic detector like ThreadSanitizer computes it. Two conflicting
  // plain accesses unordered by it are a hint: the events that happen
  // before either, in their order, form a schedule that should end with
  // both accesses enabled together (exactly so for the first such pair of
  // a run); tryHints() runs that schedule, and only the race check of the
  // state it reaches confirms a race.
  std::vector<Clock> SyncClock;              // per thread
  std::map<uint64_t, Clock> SyncObjClock;    // per synchronisation key
  std::vector<Clock> EventSyncVC;            // per event
  std::map<uint32_t, std::vector<unsigned>> PlainByObj; // plain accesses
  std::optional<std::pair<unsigned, unsigned>> HintPair;
  // Lockset hints: two conflicting plain accesses of different threads that
  // hold no common lock, although the run ordered them (through locks, say,
  // as Eraser would still flag them). tryHints() also replays the run with
  // the earlier access's thread held just before it, every other thread
  // going on as in the run, so that the later access becomes enabled beside
  // it; again, only the race check of the state it reaches confirms.
  std::optional<std::pair<unsigned, unsigned>> LocksetHint;
  std::set<std::pair<const Instruction *, const Instruction *>> HintsTried;
  bool HintMode = false;
  /// In hint mode: the thread that may go on after the witness (-1: none),
  /// for how many more steps, and the races found before the hint.
  int HintFocus = -1;
  unsigned HintSteps = 0;
  uint64_t HintRacesBefore = 0;
  uint64_t HintRuns = 0, HintRaces = 0;
  void syncRecord(unsigned T, const PendingOp &Op, unsigned Idx);
  /// Runs the schedules of this run's hints (in hint mode).
  void tryHints();
  /// The schedule of the last run's events before E2 that Keep selects, in
  /// order (a thread created by an event left out is left out); empty when
  /// the pair was tried before or a thread of it is left out.
  struct Witness {
    std::vector<Node> Nodes;
    int Focus = -1; // the later access's thread, renumbered
  };
  template <typename KeepFn>
  Witness witness(unsigned E1, unsigned E2, KeepFn Keep);

  Result R;
  std::vector<std::string> Reasons;
  /// Facts that do not weaken the verdict (assertion failures).
  std::vector<std::string> Notes;
  std::set<std::pair<const Instruction *, const Instruction *>> Reported;
  std::set<std::pair<std::string, std::string>> ReportedPlaces;
  std::set<std::vector<const Instruction *>> DeadlocksSeen;
  std::set<const Instruction *> AssertsSeen;
  bool Exhaustive = true;
  bool SampledInput = false;
  /// Input values enumerated (small declared domains) / variants explored.
  bool AnyEnumerated = false;
  uint64_t InputVariants = 0;
  bool Stop = false;
  uint64_t Executions = 0, Transitions = 0, MaxDepthSeen = 0;
  /// Iterative deepening: runs are cut at DepthLimit (DepthCut says one
  /// was); a level before the last has a share of the budgets
  /// (LevelExecEnd/LevelTransEnd, 0: none) and LevelCut says it ran out.
  uint64_t DepthLimit = Opts.MaxDepth;
  bool DepthCut = false, LevelCut = false, ThreadCut = false;
  uint64_t LevelExecEnd = 0, LevelTransEnd = 0;
  unsigned Races = 0;
  unsigned Rounds = 0;
  /// The program blocks signals (front-end metadata "crace.signal_masking"):
  /// races with a signal handler are then not confirmed.
  bool MasksSignals = false, MaskedHandlerRace = false;
  std::unique_ptr<PdpOracle> Oracle;
  uint64_t Pruned = 0, PdpChecks = 0;
};

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

Word Explorer::drawNondet(unsigned Bits) {
  // Values drawn before the first step (main's start) or during the step of
  // node StepNode; a replayed prefix gets its recorded values back, new
  // steps a fresh sample biased to small values (loop bounds, indices).
  std::vector<Word> &Vals = StepNode < 0 ? InitNondet : Stack[StepNode].Nondet;
  std::vector<uint8_t> &VBits =
      StepNode < 0 ? InitNondetBits : Stack[StepNode].NondetBits;
  DrawRef D = Exec.currentDraw();
  std::vector<Word> &Drawn = RunDraws[D.Tid];
  auto Record = [&](Word V) {
    if (D.Count)
      RunCounts[D.Tid].insert(uint32_t(Drawn.size()));
    Drawn.push_back(V);
    return V;
  };
  if (NondetPos < Vals.size())
    return Record(Vals[NondetPos++]);
  // A value chosen here (not enumerated): counts as sampled for the verdict.
  auto Sampled = [&](Word V) {
    SampledInput = true;
    if (Bits < 64)
      V &= (Word(1) << Bits) - 1;
    Vals.push_back(V);
    VBits.push_back(uint8_t(std::min(Bits, 64u)));
    ++NondetPos;
    return Record(V);
  };
  if (auto F = Forced.find(D.Tid); F != Forced.end() &&
                                   D.Index < F->second.size() &&
                                   Bits > Opts.EnumerateInputBits)
    return Sampled(F->second[D.Index]); // a guided run: an edit's value
  if (Bits <= Opts.EnumerateInputBits) {
    // A small declared domain (bool, or --enumerate-inputs): every value
    // is tried, starting with 0; backtrack() moves the odometer.
    AnyEnumerated = true;
    Vals.push_back(0);
    VBits.push_back(uint8_t(Bits) | EnumeratedInput);
    ++NondetPos;
    return Record(0);
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

bool Explorer::ownsAtomic(unsigned T) const {
  return T < AtomicNesting.size() && AtomicNesting[T] > 0;
}

bool Explorer::enabledForRace(unsigned T) const {
  // A thread kept off the processor only by another thread's atomic
  // section counts as enabled: its operation and the whole section were
  // both enabled in the state where the section began.
  if (Exec.exited())
    return false;
  const PendingOp &P = Exec.pending(T);
  if (P.K == PendingOp::Memory || P.K == PendingOp::Create)
    return true;
  return Exec.enabled(T);
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
      if (dependent(E.Op, E.Tid, Op, P))
        Last = int(J);
    };
    if (globalKind(Op.K)) {
      for (unsigned J = 0; J < Events.size(); ++J)
        Consider(J);
    } else {
      for (unsigned J : GlobalEvents)
        Consider(J);
      latestDependent(Op, P, Consider);
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

std::string Explorer::action(const PendingOp &Op, unsigned T) const {
  auto Refs = [&](const char *Verb) {
    std::string S;
    for (const MemRef &R : Op.Refs) {
      if (!S.empty())
        S += ", ";
      S += std::string(R.Free ? "free" : R.Write ? "write" : "read") + " " +
           Exec.describe(R.Obj, R.Off, R.Size);
    }
    return S.empty() ? std::string(Verb) : S;
  };
  switch (Op.K) {
  case PendingOp::Memory: return Refs("access");
  case PendingOp::Lock:
    return std::string(Op.Try ? "try-lock " : Op.ReadLock ? "read-lock "
                                                          : "lock ") +
           Exec.describeAddress(Op.Sync);
  case PendingOp::Unlock: return "unlock " + Exec.describeAddress(Op.Sync);
  case PendingOp::AtomicBegin: return "begin atomic section";
  case PendingOp::AtomicEnd: return "end atomic section";
  case PendingOp::CondWait: return "wait on condition (releases the mutex)";
  case PendingOp::CondWake: return "wake up and re-acquire the mutex";
  case PendingOp::CondSignal: return Op.Broadcast ? "broadcast" : "signal";
  case PendingOp::BarrierWait: return "arrive at barrier";
  case PendingOp::BarrierLeave: return "leave barrier";
  case PendingOp::SemWait: return "semaphore wait";
  case PendingOp::SemPost: return "semaphore post";
  case PendingOp::Create:
    return "create a thread";
  case PendingOp::Join:
    return "join " + (Op.Sync >= 1 && Op.Sync <= Exec.numThreads()
                          ? Exec.threadName(unsigned(Op.Sync - 1))
                          : std::string("?"));
  case PendingOp::ThreadEnd: return "thread ends";
  case PendingOp::ProgramExit: return Op.Error ? "assertion fails" : "exit";
  case PendingOp::ForkChild:
    return "fork: the run follows the child process (no other thread is in it)";
  case PendingOp::Blocked: return "blocked by a failed assumption";
  case PendingOp::Done: return "done";
  }
  return "";
}

std::string Explorer::schedule() const {
  json::Array Steps;
  for (size_t I = 0; I < Stack.size() && I < Events.size(); ++I) {
    json::Array Nd;
    for (Word V : Stack[I].Nondet)
      Nd.push_back(int64_t(V));
    Steps.push_back(json::Object{{"thread", int64_t(Stack[I].Chosen)},
                                 {"inputs", std::move(Nd)}});
  }
  json::Array Init;
  for (Word V : InitNondet)
    Init.push_back(int64_t(V));
  json::Value Doc(json::Object{{"initial_inputs", std::move(Init)},
                               {"steps", std::move(Steps)}});
  std::string Out;
  raw_string_ostream OS(Out);
  OS << Doc;
  return Out;
}

bool Explorer::loadSchedule(StringRef Text) {
  auto Doc = json::parse(Text);
  if (!Doc) {
    note("the trace to replay is not valid JSON: " + toString(Doc.takeError()));
    return false;
  }
  const json::Object *O = Doc->getAsObject();
  const json::Array *Init = O ? O->getArray("initial_inputs") : nullptr;
  const json::Array *Steps = O ? O->getArray("steps") : nullptr;
  if (!Init || !Steps) {
    note("the trace to replay has no 'initial_inputs'/'steps'");
    return false;
  }
  for (const json::Value &V : *Init) {
    InitNondet.push_back(Word(V.getAsInteger().value_or(0)));
    InitNondetBits.push_back(64);
  }
  for (const json::Value &S : *Steps) {
    const json::Object *SO = S.getAsObject();
    if (!SO || !SO->getInteger("thread")) {
      note("malformed step in the trace to replay");
      return false;
    }
    Node N;
    N.Chosen = unsigned(*SO->getInteger("thread"));
    if (const json::Array *Nd = SO->getArray("inputs"))
      for (const json::Value &V : *Nd) {
        N.Nondet.push_back(Word(V.getAsInteger().value_or(0)));
        N.NondetBits.push_back(64);
      }
    Stack.push_back(std::move(N));
  }
  return true;
}

std::vector<TraceStep> Explorer::trace() const {
  std::vector<TraceStep> Steps;
  for (size_t I = 0; I < Events.size(); ++I) {
    const Event &E = Events[I];
    TraceStep S;
    S.Thread = Exec.threadName(E.Tid);
    S.ThreadId = E.Tid;
    S.Loc = PM.location(E.Op.Inst);
    S.Action = action(E.Op, E.Tid);
    if (E.Op.K == PendingOp::Create && E.Child >= 0)
      S.Action = "create thread " + Exec.threadName(unsigned(E.Child));
    // The inputs this thread then reads (before its next visible step);
    // main's first ones come before step 1.
    auto Inputs = [](const std::vector<Word> &V,
                     const std::vector<uint8_t> &B) {
      std::string Out;
      for (size_t J = 0; J < V.size(); ++J) {
        unsigned W = B[J] & ~EnumeratedInput;
        int64_t X = W && W < 64 ? SignExtend64(V[J], W) : int64_t(V[J]);
        if (W == 1) // bool
          X = int64_t(V[J]);
        Out += (J ? ", " : "") + std::to_string(X);
      }
      return Out;
    };
    if (I == 0 && !InitNondet.empty())
      S.Action = "(inputs " + Inputs(InitNondet, InitNondetBits) + ") " +
                 S.Action;
    if (I < Stack.size() && !Stack[I].Nondet.empty())
      S.Action += ", then inputs " +
                  Inputs(Stack[I].Nondet, Stack[I].NondetBits);
    Steps.push_back(std::move(S));
  }
  return Steps;
}

AccessInfo Explorer::access(unsigned T, const MemRef &Ref, bool Atomic) const {
  AccessInfo A;
  A.Thread = Exec.threadName(T);
  A.Kind = Ref.Write ? AccessKind::Write : AccessKind::Read;
  A.Atomic = Atomic;
  A.Size = Ref.Size;
  A.Loc = PM.location(Exec.pending(T).Inst);
  A.Variable = Exec.describe(Ref.Obj, Ref.Off, Ref.Size);
  A.Locks = Exec.locksHeld(T);
  return A;
}

void Explorer::checkRaces(size_t D) {
  (void)D;
  unsigned N = Exec.numThreads();
  for (unsigned P = 0; P < N; ++P) {
    if (!enabledForRace(P))
      continue;
    const PendingOp &A = Exec.pending(P);
    for (unsigned Q = P + 1; Q < N; ++Q) {
      if (!enabledForRace(Q))
        continue;
      const PendingOp &B = Exec.pending(Q);
      for (const MemRef &RA : A.Refs)
        for (const MemRef &RB : B.Refs) {
          bool AtA = RA.Atomic || ownsAtomic(P), AtB = RB.Atomic || ownsAtomic(Q);
          if (!conflicting(RA, AtA, RB, AtB))
            continue;
          // An access inside an atomic section against another thread's
          // plain access the section holds back. Only the section's first
          // access is enabled together with it (in the state where the
          // section began); a later one runs while the other thread cannot
          // (SV-COMP's pthread-complex/elimination_backoff_stack is
          // race-free). And the first access races only if the section
          // completes: a failed assumption inside it makes the whole
          // section infeasible, so the race is reported at the section's
          // end.
          int Section = ownsAtomic(P) && !AtB && !Exec.enabled(Q)   ? int(P)
                        : ownsAtomic(Q) && !AtA && !Exec.enabled(P) ? int(Q)
                                                                    : -1;
          if (Section >= 0 && unsigned(Section) < SectionAccesses.size() &&
              SectionAccesses[Section] > 0)
            continue;
          if (MasksSignals &&
              (Exec.isSignalHandler(P) || Exec.isSignalHandler(Q))) {
            // The program blocks signals, which is not modelled: the
            // handler may not be deliverable here. No confirmation, and
            // no proof either.
            if (!MaskedHandlerRace) {
              MaskedHandlerRace = true;
              Reasons.push_back(formatv(
                  "a race with signal handler '{0}' is not confirmed: the "
                  "program blocks signals (sigprocmask/pthread_sigmask), "
                  "which is not modelled",
                  Exec.threadName(Exec.isSignalHandler(P) ? P : Q)));
            }
            continue;
          }
          auto Key = std::minmax(A.Inst, B.Inst);
          if (Reported.count({Key.first, Key.second}))
            continue;
          Finding F;
          F.Kind = Verdict::Race;
          F.Engine = "explore";
          F.First = access(P, RA, AtA);
          F.Second = access(Q, RB, AtB);
          F.Trace = trace();
          F.Schedule = schedule();
          TraceStep S1, S2;
          S1.Thread = F.First.Thread;
          S1.ThreadId = P;
          S1.Loc = F.First.Loc;
          S1.Action = "about to " + action(A, P);
          S2.Thread = F.Second.Thread;
          S2.ThreadId = Q;
          S2.Loc = F.Second.Loc;
          S2.Action = "about to " + action(B, Q) + " (both enabled: race)";
          F.Trace.push_back(S1);
          F.Trace.push_back(S2);
          if (Section >= 0) {
            if (SectionRaces.size() <= unsigned(Section))
              SectionRaces.resize(Section + 1);
            SectionRaces[Section].push_back({{Key.first, Key.second},
                                             std::move(F)});
            continue;
          }
          reportRace({Key.first, Key.second}, std::move(F));
        }
    }
  }
}

void Explorer::reportRace(
    std::pair<const Instruction *, const Instruction *> Key, Finding F) {
  if (!Reported.insert(Key).second)
    return;
  if (!Races++) {
    FirstRaceTransitions = Transitions;
    FirstRaceInstructions = instructions();
  }
  // One finding per pair of source places: the load and the store of one
  // `x++`, or the fields of one struct copied at the same line, are one
  // race to the reader.
  std::string A = F.First.Loc.str(), B = F.Second.Loc.str();
  if (!ReportedPlaces.insert(std::minmax(A, B)).second)
    return;
  if (Opts.MaxFindings && R.Findings.size() >= Opts.MaxFindings)
    return;
  R.Findings.push_back(std::move(F));
}

void Explorer::checkDeadlock() {
  std::vector<const Instruction *> Blocked;
  bool AnyWaiting = false;
  for (unsigned T = 0; T < Exec.numThreads(); ++T) {
    if (Exec.atThreadBound(T))
      return; // held back by the bound (noted), not deadlocked
    // A failed assumption (the run is infeasible from there) or a thread
    // looping for good without a visible operation: the others waiting for
    // it are not deadlocked on locks.
    if (Exec.pending(T).K == PendingOp::Blocked)
      return;
  }
  for (unsigned T = 0; T < Exec.numThreads(); ++T) {
    const PendingOp &P = Exec.pending(T);
    if (P.K == PendingOp::Done || P.K == PendingOp::Blocked ||
        Exec.spinning(T))
      continue;
    AnyWaiting = true;
    Blocked.push_back(P.Inst);
  }
  if (!AnyWaiting || !DeadlocksSeen.insert(Blocked).second)
    return;
  Finding F;
  F.Kind = Verdict::PossibleRace;
  F.Category = FindingCategory::Deadlock;
  F.Engine = "explore";
  bool First = true;
  for (unsigned T = 0; T < Exec.numThreads(); ++T) {
    const PendingOp &P = Exec.pending(T);
    if (P.K == PendingOp::Done || P.K == PendingOp::Blocked ||
        Exec.spinning(T))
      continue;
    AccessInfo A;
    A.Thread = Exec.threadName(T);
    A.Loc = PM.location(P.Inst);
    A.Variable = action(P, T);
    (First ? F.First : F.Second) = A;
    First = false;
  }
  F.Trace = trace();
  R.Findings.push_back(std::move(F));
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
      note("the explore engine cannot execute: " + Exec.error() + Where);
      Stop = true;
      return false;
    case Status::MemoryError:
      note("memory error: " + Exec.error() + Where +
           " (the run stops there; behaviour after undefined behaviour is "
           "not explored)");
      Exhaustive = false;
      return true;
    case Status::BoundHit:
      note(Exec.error() + Where + " (the run was cut there)");
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
      if (!HintMode && Exec.numThreads() >= Exec.maxThreads())
        for (unsigned T = 0; T < NT; ++T)
          if (Exec.atThreadBound(T)) {
            if (Exec.maxThreads() < Opts.MaxThreads) {
              ThreadCut = true; // a level of explore(), noted there
              break;
            }
            if (Exhaustive)
              note(formatv("thread bound of {0} reached (--max-threads): "
                           "runs with more threads were not explored",
                           Exec.maxThreads()));
            Exhaustive = false;
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
      for (auto It = Events.rbegin(); It != Events.rend() && InARow < SliceSteps &&
                                      It->Tid == Prev;
           ++It)
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
      if (Choice == NT)
        break; // every enabled thread sleeps: explored elsewhere
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
      note(ReplayMode ? formatv("the trace does not fit this program: step "
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
    S = Exec.step(T);
    record(T, Op);
    syncRecord(T, Op, unsigned(Events.size() - 1));
    if (Exec.numThreads() > ThreadsBefore) {
      Events.back().Child = int(ThreadsBefore);
      if (SyncClock.size() <= ThreadsBefore)
        SyncClock.resize(ThreadsBefore + 1);
      SyncClock[ThreadsBefore] = SyncClock[T]; // created after this
    }
    ++Transitions;
    ++Depth;
    StepNode = -1;
    MaxDepthSeen = std::max<uint64_t>(MaxDepthSeen, Depth);
    if (S != Status::Ok)
      return Fail(S);
    noteStopped();
    if (Exec.divergedAt() && !HintMode) {
      SourceLoc L = PM.location(Exec.divergedAt());
      note(formatv("a thread ran {0} instructions without a visible "
                   "operation{1}; it was taken as looping for good (a "
                   "longer finite loop would have done more)",
                   ExecLimits().MaxLocalSteps,
                   L.valid() ? " at " + L.str() : std::string())
               .str());
      Exhaustive = false;
    }
    if (Exec.exited() && Op.Error && AssertsSeen.insert(Op.Inst).second) {
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

void Explorer::syncRecord(unsigned T, const PendingOp &Op, unsigned Idx) {
  if (SyncClock.size() <= T)
    SyncClock.resize(T + 1);
  Clock &C = SyncClock[T];
  // Every synchronisation is an acquire and a release on each object it
  // touches (more order than there is, so fewer hints: never a wrong one).
  std::vector<uint64_t> Keys;
  constexpr uint64_t AtomicObjKey = uint64_t(1) << 61;
  constexpr uint64_t AtomicSectionKey = (uint64_t(1) << 61) - 1;
  if (Op.K == PendingOp::Memory) {
    for (const MemRef &R : Op.Refs)
      if (R.Atomic)
        Keys.push_back(AtomicObjKey | R.Obj);
  } else if (Op.K == PendingOp::AtomicBegin || Op.K == PendingOp::AtomicEnd) {
    Keys.push_back(AtomicSectionKey);
  } else {
    Keys = keysOf(Op, T);
  }
  for (uint64_t K : Keys) {
    auto It = SyncObjClock.find(K);
    if (It != SyncObjClock.end())
      joinInto(C, It->second);
  }
  if (C.size() <= T)
    C.resize(T + 1, 0);
  ++C[T];
  EventSyncVC.push_back(C);
  for (uint64_t K : Keys)
    joinInto(SyncObjClock[K], C);
  if (Op.K != PendingOp::Memory)
    return;
  Event &E2 = Events[Idx];
  bool AnyPlain = false;
  for (const MemRef &R2 : Op.Refs)
    AnyPlain |= !R2.Atomic && !R2.Free;
  if (!AnyPlain)
    return;
  Exec.ownedLocks(T, E2.Held);
  auto CommonLock = [](const Event &A, const Event &B) {
    for (Word L : A.Held)
      if (std::binary_search(B.Held.begin(), B.Held.end(), L))
        return true;
    return false;
  };
  for (const MemRef &R2 : Op.Refs) {
    if (R2.Atomic || R2.Free)
      continue;
    std::vector<unsigned> &Hist = PlainByObj[R2.Obj];
    // The latest accesses first; a bounded look back (a hint is a hint).
    for (size_t I = Hist.size(), Seen = 0;
         !(HintPair && LocksetHint) && I-- > 0 && Seen < 256; ++Seen) {
      const Event &E1 = Events[Hist[I]];
      unsigned U = E1.Tid;
      if (U == T || (E1.InAtomic && E2.InAtomic))
        continue;
      bool Ordered = U < C.size() && C[U] >= EventSyncVC[Hist[I]][U];
      if (Ordered ? LocksetHint || CommonLock(E1, E2) : bool(HintPair))
        continue;
      bool Conflict = false;
      for (const MemRef &R1 : E1.Op.Refs)
        Conflict |= !R1.Atomic && !R1.Free && (R1.Write || R2.Write) &&
                    R1.Addr < R2.Addr + R2.Size && R2.Addr < R1.Addr + R1.Size;
      if (!Conflict)
        continue;
      auto Key = std::minmax(E1.Op.Inst, E2.Op.Inst);
      if (HintsTried.count({Key.first, Key.second}) ||
          Reported.count({Key.first, Key.second}))
        continue; // tried in an earlier run: look for another pair
      (Ordered ? LocksetHint : HintPair) = {Hist[I], Idx};
    }
    if (Hist.empty() || Hist.back() != Idx)
      Hist.push_back(Idx);
  }
}

template <typename KeepFn>
Explorer::Witness Explorer::witness(unsigned E1, unsigned E2, KeepFn Keep) {
  const Instruction *I1 = Events[E1].Op.Inst, *I2 = Events[E2].Op.Inst;
  if (!HintsTried.insert(std::minmax(I1, I2)).second ||
      Reported.count(std::minmax(I1, I2)))
    return {};
  // Threads renumbered in the order they are created in the witness.
  std::vector<Node> Nodes;
  std::map<unsigned, unsigned> NewId{{0u, 0u}};
  for (unsigned K = 0; K < E2; ++K) {
    if (!Keep(K))
      continue;
    auto It = NewId.find(Events[K].Tid);
    if (It == NewId.end())
      continue; // a thread whose creation is not in the witness
    Node N;
    N.Chosen = It->second;
    N.Nondet = Stack[K].Nondet;
    N.NondetBits = Stack[K].NondetBits;
    Nodes.push_back(std::move(N));
    if (Events[K].Child >= 0)
      NewId.emplace(unsigned(Events[K].Child), unsigned(NewId.size()));
  }
  if (!NewId.count(Events[E1].Tid) || !NewId.count(Events[E2].Tid))
    return {};
  return {std::move(Nodes), int(NewId[Events[E2].Tid])};
}

void Explorer::tryHints() {
  // Both witnesses come from this run: a replay replaces its events.
  std::vector<Witness> Witnesses;
  if (HintPair) {
    auto [E1, E2] = *HintPair;
    const Clock &V1 = EventSyncVC[E1], &V2 = EventSyncVC[E2];
    auto Before = [&](unsigned K, const Clock &V) {
      unsigned U = Events[K].Tid;
      return U < V.size() && V[U] >= EventSyncVC[K][U];
    };
    // What happens before either access, in the run's order.
    Witnesses.push_back(witness(E1, E2, [&](unsigned K) {
      return K != E1 && (Before(K, V1) || Before(K, V2));
    }));
  }
  if (LocksetHint) {
    auto [E1, E2] = *LocksetHint;
    unsigned U = Events[E1].Tid;
    // The run up to the later access, without the earlier access's thread
    // from that access on.
    Witnesses.push_back(witness(
        E1, E2, [&](unsigned K) { return K < E1 || Events[K].Tid != U; }));
  }
  // The later access's thread may go on alone for this many steps.
  constexpr unsigned FocusSteps = 256;
  for (Witness &W : Witnesses) {
    if (W.Nodes.empty() || Stop || (Opts.StopAtFirstRace && Races))
      continue;
    std::swap(Stack, W.Nodes);
    bool SavedReplay = ReplayMode;
    ReplayMode = HintMode = true;
    HintFocus = W.Focus;
    HintSteps = FocusSteps;
    HintRacesBefore = Races;
    execute();
    ReplayMode = SavedReplay;
    HintMode = false;
    HintFocus = -1;
    std::swap(Stack, W.Nodes);
    ++HintRuns;
    if (Races > HintRacesBefore)
      ++HintRaces;
  }
}

void Explorer::applyPartners(size_t Below) {
  // A subspace below each of these nodes was pruned: the executions
  // skipped there could have added backtrack points here (a dependency
  // chain through the pruned part). Instead, the chosen operation and a
  // candidate partner in another thread's future are explored in both
  // orders. Plain DPOR's backtracking suffices where nothing below was
  // pruned, so PDP never explores more than DPOR there.
  for (size_t A = 0; A < Below; ++A) {
    Node &N = Stack[A];
    if (N.Pos.empty() || !N.Pending[N.Chosen] ||
        !N.PartnersAppliedFor.insert(N.Chosen).second)
      continue;
    for (unsigned P : Oracle->partnerThreads(N.Pending[N.Chosen], N.Pos)) {
      if (P == N.Chosen)
        continue;
      if (std::count(N.Enabled.begin(), N.Enabled.end(), P))
        N.Backtrack.insert(P);
      else
        N.Backtrack.insert(N.Enabled.begin(), N.Enabled.end());
    }
  }
}

bool Explorer::backtrack() {
  while (!Stack.empty()) {
    Node &N = Stack.back();
    // Every input vector of the chosen step first: the variants share the
    // step's visible operation (inputs are local), so they share its
    // dependencies, and a thread in a sleep set stands for all of them.
    if (nextInputs(N.Nondet, N.NondetBits)) {
      ++InputVariants;
      return true;
    }
    N.Done.insert(N.Chosen);
    for (unsigned T : N.Backtrack)
      if (!N.Done.count(T) && !N.Sleep.count(T)) {
        N.Chosen = T;
        N.Nondet.clear(); // they belonged to another thread's step
        N.NondetBits.clear();
        return true;
      }
    Stack.pop_back();
  }
  return false;
}

Result Explorer::run() {
  auto Start = std::chrono::steady_clock::now();
  R.Engine = "explore";
  if (!Opts.Replay.empty()) {
    ReplayMode = true;
    if (loadSchedule(Opts.Replay))
      execute();
    if (Races)
      R.Program = Verdict::Race;
    else {
      R.Program = Verdict::Unknown;
      R.Reasons = Reasons;
      R.Reasons.push_back("the replayed interleaving does not end in a race");
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
    return Bound && Now >= AtFirst + uint64_t(double(Bound) * Opts.MoreRacesShare);
  };
  return Past(Transitions, FirstRaceTransitions, Opts.MaxTransitions) ||
         Past(instructions(), FirstRaceInstructions, Opts.MaxInstructions);
}

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
    InitNondetBits.clear();
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
    if (auto Bound = boundReached()) {
      if (backtrack()) {
        note(*Bound);
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
         budgetSpent();
}

void Explorer::search() {
  // Iterative deepening on the run length and the number of threads: a
  // program whose runs are long (a thread looping forever, a long spin)
  // or that starts many threads has its races among few threads in short
  // runs found first, since DFS backtracks from the bottom up and the
  // interleavings grow with every thread. A level that finishes without
  // cutting a run, holding back a thread creation or running out of its
  // budget is the complete search. Each earlier level may use a quarter
  // of what is left of the budgets.
  struct Level {
    uint64_t Depth;
    unsigned Threads;
  };
  std::vector<Level> Levels;
  for (Level L : {Level{256, 3}, Level{2048, 8}}) {
    L.Depth = std::min<uint64_t>(L.Depth, Opts.MaxDepth);
    L.Threads = std::min(L.Threads, Opts.MaxThreads);
    if (L.Depth < Opts.MaxDepth || L.Threads < Opts.MaxThreads)
      Levels.push_back(L);
  }
  Levels.push_back({Opts.MaxDepth, Opts.MaxThreads});
  auto Share = [](uint64_t Now, uint64_t Bound, bool Last, unsigned Parts) {
    if (!Bound)
      return uint64_t(0); // no bound
    uint64_t End = Last ? Bound : Now + (Bound > Now ? (Bound - Now) / 4 : 0) + 1;
    return Now + (End > Now ? (End - Now) / Parts : 0) + 1;
  };
  unsigned NRounds = std::max(1u, Opts.InputRounds);
  bool AnySampled = false;
  size_t I = 0;
  for (; I < Levels.size(); ++I) {
    bool Last = I + 1 == Levels.size();
    DepthLimit = Levels[I].Depth;
    Exec.setMaxThreads(Levels[I].Threads);
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
      InitNondetBits.clear();
      SampledInput = false;
      Rounds = std::max(Rounds, Round);
      RoundFirstExecution = Executions + 1;
      for (;;) {
        Stack.clear();
        unsigned Parts = NRounds - Round;
        for (;;) {
          LevelExecEnd = Share(Executions, Opts.MaxExecutions, Last, Parts);
          LevelTransEnd =
              Share(Transitions, Opts.MaxTransitions, Last, Parts);
          LevelCut = false;
          exploreRound();
          if (!LevelCut || SampledInput || Parts == 1 || finished())
            break;
          Parts = 1; // one round only: resume with the whole share
        }
        if (LevelCut || finished() || !nextInputs(InitNondet, InitNondetBits))
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
  }
  LevelExecEnd = LevelTransEnd = 0;
  SampledInput = AnySampled;
  bool Last = I + 1 >= Levels.size();
  if (ThreadCut) {
    note(formatv("runs were limited to {0} threads (the search stopped "
                 "before reaching --max-threads={1})",
                 Exec.maxThreads(), Opts.MaxThreads));
    Exhaustive = false;
  }
  if (DepthCut) {
    note(Last ? formatv("depth bound of {0} operations per run reached "
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

void Explorer::finish(std::chrono::steady_clock::time_point Start) {
  if (cancelled())
    Exhaustive = false;
  if (SampledInput) {
    note(formatv("nondeterministic inputs were sampled ({0} input vector{1}, "
                 "seed {2}), not enumerated",
                 Rounds + 1, Rounds ? "s" : "", Opts.Seed));
  }
  bool AnyRace = false;
  for (const Finding &F : R.Findings)
    AnyRace |= F.Category == FindingCategory::DataRace;
  for (const Instruction *I : AssertsSeen)
    Notes.push_back("an assertion fails in some run at " +
                    PM.location(I).str());
  if (AnyRace || Races)
    R.Program = Verdict::Race;
  else if (Exhaustive && !SampledInput && !Stop && Reasons.empty())
    R.Program = Verdict::RaceFree;
  else
    R.Program = Verdict::Unknown;
  if (R.Program != Verdict::Unknown)
    R.Reasons = Notes;
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
  } else if (R.Program == Verdict::Unknown) {
    R.Reasons = Reasons;
    R.Reasons.insert(R.Reasons.end(), Notes.begin(), Notes.end());
    if (R.Reasons.empty())
      R.Reasons.push_back("the search was not exhaustive");
  }
  std::chrono::duration<double> Secs = std::chrono::steady_clock::now() - Start;
  R.stat("explore_seconds", Secs.count());
  R.stat("executions", double(Executions));
  R.stat("transitions", double(Transitions));
  R.stat("instructions", double(instructions()));
  R.stat("max_depth", double(MaxDepthSeen));
  R.stat("races", double(Races));
  R.stat("input_rounds", double(Rounds + 1));
  R.stat("input_variants", double(InputVariants));
  R.stat("guided_runs", double(GuidedRuns));
  R.stat("race_hints_tried", double(HintRuns));
  R.stat("race_hints_confirmed", double(HintRaces));
  R.stat("pdp", Oracle ? 1.0 : 0.0);
  R.stat("pdp_candidate_pairs", Oracle ? double(Oracle->candidates()) : 0.0);
  R.stat("pdp_checks", double(PdpChecks));
  R.stat("pdp_pruned_backtracks", double(Pruned));
  // Every schedule of every input was explored: a pair it did not report
  // is not a race (the portfolio then drops the static stage's pairs).
  bool Complete = Exhaustive && !SampledInput && !Stop && Reasons.empty() &&
                  !(Opts.StopAtFirstRace && Races) && !budgetSpent() &&
                  !cancelled();
  R.SearchComplete = Complete;
  R.stat("complete", Complete ? 1.0 : 0.0);
}

} // namespace

Result ExploreEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  Explorer X(PM, Opts);
  return X.run();
}

} // namespace crace
