//===- InstanceMemory.cpp - memory that belongs to one thread instance ----===//
#include "analysis/InstanceMemory.h"

#include "model/ArrayElement.h"
#include "model/CfgPaths.h"
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using llvm::PatternMatch::m_Zero;
using llvm::PatternMatch::match;

namespace crace {

namespace {

/// F runs only as a thread's start routine: every use of it is the start
/// routine operand of a thread creation.
bool onlyStartRoutine(const Function &F) {
  SmallVector<const Value *, 8> Work = {&F};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (const auto *CE = dyn_cast<ConstantExpr>(Usr); CE && CE->isCast()) {
        Work.push_back(CE);
        continue;
      }
      const auto *CB = dyn_cast<CallBase>(Usr);
      if (!CB || callIntrinsic(*CB) != Intrinsic::ThreadCreate ||
          U.getOperandNo() != 1 || CB->getArgOperand(0) == V ||
          CB->getArgOperand(2) == V)
        return false;
    }
  }
  return true;
}

/// The direct calls of F, when those are its only uses.
std::optional<SmallVector<const CallBase *, 4>> onlyCalls(const Function &F) {
  SmallVector<const CallBase *, 4> Calls;
  for (const Use &U : F.uses()) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U))
      return std::nullopt;
    Calls.push_back(CB);
  }
  return Calls;
}

/// No execution of the function reaches Create twice without executing
/// Alloc in between: Alloc dominates Create and every cycle through
/// Create's block passes Alloc's block.
bool freshPerCreate(const Instruction *Alloc, const Instruction *Create,
                    const DominatorTree &DT) {
  const BasicBlock *AB = Alloc->getParent(), *CBk = Create->getParent();
  if (!DT.dominates(Alloc, Create))
    return false;
  if (AB == CBk)
    return true; // a cycle re-enters the block above Alloc
  return !reachesAvoiding(Create, Create, AB);
}

/// A join that waits for the thread Create made, on every path from Create
/// back to Create: Create's handle is a local variable that nothing but
/// Create writes, and the join reads it in the join's block, with no
/// execution of Create between that read and the join.
const CallBase *serialisingJoin(const CallBase &Create) {
  const auto *H =
      dyn_cast<AllocaInst>(Create.getArgOperand(0)->stripPointerCasts());
  if (!H || Create.getArgOperand(1)->stripPointerCasts() == H ||
      Create.getArgOperand(2)->stripPointerCasts() == H ||
      !onlyCreateWrites(H, Create))
    return nullptr;
  SmallVector<const CallBase *, 2> Joins;
  for (const User *U : H->users()) {
    const auto *L = dyn_cast<LoadInst>(U);
    if (!L)
      continue;
    for (const User *LU : L->users())
      if (const auto *J = dyn_cast<CallBase>(LU);
          J && callIntrinsic(*J) == Intrinsic::ThreadJoin &&
          J->getArgOperand(0) == L && J->getParent() == L->getParent() &&
          L->comesBefore(J))
        Joins.push_back(J);
  }
  for (const CallBase *J : Joins) {
    const auto *L = cast<Instruction>(J->getArgOperand(0));
    if (Create.getParent() == J->getParent() && L->comesBefore(&Create) &&
        Create.comesBefore(J))
      continue;
    if (!reachesAvoiding(&Create, &Create, J->getParent()))
      return J;
  }
  return nullptr;
}

/// V is P advanced by address arithmetic (GEPs and casts on P).
bool stepsFrom(const Value *V, const PHINode *P) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (V == P)
      return true;
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(V))
      V = GEP->getPointerOperand();
    else if (isa<BitCastInst>(V) || isa<AddrSpaceCastInst>(V))
      V = cast<Instruction>(V)->getOperand(0);
    else
      return false;
  }
  return false;
}

/// From just after Ld to Create, in one block, nothing may write memory:
/// no store, no call other than debug and lifetime markers.
bool noWriteBetween(const LoadInst *Ld, const CallBase *Create) {
  if (Ld->getParent() != Create->getParent() || !Ld->comesBefore(Create))
    return false;
  for (const Instruction *I = Ld->getNextNode(); I != Create;
       I = I->getNextNode()) {
    if (!isMarker(I) && I->mayWriteToMemory())
      return false;
  }
  return true;
}

/// P points to the first element of an array (the decay of an array
/// member, &a[0]) of the returned size in bytes, also when P is a
/// parameter every call of which passes such a pointer (the smallest).
std::optional<uint64_t> arrayFromStart(const DataLayout &DL, const Value *P,
                                       unsigned Depth = 0) {
  if (const auto *G = dyn_cast<GetElementPtrInst>(P)) {
    auto *AT = dyn_cast<ArrayType>(G->getSourceElementType());
    if (!AT || G->getNumIndices() != 2 || !match(G->getOperand(1), m_Zero()) ||
        !match(G->getOperand(2), m_Zero()))
      return std::nullopt;
    return DL.getTypeAllocSize(AT).getFixedValue();
  }
  const auto *A = dyn_cast<Argument>(P);
  if (!A || Depth > 4)
    return std::nullopt;
  auto Calls = onlyCalls(*A->getParent());
  if (!Calls || Calls->empty())
    return std::nullopt;
  std::optional<uint64_t> Min;
  for (const CallBase *C : *Calls) {
    if (A->getArgNo() >= C->arg_size())
      return std::nullopt;
    auto N = arrayFromStart(DL, C->getArgOperand(A->getArgNo()), Depth + 1);
    if (!N)
      return std::nullopt;
    Min = Min ? std::min(*Min, *N) : *N;
  }
  return Min;
}

/// V with sign/zero extensions and truncations to at least MinBits bits
/// removed.
const Value *stripIntCasts(const Value *V, unsigned MinBits) {
  while (true) {
    if (isa<SExtInst>(V) || isa<ZExtInst>(V)) {
      V = cast<Instruction>(V)->getOperand(0);
      continue;
    }
    if (const auto *T = dyn_cast<TruncInst>(V);
        T && T->getType()->getIntegerBitWidth() >= MinBits) {
      V = T->getOperand(0);
      continue;
    }
    return V;
  }
}

} // namespace

InstanceMemory::InstanceMemory(const ProgramModel &PM, StableFn Stable)
    : PM(PM), Stable(std::move(Stable)) {
  const Module &M = PM.module();
  const DataLayout &DL = M.getDataLayout();

  // Roots: the pointer parameter of start routines used for nothing else.
  SmallPtrSet<const Function *, 8> Roots;
  std::vector<const Value *> Work;
  for (const ThreadTemplate &T : PM.threads()) {
    if (!T.Entry || !T.CreateSite || T.SignalHandler ||
        !onlyStartRoutine(*T.Entry))
      continue;
    OwnRuns.insert(T.Entry);
    if (T.Entry->arg_size() == 0)
      continue;
    Roots.insert(T.Entry);
    const Argument *A = T.Entry->getArg(0);
    if (A->getType()->isPointerTy() &&
        FromArg.try_emplace(A, Derived{0}).second)
      Work.push_back(A);
  }

  // What is computed from a derived pointer by address arithmetic stays
  // derived; a phi or select when every incoming value is; a parameter
  // when every call passes one.
  auto Merge = [](ArrayRef<Derived> In) {
    Derived D = In.front();
    for (const Derived &X : In.drop_front())
      if (X.Offset != D.Offset)
        D.Offset.reset();
    return D;
  };
  auto Set = [&](const Value *V, Derived D) {
    if (FromArg.try_emplace(V, D).second)
      Work.push_back(V);
  };
  auto AllDerived = [&](ArrayRef<const Value *> In) -> std::optional<Derived> {
    SmallVector<Derived, 4> Ds;
    for (const Value *X : In) {
      auto It = FromArg.find(X);
      if (It == FromArg.end())
        return std::nullopt;
      Ds.push_back(It->second);
    }
    if (Ds.empty())
      return std::nullopt;
    return Merge(Ds);
  };
  while (!Work.empty()) {
    const Value *V = Work.back();
    Work.pop_back();
    const Derived D = FromArg.lookup(V);
    for (const Use &U : V->uses()) {
      const auto *Usr = dyn_cast<Instruction>(U.getUser());
      if (!Usr)
        continue;
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(Usr)) {
        if (U.get() != GEP->getPointerOperand())
          continue;
        APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        Derived G;
        if (D.Offset && GEP->accumulateConstantOffset(DL, Off))
          G.Offset = *D.Offset + Off.getSExtValue();
        Set(GEP, G);
        continue;
      }
      if (isa<BitCastInst>(Usr) || isa<AddrSpaceCastInst>(Usr) ||
          isa<FreezeInst>(Usr)) {
        Set(Usr, D);
        continue;
      }
      if (const auto *P = dyn_cast<PHINode>(Usr)) {
        // A pointer that steps through a buffer (p = phi(buf, p + n))
        // comes from the phi itself on the back edge.
        SmallVector<const Value *, 4> In;
        bool Stepping = false;
        for (const Value *X : P->incoming_values()) {
          if (stepsFrom(X, P))
            Stepping = true;
          else
            In.push_back(X);
        }
        auto X = AllDerived(In);
        if (X && Stepping)
          X->Offset.reset();
        if (X)
          Set(P, *X);
        continue;
      }
      if (const auto *S = dyn_cast<SelectInst>(Usr)) {
        if (U.get() == S->getCondition())
          continue;
        if (auto X = AllDerived({S->getTrueValue(), S->getFalseValue()}))
          Set(S, *X);
        continue;
      }
      const auto *CB = dyn_cast<CallBase>(Usr);
      if (!CB || !CB->isArgOperand(&U) || callIntrinsic(*CB))
        continue;
      const auto *Callee = dyn_cast<Function>(CB->getCalledOperand());
      unsigned N = CB->getArgOperandNo(&U);
      if (!Callee || Callee->isDeclaration() || N >= Callee->arg_size() ||
          Roots.contains(Callee))
        continue;
      auto Calls = onlyCalls(*Callee);
      if (!Calls)
        continue;
      SmallVector<const Value *, 4> In;
      for (const CallBase *C : *Calls)
        In.push_back(C->getArgOperand(N));
      if (auto X = AllDerived(In))
        Set(Callee->getArg(N), *X);
    }
  }

  // The shape of each template's start argument.
  struct FnAnalyses {
    std::unique_ptr<DominatorTree> DT;
    std::unique_ptr<LoopInfo> LI;
    std::unique_ptr<AssumptionCache> AC;
    std::unique_ptr<ScalarEvolution> SE;
  };
  DenseMap<const Function *, FnAnalyses> Analyses;
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  // The dominator tree alone (the Fresh shape), or everything.
  auto Dom = [&](const Function *F) -> DominatorTree & {
    FnAnalyses &A = Analyses[F];
    if (!A.DT)
      A.DT = std::make_unique<DominatorTree>(*const_cast<Function *>(F));
    return *A.DT;
  };
  auto Get = [&](const Function *F) -> FnAnalyses & {
    FnAnalyses &A = Analyses[F];
    if (!A.SE) {
      auto &MF = *const_cast<Function *>(F);
      Dom(F);
      A.LI = std::make_unique<LoopInfo>(*A.DT);
      A.AC = std::make_unique<AssumptionCache>(MF);
      A.SE = std::make_unique<ScalarEvolution>(MF, TLI, *A.AC, *A.DT, *A.LI);
    }
    return A;
  };
  // The creation loop runs once: its function runs once, the loop is
  // outermost and entered only from blocks that run once.
  auto OnceLoop = [&](const CallBase *S, FnAnalyses &A) -> const Loop * {
    const Loop *L = A.LI->getLoopFor(S->getParent());
    if (!L || L->getLoopDepth() != 1)
      return nullptr;
    for (const BasicBlock *P : predecessors(L->getHeader()))
      if (!L->contains(P) && PM.inCycle(P))
        return nullptr;
    return L;
  };
  for (const ThreadTemplate &T : PM.threads()) {
    if (!Roots.contains(T.Entry))
      continue;
    const CallBase *S = T.CreateSite;
    const Value *Arg = S->getArgOperand(2);
    const Function *F = S->getFunction();
    if (const auto *Alloc = dyn_cast<CallBase>(Arg->stripPointerCasts());
        Alloc && callIntrinsic(*Alloc) == Intrinsic::Alloc &&
        Alloc->getFunction() == F && freshPerCreate(Alloc, S, Dom(F))) {
      Kinds[T.Id] = {Shape::Fresh, 0, Alloc, S};
      walkFromOrigin(Alloc);
      continue;
    }
    // A block allocated once per run of a function that runs once per
    // thread (or once in main), handed to one child at a time.
    if (const auto *Alloc = dyn_cast<CallBase>(Arg->stripPointerCasts());
        Alloc && callIntrinsic(*Alloc) == Intrinsic::Alloc &&
        Alloc->getFunction() == F && !PM.inCycle(Alloc->getParent()) &&
        (onlyStartRoutine(*F) || PM.runsOnceInMain(F)) &&
        Dom(F).dominates(Alloc, S))
      if (const CallBase *J = serialisingJoin(*S)) {
        Kinds[T.Id] = {
            .S = Shape::Serial, .Alloc = Alloc, .Create = S, .Join = J};
        walkFromOrigin(Alloc);
        continue;
      }
    if (!PM.runsOnceInMain(F))
      continue;
    FnAnalyses &A = Get(F);
    const Loop *L = OnceLoop(S, A);
    if (!L)
      continue;
    auto Counter = [&](const Value *V,
                       bool NeedNoWrap) -> std::optional<uint64_t> {
      const auto *AR =
          dyn_cast<SCEVAddRecExpr>(A.SE->getSCEV(const_cast<Value *>(V)));
      if (!AR || AR->getLoop() != L || !AR->isAffine())
        return std::nullopt;
      const auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(*A.SE));
      if (!Step || Step->getAPInt().isZero())
        return std::nullopt;
      if (NeedNoWrap && !AR->hasNoSignedWrap() && !AR->hasNoUnsignedWrap())
        return std::nullopt;
      return Step->getAPInt().abs().getZExtValue();
    };
    if (Arg->getType()->isPointerTy()) {
      if (const auto *I2P = dyn_cast<IntToPtrInst>(Arg)) {
        const Value *X = stripExtensions(I2P->getOperand(0));
        if (Counter(X, /*NeedNoWrap=*/true))
          Kinds[T.Id] = {Shape::Index, X->getType()->getIntegerBitWidth()};
        continue;
      }
      // A pointer recurrence over an in-bounds GEP walks one object, so
      // it does not wrap.
      const auto *GEP = dyn_cast<GEPOperator>(Arg->stripPointerCasts());
      if (GEP && GEP->isInBounds())
        if (auto Stride = Counter(Arg, /*NeedNoWrap=*/false)) {
          // The GEP computing this iteration's cell is the origin of the
          // creator's pointers into it.
          const auto *Origin = dyn_cast<GetElementPtrInst>(GEP);
          Kinds[T.Id] = {
              Shape::Strided, *Stride,
              Origin && Origin->getFunction() == F ? Origin : nullptr, S};
          if (Origin && Origin->getFunction() == F)
            walkFromOrigin(Origin);
          continue;
        }
      // &G[i] with G a global pointer: each iteration reads G again, and
      // every instance reads one value when no write changes G while an
      // instance runs, nor between this iteration's read and the create.
      if (auto E = arrayElement(DL, Arg); E && E->Offset == 0) {
        const auto *Ld = dyn_cast<LoadInst>(E->Base);
        const auto *G =
            Ld ? dyn_cast<GlobalVariable>(Ld->getPointerOperand()) : nullptr;
        auto Step = Counter(stripExtensions(E->Index), /*NeedNoWrap=*/true);
        if (G && Step && !Ld->isVolatile() && noWriteBetween(Ld, S) &&
            this->Stable(G, T.Id))
          Kinds[T.Id] = {.S = Shape::Strided,
                         .Stride = E->Elem * *Step,
                         .Create = S,
                         .Global = G,
                         .Index = stripExtensions(E->Index),
                         .Elem = E->Elem,
                         .Header = L->getHeader()};
      }
    }
  }

  // The blocks each thread allocates in its start routine.
  for (const Function *F : OwnRuns)
    for (const Instruction &I : instructions(*F))
      if (const auto *CB = dyn_cast<CallBase>(&I);
          CB && callIntrinsic(*CB) == Intrinsic::Alloc)
        walkFromOrigin(CB);
}

const Value *InstanceMemory::originOf(const Value *P) const {
  if (!FromOrigin.contains(P))
    return nullptr;
  while (const Value *Parent = FromOrigin.lookup(P).Parent)
    P = Parent;
  return P;
}

const Value *InstanceMemory::ownAllocation(const MemAccess &X) const {
  if (!X.Inst || !OwnRuns.contains(X.Inst->getFunction()))
    return nullptr;
  const auto *CB = dyn_cast_or_null<CallBase>(originOf(X.Ptr));
  return CB && callIntrinsic(*CB) == Intrinsic::Alloc &&
                 CB->getFunction() == X.Inst->getFunction()
             ? CB
             : nullptr;
}

void InstanceMemory::walkFromOrigin(const Value *Origin) {
  // The creator's own pointers into the new block or cell: address
  // arithmetic on the origin, in its function, with the offset when known.
  const DataLayout &DL = PM.module().getDataLayout();
  std::vector<const Value *> Walk = {Origin};
  FromOrigin.try_emplace(Origin, Step{nullptr, 0});
  while (!Walk.empty()) {
    const Value *V = Walk.back();
    Walk.pop_back();
    std::optional<int64_t> Off = FromOrigin.lookup(V).Offset;
    for (const User *U : V->users()) {
      std::optional<int64_t> UOff;
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        if (GEP->getPointerOperand() != V)
          continue;
        APInt C(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (Off && GEP->accumulateConstantOffset(DL, C))
          UOff = *Off + C.getSExtValue();
      } else if (isa<BitCastInst>(U)) {
        UOff = Off;
      } else {
        continue;
      }
      if (FromOrigin.try_emplace(U, Step{V, UOff}).second)
        Walk.push_back(U);
    }
  }
}

bool InstanceMemory::own(const Kind &K, const MemAccess &A) const {
  switch (K.S) {
  case Shape::Fresh:
  case Shape::Serial:
    return FromArg.contains(A.Ptr);
  case Shape::Strided: {
    auto It = FromArg.find(A.Ptr);
    if (It == FromArg.end())
      return false;
    uint64_t Size = A.Size;
    if (Size == 0) {
      // A library call's effect of unknown length through a pointer to
      // the start of an array member (strlen(td->name)) stays inside that
      // array.
      std::optional<uint64_t> N =
          arrayFromStart(PM.module().getDataLayout(), A.Ptr);
      if (!N || *N == 0)
        return false;
      Size = *N;
    }
    if (!It->second.Offset) {
      // An element, chosen by a variable, of an array member at a known
      // offset: the index stays inside that array (no undefined
      // behaviour), so the access stays inside the whole array.
      const auto *G = dyn_cast<GetElementPtrInst>(A.Ptr);
      auto *AT = G ? dyn_cast<ArrayType>(G->getSourceElementType()) : nullptr;
      const auto *K0 = G ? dyn_cast<ConstantInt>(G->getOperand(1)) : nullptr;
      if (!AT || G->getNumIndices() != 2 || !K0 || !K0->isZero())
        return false;
      It = FromArg.find(G->getPointerOperand());
      if (It == FromArg.end() || !It->second.Offset)
        return false;
      Size = std::max(
          Size,
          PM.module().getDataLayout().getTypeAllocSize(AT).getFixedValue());
    }
    int64_t C = *It->second.Offset;
    return C >= 0 && uint64_t(C) + Size <= K.Stride;
  }
  case Shape::Index:
    break;
  }
  return false;
}

std::optional<InstanceMemory::IndexKey>
InstanceMemory::indexKey(const Kind &K, const MemAccess &A,
                         unsigned Thread) const {
  // Base[(int)arg] at a constant offset inside the element.
  const ThreadTemplate &T = PM.threads()[Thread];
  auto E = arrayElement(PM.module().getDataLayout(), A.Ptr);
  if (!E || !E->inside(A.Size))
    return std::nullopt;
  const uint64_t Elem = E->Elem;
  const auto *P2I = dyn_cast<PtrToIntInst>(stripIntCasts(E->Index, K.Stride));
  if (!P2I || P2I->getOperand(0) != T.Entry->getArg(0))
    return std::nullopt;
  // The same base in every instance: a global's address, or the value of
  // a global pointer that no write changes while the thread runs.
  auto Base = stableBase(
      *E, [&](const GlobalVariable *G) { return Stable(G, Thread); });
  if (!Base)
    return std::nullopt;
  return IndexKey{Base->first, Base->second, Elem};
}

bool InstanceMemory::beforeCellHandOff(const Kind &K,
                                       const MemAccess &X) const {
  // X goes to G[i] + c, inside the element, with this iteration's i and a
  // value of G read in the creator: G has one value while an instance
  // runs (Stable), and before the first create no instance runs. The
  // create of instance i comes after X in the iteration.
  const auto *Create = cast<Instruction>(K.Create);
  const Instruction *I = X.Inst;
  if (!K.Global || !I || I->getFunction() != Create->getFunction())
    return false;
  const DataLayout &DL = PM.module().getDataLayout();
  auto E = arrayElement(DL, X.Ptr);
  const auto *Ld = E ? dyn_cast<LoadInst>(E->Base) : nullptr;
  if (!Ld || Ld->getPointerOperand() != K.Global || Ld->isVolatile() ||
      stripExtensions(E->Index) != K.Index || E->Elem != K.Elem)
    return false;
  uint64_t Size = X.Size;
  if (Size == 0)
    Size = arrayFromStart(DL, X.Ptr).value_or(0);
  return E->inside(Size) && !reachesAvoiding(Create, I, K.Header);
}

bool InstanceMemory::beforeHandOff(const Kind &K, const MemAccess &X) const {
  // X touches the block of its function's latest allocation (or the cell
  // of this iteration), and no create has handed it out yet: so a thread
  // that runs touches another block or cell, or has not started.
  if (!K.Alloc)
    return false;
  const auto *Alloc = cast<Instruction>(K.Alloc);
  const Instruction *I = X.Inst;
  auto From = FromOrigin.find(X.Ptr);
  if (!I || I->getFunction() != Alloc->getFunction() ||
      From == FromOrigin.end())
    return false;
  // A cell: X stays inside it.
  if (K.S == Shape::Strided) {
    std::optional<int64_t> C = From->second.Offset;
    if (!C || *C < 0 || X.Size == 0 || uint64_t(*C) + X.Size > K.Stride)
      return false;
  }
  // Computed from this origin (FromOrigin holds every template's).
  if (originOf(X.Ptr) != K.Alloc)
    return false;
  auto [It, New] = HandOffCache.try_emplace({X.Ptr, I, K.Create}, false);
  if (!New)
    return It->second;
  const auto *Create = cast<Instruction>(K.Create);
  // Every step of the address was computed after this allocation ran ...
  for (const Value *V = X.Ptr; V != K.Alloc; V = FromOrigin.lookup(V).Parent) {
    const auto *Step = cast<Instruction>(V);
    const BasicBlock *B = Step->getParent();
    bool Recomputed = (B == Alloc->getParent() && Alloc->comesBefore(Step)) ||
                      (B == I->getParent() && Step->comesBefore(I)) ||
                      !reachesAvoiding(Alloc, I, B);
    if (!Recomputed)
      return false;
  }
  // ... and the create that hands the block out comes after X.
  bool Ok = !reachesAvoiding(Create, I, Alloc->getParent());
  return It->second = Ok;
}

bool InstanceMemory::outsideChild(const Kind &K, const MemAccess &X) const {
  // X touches this run's block (the allocation runs once per run), and
  // every path from the create to X passes the join: the thread holding
  // the block has not been made yet in this run, or has ended.
  const auto *Alloc = cast<Instruction>(K.Alloc);
  const Instruction *I = X.Inst;
  if (!I || I->getFunction() != Alloc->getFunction() ||
      originOf(X.Ptr) != K.Alloc)
    return false;
  const auto *Create = cast<Instruction>(K.Create);
  const auto *Join = cast<Instruction>(K.Join);
  const BasicBlock *JB = Join->getParent();
  const bool InJB = I->getParent() == JB;
  if (Create->getParent() == JB && Create->comesBefore(Join))
    // The join runs before a path from the create leaves the block.
    return !(InJB && Create->comesBefore(I) && I->comesBefore(Join));
  if (InJB)
    // Reached from the top of the block, through the join.
    return Join->comesBefore(I) &&
           !(Create->getParent() == JB && Create->comesBefore(I));
  return !reachesAvoiding(Create, I, JB);
}

bool InstanceMemory::disjoint(unsigned Thread, const MemAccess &A,
                              unsigned OtherThread, const MemAccess &B) const {
  // Each touches a block its own thread allocated (two threads: two
  // blocks).
  if (ownAllocation(A) && ownAllocation(B))
    return true;
  // The creator touches the block it is about to hand to an instance.
  for (auto [T, X, Y] :
       {std::tuple{OtherThread, &A, &B}, std::tuple{Thread, &B, &A}}) {
    auto Kt = Kinds.find(T);
    if (Kt == Kinds.end() || Kt->second.S == Shape::Index ||
        !own(Kt->second, *Y))
      continue;
    if (Kt->second.S == Shape::Serial ? outsideChild(Kt->second, *X)
                                      : beforeHandOff(Kt->second, *X) ||
                                            beforeCellHandOff(Kt->second, *X))
      return true;
  }
  auto It = Kinds.find(Thread);
  if (It == Kinds.end())
    return false;
  if (OtherThread != Thread) {
    // Two templates, each handed a block of its own allocation call.
    auto Ot = Kinds.find(OtherThread);
    auto Block = [](const Kind &K) {
      return K.S == Shape::Fresh || K.S == Shape::Serial;
    };
    return Ot != Kinds.end() && Block(It->second) && Block(Ot->second) &&
           It->second.Alloc != Ot->second.Alloc && own(It->second, A) &&
           own(Ot->second, B);
  }
  if (It->second.S == Shape::Index) {
    // Both index the same base with the same element size.
    auto KA = indexKey(It->second, A, Thread);
    return KA && KA == indexKey(It->second, B, Thread);
  }
  return own(It->second, A) && own(It->second, B);
}

} // namespace crace
