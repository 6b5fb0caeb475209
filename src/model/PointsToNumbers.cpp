//===- PointsToNumbers.cpp - which integers may carry a pointer -----------===//
//
// The points-to analysis (PointsTo.h) follows pointers through integers
// (ptrtoint, pointer-sized ints, byte copies). These rules say which
// integers cannot be one: the distance between two pointers, a value
// below the first page, an integer narrower than a pointer. Moved out of
// PointsTo.cpp, which issue 15 keeps under 800 lines.
//
//===----------------------------------------------------------------------===//
#include "model/PointsTo.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace crace {

/// V, through integer casts, is a pointer converted to an integer.
static bool isPointerNumber(const Value *V) {
  while (const auto *Op = dyn_cast<Operator>(V)) {
    unsigned Code = Op->getOpcode();
    if (Code == Instruction::PtrToInt)
      return true;
    if (Code != Instruction::ZExt && Code != Instruction::SExt &&
        Code != Instruction::Trunc)
      return false;
    V = Op->getOperand(0);
  }
  return false;
}

bool PointsTo::isNumber(const BinaryOperator &I) const {
  // The distance between two pointers (C's p - q): an offset inside one
  // object, not a pointer.
  if (I.getOpcode() == Instruction::Sub && isPointerNumber(I.getOperand(0)) &&
      isPointerNumber(I.getOperand(1)))
    return true;
  // A result below the first page is no object's address: at most a small
  // part of a pointer (a remainder, masked bits, a digit).
  KnownBits Known = computeKnownBits(&I, DL);
  return Known.getMaxValue().ult(SmallNumberBound);
}

/// T is a pointer, or an aggregate with one, or (with IntBits) an integer
/// of at least IntBits bits, or an aggregate with one.
bool holdsPointer(Type *T, std::optional<unsigned> IntBits) {
  if (T->isPtrOrPtrVectorTy())
    return true;
  if (T->isIntOrIntVectorTy())
    return IntBits && T->getScalarSizeInBits() >= *IntBits;
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(),
                  [&](Type *E) { return holdsPointer(E, IntBits); });
  if (auto *AT = dyn_cast<ArrayType>(T))
    return holdsPointer(AT->getElementType(), IntBits);
  return false; // void, floating point
}

bool PointsTo::isBytes(Type *T) const {
  return T->isIntegerTy() &&
         T->getIntegerBitWidth() < DL.getPointerSizeInBits();
}

bool PointsTo::mayHoldPointer(Type *T) const {
  return holdsPointer(T, DL.getPointerSizeInBits());
}

} // namespace crace
