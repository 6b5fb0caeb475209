//===- PairFilters.cpp - conflicting accesses that touch different bytes --===//
#include "analysis/PairFilters.h"
#include "analysis/MHP.h"
#include "model/ArrayElement.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
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
      bool Hits = mayOverlap(L, W.Access.Size, Loc{Obj, 0}, uint64_t(Size));
      if (Hits && mayHappenInParallel(PM, {W.Thread, W.MainPos}, {T}))
        Ok = false;
    }
  }
  return It->second = Ok;
}

std::optional<ArrayElement> PairFilters::elementOf(const Value *Ptr) {
  auto [It, New] = Elements.try_emplace(Ptr);
  if (New)
    It->second = arrayElement(PM.module().getDataLayout(), Ptr);
  return It->second;
}

bool PairFilters::takenApart(const AccessRecord &X, const AccessRecord &Y) {
  if (Takes->numCounters() == 0)
    return false;
  auto EX = elementOf(X.Access.Ptr), EY = elementOf(Y.Access.Ptr);
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

bool PairFilters::tagsApart(const Instruction &X, const Instruction &Y) {
  const MDNode *A = accessTag(X), *B = accessTag(Y);
  if (!A || !B)
    return false;
  if (B < A)
    std::swap(A, B); // TBAA's answer is symmetric
  auto [It, New] = TagPairs.try_emplace({A, B}, false);
  if (New)
    It->second = typesApart(X, Y);
  return It->second;
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

std::optional<PairFilters::MemberBytes>
PairFilters::memberBytes(const DataLayout &DL, const MemAccess &A) {
  auto IsUnion = [](const StructType *T) {
    return T->isLiteral() || T->getName().starts_with("union.");
  };
  if (!A.Size)
    return std::nullopt;
  // GEPs from the outermost in, through those whose first index is 0 (the
  // base does not move: a member of a member), down to one on a struct
  // type S.
  SmallVector<const GEPOperator *, 2> Chain;
  for (const Value *P = stripAddressCasts(A.Ptr);;) {
    const auto *G = dyn_cast<GEPOperator>(P);
    if (!G || G->getNumIndices() < 2)
      break;
    Chain.push_back(G);
    const auto *K0 = dyn_cast<ConstantInt>(G->idx_begin()->get());
    if (!K0 || !K0->isZero())
      break;
    P = stripAddressCasts(G->getPointerOperand());
  }
  // (An array of S the innermost struct GEP's base is an element of.)
  while (!Chain.empty() &&
         !isa<StructType>(Chain.back()->getSourceElementType()))
    Chain.pop_back();
  auto *S = Chain.empty()
                ? nullptr
                : dyn_cast<StructType>(Chain.back()->getSourceElementType());
  if (!S || IsUnion(S) || !S->isSized())
    return std::nullopt;
  Type *T = S;
  uint64_t Begin = 0, Len = A.Size;
  bool Whole = false;
  for (const GEPOperator *G : reverse(Chain)) {
    if (G->getSourceElementType() != T)
      return std::nullopt;
    for (auto It = G->idx_begin() + 1; It != G->idx_end(); ++It) {
      const auto *K = dyn_cast<ConstantInt>(*It);
      if (auto *ST = dyn_cast<StructType>(T)) {
        if (!K || IsUnion(ST))
          return std::nullopt;
        Begin += DL.getStructLayout(ST)->getElementOffset(K->getZExtValue());
        T = ST->getElementType(K->getZExtValue());
      } else if (auto *AT = dyn_cast<ArrayType>(T)) {
        if (!K) { // some element of this array member: all of it
          Len = std::max(Len, DL.getTypeAllocSize(AT).getFixedValue());
          Whole = true;
          break;
        }
        if (K->getZExtValue() >= AT->getNumElements())
          return std::nullopt;
        T = AT->getElementType();
        Begin += K->getZExtValue() * DL.getTypeAllocSize(T).getFixedValue();
      } else {
        return std::nullopt;
      }
    }
    if (Whole)
      break;
  }
  if (Begin + Len > DL.getTypeAllocSize(S).getFixedValue())
    return std::nullopt;
  return MemberBytes{S, Begin, Begin + Len};
}

bool PairFilters::membersApart(const MemAccess &X, const MemAccess &Y) {
  const DataLayout &DL = PM.module().getDataLayout();
  auto MX = memberBytes(DL, X), MY = memberBytes(DL, Y);
  if (!MX || !MY || MX->S != MY->S ||
      (MX->Begin < MY->End && MY->Begin < MX->End))
    return false;
  // Only where C's effective-type rules hold (a unit compiled with
  // -fno-strict-aliasing has no tags).
  return strict(X.Inst->getFunction()) && strict(Y.Inst->getFunction());
}

bool PairFilters::strict(const Function *F) {
  auto [It, New] = StrictFunctions.try_emplace(F, false);
  if (New)
    It->second = any_of(instructions(*F), [](const Instruction &I) {
      return accessTag(I) != nullptr;
    });
  return It->second;
}

bool PairFilters::memberOutside(const MemAccess &A, uint32_t Obj) {
  if (Obj == PointsTo::UnknownObj || !isa<LoadInst, StoreInst>(A.Inst))
    return false;
  const auto *GEP = dyn_cast<GEPOperator>(stripAddressCasts(A.Ptr));
  StructType *S = GEP ? memberAccessStruct(*GEP) : nullptr;
  if (!S || !strict(A.Inst->getFunction()))
    return false;
  auto [It, New] = NoStruct.try_emplace({Obj, S}, false);
  if (New)
    It->second = PM.pointsTo().holdsNoStruct(Obj, S);
  return It->second;
}

PairFilters::Apart PairFilters::apart(const AccessRecord &X,
                                      const AccessRecord &Y, uint32_t Obj) {
  const AbsObject *O =
      Obj == PointsTo::UnknownObj ? nullptr : &PM.pointsTo().object(Obj);
  if (tagsApart(*X.Access.Inst, *Y.Access.Inst) ||
      membersApart(X.Access, Y.Access) ||
      (O && (memberCannotBe(*X.Access.Inst, *O) ||
             memberCannotBe(*Y.Access.Inst, *O) ||
             memberOutside(X.Access, Obj) || memberOutside(Y.Access, Obj))))
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
