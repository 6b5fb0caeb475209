//===- SymbolicLocks.cpp - locks named by the data they guard ------------===//
#include "analysis/SymbolicLocks.h"
#include "model/ArrayElement.h"
#include "model/ProgramModel.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <set>

using namespace llvm;

namespace crace {

namespace {

/// P = &V->field...: an in-bounds field address inside the struct V
/// points to (first index 0): the struct type and V.
std::pair<const StructType *, const Value *> fieldOf(const Value *P) {
  const auto *GEP = dyn_cast<GEPOperator>(P);
  if (!GEP || !GEP->isInBounds() || GEP->getNumIndices() < 2)
    return {nullptr, nullptr};
  const auto *ST = dyn_cast<StructType>(GEP->getSourceElementType());
  const auto *First = dyn_cast<ConstantInt>(GEP->idx_begin()->get());
  if (!ST || !First || !First->isZero())
    return {nullptr, nullptr};
  return {ST, GEP->getPointerOperand()};
}

/// The function whose frame V belongs to.
const Function *frameOf(const Value *V) {
  if (const auto *I = dyn_cast<Instruction>(V))
    return I->getFunction();
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getParent();
  return nullptr;
}

} // namespace

void SymbolicLocks::dropIf(LockSet &LS,
                           function_ref<bool(const Lock &)> Goes) const {
  std::vector<uint32_t> Drop;
  for (auto &[Id, R] : LS.Held)
    if (Id >= SymbolicLockBase && Goes(Locks[Id - SymbolicLockBase]))
      Drop.push_back(Id);
  for (uint32_t Id : Drop)
    LS.release(Id);
}

bool SymbolicLocks::heldByBoth(const LockSet &LA,
                               function_ref<bool(const Lock &)> GuardsA,
                               const LockSet &LB,
                               function_ref<bool(const Lock &)> GuardsB) const {
  for (auto &[XA, ReadA] : LA.Held) {
    if (XA < SymbolicLockBase || !GuardsA(Locks[XA - SymbolicLockBase]))
      continue;
    const Lock &HA = Locks[XA - SymbolicLockBase];
    for (auto &[XB, ReadB] : LB.Held) {
      if (XB < SymbolicLockBase || (ReadA && ReadB) ||
          !GuardsB(Locks[XB - SymbolicLockBase]))
        continue;
      const Lock &HB = Locks[XB - SymbolicLockBase];
      if (HA.Base == HB.Base && HA.Elem == HB.Elem && HA.Offset == HB.Offset &&
          HA.Struct == HB.Struct)
        return true;
    }
  }
  return false;
}

std::optional<SymbolicLocks::Lock>
SymbolicLocks::symbolic(const Value *P) const {
  const DataLayout &DL = PM.module().getDataLayout();
  auto E = arrayElement(DL, P);
  if (E && isa<GlobalVariable>(E->Base) && E->inside(1))
    return Lock{E->Base, E->Elem, E->Offset, stripExtensions(E->Index), {}};
  auto [ST, V] = fieldOf(P);
  const auto *GEP = dyn_cast<GEPOperator>(P);
  APInt Off(DL.getIndexTypeSizeInBits(P->getType()), 0);
  if (!ST || isa<Constant>(V) || !GEP->accumulateConstantOffset(DL, Off))
    return std::nullopt;
  return Lock{nullptr,
              DL.getTypeAllocSize(const_cast<StructType *>(ST)),
              Off.getSExtValue(),
              V,
              {},
              ST};
}

std::optional<uint32_t> SymbolicLocks::lockOf(const Value *P) {
  std::optional<Lock> S = symbolic(P);
  if (!S)
    return std::nullopt;
  for (uint32_t I = 0; I < Locks.size(); ++I)
    if (Locks[I].same(*S))
      return SymbolicLockBase + I;
  if (S->Struct) {
    StringRef T = S->Struct->hasName() ? S->Struct->getName() : "struct";
    T.consume_front("struct.");
    S->Name = ("the lock field at offset " + std::to_string(S->Offset) +
               " of the struct " + T + " accessed through it")
                  .str();
  } else {
    S->Name = PM.describe({PM.pointsTo().objectOf(S->Base), UnknownOffset}) +
              " (the element the index selects)";
  }
  Locks.push_back(std::move(*S));
  return SymbolicLockBase + uint32_t(Locks.size() - 1);
}

bool SymbolicLocks::mayRelease(const Value *P, const Lock &H) const {
  const PointsTo &PTA = PM.pointsTo();
  SmallVector<uint32_t, 4> Objs;
  if (!H.Struct)
    Objs.push_back(PTA.objectOf(H.Base));
  else
    for (Loc L : PTA.pointsTo(H.Index))
      Objs.push_back(L.Obj);
  // A struct pointer that points nowhere crace knows: any unlock may be it.
  if (Objs.empty())
    return true;
  for (Loc L : PTA.pointsTo(P))
    for (uint32_t Obj : Objs)
      if (L.Obj == Obj || Obj == PointsTo::UnknownObj ||
          (L.Obj == PointsTo::UnknownObj && PTA.reachableByUnknown(Obj)))
        return true;
  return false;
}

void SymbolicLocks::release(LockSet &LS, const Value *P) const {
  // An unlock of m[3] or m[j] may release the m[i] held.
  std::optional<Lock> S = symbolic(P);
  dropIf(LS,
         [&](const Lock &H) { return (S && S->same(H)) || mayRelease(P, H); });
}

void SymbolicLocks::redefine(LockSet &LS, const Instruction &I) const {
  dropIf(LS, [&](const Lock &H) { return H.Index == &I; });
}

void SymbolicLocks::afterCall(LockSet &LS, ArrayRef<const Function *> Callees) {
  dropIf(LS, [&](const Lock &H) {
    const Function *F = frameOf(H.Index);
    return F && llvm::any_of(Callees,
                             [&](const Function *C) { return mayEnter(C, F); });
  });
}

LockSet SymbolicLocks::enter(LockSet LS, const Function *F) const {
  dropIf(LS, [&](const Lock &H) { return frameOf(H.Index) == F; });
  return LS;
}

bool SymbolicLocks::protectsFields(const MemAccess &A, const LockSet &LA,
                                   const MemAccess &B,
                                   const LockSet &LB) const {
  auto [SA, VA] = fieldOf(A.Ptr);
  auto [SB, VB] = fieldOf(B.Ptr);
  if (!SA || SA != SB)
    return false;
  return heldByBoth(
      LA, [&](const Lock &H) { return H.Struct == SA && H.Index == VA; }, LB,
      [&](const Lock &H) { return H.Struct == SB && H.Index == VB; });
}

bool SymbolicLocks::mayEnter(const Function *From, const Function *F) {
  if (auto It = Enters.find({From, F}); It != Enters.end())
    return It->second;
  std::set<const Function *> Seen{From};
  std::vector<const Function *> Work{From};
  bool Found = false;
  while (!Work.empty() && !Found) {
    const Function *G = Work.back();
    Work.pop_back();
    if (G == F) {
      Found = true;
      break;
    }
    for (const Instruction &I : instructions(*G))
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        if (CB->isInlineAsm())
          continue;
        bool Unresolved = false;
        for (const Function *C : PM.pointsTo().callees(*CB, &Unresolved))
          if (!C->isDeclaration() && Seen.insert(C).second)
            Work.push_back(C);
        Found |= Unresolved;
      }
  }
  return Enters[{From, F}] = Found;
}

bool SymbolicLocks::protects(const MemAccess &A, const LockSet &LA,
                             const MemAccess &B, const LockSet &LB) const {
  auto Symbolic = [](const LockSet &LS) {
    return !LS.Held.empty() && LS.Held.back().first >= SymbolicLockBase;
  };
  if (!Symbolic(LA) || !Symbolic(LB))
    return false;
  if (protectsFields(A, LA, B, LB))
    return true;
  const DataLayout &DL = PM.module().getDataLayout();
  auto EA = arrayElement(DL, A.Ptr), EB = arrayElement(DL, B.Ptr);
  if (!EA || !EB || !isa<GlobalVariable>(EA->Base) || EA->Base != EB->Base ||
      EA->Elem != EB->Elem || !EA->inside(A.Size) || !EB->inside(B.Size))
    return false;
  const Value *IA = stripExtensions(EA->Index),
              *IB = stripExtensions(EB->Index);
  return heldByBoth(
      LA, [&](const Lock &H) { return !H.Struct && H.Index == IA; }, LB,
      [&](const Lock &H) { return !H.Struct && H.Index == IB; });
}

} // namespace crace
