//===- AccessRecord.cpp - one access as the lockset analysis saw it -------===//
#include "analysis/AccessRecord.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace crace {

std::vector<AccessRecord> inProgramOrder(const std::set<AccessRecord> &Records,
                                         const Module &M) {
  std::vector<AccessRecord> Recs(Records.begin(), Records.end());
  DenseMap<const Instruction *, unsigned> Pos;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      Pos[&I] = Pos.size();
  auto Key = [&](const AccessRecord &X) {
    return std::make_tuple(X.Thread, Pos.lookup(X.Access.Inst),
                           X.MainPos ? Pos.lookup(X.MainPos) : 0u,
                           unsigned(X.Access.Kind), X.Locks.Held,
                           X.Child ? Pos.lookup(X.Child) + 1 : 0u);
  };
  std::stable_sort(Recs.begin(), Recs.end(),
                   [&](const AccessRecord &X, const AccessRecord &Y) {
                     return Key(X) < Key(Y);
                   });
  return Recs;
}

} // namespace crace
