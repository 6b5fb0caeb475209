//===- SemaphoreLocks.cpp - semaphores the lockset analysis takes as locks ===//
#include "analysis/SemaphoreLocks.h"

#include "model/ProgramModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

namespace {

const Instruction *prevReal(const Instruction *I) {
  for (I = I->getPrevNode(); I && isMarker(I); I = I->getPrevNode())
    ;
  return I;
}

const Instruction *nextReal(const Instruction *I) {
  for (I = I->getNextNode(); I && isMarker(I); I = I->getNextNode())
    ;
  return I;
}

const Instruction *firstReal(const BasicBlock &BB) {
  const Instruction *I = &BB.front();
  return isMarker(I) ? nextReal(I) : I;
}

/// A plain load of a global integer.
const GlobalVariable *counterOf(const Value *V, const LoadInst **Out) {
  const auto *L = dyn_cast_or_null<LoadInst>(V);
  if (!L || !L->isSimple() || !L->getType()->isIntegerTy())
    return nullptr;
  *Out = L;
  return dyn_cast<GlobalVariable>(L->getPointerOperand());
}

/// `store (add (load G), Step), G` right after its load and add.
bool stepsCounter(const Instruction *I, const GlobalVariable *G, int Step) {
  const auto *S = dyn_cast_or_null<StoreInst>(I);
  if (!S || !S->isSimple() || S->getPointerOperand() != G)
    return false;
  const auto *Add = dyn_cast<BinaryOperator>(S->getValueOperand());
  const auto *C = Add ? dyn_cast<ConstantInt>(Add->getOperand(1)) : nullptr;
  const LoadInst *L = nullptr;
  return Add && Add->getOpcode() == Instruction::Add && C &&
         C->getSExtValue() == Step && prevReal(S) == Add &&
         counterOf(Add->getOperand(0), &L) == G && prevReal(Add) == L;
}

/// The call I of intrinsic K, or null.
const CallBase *callOf(const Instruction *I, Intrinsic K) {
  const auto *CB = dyn_cast_or_null<CallBase>(I);
  return CB && callIntrinsic(*CB) == K ? CB : nullptr;
}

/// BB's terminator tests `G == 0` right after loading G, and goes to Zero
/// when it is, else to Other; returns G and the load.
const GlobalVariable *zeroTest(const BasicBlock &BB, const BasicBlock *Zero,
                               const BasicBlock *&Other, const LoadInst **L) {
  const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
  const auto *Cmp = Br && Br->isConditional()
                        ? dyn_cast<ICmpInst>(Br->getCondition())
                        : nullptr;
  const auto *K = Cmp ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
  if (!K || !K->isZero() || !Cmp->isEquality() || prevReal(Br) != Cmp)
    return nullptr;
  unsigned ZeroSide = Cmp->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1;
  if (Br->getSuccessor(ZeroSide) != Zero)
    return nullptr;
  Other = Br->getSuccessor(1 - ZeroSide);
  const GlobalVariable *G = counterOf(Cmp->getOperand(0), L);
  return G && prevReal(Cmp) == *L ? G : nullptr;
}

} // namespace

SemaphoreLocks::SemaphoreLocks(const ProgramModel &PM, LockTable &Locks,
                               std::set<uint32_t> &NotLocks)
    : PM(PM), Locks(Locks), NotLocks(NotLocks) {
  for (const Function &F : PM.module()) {
    if (F.isDeclaration() || !PM.mayRun(F))
      continue;
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (auto K = callIntrinsic(*CB);
            K == Intrinsic::SemWait || K == Intrinsic::SemPost)
          match(*CB, *K);
  }
}

void SemaphoreLocks::match(const CallBase &CB, Intrinsic K) {
  // The call alone in its block, which one test of the counter enters
  // when it is 0 and which joins the test's other side.
  const BasicBlock *Own = CB.getParent();
  const auto *Br = dyn_cast_or_null<BranchInst>(nextReal(&CB));
  const BasicBlock *Test = Own->getSinglePredecessor();
  if (firstReal(*Own) != &CB || !Br || Br->isConditional() || !Test)
    return;
  const BasicBlock *Join = Br->getSuccessor(0), *Other = nullptr;
  const LoadInst *L = nullptr;
  const GlobalVariable *G = zeroTest(*Test, Own, Other, &L);
  if (!G || Other != Join || Join == Own || Join->hasNPredecessorsOrMore(3))
    return;
  const Instruction *Before = prevReal(L);
  const StoreInst *Store = nullptr;
  const CallBase *Lock = nullptr, *Unlock = nullptr;
  if (K == Intrinsic::SemWait) {
    // lock(M); if (!G) sem_wait(S); G++; unlock(M);
    Lock = Before ? callOf(Before, Intrinsic::Lock) : nullptr;
    const Instruction *Ld = firstReal(*Join);
    const Instruction *Add = Ld ? nextReal(Ld) : nullptr;
    const Instruction *St = Add ? nextReal(Add) : nullptr;
    if (!St || !stepsCounter(St, G, 1))
      return;
    Store = cast<StoreInst>(St);
    Unlock = callOf(nextReal(St), Intrinsic::Unlock);
  } else {
    // lock(M); G--; if (!G) sem_post(S); unlock(M);
    if (!Before || !stepsCounter(Before, G, -1))
      return;
    Store = cast<StoreInst>(Before);
    const Instruction *Ld = prevReal(prevReal(Store));
    Lock = Ld ? callOf(prevReal(Ld), Intrinsic::Lock) : nullptr;
    Unlock = callOf(firstReal(*Join), Intrinsic::Unlock);
  }
  if (!Lock || !Unlock ||
      Lock->getArgOperand(0)->stripPointerCasts() !=
          Unlock->getArgOperand(0)->stripPointerCasts())
    return;
  Ops[&CB] = Store;
  Steps[Store] = {CB.getArgOperand(0), G, Lock->getArgOperand(0),
                  K == Intrinsic::SemWait};
}

bool SemaphoreLocks::protocolHolds(uint32_t Id) {
  auto [It, New] = Checked.try_emplace(Id, false);
  if (!New)
    return It->second;
  const PointsTo &PTA = PM.pointsTo();
  const GlobalVariable *G = nullptr;
  std::optional<uint32_t> Mutex;
  for (auto &[St, S] : Steps) {
    if (Locks.lockOf(S.Sem) != Id)
      continue;
    auto M = Locks.lockOf(S.Mutex);
    if (!M || (Mutex && *Mutex != *M) || (G && G != S.Count))
      return false;
    Mutex = M;
    G = S.Count;
  }
  if (!G || !G->hasDefinitiveInitializer() ||
      !G->getInitializer()->isNullValue() || G->isThreadLocal())
    return false;
  uint32_t Obj = PTA.objectOf(G);
  if (PTA.reachableByUnknown(Obj))
    return false;
  // Only the protocol's steps on this semaphore write the counter.
  for (const Instruction *W : PM.writersOf(*G)) {
    const auto *St = dyn_cast<StoreInst>(W);
    auto S = St ? Steps.find(St) : Steps.end();
    if (S == Steps.end() || Locks.lockOf(S->second.Sem) != Id)
      return false;
  }
  return It->second = true;
}

void SemaphoreLocks::startWalks() {
  Semaphores.clear();
  Initialised.clear();
  UnknownOps.clear();
}

void SemaphoreLocks::finishWalks() {
  const PointsTo &PTA = PM.pointsTo();
  for (uint32_t S : Semaphores) {
    // Code crace cannot see may post a semaphore it can reach.
    if (!Initialised.count(S) || PTA.reachableByUnknown(Locks.Keys[S].Obj))
      NotLocks.insert(S);
    for (const Value *P : UnknownOps)
      if (Locks.mayRelease(P, S))
        NotLocks.insert(S);
  }
}

void SemaphoreLocks::call(Intrinsic K, const CallBase &CB, LockSet &LS,
                          function_ref<bool()> BeforeEveryThread) {
  auto Id = Locks.lockOf(CB.getArgOperand(0));
  if (!Id) {
    UnknownOps.push_back(CB.getArgOperand(0));
    return;
  }
  Semaphores.insert(*Id);
  if (K == Intrinsic::SemInit) {
    const auto *V = dyn_cast<ConstantInt>(CB.getArgOperand(1));
    if (V && V->isOne() && BeforeEveryThread())
      Initialised.insert(*Id);
    else
      NotLocks.insert(*Id);
    return;
  }
  if (NotLocks.count(*Id))
    return;
  if (Ops.count(&CB)) {
    // The readers' group takes or gives back S (afterStore).
    if (!protocolHolds(*Id))
      NotLocks.insert(*Id);
    return;
  }
  if (K == Intrinsic::SemWait) {
    LS.acquire(*Id, false);
    return;
  }
  if (!is_contained(LS.Held, std::pair{*Id, false}))
    NotLocks.insert(*Id); // posted by a thread that does not hold it
  LS.release(*Id);
}

void SemaphoreLocks::afterStore(const StoreInst &SI, LockSet &LS) {
  auto It = Steps.find(&SI);
  if (It == Steps.end() || LS.Top)
    return;
  auto Id = Locks.lockOf(It->second.Sem);
  if (!Id || NotLocks.count(*Id))
    return;
  if (!protocolHolds(*Id)) {
    NotLocks.insert(*Id);
    return;
  }
  if (It->second.Entry) {
    LS.acquire(*Id, true);
    return;
  }
  if (!is_contained(LS.Held, std::pair{*Id, true}))
    NotLocks.insert(*Id); // a reader's exit by a thread not among them
  LS.release(*Id);
}

} // namespace crace
