//===- Explorer.h - the explore engine's search, private to its files -----===//
//
// The state of one explore search (class Explorer) and the helpers its
// files share: vector clocks, the dependence relation of DPOR, the search
// stack's nodes. ExploreEngine.cpp holds the search loop (DPOR,
// budgets), ExploreSearch.cpp its passes, levels and input draws,
// ExploreRaces.cpp race checks and lockset hints, ExploreTrace.cpp the
// interleavings and schedules of reports, ExploreGuided.cpp the
// comparison-guided runs.
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_ENGINES_EXPLORE_EXPLORER_H
#define CRACE_ENGINES_EXPLORE_EXPLORER_H

#include "engines/explore/Executor.h"
#include "engines/explore/ExploreEngine.h"
#include "engines/explore/Guidance.h"
#include "engines/explore/InputClasses.h"
#include "model/ProgramModel.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>

namespace crace::explore {

using llvm::Instruction;
using llvm::StringRef;

/// Thread-indexed vector clock; entry t = number of t's events that
/// happen before (or are) the event.
using Clock = std::vector<unsigned>;

inline void joinInto(Clock &A, const Clock &B) {
  if (A.size() < B.size())
    A.resize(B.size(), 0);
  for (size_t I = 0; I < B.size(); ++I)
    A[I] = std::max(A[I], B[I]);
}

inline bool overlap(const MemRef &A, const MemRef &B) {
  return A.Addr < B.Addr + B.Size && B.Addr < A.Addr + A.Size;
}

inline bool syncKind(PendingOp::Kind K) {
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
inline bool globalKind(PendingOp::Kind K) {
  return K == PendingOp::ProgramExit || K == PendingOp::ForkChild ||
         K == PendingOp::AtomicBegin || K == PendingOp::AtomicEnd;
}

/// May executing A and B in either order differ (or one disable the
/// other)? Conservative: true when unsure.
inline bool dependent(const PendingOp &A, unsigned TA, const PendingOp &B,
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
  if (A.K == PendingOp::Join && B.K == PendingOp::ThreadEnd && A.Sync == TB + 1)
    return true;
  if (B.K == PendingOp::Join && A.K == PendingOp::ThreadEnd && B.Sync == TA + 1)
    return true;
  return false;
}

/// Whether an event E of thread TE and a pending operation Op of another
/// thread are dependent but never enabled together, so that DPOR need not
/// try Op first (Flanagan–Godefroid's co-enabledness): a join and the end
/// of the thread it waits for, and a plain lock and the release of its
/// mutex by the holder (the lock is disabled from the holder's acquisition
/// to its release; that acquisition is the race to reverse, as in Inspect).
/// Both pairs still order events and wake sleeping threads.
inline bool notReversible(const PendingOp &E, unsigned TE,
                          const PendingOp &Op) {
  if (Op.K == PendingOp::Join)
    return E.K == PendingOp::ThreadEnd && Op.Sync == TE + 1;
  if (Op.K != PendingOp::Lock || Op.Try || Op.ReadLock || !Op.Sync)
    return false;
  return (E.K == PendingOp::Unlock && E.Sync == Op.Sync) ||
         (E.K == PendingOp::CondWait && E.Sync2 == Op.Sync);
}

/// The two accesses race: overlapping, one writes, not both atomic.
inline bool conflicting(const MemRef &A, bool AtomicA, const MemRef &B,
                        bool AtomicB) {
  return !A.Free && !B.Free && (A.Write || B.Write) && !(AtomicA && AtomicB) &&
         overlap(A, B);
}

/// The objects and synchronisation keys an operation touches.
std::vector<uint64_t> keysOf(const PendingOp &Op, unsigned T);

struct Event {
  unsigned Tid = 0;
  PendingOp Op;
  Clock VC;
  bool InAtomic = false;
  /// For a Create event: the thread it created.
  int Child = -1;
  /// Threads the step created at the thread bound (parked, never run).
  unsigned Parked = 0;
  /// For a plain memory access: the locks its thread owned (sorted).
  llvm::SmallVector<Word, 2> Held;
};

inline constexpr uint8_t EnumeratedInput = 0x80;

/// How a drawn input was chosen: its width in bits, | EnumeratedInput
/// when every value is tried -- every value of the width, or, with
/// Classes, one value of each class of an input the program only compares
/// with constants (InputClasses.h).
struct InputSlot {
  uint8_t Bits = 64;
  const std::vector<Word> *Classes = nullptr;
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
  /// Nondeterministic values drawn while Chosen ran, and per value how
  /// it was chosen.
  std::vector<Word> Nondet;
  std::vector<InputSlot> NondetSlots;
};

/// The next input vector of an odometer over the enumerated positions of
/// Vals (last position fastest); later positions are drawn afresh. False
/// when every enumerated position is at its last value.
inline bool nextInputs(std::vector<Word> &Vals, std::vector<InputSlot> &Slots) {
  for (size_t J = Vals.size(); J-- > 0;) {
    if (!(Slots[J].Bits & EnumeratedInput))
      continue;
    if (const std::vector<Word> *C = Slots[J].Classes) {
      auto Next = std::upper_bound(C->begin(), C->end(), Vals[J]);
      if (Next == C->end())
        continue;
      Vals[J] = *Next;
    } else {
      unsigned W = Slots[J].Bits & ~EnumeratedInput;
      Word Max = W >= 64 ? ~Word(0) : (Word(1) << W) - 1;
      if (Vals[J] >= Max)
        continue;
      ++Vals[J];
    }
    Vals.resize(J + 1);
    Slots.resize(J + 1);
    return true;
  }
  return false;
}

class Explorer {
public:
  Explorer(const ProgramModel &PM, const EngineOptions &Opts)
      : PM(PM), Opts(Opts), Exec(PM, limits(Opts)), Rng(Opts.Seed),
        Classes(PM.module()) {
    Exec.setInputGuidance(true);
    if (Opts.Pdp && Opts.Static && Opts.Static->CandidatesComplete)
      Oracle = std::make_unique<PdpOracle>(PM, *Opts.Static);
    MasksSignals = PM.module().getNamedMetadata("crace.signal_masking");
  }

  Result run();

private:
  void exploreRound();
  void search();
  /// One pass of search(): the levels of iterative deepening, each with
  /// its input rounds; whether it sampled inputs.
  bool searchLevels();
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
    note(ReasonKind::Unmodelled,
         "the explore engine cannot execute: " + Exec.stoppedWhy() +
             (L.valid() ? " at " + L.str() : std::string()) +
             " (that thread stops there; the others go on)");
    Exhaustive = false;
    Exec.clearStopped();
  }
  /// Takes the calls the executor ran past in the last steps, and the
  /// scanf calls it gave one text of standard input: no proof covers
  /// the runs they were not given.
  void noteHavocs() {
    for (Executor::HavocSite &H : Exec.takeHavocs()) {
      Exhaustive = false;
      if (!HintMode && HavocSeen.insert(H.Inst).second)
        Havocs.push_back(std::move(H));
    }
    for (const llvm::CallBase *CB : Exec.takeChosenInputs()) {
      if (!ChoseInputNoted) {
        SourceLoc L = PM.location(CB);
        note(ReasonKind::Incomplete,
             "scanf" + (L.valid() ? " at " + L.str() : std::string()) +
                 " was given one text of standard input (every conversion "
                 "succeeding, its numbers drawn), not every text");
        ChoseInputNoted = true;
      }
      Exhaustive = false;
    }
  }
  bool ChoseInputNoted = false;
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
  /// Adds a reason the search is not a proof (once).
  void note(ReasonKind K, std::string Text) {
    if (std::none_of(Reasons.begin(), Reasons.end(),
                     [&](const Reason &W) { return W.Text == Text; }))
      Reasons.push_back({K, std::move(Text)});
  }

  const ProgramModel &PM;
  const EngineOptions &Opts;
  Executor Exec;
  std::mt19937_64 Rng;
  /// Inputs the program only compares with constants: their classes.
  InputClasses Classes;

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
  std::vector<InputSlot> InitNondetSlots;
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
  /// Events Skip accepts are passed over (the one before them counts).
  template <typename Fn, typename SkipFn>
  void latestDependent(const PendingOp &Op, unsigned T, Fn F,
                       SkipFn Skip) const {
    for (uint64_t K : keysOf(Op, T)) {
      auto It = EventsByKey.find(K);
      if (It == EventsByKey.end())
        continue;
      for (unsigned U = 0; U < It->second.size(); ++U) {
        if (U == T)
          continue;
        const std::vector<unsigned> &L = It->second[U];
        for (auto I = L.rbegin(); I != L.rend(); ++I)
          if (!Skip(Events[*I]) && dependent(Events[*I].Op, U, Op, T)) {
            F(*I);
            break;
          }
      }
    }
  }
  template <typename Fn>
  void latestDependent(const PendingOp &Op, unsigned T, Fn F) const {
    latestDependent(Op, T, F, [](const Event &) { return false; });
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
  std::vector<Clock> SyncClock;           // per thread
  std::map<uint64_t, Clock> SyncObjClock; // per synchronisation key
  std::vector<Clock> EventSyncVC;         // per event
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
  std::vector<Reason> Reasons;
  /// Facts that do not weaken the verdict (assertion failures).
  std::vector<Reason> Notes;
  std::set<std::pair<const Instruction *, const Instruction *>> Reported;
  std::set<std::pair<std::string, std::string>> ReportedPlaces;
  std::set<std::vector<const Instruction *>> DeadlocksSeen;
  std::set<const Instruction *> AssertsSeen;
  /// Calls the executor ran past without executing them (in the order
  /// first met), and whether the current run depends on one: a thread that
  /// ran past one has done a visible operation since, which the others may
  /// have seen.
  std::vector<Executor::HavocSite> Havocs;
  std::set<const Instruction *> HavocSeen;
  bool RunTainted = false;
  static constexpr size_t MaxHavocSitesNamed = 5;
  /// Races seen only in runs that depend on such a call: possible races,
  /// reported when no run confirms the pair (in the order first seen).
  llvm::MapVector<std::pair<const Instruction *, const Instruction *>, Finding>
      Unconfirmed;
  std::set<const Instruction *> UnconfirmedAsserts;
  /// Adds the unconfirmed races to R (after the confirmed ones).
  void addUnconfirmed();
  /// The reason naming the calls run past (also noted), if any, and one
  /// per assertion that failed only in runs depending on them (MayFail).
  std::optional<Reason> havocReasons(std::vector<Reason> &MayFail);
  bool Exhaustive = true;
  bool SampledInput = false;
  /// search()'s first pass: inputs with classes are enumerated over them
  /// (InputClasses.h); the pass ends when a run draws another input or
  /// more than MaxClassDraws of them (ClassPassGivenUp).
  bool ClassPass = false, ClassPassGivenUp = false;
  static constexpr unsigned MaxClassDraws = 16;
  /// Inputs the current run drew in the class pass.
  unsigned ClassDraws = 0;
  /// Class passes given up for the usual search (a statistic).
  unsigned ClassPassesGivenUp = 0;
  /// The last searchLevels() ended in its last level (--max-depth and
  /// --max-threads themselves).
  bool AtLastLevel = false;
  /// Input values enumerated (small declared domains) / variants explored.
  bool AnyEnumerated = false;
  /// Inputs enumerated over their classes (InputClasses.h).
  bool AnyClassified = false;
  uint64_t InputVariants = 0;
  bool Stop = false;
  uint64_t Executions = 0, Transitions = 0, MaxDepthSeen = 0;
  /// Runs that ended with every enabled thread asleep (explored elsewhere).
  uint64_t SleepBlocked = 0;
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
  bool LaterSectionNoted = false; // the reason below was given
  std::unique_ptr<PdpOracle> Oracle;
  uint64_t Pruned = 0, PdpChecks = 0;
};

} // namespace crace::explore

#endif
