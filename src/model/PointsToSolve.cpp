//===- PointsToSolve.cpp - the points-to solver's sets and passes ---------===//
//
// How the points-to analysis (PointsTo.h) reaches its fixpoint, apart from
// its rules (PointsTo::visitModule, in PointsTo.cpp): the sets with their
// log of additions (difference propagation: a visit propagates only what
// its inputs gained since its last visit), which instructions need a visit
// again, and the passes up to the final rules. Moved out of PointsTo.cpp,
// which issue 15 keeps under 800 lines.
//
//===----------------------------------------------------------------------===//
#include "model/Counters.h"
#include "model/PointsTo.h"
#include "model/SyncAPI.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <numeric>

#define DEBUG_TYPE "crace-model"

using namespace llvm;

CRACE_STATISTIC(NumPasses, "Passes of the points-to solver");
CRACE_STATISTIC(NumFinalPasses,
                "Passes of the points-to solver that applied the final rules");
CRACE_STATISTIC(NumElementCopies,
                "Locations added to points-to sets (element copies)");

namespace crace {

/// More known offsets than this into one object collapse to UnknownOffset,
/// which bounds the analysis on pointer-increment loops.
static constexpr size_t MaxOffsetsPerObject = 16;

/// L moved as By says.
static Loc moved(Loc L, const Shift &By) {
  if (By.Unknown || L.anywhere())
    return {L.Obj, UnknownOffset};
  // A step by whole elements stays in the array (C11 6.5.6).
  if (L.Stride && !By.Stride && By.Delta % int64_t(L.Stride) == 0)
    return L;
  L.Off += By.Delta;
  if (!By.Stride || By.Count <= 1)
    return L;
  // Either without a last element: every multiple of the gcd on.
  if (By.Count == UnboundedCount || (L.Stride && L.Count == UnboundedCount)) {
    L.Stride = uint32_t(std::gcd(uint64_t(By.Stride), uint64_t(L.Stride)));
    L.Count = UnboundedCount;
    return L;
  }
  // {Off + i*S1} + {j*S2}: every offset is a multiple of gcd(S1, S2)
  // away from Off, and the last one is the sum of the two spans.
  uint64_t Span = uint64_t(By.Stride) * (By.Count - 1);
  uint64_t Stride = By.Stride;
  if (L.Stride) {
    Span += uint64_t(L.Stride) * (L.Count - 1);
    Stride = std::gcd(Stride, uint64_t(L.Stride));
  }
  uint64_t Count = Span / Stride + 1;
  if (Count > MaxStridedCount)
    return {L.Obj, UnknownOffset};
  L.Stride = uint32_t(Stride);
  L.Count = uint32_t(Count);
  return L;
}

/// Every offset B may be, A may be.
static bool subsumes(const Loc &A, const Loc &B) {
  if (A.anywhere())
    return true;
  if (B.anywhere())
    return false;
  if (!A.Stride)
    return !B.Stride && A.Off == B.Off;
  return A.covers(B.Off) && B.last() <= A.last() &&
         (!B.Stride || B.Stride % A.Stride == 0);
}

bool PointsTo::add(PtsSet &S, Loc L) {
  if (!addImpl(S, L))
    return false;
  ++NumElementCopies;
  SetChangedAt[&S] = Tick;
  Log[&S].push_back({Tick, L});
  if (auto It = SetOwner.find(&S); It != SetOwner.end())
    valueChanged(It->second, L.Obj);
  return true;
}

bool PointsTo::addImpl(PtsSet &S, Loc &L) {
  // An offset outside the object stays what it is: container_of on a
  // list's static head gives head - 8, which the loop's test keeps from
  // being dereferenced, and whose + 8 is the head again. (Reading it as
  // any offset made every field of the node type one.) An access there
  // would be undefined behaviour, so it conflicts with nothing in the
  // object. The set of offsets per object stays bounded below.
  if (!L.anywhere() && (L.Off < -(1 << 20) || L.Off > (1 << 20) ||
                        (L.Count != UnboundedCount && L.last() > (1 << 20))))
    L.Off = UnknownOffset;
  if (L.anywhere() || L.Count <= 1)
    L.Stride = L.Count = 0;
  if (S.count({L.Obj, UnknownOffset}))
    return false;
  if (L.anywhere()) {
    auto Lo = S.lower_bound({L.Obj, INT64_MIN});
    auto Hi = S.lower_bound({L.Obj + 1, INT64_MIN});
    S.erase(Lo, Hi);
    S.insert(L);
    return true;
  }
  auto Lo = S.lower_bound({L.Obj, INT64_MIN});
  auto Hi = S.lower_bound({L.Obj + 1, INT64_MIN});
  // A strided location stands for all its offsets: what it covers is not
  // added, and a new one replaces what it covers.
  for (auto It = Lo; It != Hi; ++It)
    if (It->Stride && subsumes(*It, L))
      return false;
  if (L.Stride)
    for (auto It = Lo; It != Hi;)
      It = subsumes(L, *It) ? S.erase(It) : std::next(It);
  if (!S.insert(L).second)
    return false;
  Lo = S.lower_bound({L.Obj, INT64_MIN});
  Hi = S.lower_bound({L.Obj + 1, INT64_MIN});
  if (size_t(std::distance(Lo, Hi)) > MaxOffsetsPerObject) {
    // Offsets a pointer steps through (p++ over a buffer) become the
    // array around them, which they cannot leave; else any offset.
    Loc Into = arrayAround(Lo, Hi);
    S.erase(Lo, Hi);
    L = Into;
    S.insert(L);
  }
  return true;
}

std::optional<ArrayRef<PointsTo::Stamped>>
PointsTo::loggedSince(const PtsSet &S, uint32_t Since) const {
  auto It = Log.find(&S);
  if (It == Log.end())
    return std::nullopt;
  const std::vector<Stamped> &Entries = It->second;
  auto First =
      std::partition_point(Entries.begin(), Entries.end(),
                           [&](const Stamped &E) { return E.Tick < Since; });
  return ArrayRef<Stamped>(Entries).drop_front(First - Entries.begin());
}

bool PointsTo::addNew(PtsSet &S, const PtsSet &From,
                      function_ref<Shift(const Loc &)> ShiftOf) {
  if (&S == &From)
    return false;
  // A set without a log is a constant's (its elements are fixed).
  std::optional<ArrayRef<Stamped>> New;
  if (VisitSince)
    New = loggedSince(From, VisitSince);
  if (!New)
    return addAll(S, From, ShiftOf);
  bool Changed = false;
  for (const Stamped &E : *New)
    if (Shift By = ShiftOf(E.L); !By.Drop)
      Changed |= add(S, moved(E.L, By));
  return Changed;
}

void PointsTo::addedSince(const PtsSet &S, uint32_t Since,
                          std::vector<Loc> &Out) const {
  if (std::optional<ArrayRef<Stamped>> New = loggedSince(S, Since))
    for (const Stamped &E : *New)
      Out.push_back(E.L);
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
}

bool PointsTo::changedSince(const PtsSet &S, uint32_t Since) const {
  auto It = SetChangedAt.find(&S);
  return It != SetChangedAt.end() && It->second >= Since;
}

const Value *PointsTo::outerOperand(const Instruction &I) const {
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getPointerOperand();
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getPointerOperand();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->isInlineAsm() || isa<IntrinsicInst>(CB))
    return nullptr;
  if (auto K = callIntrinsic(*CB)) {
    if (*K == Intrinsic::ThreadCreate || *K == Intrinsic::ThreadJoin)
      return CB->getArgOperand(1);
    return nullptr;
  }
  return CB->getCalledOperand()->stripPointerCasts();
}

bool PointsTo::addAll(PtsSet &S, const PtsSet &From,
                      function_ref<Shift(const Loc &)> ShiftOf) {
  if (&S == &From)
    return false;
  bool Changed = false;
  for (Loc L : From)
    if (Shift By = ShiftOf(L); !By.Drop)
      Changed |= add(S, moved(L, By));
  return Changed;
}

std::optional<int64_t> PointsTo::ownAddressStored(const StoreInst &SI) const {
  const Value *V = SI.getValueOperand();
  if (!V->getType()->isPointerTy())
    return std::nullopt;
  unsigned Bits = DL.getIndexTypeSizeInBits(V->getType());
  APInt ValueOff(Bits, 0), AddrOff(Bits, 0);
  const Value *Base = V->stripAndAccumulateConstantOffsets(DL, ValueOff, true);
  const Value *AddrBase =
      SI.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, AddrOff,
                                                                true);
  // (A constant is no run-time value of one pointer.)
  if (Base != AddrBase || isa<Constant>(Base))
    return std::nullopt;
  return (ValueOff - AddrOff).getSExtValue();
}

bool PointsTo::readsEmptySet(const Instruction &I) const {
  if (isa<IntToPtrInst>(I))
    return pointsTo(I.getOperand(0)).empty();
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return !GEP->hasAllConstantIndices() &&
           pointsTo(GEP->getPointerOperand()).empty();
  if (const auto *CB = dyn_cast<CallBase>(&I)) {
    const Value *Callee = CB->getCalledOperand()->stripPointerCasts();
    return !CB->isInlineAsm() && !isa<Function>(Callee) &&
           !isa<GlobalAlias>(Callee) && pointsTo(Callee).empty();
  }
  return false;
}

const Value *PointsTo::readThrough(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getPointerOperand();
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  return nullptr;
}

void PointsTo::numberInstructions() {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      IndexOf[&I] = Order.size();
      Order.push_back(&I);
    }
  VisitedAt.assign(Order.size(), 0);
  Dirty.resize(Order.size(), true);
}

void PointsTo::readsObject(uint32_t Obj, uint32_t Index) {
  if (!Registered.insert(uint64_t(Obj) << 32 | Index).second)
    return;
  if (Obj >= ObjReaders.size())
    ObjReaders.resize(Obj + 1);
  ObjReaders[Obj].push_back(Index);
}

void PointsTo::valueChanged(const Value *V, uint32_t Obj) {
  for (const User *U : V->users()) {
    const auto *I = dyn_cast<Instruction>(U);
    if (!I)
      continue;
    auto It = IndexOf.find(I);
    if (It == IndexOf.end())
      continue; // not numbered yet: every instruction starts Dirty
    Dirty.set(It->second);
    if (readThrough(*I) == V)
      readsObject(Obj, It->second);
  }
}

bool PointsTo::needsVisit(const Instruction &I, uint32_t Since) const {
  if (!Since)
    return true;
  auto SetAt = [&](const PtsSet &S) {
    auto It = SetChangedAt.find(&S);
    return It != SetChangedAt.end() && It->second >= Since;
  };
  for (const Use &U : I.operands()) {
    if (isa<Constant>(U.get()))
      continue;
    auto It = Pts.find(U.get());
    if (It != Pts.end() && SetAt(It->second))
      return true;
  }
  // Memory read through a pointer operand.
  auto ObjectsChanged = [&](const Value *Ptr) {
    for (Loc L : pointsTo(Ptr))
      if (L.Obj < ObjChangedAt.size() && ObjChangedAt[L.Obj] >= Since)
        return true;
    return false;
  };
  if (const Value *Ptr = readThrough(I))
    return ObjectsChanged(Ptr);
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->isInlineAsm())
    return false;
  if (auto *MT = dyn_cast<MemTransferInst>(CB))
    return ObjectsChanged(MT->getSource());
  // What callees return, and what threads return.
  if (SetAt(ThreadResults))
    return true;
  auto ReturnsChanged = [&](const Function *F) {
    auto It = ReturnsChangedAt.find(F);
    return It != ReturnsChangedAt.end() && It->second >= Since;
  };
  if (callIntrinsic(*CB) == Intrinsic::ThreadCreate) {
    for (Loc L : pointsTo(CB->getArgOperand(1)))
      if (Objects[L.Obj].Kind == ObjKind::Function &&
          ReturnsChanged(cast<Function>(Objects[L.Obj].Site)))
        return true;
    return false;
  }
  for (const Function *F : callees(*CB))
    if (ReturnsChanged(F))
      return true;
  return false;
}

bool PointsTo::solve(const std::atomic<bool> *Cancel) {
  // Rules that read an empty set as "no pointer origin" (a call through a
  // pointer with no targets, inttoptr of an integer with no pointer origin,
  // an index carrying a pointer from a null base) add Unknown, which never
  // leaves a set again. They wait for a fixpoint of the other rules, then
  // one pass applies them to every instruction (Final); if that changed
  // anything, the other rules run to a fixpoint again, and so on.
  for (;;) {
    ++Tick;
    ++NumPasses;
    bool Changed = visitModule();
    if (Cancel && Cancel->load())
      return false;
    if (Changed)
      continue;
    ++Tick;
    ++NumPasses;
    ++NumFinalPasses;
    Final = true; // visits the instructions readsEmptySet() names
    Changed = visitModule();
    Final = false;
    if (!Changed)
      break;
    if (Cancel && Cancel->load())
      return false;
  }
  return true;
}

} // namespace crace
