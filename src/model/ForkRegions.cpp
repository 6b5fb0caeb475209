//===- ForkRegions.cpp - code that runs only in the child of a fork -------===//
//
// `if ((pid = fork()) == 0) { ...; exit(0); }`: the blocks the child's
// edge dominates run in the child process only, when none of them leaves
// the region (no return, no edge out): the child then never comes back to
// code that the parent runs too. A child process holds the forking thread
// alone, with a copy of memory, so what runs there cannot race with any
// thread of the parent (analysis/MHP.h's processes).
//
//===----------------------------------------------------------------------===//
#include "model/ProgramModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

/// V without sign or zero extensions, which keep 0 and only 0 at 0 (a
/// truncation could make a pid of 256 read as 0).
static const Value *stripWidening(const Value *V) {
  while (isa<SExtInst>(V) || isa<ZExtInst>(V))
    V = cast<CastInst>(V)->getOperand(0);
  return V;
}

/// V is the fork call's result: the call itself, a widening of it, or a
/// phi of it and non-zero constants (the failure path of the fork model
/// returns -1).
static bool isForkResult(const Value *V, const CallBase &Fork) {
  V = stripWidening(V);
  if (V == &Fork)
    return true;
  const auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi)
    return false;
  bool Seen = false;
  for (const Value *In : Phi->incoming_values()) {
    In = stripWidening(In);
    if (In == &Fork) {
      Seen = true;
      continue;
    }
    const auto *K = dyn_cast<ConstantInt>(In);
    if (!K || K->isZero())
      return false;
  }
  return Seen;
}

/// Loads that read Fork's result (one of Results) back from a global: the
/// global is used only by loads, by the one store of that result, which
/// dominates the load, and by stores of non-zero constants (the fork model's
/// failure path, -1, threaded apart). Every 0 the global holds in a process is
/// then this fork's result in that process, so 0 is read only in its
/// child.
static void reloadsOf(const CallBase &Fork, ArrayRef<const Value *> Results,
                      const DominatorTree &DT,
                      SmallVectorImpl<const Value *> &Out) {
  for (const Value *R : Results)
    for (const User *U : R->users()) {
      const auto *St = dyn_cast<StoreInst>(U);
      const auto *G =
          St ? dyn_cast<GlobalVariable>(St->getPointerOperand()) : nullptr;
      if (!G || St->getValueOperand() != R || St->isVolatile() ||
          !isForkResult(R, Fork))
        continue;
      SmallVector<const LoadInst *, 4> Loads;
      bool Only = llvm::all_of(G->uses(), [&](const Use &GU) {
        if (GU.getUser() == St)
          return GU.getOperandNo() == St->getPointerOperandIndex();
        if (const auto *Other = dyn_cast<StoreInst>(GU.getUser())) {
          const auto *K = dyn_cast<ConstantInt>(Other->getValueOperand());
          return GU.getOperandNo() == Other->getPointerOperandIndex() && K &&
                 !K->isZero() && K->getType() == R->getType();
        }
        // (A narrower load could read 0 bytes of a non-zero pid.)
        const auto *L = dyn_cast<LoadInst>(GU.getUser());
        if (!L || L->getType() != R->getType())
          return false;
        Loads.push_back(L);
        return true;
      });
      if (!Only)
        continue;
      for (const LoadInst *L : Loads)
        if (L->getFunction() == Fork.getFunction() && DT.dominates(St, L))
          Out.push_back(L);
    }
}

/// The block the child's side of Fork starts at: the target of the edge
/// taken when the result is 0, if that edge is the block's only way in.
static const BasicBlock *childEntry(const CallBase &Fork,
                                    const DominatorTree &DT) {
  SmallVector<const Value *, 4> Results{&Fork};
  for (const User *U : Fork.users())
    if (isa<SExtInst>(U) || isa<ZExtInst>(U) || isa<PHINode>(U))
      Results.push_back(U);
  SmallVector<const Value *, 4> Reloads;
  reloadsOf(Fork, Results, DT, Reloads);
  Results.append(Reloads.begin(), Reloads.end());
  for (const Value *R : Results) {
    if (!isa<LoadInst>(R) && !isForkResult(R, Fork))
      continue;
    for (const User *U : R->users()) {
      const BasicBlock *To = nullptr;
      if (const auto *SI = dyn_cast<SwitchInst>(U)) {
        if (SI->getCondition() != R)
          continue;
        for (auto Case : SI->cases())
          if (Case.getCaseValue()->isZero())
            To = Case.getCaseSuccessor();
      } else if (const auto *Cmp = dyn_cast<ICmpInst>(U)) {
        if (!Cmp->isEquality())
          continue;
        const auto *K = dyn_cast<ConstantInt>(
            Cmp->getOperand(Cmp->getOperand(0) == R ? 1 : 0));
        if (!K || !K->isZero())
          continue;
        for (const User *BU : Cmp->users()) {
          const auto *Br = dyn_cast<BranchInst>(BU);
          if (!Br || !Br->isConditional() || Br->getCondition() != Cmp)
            continue;
          To = Br->getSuccessor(Cmp->getPredicate() == ICmpInst::ICMP_EQ ? 0
                                                                         : 1);
          if (Br->getSuccessor(0) == Br->getSuccessor(1))
            To = nullptr;
          break;
        }
      }
      // The edge must be the block's only way in, so that the block (and
      // what it dominates) runs only when fork returned 0.
      if (To && To->getSinglePredecessor())
        return To;
    }
  }
  return nullptr;
}

void ProgramModel::findForkChildren() {
  // A longjmp out of the child's code lands where the parent's code runs
  // too: no region is closed then.
  for (const Function &F : M)
    if (isLongJmp(F.getName()) && !F.use_empty())
      return;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<const CallBase *, 2> Forks;
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I);
          CB && !CB->isInlineAsm() && callIntrinsic(*CB) == Intrinsic::Fork)
        Forks.push_back(CB);
    if (Forks.empty())
      continue;
    DominatorTree DT(const_cast<Function &>(F));
    SmallVector<std::pair<const CallBase *, const BasicBlock *>, 2> Entries;
    for (const CallBase *CB : Forks)
      if (const BasicBlock *E = childEntry(*CB, DT))
        Entries.push_back({CB, E});
    // Outer regions first: a fork in a child's code makes a region inside
    // the first, whose blocks then name the inner fork.
    llvm::stable_sort(Entries, [&](const auto &A, const auto &B) {
      return DT.getNode(A.second)->getLevel() <
             DT.getNode(B.second)->getLevel();
    });
    for (auto [Fork, Entry] : Entries) {
      SmallVector<BasicBlock *, 16> Region;
      DT.getDescendants(const_cast<BasicBlock *>(Entry), Region);
      bool Closed = llvm::all_of(Region, [&](const BasicBlock *BB) {
        const Instruction *T = BB->getTerminator();
        if (isa<ReturnInst>(T) || isa<ResumeInst>(T))
          return false;
        return llvm::all_of(successors(BB), [&](const BasicBlock *S) {
          return DT.dominates(Entry, S);
        });
      });
      if (!Closed)
        continue;
      for (const BasicBlock *BB : Region)
        ForkChild[BB] = Fork;
    }
  }
}

} // namespace crace
