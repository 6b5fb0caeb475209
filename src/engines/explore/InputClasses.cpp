//===- InputClasses.cpp - inputs the program only compares with constants ===//
//
// Cut points are kept as W-bit unsigned numbers, W the input's width. A
// comparison of the input with K changes its outcome only where the input
// crosses K (eq, ne, the unsigned orders: cuts before K and before K+1),
// or, for a signed order, also where the unsigned numbers wrap from
// INT_MAX to INT_MIN. Integer extensions of the input are followed: zext
// keeps the unsigned order, sext keeps it on each half (so a cut before
// INT_MIN is added), and a constant K' of the wider type is crossed, if at
// all, where the input equals K' truncated. Every extra cut only splits a
// class further, which keeps the argument sound; what is not one of these
// users (arithmetic, an index, a store, a call argument, a truncation)
// leaves the input to sampling -- unless the conditions that hold where
// that user runs leave the input at most MaxValues values (SV-COMP's
// `assume_abort_if_not(0 <= i && i < 10); lock(&m[i]);`): each of those
// becomes a class of its own, so the wider classes never reach the user.
// The conditions are those of the branches whose edges dominate the
// user, and of calls, before it, of functions that return only when their
// argument is not 0; the input's ranges under them come from
// ConstantRange (through and/or, selects and the phis of `&&`).
//
//===----------------------------------------------------------------------===//
#include "engines/explore/InputClasses.h"

#include "model/SyncAPI.h"

#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <memory>
#include <set>

using namespace llvm;

namespace crace::explore {

namespace {

/// F returns only when its one integer argument is not 0: its entry
/// branches on the argument against 0, and the side taken for 0 ends in
/// `unreachable` (assume_abort_if_not, after a call to abort or exit).
bool assumeLike(const Function *F) {
  if (!F || F->isDeclaration() || F->arg_size() != 1 ||
      !F->getArg(0)->getType()->isIntegerTy())
    return false;
  const auto *Br = dyn_cast<BranchInst>(F->getEntryBlock().getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  const auto *C = dyn_cast<ICmpInst>(Br->getCondition());
  if (!C || !C->isEquality() || C->getOperand(0) != F->getArg(0) ||
      !match(C->getOperand(1), PatternMatch::m_Zero()))
    return false;
  const BasicBlock *Zero =
      Br->getSuccessor(C->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1);
  return isa<UnreachableInst>(Zero->getTerminator());
}

/// The values the input V may have at points of its function, from the
/// conditions that hold there.
class Ranges {
public:
  Ranges(const Value &V, DominatorTree &DT)
      : V(V), DT(DT), W(cast<IntegerType>(V.getType())->getBitWidth()) {}

  /// Where I is about to run.
  ConstantRange before(const Instruction *I, unsigned Depth = 0) {
    ConstantRange R(W, true);
    if (Depth > 4)
      return R;
    const BasicBlock *BB = I->getParent();
    for (const Instruction &J : *BB) {
      if (&J == I)
        break;
      R = R.intersectWith(afterCall(J, Depth));
    }
    if (!DT.isReachableFromEntry(BB))
      return ConstantRange(W, false);
    for (const DomTreeNode *N = DT.getNode(BB)->getIDom(); N;
         N = N->getIDom()) {
      const BasicBlock *D = N->getBlock();
      for (const Instruction &J : *D)
        R = R.intersectWith(afterCall(J, Depth));
      const auto *Br = dyn_cast<BranchInst>(D->getTerminator());
      if (!Br || !Br->isConditional())
        continue;
      for (unsigned S = 0; S < 2; ++S)
        if (DT.dominates(BasicBlockEdge(D, Br->getSuccessor(S)), BB))
          R = R.intersectWith(when(Br->getCondition(), S == 0, Depth));
    }
    return R;
  }

private:
  const Value &V;
  DominatorTree &DT;
  unsigned W;

  ConstantRange full() const { return ConstantRange(W, true); }

  /// J is a call of a function that returns only for a non-zero argument.
  ConstantRange afterCall(const Instruction &J, unsigned Depth) {
    const auto *CB = dyn_cast<CallBase>(&J);
    if (!CB || CB->arg_size() != 1 || !assumeLike(CB->getCalledFunction()))
      return full();
    return nonZero(CB->getArgOperand(0), Depth);
  }

  ConstantRange nonZero(const Value *A, unsigned Depth) {
    if (A == &V)
      return ConstantRange::makeExactICmpRegion(ICmpInst::ICMP_NE,
                                                APInt::getZero(W));
    if (isa<ZExtInst>(A) || isa<SExtInst>(A))
      A = cast<CastInst>(A)->getOperand(0);
    if (A->getType()->isIntegerTy(1))
      return when(A, true, Depth);
    return full();
  }

  /// Where the i1 value C is Truth.
  ConstantRange when(const Value *C, bool Truth, unsigned Depth) {
    using namespace PatternMatch;
    if (Depth > 4)
      return full();
    if (const auto *Cmp = dyn_cast<ICmpInst>(C)) {
      ICmpInst::Predicate P =
          Truth ? Cmp->getPredicate() : Cmp->getInversePredicate();
      const auto *K = dyn_cast<ConstantInt>(Cmp->getOperand(1));
      if (Cmp->getOperand(0) == &V && K)
        return ConstantRange::makeExactICmpRegion(P, K->getValue());
      K = dyn_cast<ConstantInt>(Cmp->getOperand(0));
      if (Cmp->getOperand(1) == &V && K)
        return ConstantRange::makeExactICmpRegion(
            ICmpInst::getSwappedPredicate(P), K->getValue());
      return full();
    }
    const Value *A, *B;
    // a && b true, a || b false: both sides hold.
    if ((Truth && match(C, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
        (!Truth && match(C, m_LogicalOr(m_Value(A), m_Value(B)))))
      return when(A, Truth, Depth + 1).intersectWith(when(B, Truth, Depth + 1));
    if (match(C, m_Not(m_Value(A))))
      return when(A, !Truth, Depth + 1);
    if (const auto *Phi = dyn_cast<PHINode>(C)) {
      // `a && b` as clang emits it: false from the block that tested a,
      // b from the block a's true edge leads to. The value is Truth on
      // some incoming edge, under that edge's conditions.
      ConstantRange R(W, false);
      for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
        const Value *In = Phi->getIncomingValue(I);
        const Instruction *End = Phi->getIncomingBlock(I)->getTerminator();
        if (const auto *K = dyn_cast<ConstantInt>(In)) {
          if (K->isOne() == Truth)
            R = R.unionWith(before(End, Depth + 1));
          continue;
        }
        R = R.unionWith(
            when(In, Truth, Depth + 1).intersectWith(before(End, Depth + 1)));
      }
      return R;
    }
    return full();
  }
};

} // namespace

std::vector<uint64_t> InputClasses::classesOf(const Value &V,
                                              unsigned MaxClasses,
                                              DominatorTree *DT) {
  auto *Ty = dyn_cast<IntegerType>(V.getType());
  if (!Ty || Ty->getBitWidth() > 64 || MaxClasses == 0)
    return {};
  unsigned W = Ty->getBitWidth();
  uint64_t Mask = W == 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  uint64_t SignCut = uint64_t(1) << (W - 1);
  std::set<uint64_t> Cuts{0};
  auto Cut = [&](const APInt &K) {
    // K of the compared value's width, at least W bits (an extension of
    // the input): the input crosses it, if at all, at K truncated.
    uint64_t L = K.trunc(W).getZExtValue();
    Cuts.insert(L);
    Cuts.insert((L + 1) & Mask);
  };
  std::unique_ptr<Ranges> Where;
  std::vector<const Value *> Work{&V};
  std::set<const Value *> Seen{&V};
  while (!Work.empty()) {
    const Value *D = Work.back();
    Work.pop_back();
    if (D != &V && W > 1)
      Cuts.insert(SignCut);
    for (const User *U : D->users()) {
      if (const auto *C = dyn_cast<ICmpInst>(U)) {
        const Value *Other =
            C->getOperand(0) == D ? C->getOperand(1) : C->getOperand(0);
        if (Other == D)
          continue; // v op v: one outcome for every value
        const auto *K = dyn_cast<ConstantInt>(Other);
        if (!K)
          return {};
        Cut(K->getValue());
        if (C->isSigned() && W > 1)
          Cuts.insert(SignCut);
        continue;
      }
      if (const auto *S = dyn_cast<SwitchInst>(U)) {
        if (S->getCondition() != D)
          return {};
        for (const auto &Case : S->cases())
          Cut(Case.getCaseValue()->getValue());
        continue;
      }
      if (isa<ZExtInst>(U) || isa<SExtInst>(U) || isa<FreezeInst>(U)) {
        if (Seen.insert(U).second)
          Work.push_back(U);
        continue;
      }
      // Any other user: only where the input has few possible values.
      const auto *UI = dyn_cast<Instruction>(U);
      if (!DT || !UI)
        return {};
      if (!Where)
        Where = std::make_unique<Ranges>(V, *DT);
      ConstantRange R(W, false);
      if (const auto *Phi = dyn_cast<PHINode>(UI)) {
        for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
          if (Phi->getIncomingValue(I) == D)
            R = R.unionWith(
                Where->before(Phi->getIncomingBlock(I)->getTerminator()));
      } else {
        R = Where->before(UI);
      }
      if (R.isFullSet() || (R.getUpper() - R.getLower()).ugt(MaxValues))
        return {};
      for (APInt X = R.getLower(); X != R.getUpper(); ++X)
        Cut(X); // each value a class of its own
    }
  }
  if (Cuts.size() > MaxClasses)
    return {};
  return std::vector<uint64_t>(Cuts.begin(), Cuts.end());
}

InputClasses::InputClasses(Module &M, unsigned MaxClasses) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    std::unique_ptr<DominatorTree> DT;
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      auto In = callIntrinsic(*CB);
      if (In != Intrinsic::NondetInt && In != Intrinsic::NondetLongLong)
        continue;
      if (!DT)
        DT = std::make_unique<DominatorTree>(F);
      std::vector<uint64_t> C = classesOf(*CB, MaxClasses, DT.get());
      if (!C.empty())
        Classes.try_emplace(CB, std::move(C));
    }
  }
}

const std::vector<uint64_t> *InputClasses::lookup(const CallBase *Site) const {
  auto It = Classes.find(Site);
  return It == Classes.end() ? nullptr : &It->second;
}

} // namespace crace::explore
