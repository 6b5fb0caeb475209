//===- ExploreRaces.cpp - races, deadlocks and lockset hints
//----------------===//
//
// Races are checked in each state (two enabled, conflicting accesses);
// races inside an atomic section are reported when it completes. The
// synchronisation clocks give the lockset hints, which steer the search
// to an unordered pair seen in a run.
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Explorer.h"

using namespace llvm;

namespace crace::explore {

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
          bool AtA = RA.Atomic || ownsAtomic(P),
               AtB = RB.Atomic || ownsAtomic(Q);
          if (!conflicting(RA, AtA, RB, AtB))
            continue;
          // An access inside an atomic section against another thread's
          // plain access the section holds back. The section's first access
          // is enabled together with it (in the state where the section
          // began). A later one runs while the other thread cannot, but the
          // section as a whole was enabled with it, and in C the section is
          // no synchronisation at all. SV-COMP's tasks disagree on this
          // (pthread-complex/elimination_backoff_stack is labelled
          // race-free, the fib_*-racy and *_cas-race tasks racy for the
          // same shape), so it is a possible race: neither confirmed nor
          // proved absent. Either races only if the section completes: a
          // failed assumption inside it makes the whole section infeasible,
          // so the race is reported at the section's end.
          int Section = ownsAtomic(P) && !AtB && !Exec.enabled(Q)   ? int(P)
                        : ownsAtomic(Q) && !AtA && !Exec.enabled(P) ? int(Q)
                                                                    : -1;
          bool LaterInSection = Section >= 0 &&
                                unsigned(Section) < SectionAccesses.size() &&
                                SectionAccesses[Section] > 0;
          if (LaterInSection && !LaterSectionNoted) {
            LaterSectionNoted = true;
            Reasons.push_back(
                {ReasonKind::Incomplete,
                 "a plain access of one thread against a later access of "
                 "another thread's atomic section (__VERIFIER_atomic_begin/"
                 "end or a __VERIFIER_atomic_ function) is a possible race "
                 "only: the section runs uninterrupted, but it is no "
                 "synchronisation in C"});
          }
          if (MasksSignals &&
              (Exec.isSignalHandler(P) || Exec.isSignalHandler(Q))) {
            // The program blocks signals, which is not modelled: the
            // handler may not be deliverable here. No confirmation, and
            // no proof either.
            if (!MaskedHandlerRace) {
              MaskedHandlerRace = true;
              Reasons.push_back(
                  {ReasonKind::Unmodelled,
                   formatv("a race with signal handler '{0}' is not "
                           "confirmed: the program blocks signals "
                           "(sigprocmask/pthread_sigmask), which is not "
                           "modelled",
                           Exec.threadName(Exec.isSignalHandler(P) ? P : Q))});
            }
            continue;
          }
          auto Key = std::minmax(A.Inst, B.Inst);
          if (Reported.count({Key.first, Key.second}))
            continue;
          Finding F;
          // A run that depends on a call the executor ran past shows a
          // possible race only.
          F.Kind = RunTainted || Exec.havocked(P) || Exec.havocked(Q) ||
                           LaterInSection
                       ? Verdict::PossibleRace
                       : Verdict::Race;
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
            SectionRaces[Section].push_back(
                {{Key.first, Key.second}, std::move(F)});
            continue;
          }
          reportRace({Key.first, Key.second}, std::move(F));
        }
    }
  }
}

void Explorer::reportRace(
    std::pair<const Instruction *, const Instruction *> Key, Finding F) {
  if (F.Kind != Verdict::Race) {
    if (!Reported.count(Key))
      Unconfirmed.insert({Key, std::move(F)}); // the first one seen stays
    return;
  }
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

std::optional<Reason> Explorer::havocReasons(std::vector<Reason> &MayFail) {
  std::optional<Reason> HavocNote;
  if (!Havocs.empty()) {
    std::string Sites;
    for (size_t I = 0; I < Havocs.size() && I < MaxHavocSitesNamed; ++I) {
      SourceLoc L = PM.location(Havocs[I].Inst);
      Sites += (I ? "; " : "") + Havocs[I].What +
               (L.valid() ? ", at " + L.str() : std::string());
    }
    if (Havocs.size() > MaxHavocSitesNamed)
      Sites += formatv("; and {0} more", Havocs.size() - MaxHavocSitesNamed);
    HavocNote = Reason{
        ReasonKind::Unmodelled,
        formatv("the explore engine ran past calls it cannot execute, "
                "drawing their results as inputs and assuming they touch "
                "no program memory ({0}); a race or assertion failure in a "
                "run that depends on one is not confirmed",
                Sites)};
    note(HavocNote->Kind, HavocNote->Text);
  }
  for (const Instruction *I : UnconfirmedAsserts)
    if (!AssertsSeen.count(I))
      MayFail.push_back({ReasonKind::Unmodelled,
                         "an assertion may fail at " + PM.location(I).str() +
                             " (in a run that depends on such a call: not "
                             "confirmed)"});
  return HavocNote;
}

void Explorer::addUnconfirmed() {
  for (auto &[Key, F] : Unconfirmed) {
    if (Reported.count(Key))
      continue; // confirmed by a run that executed everything
    std::string A = F.First.Loc.str(), B = F.Second.Loc.str();
    if (!ReportedPlaces.insert(std::minmax(A, B)).second)
      continue;
    if (Opts.MaxFindings && R.Findings.size() >= Opts.MaxFindings)
      break;
    R.Findings.push_back(std::move(F));
  }
  Unconfirmed.clear();
}

void Explorer::checkDeadlock() {
  std::vector<const Instruction *> Blocked;
  bool AnyWaiting = false;
  // Threads parked at the thread bound (noted) would still run: no one
  // waiting for them is deadlocked.
  if (Exec.parkedThreads())
    return;
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
    if (P.K == PendingOp::Done || P.K == PendingOp::Blocked || Exec.spinning(T))
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
    if (P.K == PendingOp::Done || P.K == PendingOp::Blocked || Exec.spinning(T))
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
    N.NondetSlots = Stack[K].NondetSlots;
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

} // namespace crace::explore
