//===- CountedCreates.cpp - handles stored at a counter of creates --------===//
#include "model/CountedCreates.h"
#include "model/ArrayElement.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetOperations.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace crace {

namespace {

/// What holds at a program point of main: K = 0 (Zero), and the values
/// known to equal K, K - 1 and K + 1.
struct State {
  bool Reached = false;
  bool Zero = true;
  SmallPtrSet<const Value *, 8> Eq, EqM1, EqP1;

  bool operator==(const State &O) const {
    return Reached == O.Reached && Zero == O.Zero && Eq == O.Eq &&
           EqM1 == O.EqM1 && EqP1 == O.EqP1;
  }
  void meet(const State &O) {
    if (!O.Reached)
      return;
    if (!Reached) {
      *this = O;
      return;
    }
    Zero &= O.Zero;
    set_intersect(Eq, O.Eq);
    set_intersect(EqM1, O.EqM1);
    set_intersect(EqP1, O.EqP1);
  }
  /// V (an index or bound) equals K here.
  [[nodiscard]] bool equalsK(const Value *V) const {
    V = stripExtensions(V);
    return Eq.contains(V) || (Zero && match(V, m_Zero()));
  }
};

} // namespace

bool countsCreates(const Function &Main, ArrayRef<const CallBase *> Sites,
                   function_ref<const Value *(const CallBase *)> Index,
                   const Value *B, const BasicBlock *At) {
  SmallPtrSet<const Instruction *, 4> IsSite(Sites.begin(), Sites.end());
  DenseMap<const BasicBlock *, State> Out;
  bool Bad = false;
  // Runs block BB from its entry state; records a create whose index is
  // not K (on the final pass that makes the answer no).
  auto Run = [&](const BasicBlock &BB, bool Check) {
    State S;
    if (&BB == &Main.getEntryBlock()) {
      S.Reached = true;
    } else {
      for (const BasicBlock *P : predecessors(&BB))
        S.meet(Out.lookup(P));
    }
    if (!S.Reached)
      return S;
    for (const Instruction &I : BB) {
      if (const auto *Phi = dyn_cast<PHINode>(&I)) {
        // Equal to K when every reached edge brings a value equal to K.
        S.Eq.erase(Phi);
        S.EqM1.erase(Phi);
        S.EqP1.erase(Phi);
        bool All = true, Any = false;
        for (unsigned N = 0; N < Phi->getNumIncomingValues(); ++N) {
          auto It = Out.find(Phi->getIncomingBlock(N));
          if (It == Out.end() || !It->second.Reached)
            continue;
          Any = true;
          All &= It->second.equalsK(Phi->getIncomingValue(N));
        }
        if (Any && All)
          S.Eq.insert(Phi);
        continue;
      }
      if (const auto *CB = dyn_cast<CallBase>(&I); CB && IsSite.contains(CB)) {
        const Value *Idx = Index(CB);
        if (Check && (!Idx || !S.equalsK(Idx)))
          Bad = true;
        S.EqM1 = std::move(S.Eq);
        S.Eq = std::move(S.EqP1);
        S.EqP1.clear();
        S.Zero = false;
        continue;
      }
      // A new value of I: only X + 1 for X = K - 1 or K is known.
      S.Eq.erase(&I);
      S.EqM1.erase(&I);
      S.EqP1.erase(&I);
      const Value *X = nullptr;
      // It does not wrap: the flags say so, or the counter is at least 32
      // bits wide (it indexes an array on main's stack, which has fewer
      // elements: a wrap would index out of it first).
      if (match(&I, m_Add(m_Value(X), m_One())) &&
          (I.hasNoSignedWrap() || I.hasNoUnsignedWrap() ||
           I.getType()->getScalarSizeInBits() >= 32)) {
        if (S.EqM1.contains(X))
          S.Eq.insert(&I);
        else if (S.equalsK(X))
          S.EqP1.insert(&I);
      }
    }
    return S;
  };
  ReversePostOrderTraversal<const Function *> RPO(&Main);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock *BB : RPO) {
      State S = Run(*BB, /*Check=*/false);
      auto [It, New] = Out.try_emplace(BB, S);
      if (!New && !(It->second == S)) {
        It->second = std::move(S);
        Changed = true;
      } else if (New) {
        Changed = true;
      }
    }
  }
  for (const BasicBlock *BB : RPO)
    Run(*BB, /*Check=*/true);
  if (Bad)
    return false;
  auto It = Out.find(At);
  return It != Out.end() && It->second.Reached && It->second.equalsK(B);
}

} // namespace crace
