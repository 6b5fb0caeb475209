//===- CondvarRwLocks.cpp - reader/writer locks from a mutex and a cv -----===//
#include "analysis/CondvarRwLocks.h"

#include "model/CfgPaths.h"
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <set>

using namespace llvm;

namespace crace {

namespace {

using Field = std::pair<int64_t, uint64_t>; // offset, size

bool overlap(Field A, Field B) {
  return A.first < B.first + int64_t(B.second) &&
         B.first < A.first + int64_t(A.second);
}

/// The recognizer of one function: its argument P, the constant offset from
/// P of every address it uses, and a forward must-analysis of "m is held"
/// and "field f was read as 0 under m, with no call or store to f since".
class Shape {
public:
  explicit Shape(const Function &F)
      : F(F), P(F.getArg(0)), DL(F.getParent()->getDataLayout()) {}

  std::optional<RwLockOp> classify() {
    if (!scan())
      return std::nullopt;
    if (!solve())
      return std::nullopt;
    return decide();
  }

private:
  struct State {
    bool Held = false;
    std::set<Field> Zero;
    bool operator==(const State &O) const {
      return Held == O.Held && Zero == O.Zero;
    }
  };
  enum class Form { Inc, Dec, Zero, NonZero, Other };
  struct Store {
    const StoreInst *S;
    Field Where;
    Form How;
    std::set<Field> ZeroAt;
  };

  /// The offset of V from P, when V is P plus constant offsets.
  std::optional<int64_t> offsetOf(const Value *V) const {
    APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
    const Value *Base = V->stripAndAccumulateConstantOffsets(
        DL, Off, /*AllowNonInbounds=*/true);
    if (Base != P)
      return std::nullopt;
    return Off.getSExtValue();
  }

  std::optional<Field> fieldOf(const Value *Ptr, Type *Ty) const {
    auto Off = offsetOf(Ptr);
    if (!Off || !Ty->isIntegerTy())
      return std::nullopt;
    return Field{*Off, DL.getTypeStoreSize(Ty).getFixedValue()};
  }

  /// Only fields of *P at constant offsets, the one mutex of *P and
  /// condition variables of *P; no other call.
  bool scan() {
    for (const Instruction &I : instructions(F)) {
      if (isMarker(&I))
        continue;
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        auto K = callIntrinsic(*CB);
        if (!K)
          return false;
        std::optional<int64_t> M;
        switch (*K) {
        case Intrinsic::Lock:
        case Intrinsic::Unlock:
          M = offsetOf(CB->getArgOperand(0));
          break;
        case Intrinsic::CondWait:
          if (!offsetOf(CB->getArgOperand(0)))
            return false;
          M = offsetOf(CB->getArgOperand(1));
          break;
        case Intrinsic::CondSignal:
        case Intrinsic::CondBroadcast:
          if (!offsetOf(CB->getArgOperand(0)))
            return false;
          continue;
        default:
          return false;
        }
        if (!M || (Mutex && *Mutex != *M))
          return false;
        Mutex = M;
        continue;
      }
      if (const auto *LI = dyn_cast<LoadInst>(&I)) {
        if (!LI->isSimple() || !fieldOf(LI->getPointerOperand(), LI->getType()))
          return false;
        continue;
      }
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!SI->isSimple() ||
            !fieldOf(SI->getPointerOperand(), SI->getValueOperand()->getType()))
          return false;
        continue;
      }
      if (I.mayReadOrWriteMemory() || I.mayThrow() || isa<UnreachableInst>(I))
        return false;
    }
    return Mutex.has_value();
  }

  /// No call, and no store to W, strictly between From and To (one block).
  static bool quietBetween(const Instruction *From, const Instruction *To,
                           const Shape &Sh, Field W) {
    for (const Instruction *I = From->getNextNode(); I && I != To;
         I = I->getNextNode()) {
      if (isa<CallBase>(I) && !isMarker(I))
        return false;
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        auto G = Sh.fieldOf(SI->getPointerOperand(),
                            SI->getValueOperand()->getType());
        if (!G || overlap(*G, W))
          return false;
      }
    }
    return true;
  }

  /// V is a load of field Where in Before's block, with nothing between
  /// the load and Before that can change it.
  bool freshLoad(const Value *V, Field Where, const Instruction *Before) const {
    const auto *LI = dyn_cast<LoadInst>(V);
    if (!LI || LI->getParent() != Before->getParent() ||
        fieldOf(LI->getPointerOperand(), LI->getType()) != Where ||
        !LI->comesBefore(Before))
      return false;
    return quietBetween(LI, Before, *this, Where);
  }

  Form formOf(const StoreInst &S, Field Where) const {
    const Value *V = S.getValueOperand();
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->isZero() ? Form::Zero : Form::NonZero;
    const auto *BO = dyn_cast<BinaryOperator>(V);
    if (!BO)
      return Form::Other;
    const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!C || !freshLoad(BO->getOperand(0), Where, &S))
      return Form::Other;
    if (BO->getOpcode() == Instruction::Add)
      return C->isOne() ? Form::Inc : C->isMinusOne() ? Form::Dec : Form::Other;
    if (BO->getOpcode() == Instruction::Sub && C->isOne())
      return Form::Dec;
    return Form::Other;
  }

  /// Runs one block from In; false when the shape is broken. With Record,
  /// the stores are noted.
  bool run(const BasicBlock &BB, State &S, bool Record) {
    for (const Instruction &I : BB) {
      if (isMarker(&I))
        continue;
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        auto K = *callIntrinsic(*CB);
        if (K == Intrinsic::Lock) {
          if (S.Held)
            return false;
          S.Held = true;
          S.Zero.clear();
        } else if (K == Intrinsic::Unlock || K == Intrinsic::CondWait) {
          if (!S.Held)
            return false;
          S.Held = K == Intrinsic::CondWait;
          S.Zero.clear();
        }
        continue;
      }
      if (isa<LoadInst>(I) && !S.Held)
        return false;
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!S.Held)
          return false;
        Field W =
            *fieldOf(SI->getPointerOperand(), SI->getValueOperand()->getType());
        Form How = formOf(*SI, W);
        if (Record)
          Stores.push_back({SI, W, How, S.Zero});
        for (auto It = S.Zero.begin(); It != S.Zero.end();)
          It = overlap(*It, W) ? S.Zero.erase(It) : std::next(It);
        if (How == Form::Zero)
          S.Zero.insert(W);
        continue;
      }
      if (isa<ReturnInst>(I) && S.Held)
        return false;
    }
    return true;
  }

  /// The field that is 0 when V, a comparison of a load with 0 made before
  /// Br, is Taken.
  std::optional<Field> zeroWhen(const Value *V, bool Taken,
                                const Instruction *Br) const {
    const auto *Cmp = dyn_cast<ICmpInst>(V);
    if (!Cmp || !Cmp->isEquality())
      return std::nullopt;
    const auto *Z = dyn_cast<ConstantInt>(Cmp->getOperand(1));
    const auto *LI = dyn_cast<LoadInst>(Cmp->getOperand(0));
    if (!Z || !Z->isZero() || !LI)
      return std::nullopt;
    auto Where = fieldOf(LI->getPointerOperand(), LI->getType());
    if (!Where || !freshLoad(LI, *Where, Br) ||
        Taken != (Cmp->getPredicate() == ICmpInst::ICMP_EQ))
      return std::nullopt;
    return Where;
  }

  /// Keeps in Z the fields also in With; whether Z changed.
  static bool meetZero(std::set<Field> &Z, const std::set<Field> &With) {
    size_t Before = Z.size();
    for (auto It = Z.begin(); It != Z.end();)
      It = With.count(*It) ? std::next(It) : Z.erase(It);
    return Z.size() != Before;
  }

  using Edges = std::map<std::pair<const BasicBlock *, const BasicBlock *>,
                         std::optional<State>>;

  /// The state on the edge BB -> To, S at the end of BB (nullopt: the edge
  /// cannot be taken, as far as is known yet). A branch on a comparison of
  /// a load with 0 adds the field on its 0 side; a branch on the phi that
  /// `a || b` and `a && b` make (a block of phis and the branch) takes
  /// each incoming edge whose value may be the branch's, with the field of
  /// a comparison there.
  std::optional<State> edgeState(const BasicBlock &BB, const BasicBlock *To,
                                 const State &S, const Edges &Out) const {
    const auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      return S;
    bool Taken = Br->getSuccessor(0) == To;
    const auto *Phi = dyn_cast<PHINode>(Br->getCondition());
    if (!Phi || Phi->getParent() != &BB ||
        any_of(BB, [&](const Instruction &I) {
          return !isa<PHINode>(I) && !isMarker(&I) && &I != Br;
        })) {
      State E = S;
      if (auto Z = zeroWhen(Br->getCondition(), Taken, Br))
        E.Zero.insert(*Z);
      return E;
    }
    std::optional<State> Meet;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      const BasicBlock *From = Phi->getIncomingBlock(I);
      const Value *V = Phi->getIncomingValue(I);
      if (const auto *C = dyn_cast<ConstantInt>(V); C && C->isOne() != Taken)
        continue;
      auto It = Out.find({From, &BB});
      if (It == Out.end() || !It->second)
        continue;
      State E = *It->second;
      if (auto Z = zeroWhen(V, Taken, From->getTerminator()))
        E.Zero.insert(*Z);
      if (!Meet) {
        Meet = std::move(E);
        continue;
      }
      meetZero(Meet->Zero, E.Zero);
      Meet->Held = Meet->Held && E.Held;
    }
    return Meet;
  }

  bool solve() {
    ReversePostOrderTraversal<const Function *> RPOT(&F);
    std::vector<const BasicBlock *> Order(RPOT.begin(), RPOT.end());
    std::map<const BasicBlock *, State> In;
    Edges Out;
    In[&F.getEntryBlock()] = State{};
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const BasicBlock *BB : Order) {
        auto It = In.find(BB);
        if (It == In.end())
          continue;
        State S = It->second;
        if (!run(*BB, S, false))
          return false;
        for (const BasicBlock *To : successors(BB)) {
          std::optional<State> E = edgeState(*BB, To, S, Out);
          Out[{BB, To}] = E;
          if (!E)
            continue;
          auto [T, New] = In.try_emplace(To, *E);
          if (New) {
            Changed = true;
            continue;
          }
          if (T->second.Held != E->Held)
            return false;
          Changed |= meetZero(T->second.Zero, E->Zero);
        }
      }
    }
    for (const BasicBlock *BB : Order) {
      auto It = In.find(BB);
      if (It == In.end())
        continue;
      State S = It->second;
      if (!run(*BB, S, true))
        return false;
    }
    return true;
  }

  /// Every path from the entry to a return runs Through, which no cycle
  /// contains.
  bool onEveryPathOnce(const BasicBlock *Through) const {
    SmallPtrSet<const BasicBlock *, 16> Seen{Through};
    SmallVector<const BasicBlock *, 16> Work{&F.getEntryBlock()};
    if (Through == &F.getEntryBlock())
      Work.clear();
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second)
        continue;
      if (isa<ReturnInst>(BB->getTerminator()))
        return false;
      for (const BasicBlock *S : successors(BB))
        Work.push_back(S);
    }
    return onceAtMost(Through);
  }

  static bool onceAtMost(const BasicBlock *BB) {
    return !reachesAvoiding(&BB->front(), &BB->front(), nullptr);
  }

  std::optional<RwLockOp> decide() const {
    RwLockOp Op;
    Op.Mutex = *Mutex;
    for (const Store &S : Stores) {
      if (S.How == Form::Other)
        return std::nullopt;
      Op.Stores.push_back(S.Where);
    }
    // An acquire: a counter store on every path, once, that has seen its
    // own counter 0 (a write acquire) or other fields only (a read acquire).
    const Store *Acq = nullptr;
    bool Write = false;
    for (const Store &S : Stores) {
      if ((S.How != Form::Inc && S.How != Form::NonZero) || S.ZeroAt.empty() ||
          !onEveryPathOnce(S.S->getParent()))
        continue;
      bool W = S.ZeroAt.count(S.Where);
      if (!W && S.How != Form::Inc)
        continue;
      if (Acq)
        return std::nullopt; // two candidates: not one of the shapes
      Acq = &S;
      Write = W;
    }
    if (Acq) {
      Op.K = Write ? RwLockOp::WriteAcquire : RwLockOp::ReadAcquire;
      Op.Counter = Acq->Where.first;
      Op.CounterSize = Acq->Where.second;
      for (Field Z : Acq->ZeroAt)
        if (Z != Acq->Where)
          Op.ZeroAt.push_back(Z);
      for (const Store &S : Stores)
        if (&S != Acq && overlap(S.Where, Acq->Where))
          return std::nullopt;
      return Op;
    }
    // A release: one store, a decrement or a reset to 0, at most once.
    if (Stores.size() != 1 ||
        (Stores[0].How != Form::Dec && Stores[0].How != Form::Zero) ||
        !onceAtMost(Stores[0].S->getParent()))
      return std::nullopt;
    Op.K = RwLockOp::Release;
    Op.Counter = Stores[0].Where.first;
    Op.CounterSize = Stores[0].Where.second;
    Op.Zeroes = Stores[0].How == Form::Zero;
    return Op;
  }

  const Function &F;
  const Argument *P;
  const DataLayout &DL;
  std::optional<int64_t> Mutex;
  std::vector<Store> Stores;
};

/// The bytes [Off, Off + Size) of G's initializer are 0.
bool startsAtZero(const GlobalVariable &G, int64_t Off, uint64_t Size) {
  if (!G.hasDefinitiveInitializer())
    return false;
  const DataLayout &DL = G.getParent()->getDataLayout();
  Type *Ty = IntegerType::get(G.getContext(), unsigned(Size * 8));
  Constant *C = ConstantFoldLoadFromConst(
      const_cast<Constant *>(G.getInitializer()), Ty,
      APInt(DL.getIndexTypeSizeInBits(G.getType()), uint64_t(Off)), DL);
  return C && C->isNullValue();
}

} // namespace

CondvarRwLocks::CondvarRwLocks(const ProgramModel &PM) : PM(PM) {
  for (const Function &F : PM.module()) {
    if (F.isDeclaration() || F.isVarArg() || F.arg_size() != 1 ||
        !F.getArg(0)->getType()->isPointerTy() || !PM.mayRun(F))
      continue;
    if (auto Op = Shape(F).classify())
      Ops.emplace(&F, std::move(*Op));
  }
}

const RwLockOp *CondvarRwLocks::opOf(const Function *F) const {
  auto It = Ops.find(F);
  return It == Ops.end() ? nullptr : &It->second;
}

const RwLockOp *CondvarRwLocks::opAt(const CallBase &CB) const {
  const Function *F = CB.getCalledFunction();
  return F ? opOf(F) : nullptr;
}

std::optional<CondvarRwLocks::Layout> CondvarRwLocks::validate(Loc L) {
  auto [It, New] = Validated.try_emplace({L.Obj, L.Off});
  if (!New)
    return It->second;
  const PointsTo &PTA = PM.pointsTo();
  const AbsObject &O = PTA.object(L.Obj);
  const auto *G = dyn_cast_or_null<GlobalVariable>(O.Site);
  if (!G || !L.exact())
    return std::nullopt;
  bool Unknown = PTA.reachableByUnknown(L.Obj);
  // The functions of the shape that may touch the object, each at L.
  std::vector<const RwLockOp *> Used;
  std::set<const Function *> UsedFns;
  for (auto &[F, Op] : Ops) {
    bool Touches = false;
    for (Loc X : PTA.pointsTo(F->getArg(0))) {
      if (X.Obj == PointsTo::UnknownObj && Unknown)
        return std::nullopt;
      if (X.Obj != L.Obj)
        continue;
      if (!X.exact() || X.Off != L.Off)
        return std::nullopt;
      Touches = true;
    }
    if (Touches) {
      Used.push_back(&Op);
      UsedFns.insert(F);
    }
  }
  // One mutex; R from the read acquires, W from the write acquires.
  Layout Out;
  Field R{-1, 0}, W{-1, 0};
  auto Agree = [](Field &Slot, Field V) {
    if (Slot.first < 0)
      Slot = V;
    return Slot == V;
  };
  for (const RwLockOp *Op : Used) {
    if (Op->Mutex != Used.front()->Mutex)
      return std::nullopt;
    Field C{Op->Counter, Op->CounterSize};
    if ((Op->K == RwLockOp::ReadAcquire && !Agree(R, C)) ||
        (Op->K == RwLockOp::WriteAcquire && !Agree(W, C)))
      return std::nullopt;
  }
  if (W.first < 0 || (R.first >= 0 && overlap(R, W)))
    return std::nullopt; // nothing takes it for writing: it protects nothing
  auto Has = [](const RwLockOp *Op, Field X) {
    return std::find(Op->ZeroAt.begin(), Op->ZeroAt.end(), X) !=
           Op->ZeroAt.end();
  };
  for (const RwLockOp *Op : Used) {
    Field C{Op->Counter, Op->CounterSize};
    switch (Op->K) {
    case RwLockOp::ReadAcquire:
      if (!Has(Op, W))
        return std::nullopt;
      break;
    case RwLockOp::WriteAcquire:
      if (R.first >= 0 && !Has(Op, R))
        return std::nullopt;
      break;
    case RwLockOp::Release:
      // A decrement of R or W, or W reset; nothing else may release.
      if (!(C == W || (C == R && !Op->Zeroes)))
        return std::nullopt;
      break;
    }
    // Its other stores keep off both counters.
    for (Field S : Op->Stores)
      if (S != C && (overlap(S, W) || (R.first >= 0 && overlap(S, R))))
        return std::nullopt;
  }
  // Both counters start at 0, and no other code writes them.
  std::vector<Field> Counters{W};
  if (R.first >= 0)
    Counters.push_back(R);
  for (Field C : Counters)
    if (!startsAtZero(*G, L.Off + C.first, C.second))
      return std::nullopt;
  for (const ThreadTemplate &T : PM.threads())
    if (UsedFns.count(T.Entry))
      return std::nullopt; // run as a thread: no holder to check
  // The lock's identity is its W counter, which no lock operation may use.
  Loc Id{L.Obj, L.Off + W.first};
  for (const Function &F : PM.module()) {
    if (F.isDeclaration() || !PM.mayRun(F))
      continue;
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      auto K = CB ? callIntrinsic(*CB) : std::nullopt;
      if (K && (isLockOperation(*K) || *K == Intrinsic::CondWait)) {
        const Value *M = CB->getArgOperand(*K == Intrinsic::CondWait ? 1 : 0);
        for (Loc X : PTA.pointsTo(M))
          if ((X.Obj == PointsTo::UnknownObj && Unknown) ||
              (X.Obj == L.Obj && mayOverlap(X, 0, Id, W.second)))
            return std::nullopt;
      }
      if (UsedFns.count(&F))
        continue;
      for (const MemAccess &A : PM.accessesOf(I)) {
        if (A.Kind != AccessKind::Write)
          continue;
        for (Loc X : PTA.pointsTo(A.Ptr)) {
          if (X.Obj == PointsTo::UnknownObj && Unknown && !A.Library)
            return std::nullopt;
          if (X.Obj != L.Obj)
            continue;
          for (Field C : Counters)
            if (mayOverlap(X, A.Size, Loc{L.Obj, L.Off + C.first}, C.second))
              return std::nullopt;
        }
      }
    }
  }
  Out.R = R.first;
  Out.W = W.first;
  Out.Id = Id;
  It->second = Out;
  return Out;
}

void RwLockUse::finishWalks() {
  for (uint32_t Id : Ids)
    for (const Value *P : UnknownReleases)
      if (Locks.mayRelease(P, Id))
        NotLocks.insert(Id);
}

bool RwLockUse::isRelease(const CallBase &CB) const {
  const RwLockOp *Op = Shapes.opAt(CB);
  return Op && Op->K == RwLockOp::Release;
}

/// The lock a direct call of such a function takes or releases, with the
/// mode a release releases (true: read).
std::optional<std::pair<uint32_t, bool>> RwLockUse::lockAt(const CallBase &CB,
                                                           const RwLockOp &Op) {
  std::optional<Loc> L = PM.lockLocation(CB.getArgOperand(0));
  if (!L)
    return std::nullopt;
  auto Layout = Shapes.validate(*L);
  if (!Layout)
    return std::nullopt;
  // Named as the struct: a whole global is its variable's name.
  std::string Name = PM.describe(*L);
  if (L->Off == 0) {
    Name = PM.describe({L->Obj, UnknownOffset});
    if (StringRef(Name).ends_with("[*]"))
      Name.resize(Name.size() - 3);
  }
  uint32_t Id = Locks.idOf(Layout->Id, Name);
  Ids.insert(Id);
  return std::pair{Id, Op.Counter == Layout->R};
}

void RwLockUse::unknownRelease(LockSet &LS, const Value *P) {
  UnknownReleases.push_back(P);
  drop(LS, P);
}

void RwLockUse::afterCall(const CallBase &CB,
                          ArrayRef<const Function *> Callees, LockSet &LS) {
  const RwLockOp *Op = Shapes.opAt(CB);
  if (!Op) {
    for (const Function *C : Callees)
      if (const RwLockOp *O = Shapes.opOf(C); O && O->K == RwLockOp::Release)
        unknownRelease(LS, CB.getArgOperand(0));
    return;
  }
  auto Id = lockAt(CB, *Op);
  if (!Id) {
    if (Op->K == RwLockOp::Release)
      unknownRelease(LS, CB.getArgOperand(0));
    return;
  }
  if (NotLocks.count(Id->first) || LS.Top)
    return;
  if (Op->K != RwLockOp::Release) {
    LS.acquire(Id->first, Op->K == RwLockOp::ReadAcquire);
    return;
  }
  // Released by a thread that holds it in that mode, or not a lock.
  if (!is_contained(LS.Held, std::pair{Id->first, Id->second}))
    NotLocks.insert(Id->first);
  LS.release(Id->first);
}

void RwLockUse::drop(LockSet &LS, const Value *P) {
  std::vector<uint32_t> Drop;
  for (auto &[Id, R] : LS.Held)
    if (Ids.count(Id) && Locks.mayRelease(P, Id))
      Drop.push_back(Id);
  for (uint32_t Id : Drop)
    LS.release(Id);
}

} // namespace crace
