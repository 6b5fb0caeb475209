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

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace crace {

bool asmYieldsNumbers(const InlineAsm &IA) {
  // x86 instructions whose register results are checksums, byte orders,
  // counts of bits, bit positions or the time: numbers, whatever their
  // inputs (memcached's crc32c_hw), never an address.
  static constexpr StringLiteral Mnemonics[] = {
      "crc32b", "crc32w", "crc32l", "crc32q", "crc32",  "bswap",
      "bswapl", "bswapq", "popcnt", "lzcnt",  "tzcnt",  "bsf",
      "bsfl",   "bsfq",   "bsr",    "bsrl",   "bsrq",   "rdtsc",
      "rdtscp", "cpuid",  "xgetbv", "rdpid",  "rdrand", "rdseed"};
  SmallVector<StringRef, 4> Lines;
  StringRef(IA.getAsmString()).split(Lines, '\n', -1, false);
  bool Any = false;
  for (StringRef Line : Lines)
    for (StringRef Insn : split(Line, ';')) {
      StringRef Mnemonic = Insn.trim().take_until(isSpace);
      if (Mnemonic.empty())
        continue;
      if (!is_contained(Mnemonics, Mnemonic))
        return false;
      Any = true;
    }
  return Any;
}

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

/// The values integer V may take, from its operands' ranges: constants,
/// casts, arithmetic, selects and phis (a few levels deep), the known bits
/// of the rest. A copy's length `1 + name[0]` is at most 256, where known
/// bits say 511.
static ConstantRange rangeOf(const Value *V, const DataLayout &DL,
                             unsigned Depth) {
  unsigned Bits = V->getType()->getScalarSizeInBits();
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return ConstantRange(C->getValue());
  ConstantRange Known =
      ConstantRange::fromKnownBits(computeKnownBits(V, DL), false);
  if (Depth == 0 || !V->getType()->isIntegerTy())
    return Known;
  if (const auto *Cast = dyn_cast<CastInst>(V);
      Cast && Cast->getSrcTy()->isIntegerTy())
    return Known.intersectWith(rangeOf(Cast->getOperand(0), DL, Depth - 1)
                                   .castOp(Cast->getOpcode(), Bits));
  if (const auto *BO = dyn_cast<BinaryOperator>(V))
    return Known.intersectWith(
        rangeOf(BO->getOperand(0), DL, Depth - 1)
            .binaryOp(BO->getOpcode(),
                      rangeOf(BO->getOperand(1), DL, Depth - 1)));
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return Known.intersectWith(
        rangeOf(Sel->getTrueValue(), DL, Depth - 1)
            .unionWith(rangeOf(Sel->getFalseValue(), DL, Depth - 1)));
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    ConstantRange R = ConstantRange::getEmpty(Bits);
    for (const Value *In : Phi->incoming_values())
      R = R.unionWith(rangeOf(In, DL, Depth - 1));
    return Known.intersectWith(R);
  }
  return Known;
}

std::optional<uint64_t> lengthBound(const Value *Len, const DataLayout &DL) {
  if (!Len->getType()->isIntegerTy())
    return std::nullopt;
  APInt Max = rangeOf(Len, DL, 6).getUnsignedMax();
  if (Max.getActiveBits() > 32)
    return std::nullopt;
  return Max.getZExtValue();
}

/// A byte (an integer narrower than a pointer) read from memory carries
/// part of a pointer only to where it is stored again: a byte-wise copy,
/// also through a helper function. Bytes that are only compared, computed
/// with or widened are numbers: a pointer is not rebuilt from its bytes by
/// arithmetic (the printed assumption).
bool bytesMayBeStored(const Value *Root) {
  SmallVector<const Value *, 8> Work = {Root};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *User = U.getUser();
      if (const auto *SI = dyn_cast<StoreInst>(User)) {
        if (SI->getValueOperand() == V)
          return true;
      } else if (isa<PHINode>(User) || isa<FreezeInst>(User) ||
                 isa<TruncInst>(User) ||
                 (isa<SelectInst>(User) && U.getOperandNo() != 0)) {
        Work.push_back(User);
      } else if (const auto *CB = dyn_cast<CallBase>(User)) {
        if (isa<DbgInfoIntrinsic>(CB))
          continue;
        const auto *F =
            dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
        if (!CB->isArgOperand(&U) || !F || F->isDeclaration() ||
            CB->getArgOperandNo(&U) >= F->arg_size())
          return true;
        Work.push_back(F->getArg(CB->getArgOperandNo(&U)));
      } else if (isa<ReturnInst>(User) || isa<InsertValueInst>(User) ||
                 isa<InsertElementInst>(User) || isa<AtomicRMWInst>(User) ||
                 isa<AtomicCmpXchgInst>(User)) {
        return true;
      }
      // Compared, branched on, computed with, widened: a number.
    }
  }
  return false;
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
