//===- IndexedLocks.cpp - locks chosen by the index of the data they guard ===//
#include "analysis/IndexedLocks.h"
#include "analysis/ArrayElement.h"
#include "model/ProgramModel.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <set>

using namespace llvm;

namespace crace {

std::optional<IndexedLocks::Lock> IndexedLocks::symbolic(const Value *P) const {
  auto E = arrayElement(PM.module().getDataLayout(), P);
  if (!E || !isa<GlobalVariable>(E->Base) || !E->inside(1))
    return std::nullopt;
  return Lock{E->Base, E->Elem, E->Offset, stripExtensions(E->Index), {}};
}

std::optional<uint32_t> IndexedLocks::lockOf(const Value *P) {
  std::optional<Lock> S = symbolic(P);
  if (!S)
    return std::nullopt;
  for (uint32_t I = 0; I < Locks.size(); ++I)
    if (Locks[I].same(*S))
      return SymbolicLockBase + I;
  S->Name = PM.describe({PM.pointsTo().objectOf(S->Base), UnknownOffset}) +
            " (the element the index selects)";
  Locks.push_back(std::move(*S));
  return SymbolicLockBase + uint32_t(Locks.size() - 1);
}

bool IndexedLocks::mayPointInto(const Value *P, const Value *Base) const {
  const PointsTo &PTA = PM.pointsTo();
  uint32_t Obj = PTA.objectOf(Base);
  for (Loc L : PTA.pointsTo(P))
    if (L.Obj == Obj ||
        (L.Obj == PointsTo::UnknownObj && PTA.reachableByUnknown(Obj)))
      return true;
  return false;
}

void IndexedLocks::release(LockSet &LS, const Value *P) const {
  // An unlock of m[3] or m[j] may release the m[i] held.
  std::optional<Lock> S = symbolic(P);
  std::vector<uint32_t> Drop;
  for (auto &[Id, R] : LS.Held) {
    if (Id < SymbolicLockBase)
      continue;
    const Lock &H = Locks[Id - SymbolicLockBase];
    if ((S && S->same(H)) || mayPointInto(P, H.Base))
      Drop.push_back(Id);
  }
  for (uint32_t Id : Drop)
    LS.release(Id);
}

void IndexedLocks::redefine(LockSet &LS, const Instruction &I) const {
  std::vector<uint32_t> Drop;
  for (auto &[Id, R] : LS.Held)
    if (Id >= SymbolicLockBase && Locks[Id - SymbolicLockBase].Index == &I)
      Drop.push_back(Id);
  for (uint32_t Id : Drop)
    LS.release(Id);
}

void IndexedLocks::afterCall(LockSet &LS, ArrayRef<const Function *> Callees) {
  std::vector<uint32_t> Drop;
  for (auto &[Id, R] : LS.Held) {
    if (Id < SymbolicLockBase)
      continue;
    const auto *Def = dyn_cast<Instruction>(Locks[Id - SymbolicLockBase].Index);
    const Function *F = Def ? Def->getFunction() : nullptr;
    if (F && llvm::any_of(Callees,
                          [&](const Function *C) { return mayEnter(C, F); }))
      Drop.push_back(Id);
  }
  for (uint32_t Id : Drop)
    LS.release(Id);
}

bool IndexedLocks::mayEnter(const Function *From, const Function *F) {
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

bool IndexedLocks::protects(const MemAccess &A, const LockSet &LA,
                            const MemAccess &B, const LockSet &LB) const {
  auto Symbolic = [](const LockSet &LS) {
    return !LS.Held.empty() && LS.Held.back().first >= SymbolicLockBase;
  };
  if (!Symbolic(LA) || !Symbolic(LB))
    return false;
  const DataLayout &DL = PM.module().getDataLayout();
  auto EA = arrayElement(DL, A.Ptr), EB = arrayElement(DL, B.Ptr);
  if (!EA || !EB || !isa<GlobalVariable>(EA->Base) || EA->Base != EB->Base ||
      EA->Elem != EB->Elem || !EA->inside(A.Size) || !EB->inside(B.Size))
    return false;
  const Value *IA = stripExtensions(EA->Index),
              *IB = stripExtensions(EB->Index);
  for (auto &[XA, ReadA] : LA.Held) {
    if (XA < SymbolicLockBase || Locks[XA - SymbolicLockBase].Index != IA)
      continue;
    const Lock &SA = Locks[XA - SymbolicLockBase];
    for (auto &[XB, ReadB] : LB.Held) {
      if (XB < SymbolicLockBase || Locks[XB - SymbolicLockBase].Index != IB ||
          (ReadA && ReadB))
        continue;
      const Lock &SB = Locks[XB - SymbolicLockBase];
      if (SA.Base == SB.Base && SA.Elem == SB.Elem && SA.Offset == SB.Offset)
        return true;
    }
  }
  return false;
}

} // namespace crace
