//===- Lockset.cpp - the must-lockset analysis and its candidate pairs ----===//
#include "analysis/Lockset.h"

#include "analysis/CondvarRwLocks.h"
#include "analysis/MHP.h"
#include "analysis/OverlapIndex.h"
#include "analysis/OwnFrames.h"
#include "analysis/PairFilters.h"
#include "analysis/SemaphoreLocks.h"
#include "analysis/SymbolicLocks.h"
#include "analysis/Unpublished.h"
#include "model/Counters.h"
#include "model/LockTable.h"
#include "model/ProgramModel.h"
#include "llvm/IR/InstIterator.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#define DEBUG_TYPE "crace-analysis"

using namespace llvm;

CRACE_STATISTIC(NumAccessRecords, "Accesses the lockset analysis recorded");
CRACE_STATISTIC(NumPairs, "Pairs of accesses considered");
CRACE_STATISTIC(NumPairsByLocks, "Pairs cut: both hold a common lock");
CRACE_STATISTIC(NumPairsBySymbolicLocks,
                "Pairs cut: both hold the lock their element selects");
CRACE_STATISTIC(
    NumPairsByFilters,
    "Pairs cut by the pair filters (own frames, instances, tickets)");
CRACE_STATISTIC(NumPairsByMHP, "Pairs cut: cannot happen in parallel");
CRACE_STATISTIC(NumCandidatePairs, "Candidate pairs (lockset findings' pairs)");

namespace crace {

namespace {

constexpr uint32_t AtomicSectionLock = 0;

using Record = AccessRecord;

class Analysis {
public:
  Analysis(const ProgramModel &PM, const std::atomic<bool> *Cancelled)
      : Locks(PM), Symbolic(PM), RwLocks(PM, Locks, NotLocks),
        Sems(PM, Locks, NotLocks), PM(PM), PTA(PM.pointsTo()),
        Cancelled(Cancelled) {}

  bool cancelled() const { return Cancelled && Cancelled->load(); }

  /// Analyses every thread template; false when cancelled. A semaphore is
  /// a lock (sem_wait acquires, sem_post releases) while it passes the
  /// checks of SemaphoreLocks.h, a reader/writer lock of CondvarRwLocks.h
  /// while it passes those; one that fails them is dropped and the threads
  /// are analysed again without it.
  bool analyseThreads() {
    for (;;) {
      size_t Dropped = NotLocks.size();
      Records.clear();
      CreatesReached.clear();
      ForksIn.clear();
      Sems.startWalks();
      RwLocks.startWalks();
      for (const ThreadTemplate &T : PM.threads()) {
        CurThread = T.Id;
        Summaries.clear();
        InProgress.clear();
        analyse(T.Entry, LockSet(), nullptr, nullptr);
        if (cancelled())
          return false;
      }
      Sems.finishWalks();
      RwLocks.finishWalks();
      if (NotLocks.size() == Dropped)
        return true;
    }
  }

  std::set<Record> Records;
  LockTable Locks;
  std::map<const Function *, std::vector<const CallBase *>> UnlocksFrom;

  std::string lockName(uint32_t Id, bool Read) const {
    if (Id >= SymbolicLockBase)
      return Symbolic.name(Id) + (Read ? " (read)" : "");
    return Locks.Names[Id] + (Read ? " (read)" : "");
  }

  SymbolicLocks Symbolic;
  /// Reader/writer locks built from a mutex and a condition variable
  /// (CondvarRwLocks.h).
  RwLockUse RwLocks;
  SemaphoreLocks Sems;

  /// The process each thread template runs in (MHP.h), found from where
  /// the walks reached its create site: the child of a fork when every
  /// such place is in that child's code (or in a thread of that child), the
  /// initial process for main. A signal handler stays installed across
  /// fork, so one installed in a process that forks may run in any.
  std::vector<ProcessId> templateProcesses() const {
    const auto &Ts = PM.threads();
    std::vector<ProcessId> Out(Ts.size());
    std::vector<unsigned char> State(Ts.size(), 0); // 0 new, 1 busy, 2 done
    std::function<ProcessId(unsigned)> Of = [&](unsigned T) -> ProcessId {
      if (T == 0)
        return ProcessId::initial();
      if (State[T] == 2)
        return Out[T];
      if (State[T] == 1)
        return ProcessId(); // created by itself: not known
      State[T] = 1;
      std::optional<ProcessId> P;
      auto Join = [&](ProcessId Q) {
        if (!P)
          P = Q;
        else if (!(*P == Q))
          P = ProcessId();
      };
      auto It = CreatesReached.find(Ts[T].CreateSite);
      if (It == CreatesReached.end() || It->second.empty())
        Join(ProcessId()); // never reached: not known
      else
        for (auto [Creator, Child] : It->second)
          Join(Child ? ProcessId::child(Child) : Of(Creator));
      // (A fork whose process is not known may run in P: the handler's
      // own fork, for one.)
      if (Ts[T].SignalHandler && P->K != ProcessId::Any)
        for (auto [Thread, Child] : ForksIn) {
          ProcessId Q = Child ? ProcessId::child(Child) : Of(Thread);
          if (Q == *P || Q.K == ProcessId::Any) {
            P = ProcessId();
            break;
          }
        }
      State[T] = 2;
      return Out[T] = *P;
    };
    for (unsigned T = 0; T < Ts.size(); ++T)
      Out[T] = Of(T);
    return Out;
  }

private:
  using Key = std::tuple<const Function *, LockSet, const Instruction *,
                         const CallBase *>;

  /// Where the walks reached each create site: the thread template walking
  /// and the fork child whose code it was in (null: the template's own
  /// process). ForksIn: the same for the fork calls.
  std::map<const CallBase *, std::set<std::pair<unsigned, const CallBase *>>>
      CreatesReached;
  std::set<std::pair<unsigned, const CallBase *>> ForksIn;

  /// Locks that failed a check (semaphores, reader/writer locks).
  std::set<uint32_t> NotLocks;

  bool beforeEveryThread(const Instruction *MainPos) const {
    if (CurThread != 0 || !MainPos)
      return false;
    for (const ThreadTemplate &T : PM.threads())
      if (T.Id != 0 && mayHappenInParallel(PM, {0, MainPos}, {T.Id, nullptr}))
        return false;
    return true;
  }

  std::optional<uint32_t> lockOf(const Value *P) { return Locks.lockOf(P); }

  /// The lock P denotes: a concrete one, or else an element of a global
  /// array of locks chosen by an index, or the lock field of the struct a
  /// pointer points to (SymbolicLocks.h).
  std::optional<uint32_t> acquired(const Value *P) {
    if (auto Id = lockOf(P))
      return Id;
    return Symbolic.lockOf(P);
  }

  void release(LockSet &LS, const Value *P) {
    Symbolic.release(LS, P);
    if (auto Id = lockOf(P)) {
      LS.release(*Id);
      return;
    }
    // Unknown identity: drop every lock it may be.
    std::vector<uint32_t> Drop;
    for (auto &[Id, R] : LS.Held)
      if (Id != AtomicSectionLock && Id < SymbolicLockBase &&
          Locks.mayRelease(P, Id))
        Drop.push_back(Id);
    for (uint32_t Id : Drop)
      LS.release(Id);
  }

  /// The lockset on the edge From -> To: adds a lock acquired by a
  /// successful try-lock tested by From's branch.
  LockSet edge(const BasicBlock *From, const BasicBlock *To, LockSet LS) {
    auto *Br = dyn_cast<BranchInst>(From->getTerminator());
    if (!Br || !Br->isConditional() || LS.Top)
      return LS;
    const Value *Cond = Br->getCondition();
    bool Negate = false;
    // !x is "xor x, true" at -O0.
    while (auto *BO = dyn_cast<BinaryOperator>(Cond)) {
      auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
      if (BO->getOpcode() != Instruction::Xor || !C || !C->isOne())
        break;
      Negate = !Negate;
      Cond = BO->getOperand(0);
    }
    auto *Cmp = dyn_cast<ICmpInst>(Cond);
    if (!Cmp || !Cmp->isEquality())
      return LS;
    auto *Zero = dyn_cast<ConstantInt>(Cmp->getOperand(1));
    if (!Zero || !Zero->isZero())
      return LS;
    const Value *R = Cmp->getOperand(0);
    while (auto *Cast = dyn_cast<CastInst>(R))
      R = Cast->getOperand(0);
    auto *CB = dyn_cast<CallBase>(R);
    if (!CB)
      return LS;
    auto K = callIntrinsic(*CB);
    if (K != Intrinsic::TryLock && K != Intrinsic::TryRdLock)
      return LS;
    // Result == 0 means acquired.
    bool EqZero = Cmp->getPredicate() == ICmpInst::ICMP_EQ;
    bool TrueEdge = Br->getSuccessor(0) == To && Br->getSuccessor(1) != To;
    bool FalseEdge = Br->getSuccessor(1) == To && Br->getSuccessor(0) != To;
    if (!TrueEdge && !FalseEdge)
      return LS;
    bool Acquired = (TrueEdge == EqZero) != Negate;
    if (Acquired)
      if (auto Id = acquired(CB->getArgOperand(0)))
        LS.acquire(*Id, K == Intrinsic::TryRdLock);
    return LS;
  }

  void record(const Instruction &I, const LockSet &LS,
              const Instruction *MainPos, const CallBase *Child) {
    for (MemAccess A : PM.accessesOf(I)) {
      if (PM.isThreadPrivateAccess(A.Ptr))
        continue;
      A = PM.withinMember(A);
      if (LS.holds(AtomicSectionLock))
        A.Atomic = true;
      Records.insert({CurThread, MainPos, A, LS, Child});
    }
  }

  /// Transfer of one instruction; records accesses when Rec is set. Child:
  /// the fork whose child process runs I (null: the thread's own).
  void transfer(const Instruction &I, LockSet &LS, const Instruction *MainPos,
                const CallBase *Child, bool Rec) {
    if (LS.Top)
      return;
    const Function *F = I.getFunction();
    const Instruction *Pos = MainPos;
    if (!Pos && F == PM.mainFunction() && CurThread == 0)
      Pos = &I;
    if (Rec)
      record(I, LS, Pos, Child);
    Symbolic.redefine(LS, I);
    if (const auto *SI = dyn_cast<StoreInst>(&I))
      Sems.afterStore(*SI, LS);
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || CB->isInlineAsm())
      return;
    if (auto K = callIntrinsic(*CB)) {
      switch (*K) {
      case Intrinsic::Lock:
        if (auto Id = acquired(CB->getArgOperand(0)))
          LS.acquire(*Id, false);
        break;
      case Intrinsic::RdLock:
        if (auto Id = acquired(CB->getArgOperand(0)))
          LS.acquire(*Id, true);
        break;
      case Intrinsic::Unlock:
        release(LS, CB->getArgOperand(0));
        break;
      case Intrinsic::AtomicBegin:
        LS.acquire(AtomicSectionLock, false);
        break;
      case Intrinsic::AtomicEnd:
        LS.release(AtomicSectionLock);
        break;
      case Intrinsic::SemInit:
      case Intrinsic::SemWait:
      case Intrinsic::SemPost:
        Sems.call(*K, *CB, LS, [&] { return beforeEveryThread(Pos); });
        break;
      case Intrinsic::ThreadCreate:
        CreatesReached[CB].insert({CurThread, Child});
        break;
      case Intrinsic::Fork:
        ForksIn.insert({CurThread, Child});
        break;
      default:
        break;
      }
      return;
    }
    auto Callees = PM.callees(*CB);
    LockSet Out = LockSet::top();
    bool Any = false;
    for (const Function *C : Callees) {
      if (C->isDeclaration())
        continue;
      Any = true;
      Out = LockSet::meet(Out, analyse(C, Symbolic.enter(LS, C), Pos, Child));
    }
    if (Any) {
      LS = Out;
      Symbolic.afterCall(LS, Callees);
    }
    RwLocks.afterCall(*CB, Callees, LS);
  }

  /// The unlock and atomic-end calls in F and in every function F may call.
  const std::vector<const CallBase *> &unlocksFrom(const Function *F) {
    auto [It, New] = UnlocksFrom.try_emplace(F);
    if (!New)
      return It->second;
    std::vector<const CallBase *> Out;
    std::set<const Function *> Seen{F};
    std::vector<const Function *> Work{F};
    while (!Work.empty()) {
      const Function *G = Work.back();
      Work.pop_back();
      for (const Instruction &I : instructions(*G)) {
        const auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || CB->isInlineAsm())
          continue;
        if (auto K = callIntrinsic(*CB)) {
          if (*K == Intrinsic::Unlock || *K == Intrinsic::AtomicEnd ||
              *K == Intrinsic::SemPost)
            Out.push_back(CB);
          continue;
        }
        if (RwLocks.isRelease(*CB))
          Out.push_back(CB);
        for (const Function *C : PM.callees(*CB))
          if (!C->isDeclaration() && Seen.insert(C).second)
            Work.push_back(C);
      }
    }
    return UnlocksFrom[F] = std::move(Out);
  }

  /// Analyses F entered with lockset Entry (in the child of fork Child, if
  /// set); returns the lockset at its exit (Top when it never returns).
  LockSet analyse(const Function *F, const LockSet &Entry,
                  const Instruction *MainPos, const CallBase *Child) {
    Key K{F, Entry, MainPos, Child};
    if (auto It = Summaries.find(K); It != Summaries.end())
      return It->second;
    if (cancelled())
      return LockSet();
    if (InProgress.count(K)) {
      // Recursion: every lock that an unlock reachable from F may release
      // is released; the others are still held.
      LockSet Out = Entry;
      for (const CallBase *U : unlocksFrom(F)) {
        auto K = callIntrinsic(*U);
        if (!K)
          RwLocks.drop(Out, U->getArgOperand(0)); // a reader/writer unlock
        else if (*K == Intrinsic::AtomicEnd)
          Out.release(AtomicSectionLock);
        else
          release(Out, U->getArgOperand(0));
      }
      return Out;
    }
    InProgress.insert(K);

    std::map<const BasicBlock *, LockSet> In;
    ReversePostOrderTraversal<const Function *> RPOT(F);
    std::vector<const BasicBlock *> Order(RPOT.begin(), RPOT.end());
    In[&F->getEntryBlock()] = Entry;
    // The lockset at the end of BB (nullopt: BB not reached yet).
    auto RunBlock = [&](const BasicBlock *BB,
                        bool Rec) -> std::optional<LockSet> {
      auto It = In.find(BB);
      if (It == In.end())
        return std::nullopt;
      LockSet LS = It->second;
      const CallBase *Region = PM.forkChild(BB);
      for (const Instruction &I : *BB)
        transfer(I, LS, MainPos, Region ? Region : Child, Rec);
      return LS;
    };
    bool Changed = true;
    while (Changed && !cancelled()) {
      Changed = false;
      for (const BasicBlock *BB : Order) {
        std::optional<LockSet> LS = RunBlock(BB, false);
        if (!LS)
          continue;
        for (const BasicBlock *S : successors(BB)) {
          LockSet E = edge(BB, S, *LS);
          auto SIt = In.find(S);
          LockSet New = SIt == In.end() ? E : LockSet::meet(SIt->second, E);
          if (SIt == In.end() || !(New == SIt->second)) {
            In[S] = New;
            Changed = true;
          }
        }
      }
    }
    // Final pass over the stable block entries: record the accesses.
    LockSet Exit = LockSet::top();
    for (const BasicBlock *BB : Order) {
      std::optional<LockSet> LS = RunBlock(BB, true);
      if (LS && isa<ReturnInst>(BB->getTerminator()))
        Exit = LockSet::meet(Exit, *LS);
    }
    InProgress.erase(K);
    Summaries[K] = Exit;
    return Exit;
  }

  const ProgramModel &PM;
  const PointsTo &PTA;
  const std::atomic<bool> *Cancelled;
  unsigned CurThread = 0;
  std::map<Key, LockSet> Summaries;
  std::set<Key> InProgress;
};

struct Located {
  size_t Rec;
  Loc Where;
};

} // namespace

Result analyseLocksets(const ProgramModel &PM,
                       const std::atomic<bool> *Cancelled, size_t MaxPairs) {
  auto Start = std::chrono::steady_clock::now();
  Result R;
  R.Engine = "lockset";
  if (PM.threads().empty()) {
    R.Program = Verdict::Unknown;
    R.Reasons = reasonsOf(ReasonKind::Unmodelled, PM.unsoundness());
    return R;
  }
  Analysis A(PM, Cancelled);
  if (!A.analyseThreads()) {
    R.Program = Verdict::Unknown;
    R.reason(ReasonKind::Budget,
             "time limit reached during the lockset analysis");
    return R;
  }
  const PointsTo &PTA = PM.pointsTo();
  // Program order, not pointer order: the pairing below may stop at a
  // limit, and what it reports must not change from run to run.
  std::vector<Record> Recs = inProgramOrder(A.Records, PM.module());

  // Index records by the shared objects they may touch.
  std::map<uint32_t, std::vector<Located>> ByObject;
  std::vector<Located> Anywhere;
  // Accesses to a block before its address gets out (Unpublished.h).
  Unpublished Fresh(PM.module());
  uint64_t UnpublishedRecs = 0;
  for (size_t I = 0; I < Recs.size(); ++I)
    if (Fresh.holds(Recs[I].Access))
      ++UnpublishedRecs;
    else
      for (Loc L : PTA.pointsTo(Recs[I].Access.Ptr)) {
        const AbsObject &O = PTA.object(L.Obj);
        if (!O.Shared || O.Kind == ObjKind::Function)
          continue;
        // A constant (an ops table, a string literal) is never written
        // without undefined behaviour, so it cannot race: a write that the
        // pointer analysis lets reach one (merged pointers) goes elsewhere.
        if (const auto *G = dyn_cast_or_null<GlobalVariable>(O.Site);
            G && G->isConstant())
          continue;
        if (L.Obj == PointsTo::UnknownObj && Recs[I].Access.Library)
          continue;
        if (L.Obj == PointsTo::UnknownObj)
          Anywhere.push_back({I, L});
        else
          ByObject[L.Obj].push_back({I, L});
      }

  // Instruction, access kind and thread of each side, numbered (records
  // in other lock states share one); a hash set of number pairs, since
  // every object two accesses share checks their pair again (memcached:
  // most of the lockset stage went to inserting into an ordered set;
  // mt-daapd: hashing pairs of tuples).
  using Side = std::tuple<const Instruction *, unsigned, unsigned>;
  std::vector<uint32_t> SideOf(Recs.size());
  {
    std::map<Side, uint32_t> Sides;
    for (size_t I = 0; I < Recs.size(); ++I)
      SideOf[I] =
          Sides
              .try_emplace({Recs[I].Access.Inst, unsigned(Recs[I].Access.Kind),
                            Recs[I].Thread},
                           Sides.size())
              .first->second;
  }
  DenseSet<uint64_t> Reported;
  // The pairs in the order they were found (program order), for the
  // candidate list: the set above is ordered by instruction addresses,
  // which change from run to run.
  std::vector<std::pair<const Instruction *, const Instruction *>>
      ReportedOrder;
  // The findings a user reads: one per pair of source locations and
  // variable (x++ is a read and a write on one line), each at its index
  // in R.Findings; the pair with the most writes, the clearest, names it.
  // Pairing stops after MaxPairs of them (0: never). Counting instruction
  // pairs instead let a few objects that many instructions reach (a
  // library model's) use the whole bound.
  std::map<std::string, size_t> Seen;
  auto Merge = [&](Finding F) {
    std::string LA = F.First.Loc.str(), LB = F.Second.Loc.str();
    if (LB < LA)
      std::swap(LA, LB);
    auto [It, New] = Seen.try_emplace(LA + "|" + LB + "|" + F.First.Variable,
                                      R.Findings.size());
    if (New) {
      R.Findings.push_back(std::move(F));
      return;
    }
    auto Writes = [](const Finding &X) {
      return (X.First.Kind == AccessKind::Write) +
             (X.Second.Kind == AccessKind::Write);
    };
    Finding &Old = R.Findings[It->second];
    std::vector<unsigned> Merged = Old.Candidates;
    Merged.insert(Merged.end(), F.Candidates.begin(), F.Candidates.end());
    if (Writes(F) > Writes(Old))
      Old = std::move(F);
    Old.Candidates = std::move(Merged);
  };
  auto Enough = [&] {
    return (MaxPairs && Seen.size() >= MaxPairs) ||
           (Cancelled && Cancelled->load());
  };
  uint64_t Pairs = 0;
  // Instruction pairs where one side's pointer is of unknown origin (it
  // may reach every object such a pointer can reach).
  uint64_t ThroughUnknown = 0;
  // Instruction pairs on a stack slot that each thread reaches only in its
  // own frame (analysis/OwnFrames.h): different copies, no race.
  uint64_t OwnFrameCopies = 0;
  const OwnFrames Frames(PM);
  // Instruction pairs on different bytes after all (PairFilters.h): each
  // thread instance's own memory (InstanceMemory.h), elements taken from a
  // counter (Tickets.h).
  uint64_t OtherInstances = 0, ByTicket = 0, ByTypes = 0;
  PairFilters Filters(PM, Recs);
  // The process each access runs in; pairs in two processes (a fork's
  // child and its parent) touch two copies of memory.
  const std::vector<ProcessId> TemplateProcess = A.templateProcesses();
  auto ProcessOf = [&](const Record &X) {
    return X.Child ? ProcessId::child(X.Child) : TemplateProcess[X.Thread];
  };
  uint64_t ApartProcesses = 0;
  // Each record's description on each location, made once (a record is
  // on many pairs; describing it walks debug info and the source manager).
  std::map<std::pair<size_t, Loc>, AccessInfo> Described;
  auto Access = [&](const Located &At) -> const AccessInfo & {
    auto [It, New] = Described.try_emplace({At.Rec, At.Where});
    if (!New)
      return It->second;
    const Record &Rec = Recs[At.Rec];
    Loc L = At.Where;
    AccessInfo &Info = It->second;
    Info.Thread = PM.threads()[Rec.Thread].Name;
    Info.Kind = Rec.Access.Kind;
    Info.Atomic = Rec.Access.Atomic;
    Info.Size = Rec.Access.Size;
    Info.Loc = PM.location(Rec.Access.Inst);
    Info.Variable = PM.describe(L, Rec.Access.Size, Rec.Access.Ptr);
    for (auto &[Id, Read] : Rec.Locks.Held)
      Info.Locks.push_back(A.lockName(Id, Read));
    return Info;
  };
  // Why two templates run concurrently, per pair of templates.
  std::map<std::pair<unsigned, unsigned>, std::string> WhyParallel;
  // Accesses to elements of one global array, each holding the lock its
  // own index selects in one global array of locks, or fields of structs
  // whose own lock field each holds (SymbolicLocks.h).
  uint64_t BySymbolic = 0, ByLocks = 0, ByMHP = 0;
  auto ProtectedSymbolically = [&](const Record &X, const Record &Y) {
    bool P = A.Symbolic.protects(X.Access, X.Locks, Y.Access, Y.Locks);
    BySymbolic += P;
    return P;
  };
  auto Check = [&](const Located &X, const Located &Y) {
    const Record &RX = Recs[X.Rec], &RY = Recs[Y.Rec];
    ++Pairs;
    if (RX.Access.Kind == AccessKind::Read &&
        RY.Access.Kind == AccessKind::Read)
      return;
    if (RX.Access.Atomic && RY.Access.Atomic)
      return;
    // One finding per pair of instructions and threads; the first abstract
    // location found names the variable, so a pair found through another
    // object adds nothing (cheap key first: the filters below cost).
    uint64_t Key = std::min(SideOf[X.Rec], SideOf[Y.Rec]);
    Key = Key << 32 | std::max(SideOf[X.Rec], SideOf[Y.Rec]);
    if (Reported.contains(Key))
      return;
    if (!mayOverlap(X.Where, RX.Access.Size, Y.Where, RY.Access.Size))
      return;
    auto Dropped = [&](const char *Why) {
      LLVM_DEBUG(dbgs() << "crace-analysis: pair "
                        << PM.location(RX.Access.Inst).str() << " / "
                        << PM.location(RY.Access.Inst).str()
                        << " dropped: " << Why << "\n");
    };
    if (LockSet::protects(RX.Locks, RY.Locks)) {
      ++ByLocks;
      Dropped("both hold a common lock");
      return;
    }
    if (ProtectedSymbolically(RX, RY)) {
      Dropped("both hold the lock their element selects");
      return;
    }
    if (X.Where.Obj == Y.Where.Obj &&
        PTA.object(X.Where.Obj).Kind == ObjKind::Stack &&
        Frames.own(RX.Access.Ptr) && Frames.own(RY.Access.Ptr)) {
      ++OwnFrameCopies;
      Dropped("each thread's own stack frame");
      return;
    }
    // MHP before the filters: it is the cheaper test.
    if (!mayHappenInParallel(PM, {RX.Thread, RX.MainPos, ProcessOf(RX)},
                             {RY.Thread, RY.MainPos, ProcessOf(RY)})) {
      ApartProcesses += ProcessOf(RX).apart(ProcessOf(RY));
      ++ByMHP;
      Dropped("cannot happen in parallel (MHP)");
      return;
    }
    uint32_t Obj =
        X.Where.Obj != PointsTo::UnknownObj ? X.Where.Obj : Y.Where.Obj;
    if (PairFilters::Apart Why = Filters.apart(RX, RY, Obj);
        Why != PairFilters::Apart::No) {
      ++(Why == PairFilters::Apart::Types   ? ByTypes
         : Why == PairFilters::Apart::Taken ? ByTicket
                                            : OtherInstances);
      Dropped(PairFilters::why(Why));
      return;
    }
    Reported.insert(Key);
    Side IdA{RX.Access.Inst, unsigned(RX.Access.Kind), RX.Thread};
    Side IdB{RY.Access.Inst, unsigned(RY.Access.Kind), RY.Thread};
    if (IdB < IdA)
      std::swap(IdA, IdB);
    ReportedOrder.push_back({std::get<0>(IdA), std::get<0>(IdB)});
    unsigned CandId = R.Candidates.size();
    R.Candidates.push_back(
        {RX.Access.Inst, RY.Access.Inst, RX.Thread, RY.Thread});
    AccessInfo IA = Access(X), IB = Access(Y);
    // Name the variable after the more precise side.
    if (X.Where.Obj == PointsTo::UnknownObj)
      IA.Variable = IB.Variable;
    if (Y.Where.Obj == PointsTo::UnknownObj)
      IB.Variable = IA.Variable;
    if (std::tie(IB.Loc.File, IB.Loc.Line, IB.Loc.Column) <
        std::tie(IA.Loc.File, IA.Loc.Line, IA.Loc.Column))
      std::swap(IA, IB);
    if (X.Where.Obj == PointsTo::UnknownObj ||
        Y.Where.Obj == PointsTo::UnknownObj)
      ++ThroughUnknown;
    Finding F;
    F.Kind = Verdict::PossibleRace;
    F.Engine = "lockset";
    F.First = std::move(IA);
    F.Second = std::move(IB);
    F.Candidates.push_back(CandId);
    auto [Why, NewWhy] = WhyParallel.try_emplace({RX.Thread, RY.Thread});
    if (NewWhy)
      Why->second = whyParallel(PM, RX.Thread, RY.Thread);
    F.Concurrency = Why->second;
    Merge(std::move(F));
  };

  std::vector<size_t> Meeting;
  for (auto &[Obj, List] : ByObject) {
    // Only the pairs whose bytes may meet and of which one writes
    // (OverlapIndex.h).
    std::vector<OverlapIndex::Item> Items;
    Items.reserve(List.size());
    for (const Located &X : List) {
      const MemAccess &Acc = Recs[X.Rec].Access;
      Items.push_back({X.Where, Acc.Size, Acc.Kind != AccessKind::Read});
    }
    const OverlapIndex Index(Items);
    for (size_t I = 0; I < List.size() && !Enough(); ++I) {
      Index.meeting(I, Meeting);
      for (size_t J : Meeting)
        Check(List[I], List[J]);
      // A pointer of unknown origin cannot reach a global whose address
      // never leaves crace's own code (the harness's slots, its locks).
      if (PTA.reachableByUnknown(Obj))
        for (const Located &U : Anywhere)
          Check(List[I], U);
    }
  }
  for (size_t I = 0; I < Anywhere.size() && !Enough(); ++I)
    for (size_t J = I; J < Anywhere.size(); ++J)
      Check(Anywhere[I], Anywhere[J]);
  bool Stopped = MaxPairs && Seen.size() >= MaxPairs;
  R.CandidatePairs = std::move(ReportedOrder);
  R.CandidatesComplete =
      !Stopped && PM.unsoundness().empty() && !(Cancelled && Cancelled->load());

  bool Stop = Cancelled && Cancelled->load();
  if (Stop) {
    R.Program = Verdict::Unknown;
    R.reason(ReasonKind::Budget, "time limit reached while pairing accesses");
  }

  std::stable_sort(R.Findings.begin(), R.Findings.end(),
                   [](const Finding &X, const Finding &Y) {
                     return std::tie(X.First.Loc.File, X.First.Loc.Line,
                                     X.First.Loc.Column, X.Second.Loc.Line) <
                            std::tie(Y.First.Loc.File, Y.First.Loc.Line,
                                     Y.First.Loc.Column, Y.Second.Loc.Line);
                   });
  size_t Total = R.Findings.size();
  if (Stopped)
    R.reason(ReasonKind::Budget,
             formatv("the search for further pairs stopped after {0} "
                     "findings (conflicting pairs of source locations; "
                     "raise it with --max-pairs=N; 0: no limit)",
                     MaxPairs));

  if (!Stop) {
    if (Total > 0) {
      R.Program = Verdict::PossibleRace;
      R.reason(ReasonKind::Overapproximation,
               "the lockset engine over-approximates: it cannot confirm "
               "that a reported pair is reachable");
      for (const std::string &Why : PM.unsoundness())
        R.reason(ReasonKind::Unmodelled, Why);
    } else if (!PM.unsoundness().empty()) {
      R.Program = Verdict::Unknown;
      R.Reasons = reasonsOf(ReasonKind::Unmodelled, PM.unsoundness());
    } else {
      R.Program = Verdict::RaceFree;
      R.Assumptions = PM.assumptions();
    }
  }

  unsigned Multi = 0;
  for (const ThreadTemplate &T : PM.threads())
    Multi += T.Multi;
  R.stat("thread_templates", PM.threads().size());
  R.stat("multi_instance_templates", Multi);
  R.stat("abstract_objects", PTA.numObjects());
  R.stat("access_records", Recs.size());
  R.stat("access_records_unpublished", UnpublishedRecs);
  R.stat("locks", A.Locks.Names.size() - 1);
  R.stat("pairs_checked", Pairs);
  R.stat("pairs_through_unknown_pointer", ThroughUnknown);
  R.stat("pairs_on_own_stack_copies", OwnFrameCopies);
  R.stat("pairs_of_types_apart", ByTypes);
  R.stat("pairs_on_per_instance_memory", OtherInstances);
  R.stat("pairs_protected_by_symbolic_locks", BySymbolic);
  R.stat("pairs_on_elements_taken_from_counters", ByTicket);
  R.stat("pairs_in_different_processes", ApartProcesses);
  R.stat("templates_with_per_instance_memory", Filters.instanceTemplates());
  R.stat("findings", Total);
  NumAccessRecords += Recs.size();
  NumPairs += Pairs;
  NumPairsByLocks += ByLocks;
  NumPairsBySymbolicLocks += BySymbolic;
  NumPairsByFilters += OwnFrameCopies + OtherInstances + ByTicket + ByTypes;
  NumPairsByMHP += ByMHP;
  NumCandidatePairs += R.CandidatePairs.size();
  R.stat("engine_seconds",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
             .count());
  return R;
}

} // namespace crace
