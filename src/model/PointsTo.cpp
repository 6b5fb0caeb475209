//===- PointsTo.cpp - field-sensitive Andersen points-to analysis ---------===//
#include "model/PointsTo.h"
#include "model/Counters.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"
#include <optional>

#define DEBUG_TYPE "crace-model"

using namespace llvm;

CRACE_STATISTIC(NumObjects, "Abstract objects of the points-to analysis");
CRACE_STATISTIC(NumVisits, "Instructions the points-to rules visited");

namespace crace {

/// A constant address no object can have: null, the first page, or the
/// last one (SIG_IGN = 1, SIG_ERR = -1, error pointers). Using it as a
/// pointer is undefined behaviour, so it points to nothing.
static bool isNonPointerConstant(const ConstantInt *C) {
  return C->getValue().abs().ult(4096);
}

PointsTo::PointsTo(const Module &M) : M(M), DL(M.getDataLayout()) {
  addObject(ObjKind::Unknown, nullptr, 0);
  for (const GlobalVariable &G : M.globals())
    addObject(G.isThreadLocal() ? ObjKind::ThreadLocal : ObjKind::Global, &G,
              G.getValueType()->isSized()
                  ? DL.getTypeAllocSize(G.getValueType()).getFixedValue()
                  : 0);
  for (const Function &F : M) {
    addObject(ObjKind::Function, &F, 0);
    for (const Instruction &I : instructions(F)) {
      if (I.getMetadata(LLVMContext::MD_tbaa))
        StrictAliasing.insert(&F);
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        uint64_t Size = 0;
        if (auto Bits = A->getAllocationSizeInBits(DL))
          Size = Bits->getFixedValue() / 8;
        addObject(ObjKind::Stack, A, Size);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (callIntrinsic(*CB) == Intrinsic::Alloc) {
          uint64_t Size = 0;
          if (auto *C = dyn_cast<ConstantInt>(CB->getArgOperand(0)))
            Size = C->getZExtValue();
          addObject(ObjKind::Heap, CB, Size);
          Objects.back().BlockType = heapBlockType(CB, Size, DL);
        } else if (auto *II = dyn_cast<IntrinsicInst>(CB);
                   II && II->getIntrinsicID() == llvm::Intrinsic::vastart) {
          // The caller's variadic arguments, as the va_list reaches them.
          VarArgAreas[&F].push_back(Objects.size());
          addObject(ObjKind::Stack, II, 0);
        }
      } else if (isa<VAArgInst>(I)) {
        VAArgUsers.insert(&F);
      } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (isBytes(LI->getType()) && !bytesMayBeStored(LI))
          NumberLoads.insert(LI);
      } else if (isa<BinaryOperator>(I) && I.getType()->isIntegerTy()) {
        if (isNumber(cast<BinaryOperator>(I)))
          Numbers.insert(&I);
      }
    }
  }
  for (const Function &F : M)
    if (auto R = argumentResult(F, DL))
      ArgumentResults[&F] = std::move(*R);
  // Heap cloning by call site for functions that return an untouched
  // fresh block (frontend/HeapCloning.h inlines direct calls of allocation
  // wrappers; this covers the calls it cannot see, through pointers): each
  // call that may reach one is its own heap object.
  for (const Function &F : M)
    if (returnsUntouchedAllocation(F))
      FreshResult.insert(&F);
  if (FreshResult.empty())
    return;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm() || isa<IntrinsicInst>(CB) ||
          callIntrinsic(*CB) || !CB->getType()->isPointerTy())
        continue;
      const auto *Callee =
          dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
      if (!Callee || FreshResult.contains(Callee))
        addObject(ObjKind::Heap, CB, 0);
    }
}

void PointsTo::addObject(ObjKind K, const Value *Site, uint64_t Size) {
  uint32_t Id = Objects.size();
  ++NumObjects;
  Objects.push_back({K, Site, Size, false});
  if (Site)
    ObjectIds[Site] = Id;
}

uint32_t PointsTo::objectOf(const Value *Site) const {
  auto It = ObjectIds.find(Site);
  return It == ObjectIds.end() ? UnknownObj : It->second;
}

void PointsTo::constantPts(const Constant *C, PtsSet &Out) const {
  auto AddLoc = [&](Loc L) { const_cast<PointsTo *>(this)->add(Out, L); };
  if (isa<ConstantPointerNull>(C) || isa<UndefValue>(C) ||
      (isa<ConstantData>(C) && !isa<ConstantDataSequential>(C)))
    return;
  if (auto *GA = dyn_cast<GlobalAlias>(C)) {
    constantPts(cast<Constant>(GA->getAliasee()), Out);
    return;
  }
  if (isa<GlobalValue>(C)) {
    AddLoc({objectOf(C), 0});
    return;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    if (auto *GEP = dyn_cast<GEPOperator>(CE)) {
      PtsSet Base;
      constantPts(cast<Constant>(GEP->getPointerOperand()), Base);
      const_cast<PointsTo *>(this)->forgetTemporary(Base);
      APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      bool Known = GEP->accumulateConstantOffset(DL, Off);
      const_cast<PointsTo *>(this)->addAll(
          Out, Base, Known ? Off.getSExtValue() : 0, !Known);
      return;
    }
    if (CE->getOpcode() == Instruction::IntToPtr &&
        isa<ConstantInt>(CE->getOperand(0))) {
      if (!isNonPointerConstant(cast<ConstantInt>(CE->getOperand(0))))
        AddLoc({UnknownObj, UnknownOffset});
      return;
    }
    bool Preserve = CE->isCast();
    for (const Use &U : CE->operands()) {
      PtsSet Sub;
      constantPts(cast<Constant>(U.get()), Sub);
      const_cast<PointsTo *>(this)->addAll(Out, Sub, 0, !Preserve);
    }
    return;
  }
  // Aggregates: the union of their elements (used for initialisers).
  for (const Use &U : C->operands())
    if (auto *Sub = dyn_cast<Constant>(U.get()))
      constantPts(Sub, Out);
}

const PtsSet &PointsTo::pointsTo(const Value *V) const {
  if (auto *C = dyn_cast<Constant>(V)) {
    auto It = ConstantPts.find(C);
    if (It != ConstantPts.end())
      return It->second;
    PtsSet S;
    constantPts(C, S);
    // The adds were logged under the temporary; a constant's set has no
    // log (addNew reads it whole).
    const_cast<PointsTo *>(this)->forgetTemporary(S);
    return ConstantPts.emplace(C, std::move(S)).first->second;
  }
  auto It = Pts.find(V);
  return It == Pts.end() ? Empty : It->second;
}

PtsSet PointsTo::contents(uint32_t Obj) const {
  PtsSet Out;
  auto Lo = Contents.lower_bound({Obj, INT64_MIN});
  auto Hi = Contents.lower_bound({Obj + 1, INT64_MIN});
  for (auto It = Lo; It != Hi; ++It)
    Out.insert(It->second.begin(), It->second.end());
  return Out;
}

/// Records the pointers in the initialiser C of object Obj, field by field.
void PointsTo::initContents(const Constant *C, uint32_t Obj, int64_t Off) {
  if (isa<ConstantAggregateZero>(C) || isa<UndefValue>(C) ||
      isa<ConstantPointerNull>(C) || isa<ConstantInt>(C) || isa<ConstantFP>(C))
    return;
  if (auto *CS = dyn_cast<ConstantStruct>(C)) {
    const StructLayout *SL = DL.getStructLayout(CS->getType());
    for (unsigned I = 0; I < CS->getNumOperands(); ++I)
      initContents(CS->getOperand(I), Obj,
                   Off + int64_t(SL->getElementOffset(I).getFixedValue()));
    return;
  }
  if (isa<ConstantArray>(C) || isa<ConstantVector>(C) ||
      isa<ConstantDataSequential>(C)) {
    if (isa<ConstantDataSequential>(C))
      return; // numbers only
    Type *Elem = C->getType()->isArrayTy()
                     ? C->getType()->getArrayElementType()
                     : cast<VectorType>(C->getType())->getElementType();
    int64_t Size = DL.getTypeAllocSize(Elem).getFixedValue();
    for (unsigned I = 0; I < C->getNumOperands(); ++I)
      initContents(cast<Constant>(C->getOperand(I)), Obj, Off + I * Size);
    return;
  }
  PtsSet S;
  constantPts(C, S);
  if (S.empty())
    return;
  PtsSet Key;
  add(Key, {Obj, Off}); // normalises the offset
  Loc At = *Key.begin();
  forgetTemporary(Key);
  forgetTemporary(S);
  addAll(Contents[At], S);
}

SmallVector<const Function *, 4> PointsTo::callees(const CallBase &CB,
                                                   bool *Unresolved) const {
  SmallVector<const Function *, 4> Out;
  if (Unresolved)
    *Unresolved = false;
  if (CB.isInlineAsm())
    return Out;
  const Value *Callee = CB.getCalledOperand()->stripPointerCasts();
  if (auto *F = dyn_cast<Function>(Callee)) {
    Out.push_back(F);
    return Out;
  }
  if (auto *GA = dyn_cast<GlobalAlias>(Callee))
    if (auto *F = dyn_cast<Function>(GA->getAliasee()->stripPointerCasts())) {
      Out.push_back(F);
      return Out;
    }
  const PtsSet &S = pointsTo(Callee);
  if (S.empty() && Unresolved)
    *Unresolved = true;
  // A call through a pointer to data, into the middle of a function, or
  // with the wrong arity is undefined behaviour (the printed assumption):
  // such members of an over-approximated set are not targets. Only a
  // pointer of unknown origin may call code crace does not know.
  for (Loc L : S) {
    const AbsObject &O = Objects[L.Obj];
    if (O.Kind == ObjKind::Function && (L.Off == 0 || L.Off == UnknownOffset)) {
      auto *F = cast<Function>(O.Site);
      if (F->arg_size() == CB.arg_size() ||
          (F->isVarArg() && F->arg_size() <= CB.arg_size()))
        Out.push_back(F);
    } else if (Unresolved && L.Obj == UnknownObj) {
      *Unresolved = true;
    }
  }
  return Out;
}

bool PointsTo::isVarArgArea(uint32_t Obj) const {
  const auto *II = dyn_cast_or_null<IntrinsicInst>(Objects[Obj].Site);
  return II && II->getIntrinsicID() == llvm::Intrinsic::vastart;
}

/// The smaller of two bounds, either of which may be unknown.
static std::optional<uint64_t> minBound(std::optional<uint64_t> A,
                                        std::optional<uint64_t> B) {
  if (!A || !B)
    return A ? A : B;
  return std::min(*A, *B);
}

bool PointsTo::visitModule() {
  bool Changed = false;
  uint64_t Visits = 0;
  auto Get = [&](const Value *V) -> const PtsSet & { return pointsTo(V); };
  // Pointers stored at L are found at L and, when L's field is unknown, at
  // every field of its object; stores to an unknown field reach every load.
  // Vals stored at L (a strided L keeps them under itself).
  auto StoreAt = [&](Loc L, const PtsSet &Vals, Shift By = {}) {
    if (Vals.empty())
      return;
    if (L.Stride)
      StridedContents.insert(L.Obj);
    if (addNew(Contents[L], Vals, By)) {
      Changed = true;
      objectChanged(L.Obj);
    }
  };
  // Each place Ptr may be, with VisitSince 0 for those it gained since the
  // last visit (Fresh): every pair with such a place is new, while an old
  // place has seen all but what its values gained.
  auto EachPlace = [&](const Value *Ptr, auto &&Fn) {
    uint32_t Since = VisitSince;
    for (Loc L : Get(Ptr)) {
      VisitSince = isFresh(Fresh, L) ? 0 : Since;
      Fn(L);
    }
    VisitSince = Since;
  };
  auto StoreInto = [&](const Value *Ptr, const PtsSet &Vals, bool AnyField) {
    if (Vals.empty())
      return;
    EachPlace(Ptr, [&](Loc L) {
      StoreAt(AnyField ? Loc{L.Obj, UnknownOffset} : L, Vals);
    });
  };
  // Number: the load reads a number. One read from a variadic call's
  // arguments is one the call passed as a number: reading a pointer
  // argument as an integer would not be va_arg of its type.
  auto LoadInto = [&](Loc L, PtsSet &Out, bool Number) {
    if (Number && isVarArgArea(L.Obj)) {
      if (auto It = Contents.find({L.Obj, VarArgNumbersOff});
          It != Contents.end())
        Changed |= addNew(Out, It->second);
      return;
    }
    if (L.Off == UnknownOffset || L.Obj == UnknownObj) {
      auto Lo = Contents.lower_bound({L.Obj, INT64_MIN});
      auto Hi = Contents.lower_bound({L.Obj + 1, INT64_MIN});
      for (auto It = Lo; It != Hi; ++It)
        Changed |= addNew(Out, It->second);
    } else if (L.Stride || StridedContents.contains(L.Obj)) {
      // What was stored at an offset L may be.
      auto Lo = Contents.lower_bound({L.Obj, INT64_MIN});
      auto Hi = Contents.lower_bound({L.Obj + 1, INT64_MIN});
      for (auto It = Lo; It != Hi; ++It)
        if (It->first.anywhere() || mayShareOffset(It->first, L))
          Changed |= addNew(Out, It->second);
    } else {
      if (auto It = Contents.find(L); It != Contents.end())
        Changed |= addNew(Out, It->second);
      if (auto It = Contents.find({L.Obj, UnknownOffset}); It != Contents.end())
        Changed |= addNew(Out, It->second);
    }
    // Memory crace cannot see may hold any pointer.
    if (L.Obj == UnknownObj)
      Changed |= add(Out, {UnknownObj, UnknownOffset});
  };
  auto LoadFrom = [&](const Value *Ptr, PtsSet &Out, bool AnyField,
                      bool Number = false) {
    EachPlace(Ptr, [&](Loc L) {
      LoadInto(AnyField ? Loc{L.Obj, UnknownOffset} : L, Out, Number);
    });
  };
  // memcpy(Dst, Src, Len): what each stored pointer of the copied bytes
  // holds lands at the same distance from Dst as from Src (to the
  // object's end when Len varies). Where either side's offset is unknown
  // the copy lands at any field, as does what was stored at any offset.
  auto CopyFields = [&](const Instruction &Copy, const Value *Dst,
                        const Value *Src, const Value *Len) {
    constexpr size_t MaxFieldCopies = 256;
    // A constant, or a varying length with a bound (`1 + name[0]`).
    std::optional<uint64_t> Bytes = lengthBound(Len, DL);
    const PtsSet &Dsts = Get(Dst);
    if (Dsts.empty())
      return;
    SmallVector<Loc, 16> Keys;
    EachPlace(Src, [&](Loc S) {
      Keys.clear();
      bool Whole = S.anywhere() || S.Stride || S.Obj == UnknownObj ||
                   isVarArgArea(S.Obj);
      // A copy from `&a[C]` stays inside a (C11 6.5.6: memcpy reads the
      // bytes through that pointer).
      // Nor does it read past the end of the source object.
      std::optional<uint64_t> From =
          minBound(minBound(Bytes, arrayBytesFrom(S, Src)), bytesToEnd(S));
      // A pointer stored before S whose bytes reach into the copy counts.
      int64_t First = S.Off - int64_t(DL.getPointerSize()) + 1;
      for (auto It = Contents.lower_bound({S.Obj, INT64_MIN}),
                E = Contents.lower_bound({S.Obj + 1, INT64_MIN});
           !Whole && It != E; ++It) {
        const Loc &K = It->first;
        if (K.anywhere() ||
            (K.last() >= First && (!From || K.Off < S.Off + int64_t(*From))))
          Keys.push_back(K);
      }
      // (Field by field only while that stays cheap: each key to each
      // destination.)
      if (Whole || Keys.size() * Dsts.size() > MaxFieldCopies) {
        // (Keys only grow: a copy goes field by field, then whole, and its
        // first whole visit copies everything.)
        if (WholeCopies.insert({&Copy, S}).second)
          VisitSince = 0;
        // What S gained to the old destinations, all it holds to new ones.
        for (bool ToNew : {false, true}) {
          if (ToNew && (!VisitSince || FreshDsts.empty()))
            break;
          PtsSet Vals; // a temporary: filling it is no progress
          bool Saved = Changed;
          uint32_t Since = VisitSince;
          VisitSince = ToNew ? 0 : Since;
          LoadInto({S.Obj, UnknownOffset}, Vals, false);
          VisitSince = Since;
          Changed = Saved;
          for (Loc D : Dsts) {
            if (Since && isFresh(FreshDsts, D) != ToNew)
              continue;
            std::optional<uint64_t> Span = minBound(
                minBound(Bytes, arrayBytesFrom(D, Dst)), bytesToEnd(D));
            if (!Span || *Span)
              StoreAt(copyTarget(D, Span), Vals);
          }
          forgetTemporary(Vals);
        }
        return;
      }
      uint32_t Since = VisitSince;
      for (Loc D : Dsts) {
        VisitSince = isFresh(FreshDsts, D) ? 0 : Since;
        // ... and so does a copy to `&b[C]`.
        // ... and it writes no byte past the destination's end.
        std::optional<uint64_t> Span =
            minBound(minBound(From, arrayBytesFrom(D, Dst)), bytesToEnd(D));
        // A copy of an object's bytes onto themselves changes nothing,
        // nor does one of no bytes.
        if ((D == S && D.exact()) || (Span && !*Span))
          continue;
        // (A copy inside one object, memmove's, unless the two spans are
        // known apart, or to another distance in a block of unknown size,
        // lands at any field: shifted, copy loops would walk pointers
        // through every offset.)
        uint64_t Size = Objects[D.Obj].Size;
        bool Apart = D.Obj != S.Obj || (Span && !D.anywhere() &&
                                        (D.Off >= S.Off + int64_t(*Span) ||
                                         S.Off >= D.Off + int64_t(*Span)));
        bool Exact = !D.anywhere() && !D.Stride && D.Obj != UnknownObj &&
                     Apart && (Size || D.Off == S.Off);
        for (const Loc &K : Keys) {
          if (Exact && Span && !K.anywhere() && K.Off >= S.Off + int64_t(*Span))
            continue; // past the end of the copy
          Loc To = copyTarget(D, Span);
          if (Exact && !K.anywhere())
            To = {D.Obj, D.Off + (K.Off - S.Off), K.Stride, K.Count};
          // Past the destination's end is no place to store.
          if (!To.anywhere() && Size &&
              (To.last() < 0 || To.Off >= int64_t(Size)))
            continue;
          StoreAt(To, Contents.find(K)->second);
        }
      }
    });
  };

  if (!InitDone) {
    InitDone = true;
    Changed = true;
    for (const GlobalVariable &G : M.globals()) {
      if (G.hasInitializer())
        initContents(G.getInitializer(), objectOf(&G), 0);
      else // defined outside the program (stdout, environ, ...)
        add(Contents[{objectOf(&G), UnknownOffset}],
            {UnknownObj, UnknownOffset});
    }
  }

  if (Order.empty())
    numberInstructions();
  // CRACE_CHECK_DIRTY=1: every instruction the pass skips would have been
  // skipped by asking needsVisit (the Dirty bookkeeping misses nothing).
  static const bool CheckDirty = std::getenv("CRACE_CHECK_DIRTY");
  if (CheckDirty && !Final)
    for (uint32_t Idx = 0; Idx < Order.size(); ++Idx)
      if (!Dirty.test(Idx) && needsVisit(*Order[Idx], VisitedAt[Idx]))
        report_fatal_error("crace: points-to: an instruction to visit is not "
                           "marked (CRACE_CHECK_DIRTY)");
  // Every instruction in the final pass, the marked ones in the others.
  const int End = int(Order.size());
  auto Next = [&](int Idx) {
    return Final ? (Idx + 1 < End ? Idx + 1 : -1) : Dirty.find_next(Idx);
  };
  for (int Idx = Final ? (End ? 0 : -1) : Dirty.find_first(); Idx != -1;
       Idx = Next(Idx)) {
    const Instruction &I = *Order[Idx];
    const bool Call = isa<CallBase>(I);
    if (Final ? !readsEmptySet(I) : Call && !needsVisit(I, VisitedAt[Idx]))
      continue;
    if (!Call)
      Dirty.reset(Idx);
    ++Visits;
    // Difference propagation: what this visit must propagate is what its
    // inputs gained since its last visit (VisitSince, 0 for a first
    // visit). Where the set of places a load, store or copy goes
    // through grew, every pair with a new place is new (Fresh,
    // FreshDsts: EachPlace propagates all for them). Everything is
    // propagated again by a call whose callees grew, by other
    // intrinsics (va_copy's temporary set), and in the final pass.
    // (Each visit is a tick of the clock that stamps every change: a
    // visit has seen every change before its own tick.)
    VisitSince = Final ? 0 : VisitedAt[Idx];
    VisitedAt[Idx] = ++Tick;
    // What a load reads changes with every object its pointer reaches.
    if (const Value *Ptr = readThrough(I); Ptr && !VisitSince)
      for (Loc L : pointsTo(Ptr))
        readsObject(L.Obj, Idx);
    Fresh.clear();
    FreshDsts.clear();
    if (VisitSince) {
      // A memory access or copy propagates all only for its new places.
      const Value *Outer = outerOperand(I);
      if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
        Outer = MT->getSource();
        if (changedSince(pointsTo(MT->getDest()), VisitSince))
          addedSince(pointsTo(MT->getDest()), VisitSince, FreshDsts);
      }
      if (!Outer && isa<IntrinsicInst>(I))
        VisitSince = 0;
      else if (Outer && changedSince(pointsTo(Outer), VisitSince)) {
        if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
            isa<AtomicCmpXchgInst>(I) || isa<MemTransferInst>(I))
          addedSince(pointsTo(Outer), VisitSince, Fresh);
        else
          VisitSince = 0;
      }
    }
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      Changed |= add(ptsOf(A), {objectOf(A), 0});
    } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
      APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      bool Known = GEP->accumulateConstantOffset(DL, Off);
      const PtsSet &Base = Get(GEP->getPointerOperand());
      Shift By{Known ? Off.getSExtValue() : 0, !Known};
      ArrayType *Outside = nullptr;
      uint64_t PtrScale = 0;
      if (!Known)
        if (auto Steps =
                arraySteps(DL, *cast<GEPOperator>(GEP), Outside, PtrScale))
          By = *Steps;
      // p + i with i a known multiple of 2^k (`i << 2`) steps by whole
      // multiples of PtrScale << k.
      uint64_t Residue = PtrScale;
      if (PtrScale && GEP->getNumIndices() == 1)
        Residue <<= std::min(
            16u,
            computeKnownBits(GEP->getOperand(1), DL).countMinTrailingZeros());
      StructType *Member = StrictAliasing.contains(I.getFunction())
                               ? memberAccessStruct(*cast<GEPOperator>(GEP))
                               : nullptr;
      Changed |= addNew(ptsOf(GEP), Base, [&](const Loc &L) {
        if (Member && memberOfOtherType(L, Member))
          return Shift{0, false, 0, 0, /*Drop=*/true};
        if (Outside && !arrayInObject(L, Outside))
          return PtrScale
                     ? elementsAround(L, PtrScale, DL.getTypeAllocSize(Outside))
                     : Shift{0, true};
        if (PtrScale && !Outside)
          return withinArray(L, PtrScale, decayOf(GEP->getPointerOperand()),
                             Residue);
        return By;
      });
      // Arithmetic stays inside the base's object (the "no undefined
      // behaviour" assumption); only from a null/integer base, as in
      // (char *)0 + (uintptr_t)p, may an index carry the pointer.
      if (!Known && Base.empty() && Final)
        for (const Use &U : GEP->indices())
          Changed |= addNew(ptsOf(GEP), Get(U.get()), 0, true);
    } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (!NumberLoads.contains(LI))
        LoadFrom(LI->getPointerOperand(), ptsOf(LI), false,
                 !LI->getType()->isPtrOrPtrVectorTy());
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (std::optional<int64_t> Delta = ownAddressStored(*SI)) {
        // One run stores the very address it writes through, moved by
        // Delta: at each place the address may be, that place's own.
        EachPlace(SI->getPointerOperand(),
                  [&](Loc L) { StoreAt(L, PtsSet{L}, Shift{*Delta}); });
      } else
        StoreInto(SI->getPointerOperand(), Get(SI->getValueOperand()), false);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      StoreInto(RMW->getPointerOperand(), Get(RMW->getValOperand()), false);
      LoadFrom(RMW->getPointerOperand(), ptsOf(RMW), false);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      StoreInto(CX->getPointerOperand(), Get(CX->getNewValOperand()), false);
      LoadFrom(CX->getPointerOperand(), ptsOf(CX), false);
    } else if (auto *R = dyn_cast<ReturnInst>(&I)) {
      if (R->getReturnValue())
        if (addNew(Returns[I.getFunction()], Get(R->getReturnValue()))) {
          Changed = true;
          ReturnsChangedAt[I.getFunction()] = Tick;
        }
    } else if (auto *CI = dyn_cast<CastInst>(&I)) {
      const PtsSet &Src = Get(CI->getOperand(0));
      if ((isa<ZExtInst>(CI) || isa<SExtInst>(CI)) && isBytes(CI->getSrcTy())) {
        // Widened bytes are a number (bytesMayBeStored).
      } else if (isa<IntToPtrInst>(CI) && Src.empty()) {
        auto *C = dyn_cast<ConstantInt>(CI->getOperand(0));
        // A distance between two pointers or a small number cast to a
        // pointer (memcached's restart_fixup: `(item *)(p - old_base)`,
        // rebased later by adding the new base) is no object's address:
        // a pointer is not rebuilt from such a number (the printed
        // assumption), so it points nowhere rather than anywhere.
        auto *Num = dyn_cast<Instruction>(CI->getOperand(0));
        if (Final && (!C || !isNonPointerConstant(C)) &&
            !(Num && Numbers.contains(Num)))
          Changed |= add(ptsOf(CI), {UnknownObj, UnknownOffset});
      } else {
        bool Preserve = isa<BitCastInst>(CI) || isa<AddrSpaceCastInst>(CI) ||
                        isa<PtrToIntInst>(CI) || isa<IntToPtrInst>(CI) ||
                        isa<ZExtInst>(CI) || isa<SExtInst>(CI) ||
                        isa<TruncInst>(CI);
        Changed |= addNew(ptsOf(CI), Src, 0, !Preserve);
      }
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm()) {
        if (mayHoldPointer(CB->getType()) &&
            !asmYieldsNumbers(*cast<InlineAsm>(CB->getCalledOperand())))
          Changed |= add(ptsOf(CB), {UnknownObj, UnknownOffset});
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
        switch (II->getIntrinsicID()) {
        case llvm::Intrinsic::memcpy:
        case llvm::Intrinsic::memcpy_inline:
        case llvm::Intrinsic::memmove:
          CopyFields(*II, II->getArgOperand(0), II->getArgOperand(1),
                     II->getArgOperand(2));
          break;
        case llvm::Intrinsic::vacopy: {
          PtsSet Vals; // a temporary: filling it is no progress
          // Copies every field; the copy lands at unknown fields.
          bool Saved = Changed;
          LoadFrom(II->getArgOperand(1), Vals, true);
          Changed = Saved;
          StoreInto(II->getArgOperand(0), Vals, true);
          forgetTemporary(Vals);
          break;
        }
        case llvm::Intrinsic::vastart:
          // The va_list (every field: x86-64's register save and overflow
          // areas, i386's one pointer) points into the variadic arguments.
          StoreInto(II->getArgOperand(0), {Loc{objectOf(II), UnknownOffset}},
                    true);
          break;
        case llvm::Intrinsic::threadlocal_address:
        case llvm::Intrinsic::ptrmask:
        case llvm::Intrinsic::launder_invariant_group:
        case llvm::Intrinsic::strip_invariant_group:
          Changed |= addNew(ptsOf(II), Get(II->getArgOperand(0)));
          break;
        default:
          if (!II->getType()->isVoidTy())
            for (const Use &U : II->args())
              Changed |= addNew(ptsOf(II), Get(U.get()), 0, true);
          break;
        }
        continue;
      }
      if (auto K = callIntrinsic(*CB)) {
        switch (*K) {
        case Intrinsic::ThreadCreate: {
          const PtsSet &Arg = Get(CB->getArgOperand(2));
          for (Loc L : Get(CB->getArgOperand(1))) {
            if (Objects[L.Obj].Kind != ObjKind::Function)
              continue;
            auto *Fn = cast<Function>(Objects[L.Obj].Site);
            if (Fn->arg_size() > 0 && !Fn->isDeclaration())
              Changed |= addNew(ptsOf(Fn->getArg(0)), Arg);
            Changed |= addNew(ThreadResults, Returns[Fn]);
          }
          break;
        }
        case Intrinsic::ThreadJoin:
          StoreInto(CB->getArgOperand(1), ThreadResults, false);
          break;
        case Intrinsic::ThreadExit:
          Changed |= addNew(ThreadResults, Get(CB->getArgOperand(0)));
          break;
        case Intrinsic::Alloc:
          Changed |= add(ptsOf(CB), {objectOf(CB), 0});
          break;
        case Intrinsic::NondetPtr:
          Changed |= add(ptsOf(CB), {UnknownObj, UnknownOffset});
          break;
        default:
          break;
        }
        continue;
      }
      bool Unresolved = false;
      auto Callees = callees(*CB, &Unresolved);
      // An empty set of targets is "unresolved" only once the solution is
      // otherwise complete (Final): before, it may just not be computed
      // yet, and Unknown, once added, stays.
      if (Unresolved && !Final && readsEmptySet(*CB))
        Unresolved = false;
      if (Unresolved && mayHoldPointer(CB->getType()))
        Changed |= add(ptsOf(CB), {UnknownObj, UnknownOffset});
      for (const Function *Fn : Callees) {
        if (Fn->isDeclaration()) {
          if (!lookupExternal(Fn->getName()) && mayHoldPointer(CB->getType()) &&
              !Fn->isIntrinsic())
            Changed |= add(ptsOf(CB), {UnknownObj, UnknownOffset});
          continue;
        }
        for (unsigned A = 0; A < Fn->arg_size() && A < CB->arg_size(); ++A)
          Changed |= addNew(ptsOf(Fn->getArg(A)), Get(CB->getArgOperand(A)));
        if (auto It = VarArgAreas.find(Fn);
            It != VarArgAreas.end() && !CollapsedVarArgs.contains(Fn))
          for (unsigned A = Fn->arg_size(); A < CB->arg_size(); ++A)
            for (uint32_t Area : It->second) {
              PtsSet &Args =
                  Contents[{Area, holdsPointer(CB->getArgOperand(A)->getType())
                                      ? UnknownOffset
                                      : VarArgNumbersOff}];
              if (!addNew(Args, Get(CB->getArgOperand(A))))
                continue;
              Changed = true;
              objectChanged(Area);
              if (Args.size() > VarArgTargetCap) {
                // A logging function handed every string of the program:
                // following them all through its formatting costs more
                // than it tells. Its arguments are not followed (what
                // was added stays); ProgramModel names it as a reason
                // no engine may claim race freedom.
                CollapsedVarArgs.insert(Fn);
                for (uint32_t Other : It->second) {
                  PtsSet &Gone = Contents[{Other, UnknownOffset}];
                  Gone.clear();
                  Log.erase(&Gone);
                }
                break;
              }
            }
        uint32_t Clone = FreshResult.contains(Fn) ? objectOf(CB) : UnknownObj;
        if (Clone != UnknownObj) {
          Changed |= add(ptsOf(CB), {Clone, 0});
        } else if (auto It = ArgumentResults.find(Fn);
                   It != ArgumentResults.end()) {
          // The result is this call's own argument moved: each call sees
          // its own, not what every call of Fn returns.
          for (auto [A, Off] : It->second) {
            if (A >= CB->arg_size())
              continue;
            const PtsSet &Arg = Get(CB->getArgOperand(A));
            if (Off != UnknownOffset) {
              Changed |= addNew(ptsOf(CB), Arg, Off);
              continue;
            }
            // Moved by a varying amount: inside the argument's objects,
            // where what Fn returns says (the callee's own offsets, a
            // walk that stays in its array).
            SmallDenseSet<uint32_t, 8> Objs;
            for (const Loc &L : Arg)
              Objs.insert(L.Obj);
            for (const Loc &R : Returns[Fn])
              if (Objs.contains(R.Obj))
                Changed |= add(ptsOf(CB), R);
          }
        } else {
          Changed |= addNew(ptsOf(CB), Returns[Fn]);
        }
      }
    } else if (isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I)) {
      unsigned First = isa<SelectInst>(I) ? 1 : 0;
      for (unsigned Op = First; Op < I.getNumOperands(); ++Op)
        Changed |= addNew(ptsOf(&I), Get(I.getOperand(Op)));
    } else if (isa<ExtractValueInst>(I) || isa<InsertValueInst>(I) ||
               isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
               isa<ShuffleVectorInst>(I)) {
      for (const Use &U : I.operands())
        Changed |= addNew(ptsOf(&I), Get(U.get()));
    } else if ((isa<BinaryOperator>(I) && !Numbers.contains(&I)) ||
               isa<UnaryOperator>(I)) {
      for (const Use &U : I.operands())
        Changed |= addNew(ptsOf(&I), Get(U.get()), 0, true);
    } else if (isa<VAArgInst>(I)) {
      if (mayHoldPointer(I.getType()))
        Changed |= add(ptsOf(&I), {UnknownObj, UnknownOffset});
    }
  }
  NumVisits += Visits;
  return Changed;
}

} // namespace crace
