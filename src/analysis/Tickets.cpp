//===- Tickets.cpp - values taken from a counter every take advances -----===//
#include "analysis/Tickets.h"
#include "model/ArrayElement.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <map>
#include <vector>

using namespace llvm;

namespace crace {

namespace {

/// The store that completes the take starting at load L: later in L's
/// block, no call between, storing L + C (C > 0, no signed wrap) to L's
/// counter. ("j = next; next++;" reads the counter twice: a load of it
/// before any store gives L's value again.)
const StoreInst *completion(const LoadInst &L) {
  const auto *G = dyn_cast<GlobalVariable>(L.getPointerOperand());
  if (!G || L.isVolatile() || !L.getType()->isIntegerTy())
    return nullptr;
  SmallPtrSet<const Value *, 4> Same = {&L};
  for (const Instruction *I = L.getNextNode(); I; I = I->getNextNode()) {
    if (isa<CallBase>(I) || I->isAtomic())
      return nullptr;
    if (const auto *L2 = dyn_cast<LoadInst>(I)) {
      if (L2->getPointerOperand() == G && L2->getType() == L.getType())
        Same.insert(L2);
      continue;
    }
    const auto *S = dyn_cast<StoreInst>(I);
    if (!S)
      continue;
    if (S->getPointerOperand() != G)
      return nullptr; // another store may alias the counter: keep it simple
    const auto *Add = dyn_cast<AddOperator>(S->getValueOperand());
    if (!Add || !Add->hasNoSignedWrap() || !Same.contains(Add->getOperand(0)))
      return nullptr;
    const auto *C = dyn_cast<ConstantInt>(Add->getOperand(1));
    return C && C->getValue().isStrictlyPositive() ? S : nullptr;
  }
  return nullptr;
}

} // namespace

Tickets::Tickets(
    const Module &M,
    const std::function<bool(const DenseSet<const Instruction *> &)>
        &Serialised,
    const std::function<bool(const GlobalVariable *,
                             const DenseSet<const Instruction *> &)>
        &WritesOnlyBy) {
  std::map<const GlobalVariable *,
           std::vector<std::pair<const LoadInst *, const StoreInst *>>>
      Found;
  for (const GlobalVariable &G : M.globals())
    for (const User *U : G.users())
      if (const auto *L = dyn_cast<LoadInst>(U))
        if (const StoreInst *S = completion(*L))
          Found[&G].push_back({L, S});
  for (auto &[G, List] : Found) {
    DenseSet<const Instruction *> Stores, All;
    for (auto [L, S] : List) {
      Stores.insert(S);
      All.insert(L);
      All.insert(S);
    }
    if (!Serialised(All) || !WritesOnlyBy(G, Stores))
      continue;
    Counters.insert(G);
    for (auto [L, S] : List)
      Takes[L] = G;
  }
}

const GlobalVariable *Tickets::counterOf(const Value *V) const {
  const auto *L = dyn_cast<LoadInst>(stripExtensions(V));
  return L ? Takes.lookup(L) : nullptr;
}

} // namespace crace
