//===- PointsToResults.cpp - what functions return, for points-to ------===//
//
// Function summaries the points-to analysis clones results by: wrappers
// returning an untouched fresh block, functions returning an argument.
//
//===----------------------------------------------------------------------===//
#include "model/PointsTo.h"
#include "model/SyncAPI.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace crace {

bool returnsUntouchedAllocation(const Function &F) {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy() ||
      F.getName() == "main")
    return false;
  bool Allocates = false;
  for (const Instruction &I : instructions(F)) {
    if (const auto *R = dyn_cast<ReturnInst>(&I)) {
      if (!R->getReturnValue() || !freshOrNull(R->getReturnValue()))
        return false;
      continue;
    }
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || callIntrinsic(*CB) != Intrinsic::Alloc)
      continue;
    Allocates = true;
    SmallVector<const Value *, 8> Work = {CB};
    SmallPtrSet<const Value *, 16> Seen;
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      if (!Seen.insert(V).second)
        continue;
      for (const User *U : V->users()) {
        if (isa<ReturnInst>(U) || isa<ICmpInst>(U))
          continue;
        if (isa<PHINode>(U) || isa<SelectInst>(U) || isa<BitCastInst>(U) ||
            isa<AddrSpaceCastInst>(U)) {
          if (const auto *S = dyn_cast<SelectInst>(U);
              S && S->getCondition() == V)
            return false;
          Work.push_back(U);
          continue;
        }
        if (isMarker(U))
          continue;
        return false;
      }
    }
  }
  return Allocates;
}

std::optional<SmallVector<std::pair<unsigned, int64_t>, 2>>
argumentResult(const Function &F, const DataLayout &DL) {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy() ||
      F.getName() == "main")
    return std::nullopt;
  SmallVector<std::pair<const Value *, int64_t>, 8> Work;
  for (const Instruction &I : instructions(F))
    if (const auto *R = dyn_cast<ReturnInst>(&I)) {
      if (!R->getReturnValue())
        return std::nullopt;
      Work.push_back({R->getReturnValue(), 0});
    }
  SmallVector<std::pair<unsigned, int64_t>, 2> Out;
  SmallPtrSet<const Value *, 16> Seen;
  bool Varies = false; // a value reached twice: a loop moves the pointer
  while (!Work.empty()) {
    auto [V, Off] = Work.pop_back_val();
    if (!Seen.insert(V).second) {
      Varies = true;
      continue;
    }
    if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
      continue;
    if (const auto *A = dyn_cast<Argument>(V)) {
      Out.push_back({A->getArgNo(), Off});
    } else if (isa<BitCastInst>(V) || isa<AddrSpaceCastInst>(V) ||
               isa<FreezeInst>(V)) {
      Work.push_back({cast<Instruction>(V)->getOperand(0), Off});
    } else if (const auto *GEP = dyn_cast<GetElementPtrInst>(V)) {
      APInt C(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      bool Known = Off != UnknownOffset && GEP->accumulateConstantOffset(DL, C);
      Work.push_back({GEP->getPointerOperand(),
                      Known ? Off + C.getSExtValue() : UnknownOffset});
    } else if (const auto *Phi = dyn_cast<PHINode>(V)) {
      for (const Value *In : Phi->incoming_values())
        Work.push_back({In, Off});
    } else if (const auto *S = dyn_cast<SelectInst>(V)) {
      Work.push_back({S->getTrueValue(), Off});
      Work.push_back({S->getFalseValue(), Off});
    } else {
      return std::nullopt;
    }
  }
  if (Varies)
    for (auto &[A, Off] : Out)
      Off = UnknownOffset;
  return Out;
}

} // namespace crace
