//===- CounterJoins.cpp - a count of running workers as their join --------===//
//
//   aworkers = nworkers;                          (main, before the creates)
//   for (j = 0; j < nworkers; j++) pthread_create(&t, 0, worker, 0);
//   ...
//   lock(&m); while (aworkers > 0) cond_wait(&cv, &m); unlock(&m);
//   ... main's accesses here ...
//
//   void *worker(void *a) { ...; lock(&m); aworkers--; unlock(&m);
//                           cond_signal(&cv); return 0; }
//
// (pfscan's workers.) Past the wait, every worker has done its decrement,
// after which it touches no memory: it is as good as joined. The argument,
// each step of which is checked below:
// - the counter C is written only by the store S0 in main, which comes
//   before every create of the template T and is not reached from one, and
//   by one decrement D by 1 in T's start routine, under the lock L, in a
//   block outside cycles; the start routine has no other use than T's one
//   create site, so every instance decrements at most once;
// - S0 stores the value V of a global G that nothing writes from that load
//   on, and the creation loop in main (entered once, the create at most
//   once an iteration) runs while j < G with j counting 0, 1, ... by 1:
//   at most max(0, V) instances exist, ever (V unsigned for an unsigned
//   compare);
// - main reads C under L in the wait loop's header and leaves only when C
//   is at most 0 (exactly 0, for an unsigned creation bound): at least V
//   decrements, each by a distinct instance, came before that read in L's
//   order, so every instance has done its decrement, and its accesses
//   before it happen before main's after the loop;
// - after D, the start routine only unlocks, signals and returns.
//
//===----------------------------------------------------------------------===//
#include "model/CfgPaths.h"
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crace {

namespace {

/// The instruction before I in its block, skipping markers (null: none).
const Instruction *previousReal(const Instruction *I) {
  for (I = I->getPrevNode(); I; I = I->getPrevNode())
    if (!isMarker(I))
      return I;
  return nullptr;
}

/// A call of intrinsic K, or null.
const CallBase *callOf(const Instruction *I, Intrinsic K) {
  const auto *CB = dyn_cast_or_null<CallBase>(I);
  return CB && callIntrinsic(*CB) == K ? CB : nullptr;
}

/// The decrement `C = C - 1` right after lock(L) in one block: the store,
/// with C and the lock call.
struct Decrement {
  const StoreInst *Store = nullptr;
  const GlobalVariable *Counter = nullptr;
  const CallBase *Lock = nullptr;
};

std::optional<Decrement> decrementAt(const StoreInst &S) {
  const auto *C = dyn_cast<GlobalVariable>(S.getPointerOperand());
  const Value *X = nullptr;
  if (!C || S.isVolatile() ||
      !match(S.getValueOperand(), m_CombineOr(m_Add(m_Value(X), m_AllOnes()),
                                              m_Sub(m_Value(X), m_One()))))
    return std::nullopt;
  const auto *Ld = dyn_cast<LoadInst>(X);
  const auto *Op = cast<Instruction>(S.getValueOperand());
  if (!Ld || Ld->getPointerOperand() != C || Ld->getParent() != S.getParent() ||
      Op->getParent() != S.getParent())
    return std::nullopt;
  // lock(L); load; sub; store: nothing in between may unlock L.
  if (previousReal(&S) != Op || previousReal(Op) != Ld)
    return std::nullopt;
  const CallBase *Lock = callOf(previousReal(Ld), Intrinsic::Lock);
  if (!Lock)
    return std::nullopt;
  return Decrement{&S, C, Lock};
}

/// From just after D to every exit of its function, the code only reads
/// the globals in Read (the counter and the bound: nothing writes them
/// once the workers run but the decrements, whose order among workers this
/// does not change), unlocks, signals, asserts, branches and ends the
/// thread or the process: it touches no other program memory.
bool nothingAfter(const StoreInst &D, ArrayRef<const GlobalVariable *> Read) {
  auto Harmless = [&](const Instruction &I) {
    if (isMarker(&I))
      return true;
    if (const auto *Ld = dyn_cast<LoadInst>(&I))
      return !Ld->isVolatile() && !Ld->isAtomic() &&
             is_contained(Read, Ld->getPointerOperand());
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      auto K = callIntrinsic(*CB);
      return K == Intrinsic::Unlock || K == Intrinsic::CondSignal ||
             K == Intrinsic::CondBroadcast || K == Intrinsic::Assert ||
             K == Intrinsic::Exit || K == Intrinsic::ThreadExit;
    }
    return !I.mayReadOrWriteMemory();
  };
  for (const Instruction *I = D.getNextNode(); I; I = I->getNextNode())
    if (!Harmless(*I))
      return false;
  SmallVector<const BasicBlock *, 8> Work(succ_begin(D.getParent()),
                                          succ_end(D.getParent()));
  SmallPtrSet<const BasicBlock *, 8> Seen;
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == D.getParent())
      return false; // D again: it is in a cycle
    if (!Seen.insert(BB).second)
      continue;
    for (const Instruction &I : *BB)
      if (!Harmless(I))
        return false;
    Work.append(succ_begin(BB), succ_end(BB));
  }
  return true;
}

/// The condition under which the branch Br takes edge Succ, as
/// `Lhs Pred Rhs` over its icmp; false when it is not an icmp's branch.
bool edgeCondition(const BranchInst *Br, unsigned Succ, ICmpInst::Predicate &P,
                   const Value *&Lhs, const Value *&Rhs) {
  if (!Br || !Br->isConditional())
    return false;
  const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  P = Succ == 0 ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Lhs = Cmp->getOperand(0);
  Rhs = Cmp->getOperand(1);
  return true;
}

/// `V P K` (K a constant) implies V <= 0 as a signed number, or, with
/// OnlyZero, V == 0.
bool impliesAtMostZero(ICmpInst::Predicate P, const APInt &K, bool OnlyZero) {
  switch (P) {
  case ICmpInst::ICMP_EQ:
    return OnlyZero ? K.isZero() : K.isZero() || K.isNegative();
  case ICmpInst::ICMP_ULE:
    return K.isZero();
  case ICmpInst::ICMP_ULT:
    return K.isOne();
  case ICmpInst::ICMP_SLE:
    return !OnlyZero && K.sle(0);
  case ICmpInst::ICMP_SLT:
    return !OnlyZero && K.sle(1);
  default:
    return false;
  }
}

} // namespace

/// Writers of global object Obj: every instruction of code that may run
/// whose accesses may write into it.
std::vector<const Instruction *>
ProgramModel::writersOf(const GlobalVariable &G) const {
  std::vector<const Instruction *> Out;
  uint32_t Obj = PTA->objectOf(&G);
  bool Unknown = PTA->reachableByUnknown(Obj);
  for (const Function &F : M) {
    if (F.isDeclaration() || !mayRun(F))
      continue;
    for (const Instruction &I : instructions(F))
      for (const MemAccess &A : accessesOf(I)) {
        if (A.Kind != AccessKind::Write)
          continue;
        if (any_of(PTA->pointsTo(A.Ptr), [&](const Loc &L) {
              return L.Obj == Obj ||
                     (L.Obj == PointsTo::UnknownObj && Unknown && !A.Library);
            })) {
          Out.push_back(&I);
          break;
        }
      }
  }
  return Out;
}

/// The functions that may run once main has executed From: the callees of
/// main's calls that From reaches, every thread's start routine, and what
/// they call. False when an unresolved call or inline assembly may run
/// anything.
bool ProgramModel::mayRunAfter(const Instruction *From,
                               DenseSet<const Function *> &Out) const {
  SmallVector<const Function *, 16> Work;
  auto Add = [&](const Function *F) {
    if (F && Out.insert(F).second)
      Work.push_back(F);
  };
  for (const ThreadTemplate &T : Threads)
    if (T.CreateSite)
      Add(T.Entry);
  bool Ok = true;
  auto Calls = [&](const Instruction &I) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || isMarker(CB))
      return;
    if (CB->isInlineAsm()) {
      Ok = false;
      return;
    }
    bool Unresolved = false;
    for (const Function *F : PTA->callees(*CB, &Unresolved))
      Add(F);
    Ok &= !Unresolved;
  };
  for (const Instruction &I : instructions(*Main))
    if (mayReachInMain(From, &I))
      Calls(I);
  while (!Work.empty() && Ok) {
    const Function *F = Work.pop_back_val();
    if (F == Main)
      return false;
    for (const Instruction &I : instructions(*F))
      Calls(I);
  }
  return Ok;
}

const BasicBlock *ProgramModel::counterJoin(const ThreadTemplate &T,
                                            const LoopInfo &LI) const {
  const Function *F = T.Entry;
  if (!F || F->isDeclaration() || !F->hasOneUse() ||
      T.CreateSite->getArgOperand(1)->stripPointerCasts() != F)
    return nullptr;
  // The creation loop: j from 0 by 1 while j < G, entered once, the create
  // at most once an iteration.
  const BasicBlock *CreateBB = T.CreateSite->getParent();
  const Loop *Lc = LI.getLoopFor(CreateBB);
  if (!Lc || Lc->getLoopDepth() != 1)
    return nullptr;
  const BasicBlock *Hc = Lc->getHeader();
  for (const BasicBlock *P : predecessors(Hc))
    if (!Lc->contains(P) && inCycle(P))
      return nullptr;
  // No cycle through the create's block but the loop's own (the header is
  // the only way into the loop).
  if (reachesAvoiding(T.CreateSite, T.CreateSite, Hc))
    return nullptr;
  const auto *HcBr = dyn_cast<BranchInst>(Hc->getTerminator());
  if (!HcBr || !HcBr->isConditional())
    return nullptr;
  unsigned Into = Lc->contains(HcBr->getSuccessor(0)) ? 0 : 1;
  if (Lc->contains(HcBr->getSuccessor(1 - Into)))
    return nullptr;
  ICmpInst::Predicate CP;
  const Value *A = nullptr, *B = nullptr;
  if (!edgeCondition(HcBr, Into, CP, A, B))
    return nullptr;
  const auto *J = dyn_cast<PHINode>(A);
  const auto *Bound = dyn_cast<LoadInst>(B);
  if (!J || !Bound) {
    J = dyn_cast<PHINode>(B);
    Bound = dyn_cast<LoadInst>(A);
    CP = ICmpInst::getSwappedPredicate(CP);
  }
  if (!J || !Bound || J->getParent() != Hc || Bound->getParent() != Hc ||
      (CP != ICmpInst::ICMP_SLT && CP != ICmpInst::ICMP_ULT) ||
      J->getNumIncomingValues() != 2)
    return nullptr;
  const auto *G = dyn_cast<GlobalVariable>(Bound->getPointerOperand());
  if (!G)
    return nullptr;
  for (unsigned N = 0; N < 2; ++N) {
    const Value *In = J->getIncomingValue(N);
    if (Lc->contains(J->getIncomingBlock(N))
            ? !match(In, m_Add(m_Specific(J), m_One()))
            : !match(In, m_Zero()))
      return nullptr;
  }
  bool Unsigned = CP == ICmpInst::ICMP_ULT;

  // The decrement in the start routine.
  std::optional<Decrement> D;
  for (const Instruction &I : instructions(*F))
    if (const auto *S = dyn_cast<StoreInst>(&I))
      if (auto Dec = decrementAt(*S)) {
        if (D)
          return nullptr;
        D = Dec;
      }
  if (!D || inCycle(D->Store->getParent()) ||
      !nothingAfter(*D->Store, {D->Counter, G}))
    return nullptr;
  std::optional<Loc> Lock = lockLocation(D->Lock->getArgOperand(0));
  if (!Lock)
    return nullptr;
  const GlobalVariable *C = D->Counter;

  // S0 in main, and the wait loop.
  const StoreInst *S0 = nullptr;
  const BasicBlock *Exit = nullptr;
  for (const Instruction &I : instructions(*Main)) {
    if (const auto *S = dyn_cast<StoreInst>(&I);
        S && S->getPointerOperand() == C) {
      if (S0)
        return nullptr;
      S0 = S;
    }
    const auto *Ld = dyn_cast<LoadInst>(&I);
    if (!Ld || Ld->getPointerOperand() != C || Exit)
      continue;
    // H: v = load C; br (v > 0), B, E   B: cond_wait(cv, L); br H
    const BasicBlock *H = Ld->getParent();
    const auto *Br = dyn_cast<BranchInst>(H->getTerminator());
    if (!Br || !Br->isConditional() || H->hasNPredecessorsOrMore(3))
      continue;
    for (unsigned Out = 0; Out < 2 && !Exit; ++Out) {
      const BasicBlock *E = Br->getSuccessor(Out);
      const BasicBlock *Body = Br->getSuccessor(1 - Out);
      ICmpInst::Predicate P;
      const Value *L = nullptr, *R = nullptr;
      const ConstantInt *K = nullptr;
      if (!edgeCondition(Br, Out, P, L, R))
        continue;
      if (L != Ld) {
        std::swap(L, R);
        P = ICmpInst::getSwappedPredicate(P);
      }
      K = dyn_cast<ConstantInt>(R);
      if (L != Ld || !K || !impliesAtMostZero(P, K->getValue(), Unsigned) ||
          E->getSinglePredecessor() != H || Body->getSinglePredecessor() != H ||
          Body->getSingleSuccessor() != H)
        continue;
      bool Waits = false, Other = false;
      for (const Instruction &BI : *Body) {
        if (const CallBase *W = callOf(&BI, Intrinsic::CondWait))
          Waits |= lockLocation(W->getArgOperand(1)) == Lock;
        else if (!isMarker(&BI) && !BI.isTerminator())
          Other = true;
      }
      const BasicBlock *Pre = nullptr;
      for (const BasicBlock *PB : predecessors(H))
        if (PB != Body)
          Pre = PB;
      const CallBase *Taken =
          Pre ? callOf(previousReal(Pre->getTerminator()), Intrinsic::Lock)
              : nullptr;
      // Every instruction of H before the branch: the load and the compare.
      bool Plain = all_of(*H, [&](const Instruction &HI) {
        return &HI == Ld || &HI == Br || &HI == Br->getCondition() ||
               isMarker(&HI);
      });
      if (Waits && !Other && Plain && Taken &&
          lockLocation(Taken->getArgOperand(0)) == Lock)
        Exit = E;
    }
  }
  if (!S0 || !Exit)
    return nullptr;
  const auto *V = dyn_cast<LoadInst>(S0->getValueOperand());
  // S0 comes first: before the creation loop and the wait loop.
  auto Before = [&](const BasicBlock *BB) {
    return S0->getParent() != BB && MainDT->dominates(S0->getParent(), BB);
  };
  if (!V || V->getPointerOperand() != G || V->getFunction() != Main ||
      !MainDT->dominates(S0, T.CreateSite) || !Before(Hc) ||
      mayReachInMain(T.CreateSite, S0) ||
      !Before(Exit->getSinglePredecessor()) ||
      mayReachInMain(&Exit->front(), T.CreateSite))
    return nullptr;

  // Only S0 and D write C; nothing writes G once V has read it.
  std::vector<const Instruction *> CW = writersOf(*C);
  if (CW.size() != 2 || !is_contained(CW, S0) || !is_contained(CW, D->Store))
    return nullptr;
  DenseSet<const Function *> After;
  bool Known = mayRunAfter(V, After);
  for (const Instruction *W : writersOf(*G)) {
    if (W->getFunction() == Main ? mayReachInMain(V, W)
                                 : !Known || After.contains(W->getFunction()))
      return nullptr;
  }
  return Exit;
}

void ProgramModel::findCounterJoins() {
  if (!runsOnceInMain(Main))
    return;
  LoopInfo LI(*MainDT);
  for (ThreadTemplate &T : Threads)
    if (T.CreateSite && T.CreatedInMain && T.Multi && !T.SignalHandler &&
        !T.AllJoinedAt)
      T.AllJoinedAt = counterJoin(T, LI);
}

} // namespace crace
