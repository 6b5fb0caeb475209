//===- ArrayElement.cpp - addresses of the form base + index * size + c ---===//
#include "model/ArrayElement.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace crace {

std::optional<ArrayElement> arrayElement(const DataLayout &DL,
                                         const Value *Ptr) {
  if (!Ptr->getType()->isPointerTy())
    return std::nullopt;
  unsigned Bits = DL.getIndexTypeSizeInBits(Ptr->getType());
  // Fields of the element: in-bounds constant offsets on top.
  APInt Field(Bits, 0);
  const auto *GEP =
      dyn_cast<GEPOperator>(Ptr->stripAndAccumulateConstantOffsets(
          DL, Field, /*AllowNonInbounds=*/false));
  if (!GEP || !GEP->isInBounds())
    return std::nullopt;
  MapVector<Value *, APInt> Vars;
  APInt Const(Bits, 0);
  if (!GEP->collectOffset(DL, Bits, Vars, Const) || Vars.size() != 1)
    return std::nullopt;
  auto &[Idx, Scale] = Vars.front();
  if (Scale.isZero() || Scale.isNegative())
    return std::nullopt;
  ArrayElement E;
  E.Base = GEP->getPointerOperand()->stripPointerCasts();
  E.Elem = Scale.getZExtValue();
  E.Offset = (Const + Field).getSExtValue();
  E.Index = Idx;
  return E;
}

std::optional<std::pair<const Value *, bool>>
stableBase(const ArrayElement &E,
           function_ref<bool(const GlobalVariable *)> Stable) {
  if (isa<GlobalVariable>(E.Base))
    return std::make_pair(E.Base, false);
  if (const auto *L = dyn_cast<LoadInst>(E.Base))
    if (const auto *G = dyn_cast<GlobalVariable>(
            L->getPointerOperand()->stripPointerCasts());
        G && Stable(G))
      return std::make_pair(static_cast<const Value *>(G), true);
  return std::nullopt;
}

const Value *stripExtensions(const Value *V) {
  while (isa<SExtInst>(V) || isa<ZExtInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

const Value *stripAddressCasts(const Value *P) {
  while (isa<BitCastOperator>(P) || isa<AddrSpaceCastOperator>(P))
    P = cast<Operator>(P)->getOperand(0);
  return P;
}

} // namespace crace
