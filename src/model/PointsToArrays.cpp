//===- PointsToArrays.cpp - array elements as strided locations ----------===//
//
// An index stays inside its array (C11 6.5.6): a variable index into an
// array member, and pointer arithmetic from an element, give a strided
// location (model/PointsTo.h, Loc) instead of any offset of the object.
//
//===----------------------------------------------------------------------===//
#include "model/PointsTo.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include <numeric>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crace {

static uint64_t endOfObjectAt(const DataLayout &DL, Type *T, uint64_t Off);

namespace {
struct ArrayOnPath {
  uint64_t Start, ElemSize, Count;
};
} // namespace

/// The arrays of type T that hold byte Off, outermost first. An array
/// directly inside another (a row of a 2-D array) spans the outer one's
/// bytes: `int *p = &m[0][0]; p[i]` walks every row, as C programs do.
static SmallVector<ArrayOnPath, 4> arraysAround(const DataLayout &DL, Type *T,
                                                uint64_t Off) {
  SmallVector<ArrayOnPath, 4> Out;
  uint64_t Base = 0;
  bool InArray = false;
  while (T) {
    if (auto *ST = dyn_cast<StructType>(T)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      if (Off >= SL->getSizeInBytes())
        break;
      // A union's type shows one member's layout: what lies at Off is
      // unknown, but every member's arrays lie inside its bytes.
      if (ST->hasName() && ST->getName().starts_with("union.")) {
        Out.push_back({Base, 1, SL->getSizeInBytes()});
        break;
      }
      unsigned I = SL->getElementContainingOffset(Off);
      Off -= SL->getElementOffset(I);
      Base += SL->getElementOffset(I);
      T = ST->getElementType(I);
      InArray = false;
    } else if (auto *Arr = dyn_cast<ArrayType>(T)) {
      uint64_t Size = DL.getTypeAllocSize(Arr->getElementType());
      if (!Size || Off >= Size * Arr->getNumElements())
        break;
      if (InArray) {
        const ArrayOnPath &Row = Out.back();
        Out.push_back({Row.Start, Size, Row.ElemSize * Row.Count / Size});
      } else {
        Out.push_back({Base, Size, Arr->getNumElements()});
      }
      Base += Off / Size * Size;
      Off %= Size;
      T = Arr->getElementType();
      InArray = true;
    } else {
      break;
    }
  }
  return Out;
}

/// Per index of GEP, the type it steps in: null for the first (the
/// pointer itself), then the struct, array or vector the previous index
/// reached.
static SmallVector<Type *, 4> steppedTypes(const GEPOperator &GEP) {
  SmallVector<Type *, 4> Out;
  Type *Container = nullptr;
  for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
       GTI != E; ++GTI) {
    Out.push_back(Container);
    Container = GTI.getIndexedType();
  }
  return Out;
}

/// The struct's member F is its last one: an array there may be a "struct
/// hack" that reaches past its declared length.
static bool lastMember(Type *Container, const Value *Idx) {
  auto *ST = dyn_cast_or_null<StructType>(Container);
  return ST &&
         cast<ConstantInt>(Idx)->getZExtValue() + 1 == ST->getNumElements();
}

/// What index Pos of GEP steps in (an array) is bounded as the GEPs'
/// syntax shows: it lies inside a struct member other than the last, in
/// the GEPs that computed the pointer. A last member may be a "struct
/// hack" reaching past its declared end only when its struct may end the
/// block, so the climb goes on through last members (`rr->name.c`, with
/// `c` domainname's only member and `name` not ResourceRecord's last, is
/// bounded). A row of an outer array is not: indexing may run on into the
/// next rows.
static bool boundedAt(const GEPOperator &GEP, unsigned Pos) {
  const GEPOperator *G = &GEP;
  for (unsigned Depth = 0; G && Depth < 16; ++Depth) {
    SmallVector<Type *, 4> Stepped = steppedTypes(*G);
    for (unsigned K = Pos; K-- > 1;) {
      if (!isa<StructType>(Stepped[K]))
        return false;
      if (!lastMember(Stepped[K], G->getOperand(K + 1)))
        return true;
    }
    if (!match(G->getOperand(1), m_Zero()))
      return false;
    G = dyn_cast<GEPOperator>(G->getPointerOperand());
    if (G)
      Pos = G->getNumIndices();
  }
  return false;
}

/// The array GEP steps in with its first index after the pointer's is
/// bounded (boundedAt).
static bool boundedParent(const GEPOperator &GEP) { return boundedAt(GEP, 1); }

std::optional<Shift> arraySteps(const DataLayout &DL, const GEPOperator &GEP,
                                ArrayType *&Outside, uint64_t &PtrScale) {
  Outside = nullptr;
  PtrScale = 0;
  SmallVector<Type *, 4> Stepped = steppedTypes(GEP);
  // Per index: the bytes one step moves (0 for a struct field) and, when
  // constant, the bytes it moves in all.
  struct Step {
    int64_t Size;
    std::optional<int64_t> Bytes;
  };
  SmallVector<Step, 4> Steps;
  for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
       GTI != E; ++GTI) {
    const Value *Idx = GTI.getOperand();
    if (StructType *ST = GTI.getStructTypeOrNull()) {
      unsigned F = cast<ConstantInt>(Idx)->getZExtValue();
      Steps.push_back(
          {0, int64_t(DL.getStructLayout(ST)->getElementOffset(F))});
      continue;
    }
    TypeSize ElemSize = GTI.getSequentialElementStride(DL);
    if (ElemSize.isScalable())
      return std::nullopt;
    int64_t Size = int64_t(ElemSize.getFixedValue());
    std::optional<int64_t> Bytes;
    if (const auto *C = dyn_cast<ConstantInt>(Idx)) {
      if (C->getBitWidth() > 64)
        return std::nullopt;
      Bytes = C->getSExtValue() * Size;
    }
    Steps.push_back({Size, Bytes});
  }
  if (Steps.size() == 1 && !Steps[0].Bytes && Steps[0].Size > 0) {
    // p + i alone: where p points says which array it stays in.
    PtrScale = uint64_t(Steps[0].Size);
    return Shift{0, true};
  }
  if (!Steps[0].Bytes)
    return std::nullopt;
  int64_t Const = *Steps[0].Bytes;
  uint64_t Stride = 0, Span = 0;
  for (unsigned Pos = 1; Pos < Steps.size();) {
    if (!isa_and_nonnull<ArrayType>(Stepped[Pos])) {
      if (!Steps[Pos].Bytes)
        return std::nullopt; // a variable index into a vector
      Const += *Steps[Pos].Bytes;
      ++Pos;
      continue;
    }
    // A chain of arrays nested directly in one another, [Head, End): an
    // index may run on into the outer arrays' next elements, so a
    // variable index anywhere moves inside the outermost array.
    unsigned Head = Pos, End = Pos;
    int64_t ChainConst = 0;
    uint64_t G = 0;
    for (; End < Steps.size() && isa_and_nonnull<ArrayType>(Stepped[End]);
         ++End) {
      if (Steps[End].Bytes)
        ChainConst += *Steps[End].Bytes;
      else if (Steps[End].Size > 0)
        G = std::gcd(G, uint64_t(Steps[End].Size));
      else
        return std::nullopt;
    }
    Pos = End;
    if (!G) {
      Const += ChainConst;
      continue;
    }
    auto *AT = cast<ArrayType>(Stepped[Head]);
    uint64_t Extent = DL.getTypeAllocSize(AT);
    uint64_t Last = Extent - uint64_t(Steps[End - 1].Size);
    if (AT->getNumElements() <= 1 || Extent > (1u << 20) || ChainConst < 0)
      return std::nullopt;
    // The array's own container: a struct member of this GEP, or outside
    // it at the pointer itself.
    if (Head == 1) {
      if (*Steps[0].Bytes)
        return std::nullopt; // p[1][i]: p points into an array of arrays
      if (!boundedParent(GEP)) {
        Outside = AT;
        // The chain's elements are what GEP computes: a base location
        // inside a larger array of them may take all of its elements.
        if (End == Steps.size())
          PtrScale = uint64_t(Steps[End - 1].Size);
      }
    } else if (!boundedAt(GEP, Head)) {
      return std::nullopt;
    }
    uint64_t First = uint64_t(ChainConst) % G;
    if (First > Last)
      return std::nullopt;
    Const += int64_t(First);
    Stride = std::gcd(Stride, G);
    Span += (Last - First) / G * G;
    if (Span > (1u << 20))
      return std::nullopt;
  }
  if (!Stride)
    return std::nullopt;
  return Shift{Const, false, uint32_t(Stride), uint32_t(Span / Stride + 1)};
}

Type *heapBlockType(const Value *Site, uint64_t Size, const DataLayout &DL) {
  if (!Size)
    return nullptr;
  Type *Found = nullptr;
  SmallVector<const Value *, 8> Work = {Site};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || Seen.size() > 32)
      continue;
    for (const User *U : V->users()) {
      if (isa<CastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      const auto *GEP = dyn_cast<GEPOperator>(U);
      if (!GEP || GEP->getPointerOperand() != V ||
          !isa<StructType>(GEP->getSourceElementType()) ||
          GEP->getNumIndices() < 2 || !match(GEP->getOperand(1), m_Zero()))
        continue;
      Type *T = GEP->getSourceElementType();
      if ((Found && Found != T) || DL.getTypeAllocSize(T) != Size)
        return nullptr;
      Found = T;
    }
  }
  return Found;
}

Type *objectType(const AbsObject &O) {
  if (O.BlockType)
    return O.BlockType;
  if (O.Kind == ObjKind::Global || O.Kind == ObjKind::ThreadLocal)
    return cast<GlobalVariable>(O.Site)->getValueType();
  if (const auto *A = dyn_cast_or_null<AllocaInst>(O.Site);
      A && O.Kind == ObjKind::Stack && !A->isArrayAllocation())
    return A->getAllocatedType();
  return nullptr;
}

/// What lies inside ST is not known from its IR type: it has no body, is a
/// literal struct clang made for an initializer, or is a union (whose IR
/// type shows one member only).
static bool layoutUnknown(const StructType *ST) {
  return ST->isOpaque() || !ST->hasName() ||
         ST->getName().starts_with("union.");
}

StructType *memberAccessStruct(const GEPOperator &GEP) {
  auto *S = dyn_cast<StructType>(GEP.getSourceElementType());
  if (!S || layoutUnknown(S) || GEP.getNumIndices() < 2 ||
      !match(GEP.getOperand(1), m_Zero()))
    return nullptr;
  return S;
}

/// A and B are one C struct type: linking units may rename a type that
/// two of them define (`struct.node.12`).
static bool sameStruct(const DataLayout &DL, StructType *A, StructType *B) {
  if (A == B)
    return true;
  if (!A->hasName() || !B->hasName() || A->isOpaque() || B->isOpaque())
    return false;
  auto Base = [](StringRef N) {
    auto [Head, Tail] = N.rsplit('.');
    return !Tail.empty() && all_of(Tail, [](char C) { return isDigit(C); })
               ? Head
               : N;
  };
  return Base(A->getName()) == Base(B->getName()) &&
         DL.getTypeAllocSize(A) == DL.getTypeAllocSize(B);
}

bool mayHoldStructAt(const DataLayout &DL, Type *T, int64_t Off,
                     StructType *S) {
  if (Off < 0)
    return false;
  uint64_t At = uint64_t(Off);
  while (true) {
    if (auto *ST = dyn_cast<StructType>(T)) {
      if ((At == 0 && sameStruct(DL, ST, S)) || layoutUnknown(ST))
        return true;
      const StructLayout *SL = DL.getStructLayout(ST);
      if (At >= SL->getSizeInBytes())
        return false;
      unsigned I = SL->getElementContainingOffset(At);
      At -= SL->getElementOffset(I);
      T = ST->getElementType(I);
    } else if (auto *Arr = dyn_cast<ArrayType>(T)) {
      Type *E = Arr->getElementType();
      uint64_t Size = DL.getTypeAllocSize(E);
      if (!Size || E->isIntegerTy(8))
        return true;
      if (At >= Size * Arr->getNumElements())
        return false;
      At %= Size;
      T = E;
    } else {
      // A scalar, or a vector: no struct.
      return false;
    }
  }
}

/// An object of type T may hold a struct of type S at some offset.
static bool mayHoldStruct(const DataLayout &DL, Type *T, StructType *S,
                          unsigned Depth = 0) {
  if (Depth > 16)
    return true;
  if (auto *ST = dyn_cast<StructType>(T)) {
    if (sameStruct(DL, ST, S) || layoutUnknown(ST))
      return true;
    return any_of(ST->elements(),
                  [&](Type *E) { return mayHoldStruct(DL, E, S, Depth + 1); });
  }
  if (auto *Arr = dyn_cast<ArrayType>(T))
    return Arr->getElementType()->isIntegerTy(8) ||
           mayHoldStruct(DL, Arr->getElementType(), S, Depth + 1);
  return false;
}

bool PointsTo::memberOfOtherType(Loc L, StructType *S) const {
  if (L.Obj == UnknownObj)
    return false;
  const AbsObject &O = Objects[L.Obj];
  // A function is no object.
  if (O.Kind == ObjKind::Function)
    return true;
  // Globals and typed heap blocks only: SROA may have split a struct on
  // the stack into slots of other types.
  bool Typed = O.Kind == ObjKind::Global || O.Kind == ObjKind::ThreadLocal ||
               (O.Kind == ObjKind::Heap && O.BlockType);
  Type *T = Typed ? objectType(O) : nullptr;
  if (!T || !T->isSized())
    return false;
  if (L.exact())
    return !mayHoldStructAt(DL, T, L.Off, S);
  return !mayHoldStruct(DL, T, S);
}

bool PointsTo::arrayInObject(Loc L, ArrayType *AT) const {
  // An object of known type is no larger than its type: even a struct's
  // last member cannot be a "struct hack" there.
  Type *T = objectType(Objects[L.Obj]);
  uint64_t Size = DL.getTypeAllocSize(AT);
  if (!T || L.anywhere() || L.Off < 0 ||
      uint64_t(L.last()) + Size > DL.getTypeAllocSize(T))
    return false;
  // Nor is AT a row of a larger array of the same elements there.
  uint64_t Elem = DL.getTypeAllocSize(AT->getElementType());
  auto InRow = [&](int64_t At) {
    return any_of(arraysAround(DL, T, uint64_t(At)), [&](const ArrayOnPath &A) {
      return A.ElemSize == Elem && A.ElemSize * A.Count > Size;
    });
  };
  return !InRow(L.Off) && (!L.Stride || !InRow(L.last()));
}

const GEPOperator *decayOf(const Value *Ptr) {
  if (const auto *G = dyn_cast<GEPOperator>(Ptr))
    return G;
  const auto *Phi = dyn_cast<PHINode>(Ptr);
  if (!Phi)
    return nullptr;
  const GEPOperator *Start = nullptr;
  for (const Value *In : Phi->incoming_values()) {
    const auto *G = dyn_cast<GEPOperator>(In);
    if (!G)
      return nullptr;
    if (G->getPointerOperand() == Phi && G->getNumIndices() == 1 &&
        !isa<Constant>(G->getOperand(1)))
      continue;
    if (Start && Start != G)
      return nullptr;
    Start = G;
  }
  return Start;
}

namespace {
/// Ptr as `&a[C]` (a GEP of indices 0 and a constant C into array a).
struct ArrayDecay {
  const GEPOperator *GEP;
  ArrayType *Type;
  int64_t Index;
};
} // namespace

static std::optional<ArrayDecay> asArrayDecay(const Value *Ptr) {
  const auto *Decay = dyn_cast_or_null<GEPOperator>(Ptr);
  if (!Decay || Decay->getNumIndices() != 2 ||
      !match(Decay->getOperand(1), m_Zero()))
    return std::nullopt;
  auto *AT = dyn_cast<ArrayType>(Decay->getSourceElementType());
  const auto *C = dyn_cast<ConstantInt>(Decay->getOperand(2));
  if (!AT || !C || C->getBitWidth() > 64)
    return std::nullopt;
  return ArrayDecay{Decay, AT, C->getSExtValue()};
}

std::optional<PointsTo::DecayedArray>
PointsTo::boundedDecay(Loc L, const Value *Ptr) const {
  std::optional<ArrayDecay> D = asArrayDecay(Ptr);
  if (!D)
    return std::nullopt;
  int64_t Start =
      L.Off -
      D->Index * int64_t(DL.getTypeAllocSize(D->Type->getElementType()));
  if (!boundedParent(*D->GEP) &&
      !arrayInObject({L.Obj, Start, L.Stride, L.Count}, D->Type))
    return std::nullopt;
  return DecayedArray{D->Type, Start, D->Index};
}

std::optional<uint64_t> PointsTo::arrayBytesFrom(Loc L,
                                                 const Value *Ptr) const {
  if (L.anywhere() || L.Stride || L.Off < 0)
    return std::nullopt;
  std::optional<DecayedArray> A = boundedDecay(L, Ptr);
  if (!A) {
    std::optional<ArrayDecay> D = asArrayDecay(Ptr);
    if (!D)
      return std::nullopt;
    uint64_t Elem = DL.getTypeAllocSize(D->Type->getElementType());
    return regionBytesFrom(L, D->Type, L.Off - D->Index * int64_t(Elem));
  }
  if (A->Index < 0 || uint64_t(A->Index) > A->Type->getNumElements())
    return std::nullopt;
  return (A->Type->getNumElements() - uint64_t(A->Index)) *
         DL.getTypeAllocSize(A->Type->getElementType());
}

std::optional<uint64_t> PointsTo::regionBytesFrom(Loc L, ArrayType *AT,
                                                  int64_t Start) const {
  Type *T = objectType(Objects[L.Obj]);
  if (!T || !T->isSized())
    return std::nullopt;
  uint64_t Bytes = DL.getTypeAllocSize(AT);
  if (Start < 0 || uint64_t(Start) + Bytes > DL.getTypeAllocSize(T))
    return std::nullopt;
  // The array may be a row of a larger array, or one member of a union
  // (arraysAround gives its bytes), or a byte pointer to an object that
  // starts where it does (elementsAround): the largest of these ends it.
  uint64_t End = uint64_t(Start) + Bytes;
  for (const ArrayOnPath &R : arraysAround(DL, T, uint64_t(Start)))
    if (R.Start <= uint64_t(Start) &&
        uint64_t(Start) + Bytes <= R.Start + R.ElemSize * R.Count)
      End = std::max(End, R.Start + R.ElemSize * R.Count);
  End = std::max(End, endOfObjectAt(DL, T, uint64_t(Start)));
  if (uint64_t(L.Off) > End)
    return std::nullopt;
  return End - uint64_t(L.Off);
}

std::optional<uint64_t> PointsTo::bytesToEnd(Loc L) const {
  uint64_t Size = Objects[L.Obj].Size;
  if (!L.exact() || L.Obj == UnknownObj || !Size || L.Off < 0 ||
      uint64_t(L.Off) > Size)
    return std::nullopt;
  return Size - uint64_t(L.Off);
}

Shift PointsTo::withinArray(Loc L, uint64_t Scale, const GEPOperator *Decay,
                            uint64_t Residue) const {
  Shift Any{0, true};
  if (L.anywhere() || !Scale)
    return Any;
  if (L.Off < 0)
    return sameResidue(L, Residue ? Residue : Scale);
  // Whole elements of the array a strided location is: it stays in it, as
  // a constant step does (moved).
  if (L.Stride && Scale % L.Stride == 0)
    return Shift{};
  // p is &a[C] of a bounded array a of Scale-byte elements.
  if (std::optional<DecayedArray> A = boundedDecay(L, Decay);
      A && DL.getTypeAllocSize(A->Type->getElementType()) == Scale &&
      A->Type->getNumElements() > 1)
    return Shift{A->Start - L.Off, false, uint32_t(Scale),
                 uint32_t(A->Type->getNumElements())};
  if (L.Stride)
    return Any;
  return elementsAround(L, Scale, 1, Residue);
}

Shift PointsTo::sameResidue(Loc L, uint64_t Scale) const {
  Shift Any{0, true};
  int64_t Size = int64_t(Objects[L.Obj].Size);
  // A heap block of a size computed at run time: every element from the
  // first, as far as the block goes (UnboundedCount). Arithmetic cannot
  // leave the block nor go before its start (no undefined behaviour).
  if (!Size && !L.anywhere() && !L.Stride && L.Off >= 0 && L.Off <= (1 << 20) &&
      Scale > 1 && Scale <= (1u << 20) && L.Obj != UnknownObj &&
      Objects[L.Obj].Kind == ObjKind::Heap) {
    int64_t First = L.Off % int64_t(Scale);
    return Shift{First - L.Off, false, uint32_t(Scale), UnboundedCount};
  }
  if (L.anywhere() || L.Stride || Scale <= 1 || Scale > (1u << 20) ||
      L.Obj == UnknownObj || !Size || L.Off >= Size || L.Off < -(1 << 20))
    return Any;
  int64_t Step = int64_t(Scale);
  int64_t First = L.Off >= 0 ? L.Off % Step : L.Off;
  // (Two at least: one element would be an exact location, which
  // decayOf's loops take for their start.)
  uint64_t Count = std::max<int64_t>(2, (Size - 1 - First) / Step + 1);
  if (Count > MaxStridedCount)
    return Any;
  return Shift{First - L.Off, false, uint32_t(Scale), uint32_t(Count)};
}

/// The end of the largest subobject of type T (T itself included) that
/// starts at byte Off, or 0 when none does.
static uint64_t endOfObjectAt(const DataLayout &DL, Type *T, uint64_t Off) {
  uint64_t Base = 0;
  while (T && T->isSized()) {
    if (Off == Base)
      return Base + DL.getTypeAllocSize(T);
    if (auto *ST = dyn_cast<StructType>(T)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      if (Off - Base >= SL->getSizeInBytes())
        return 0;
      unsigned I = SL->getElementContainingOffset(Off - Base);
      Base += SL->getElementOffset(I);
      T = ST->getElementType(I);
    } else if (auto *AT = dyn_cast<ArrayType>(T)) {
      uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
      if (!Size || Off - Base >= Size * AT->getNumElements())
        return 0;
      Base += (Off - Base) / Size * Size;
      T = AT->getElementType();
    } else {
      return 0;
    }
  }
  return 0;
}

Shift PointsTo::elementsAround(Loc L, uint64_t Scale, uint64_t Bytes,
                               uint64_t Residue) const {
  Shift Any{0, true};
  if (L.anywhere() || L.Stride || !Scale)
    return Any;
  if (!Residue)
    Residue = Scale;
  if (L.Off < 0)
    return sameResidue(L, Residue);
  // The innermost array of Scale-byte elements around L: pointer
  // arithmetic stays inside it, up to one past its end (C11 6.5.6), and
  // an access one past the end would be undefined: the location is the
  // array's elements.
  std::optional<std::pair<uint64_t, uint64_t>> Found; // start, length
  Type *T = objectType(Objects[L.Obj]);
  for (const ArrayOnPath &A : arraysAround(DL, T, uint64_t(L.Off)))
    if (A.ElemSize == Scale &&
        uint64_t(L.Off) + Bytes <= A.Start + Scale * A.Count)
      Found = {A.Start, A.Count};
  // A byte pointer may point to the representation of any object that
  // starts at L (C11 6.3.2.3p7: `(char *)&s` walks all of s, though s.buf
  // starts there too): the walk may reach that object's end as well.
  if (uint64_t End = endOfObjectAt(DL, T, uint64_t(L.Off));
      Found && Scale == 1 && End > Found->first)
    Found->second = std::max(Found->second, End - Found->first);
  // (One element would be an exact location, which decayOf's loops take
  // for their start.)
  if (!Found || Found->second <= 1 || Found->second > MaxStridedCount)
    return sameResidue(L, Residue);
  auto [Start, N] = *Found;
  int64_t First = int64_t(Start + (uint64_t(L.Off) - Start) % Scale);
  return Shift{First - L.Off, false, uint32_t(Scale), uint32_t(N)};
}

bool mayShareOffset(const Loc &A, const Loc &B) {
  if (A.anywhere() || B.anywhere())
    return true;
  if (A.Off > B.last() || B.Off > A.last())
    return false;
  int64_t G = int64_t(std::gcd(uint64_t(A.Stride), uint64_t(B.Stride)));
  return G ? (B.Off - A.Off) % G == 0 : A.Off == B.Off;
}

Loc copyTarget(const Loc &D, std::optional<uint64_t> Len) {
  // (A bound that would not fit a count is no bound.)
  if (!D.exact() || D.Obj == PointsTo::UnknownObj || !Len || !*Len ||
      *Len > UINT32_MAX)
    return {D.Obj, UnknownOffset};
  return {D.Obj, D.Off, 1, uint32_t(*Len)};
}

bool mayOverlap(const Loc &A, uint64_t SizeA, const Loc &B, uint64_t SizeB) {
  if (A.Obj == PointsTo::UnknownObj || B.Obj == PointsTo::UnknownObj)
    return true;
  if (A.Obj != B.Obj)
    return false;
  if (A.anywhere() || B.anywhere())
    return true;
  // The hulls [first, last + size) must meet.
  int64_t EndA = SizeA ? A.last() + int64_t(SizeA) : INT64_MAX;
  int64_t EndB = SizeB ? B.last() + int64_t(SizeB) : INT64_MAX;
  if (!(A.Off < EndB && B.Off < EndA))
    return false;
  if ((!A.Stride && !B.Stride) || !SizeA || !SizeB)
    return true;
  // Some start a of A and b of B with a < b + SizeB and b < a + SizeA,
  // that is -SizeB < b - a < SizeA: b - a is B.Off - A.Off plus a multiple
  // of G (bounds aside, which the hulls covered).
  int64_t G = int64_t(std::gcd(uint64_t(A.Stride), uint64_t(B.Stride)));
  int64_t D = B.Off - A.Off;
  // A multiple m*G with -SizeB - D < m*G < SizeA - D.
  int64_t Lo = -int64_t(SizeB) - D, Hi = int64_t(SizeA) - D;
  int64_t Floor = Lo >= 0 ? Lo / G : -((-Lo + G - 1) / G);
  return (Floor + 1) * G < Hi;
}

Loc PointsTo::arrayAround(PtsSet::const_iterator Lo,
                          PtsSet::const_iterator Hi) const {
  uint32_t Obj = Lo->Obj;
  Loc Any{Obj, UnknownOffset};
  int64_t First = Lo->Off, Last = First;
  uint64_t G = 0;
  for (auto It = Lo; It != Hi; ++It) {
    if (It->anywhere())
      return Any;
    Last = std::max(Last, It->last());
    G = std::gcd(G, uint64_t(It->Off - First));
    G = std::gcd(G, uint64_t(It->Stride));
  }
  if (First < 0 || !G)
    return Any;
  // The innermost array on the path to First that holds [First, Last].
  std::optional<std::pair<uint64_t, uint64_t>> Found; // start, end
  for (const ArrayOnPath &A :
       arraysAround(DL, objectType(Objects[Obj]), uint64_t(First)))
    if (uint64_t(Last) <= A.Start + A.ElemSize * A.Count)
      Found = {A.Start, A.Start + A.ElemSize * A.Count};
  if (!Found)
    return Any;
  auto [Start, End] = *Found;
  // A byte pointer's walk may cover an object that starts at one of the
  // offsets (`(char *)&s`, elementsAround's case) past that array. (A
  // strided location's later elements start inside its array: only
  // objects inside the array start there.)
  Type *T = objectType(Objects[Obj]);
  for (auto It = Lo; It != Hi; ++It)
    End = std::max(End, endOfObjectAt(DL, T, uint64_t(It->Off)));
  // Its elements: one past the end is no place to access.
  int64_t Begin = int64_t(Start + (uint64_t(First) - Start) % G);
  if (uint64_t(Begin) >= End)
    return Any;
  uint64_t Count = (End - 1 - uint64_t(Begin)) / G + 1;
  if (Count > MaxStridedCount)
    return Any;
  return {Obj, Begin, uint32_t(G), uint32_t(Count)};
}

} // namespace crace
