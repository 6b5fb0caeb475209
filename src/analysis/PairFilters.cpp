//===- PairFilters.cpp - conflicting accesses that touch different bytes --===//
#include "analysis/PairFilters.h"
#include "analysis/ArrayElement.h"
#include "analysis/MHP.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace crace {

PairFilters::PairFilters(const ProgramModel &PM,
                         const std::vector<AccessRecord> &Recs)
    : PM(PM), Recs(Recs) {
  Instances = std::make_unique<InstanceMemory>(
      PM, [this](const GlobalVariable *G, unsigned T) { return stable(G, T); });
  const PointsTo &PTA = PM.pointsTo();
  Takes = std::make_unique<Tickets>(
      PM.module(),
      // One lock (not held for read only) at every record of every take.
      [&](const DenseSet<const Instruction *> &Insts) {
        std::optional<LockSet> Common;
        for (const AccessRecord &Rec : Recs)
          if (Insts.contains(Rec.Access.Inst))
            Common = Common ? LockSet::meet(*Common, Rec.Locks) : Rec.Locks;
        return Common && llvm::any_of(Common->Held, [](auto &H) {
                 return H.first < SymbolicLockBase && !H.second;
               });
      },
      // Apart from Own, only main writes G, while no thread runs.
      [&](const GlobalVariable *G, const DenseSet<const Instruction *> &Own) {
        uint32_t Obj = PTA.objectOf(G);
        if (PTA.reachableByUnknown(Obj))
          return false;
        for (const AccessRecord &W : Recs) {
          if (W.Access.Kind != AccessKind::Write || Own.contains(W.Access.Inst))
            continue;
          if (llvm::none_of(PTA.pointsTo(W.Access.Ptr), [&](Loc L) {
                return L.Obj == Obj || L.Obj == PointsTo::UnknownObj;
              }))
            continue;
          if (W.Thread != 0)
            return false;
          for (const ThreadTemplate &T : PM.threads())
            if (T.Id != 0 &&
                mayHappenInParallel(PM, {0, W.MainPos}, {T.Id, nullptr}))
              return false;
        }
        return true;
      });
}

bool PairFilters::stable(const GlobalVariable *G, unsigned T) {
  auto [It, New] = StableCache.try_emplace({G, T}, true);
  if (!New)
    return It->second;
  const PointsTo &PTA = PM.pointsTo();
  uint32_t Obj = PTA.objectOf(G);
  int64_t Size = PM.module().getDataLayout().getPointerSize();
  bool Ok = !PTA.reachableByUnknown(Obj);
  for (size_t I = 0; I < Recs.size() && Ok; ++I) {
    const AccessRecord &W = Recs[I];
    if (W.Access.Kind != AccessKind::Write)
      continue;
    for (Loc L : PTA.pointsTo(W.Access.Ptr)) {
      bool Hits = L.Obj == PointsTo::UnknownObj ||
                  (L.Obj == Obj &&
                   (L.Off == UnknownOffset || W.Access.Size == 0 ||
                    (L.Off < Size && L.Off + int64_t(W.Access.Size) > 0)));
      if (Hits && mayHappenInParallel(PM, {W.Thread, W.MainPos}, {T}))
        Ok = false;
    }
  }
  return It->second = Ok;
}

bool PairFilters::takenApart(const AccessRecord &X, const AccessRecord &Y) {
  if (Takes->numCounters() == 0)
    return false;
  const DataLayout &DL = PM.module().getDataLayout();
  auto EX = arrayElement(DL, X.Access.Ptr), EY = arrayElement(DL, Y.Access.Ptr);
  if (!EX || !EY || EX->Elem != EY->Elem || !EX->inside(X.Access.Size) ||
      !EY->inside(Y.Access.Size))
    return false;
  const GlobalVariable *C = Takes->counterOf(EX->Index);
  if (!C || C != Takes->counterOf(EY->Index))
    return false;
  // One base: a global array, or a global pointer no write changes while
  // either thread runs.
  auto BX = stableBase(
      *EX, [&](const GlobalVariable *G) { return stable(G, X.Thread); });
  return BX && BX == stableBase(*EY, [&](const GlobalVariable *G) {
                 return stable(G, Y.Thread);
               });
}

/// The type-based alias tag (clang's !tbaa) of a load or store, which
/// says what that instruction accesses; null for anything else (library
/// effects attributed to a call, memcpy and the like have none).
static const MDNode *accessTag(const Instruction &I) {
  if (!isa<LoadInst>(I) && !isa<StoreInst>(I) && !isa<AtomicRMWInst>(I) &&
      !isa<AtomicCmpXchgInst>(I))
    return nullptr;
  return I.getMetadata(LLVMContext::MD_tbaa);
}

bool PairFilters::typesApart(const Instruction &X, const Instruction &Y) {
  if (!accessTag(X) || !accessTag(Y))
    return false;
  // TypeBasedAAResult is stateless and compares the two tags only; the
  // query state it is handed goes unused (so sharing it between threads is
  // safe), but must exist.
  static const TargetLibraryInfoImpl TLII{Triple()};
  static const TargetLibraryInfo TLI(TLII);
  static AAResults AAR(TLI);
  static SimpleAAQueryInfo AAQI(AAR);
  static TypeBasedAAResult TBAA;
  return TBAA.alias(MemoryLocation::get(&X), MemoryLocation::get(&Y), AAQI,
                    nullptr) == AliasResult::NoAlias;
}

bool PairFilters::memberCannotBe(const Instruction &I, const AbsObject &Obj) {
  // A struct-path tag {base type, access type, offset} whose base is not
  // the accessed type itself: a member of the struct that base names.
  const MDNode *Tag = accessTag(I);
  if (!Tag || Tag->getNumOperands() < 3 || !isa<MDNode>(Tag->getOperand(0)) ||
      Tag->getOperand(0) == Tag->getOperand(1))
    return false;
  // Globals only: their IR type is the C type clang gave them, while SROA
  // may have split a struct on the stack into scalar slots that the
  // member accesses (with their struct tags) still reach.
  const auto *G = Obj.Kind == ObjKind::Global
                      ? dyn_cast_or_null<GlobalVariable>(Obj.Site)
                      : nullptr;
  if (!G)
    return false;
  Type *T = G->getValueType();
  return T->isPointerTy() || T->isIntegerTy() || T->isFloatingPointTy();
}

PairFilters::Apart PairFilters::apart(const AccessRecord &X,
                                      const AccessRecord &Y,
                                      const AbsObject *Obj) {
  if (typesApart(*X.Access.Inst, *Y.Access.Inst) ||
      (Obj && (memberCannotBe(*X.Access.Inst, *Obj) ||
               memberCannotBe(*Y.Access.Inst, *Obj))))
    return Apart::Types;
  if (Instances->disjoint(X.Thread, X.Access, Y.Thread, Y.Access))
    return Apart::OwnInstance;
  if (takenApart(X, Y))
    return Apart::Taken;
  return Apart::No;
}

const char *PairFilters::why(Apart A) {
  switch (A) {
  case Apart::Types:
    return "their types cannot name one object (strict aliasing)";
  case Apart::OwnInstance:
    return "per-instance memory";
  case Apart::Taken:
    return "elements taken from a counter";
  case Apart::No:
    break;
  }
  return "not apart";
}

} // namespace crace
