//===- CfgPaths.cpp - paths through one function's control flow -----------===//
#include "model/CfgPaths.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace crace {

bool reachesAvoiding(const Instruction *From, const Instruction *To,
                     const BasicBlock *Avoid) {
  const BasicBlock *FB = From->getParent(), *TB = To->getParent();
  if (FB == TB && From->comesBefore(To))
    return true;
  SmallVector<const BasicBlock *, 16> Work(successors(FB));
  SmallPtrSet<const BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (B == Avoid || !Seen.insert(B).second)
      continue;
    if (B == TB)
      return true;
    Work.append(succ_begin(B), succ_end(B));
  }
  return false;
}

} // namespace crace
