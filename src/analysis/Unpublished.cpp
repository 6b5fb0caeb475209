//===- Unpublished.cpp - accesses to a block no other thread can know yet -===//
#include "analysis/Unpublished.h"

#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace crace {

const Value *Unpublished::root(const Value *P) const {
  while (true) {
    if (const auto *G = dyn_cast<GEPOperator>(P))
      P = G->getPointerOperand();
    else if (isa<BitCastOperator>(P) || isa<AddrSpaceCastOperator>(P))
      P = cast<Operator>(P)->getOperand(0);
    else
      break;
  }
  if (const auto *A = dyn_cast<Argument>(P))
    return Fresh.contains(A) ? A : nullptr;
  const auto *CB = dyn_cast<CallBase>(P);
  return CB && callIntrinsic(*CB) == Intrinsic::Alloc ? CB : nullptr;
}

/// Values computed from Root by GEPs, casts, phis and selects (Root
/// included).
template <typename Fn> static void forEachUse(const Value *Root, Fn &&F) {
  SmallVector<const Value *, 8> Work{Root};
  DenseSet<const Value *> Seen{Root};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const auto *I = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back(I);
        continue;
      }
      F(U, V);
    }
  }
}

/// U, a use of a value computed from the block's address (not by address
/// arithmetic), may hand the address to code that keeps it.
bool Unpublished::captures(const Use &U) const {
  const auto *I = cast<Instruction>(U.getUser());
  if (isa<LoadInst>(I) || isa<ICmpInst>(I))
    return false;
  // CIL compares pointers as numbers: `(unsigned)p != (unsigned)0`.
  if (isa<PtrToIntInst>(I))
    return !all_of(I->users(), [](const User *C) { return isa<ICmpInst>(C); });
  if (const auto *S = dyn_cast<StoreInst>(I))
    return U.getOperandNo() != S->getPointerOperandIndex();
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(I))
    return U.getOperandNo() != RMW->getPointerOperandIndex();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
    return U.getOperandNo() != CX->getPointerOperandIndex();
  if (isa<MemIntrinsic>(I))
    return false;
  if (const auto *CB = dyn_cast<CallBase>(I)) {
    if (CB->isCallee(&U))
      return true;
    if (auto K = callIntrinsic(*CB)) // (its release or size keeps none)
      return !usesObjectOnly(*K) && *K != Intrinsic::Free &&
             *K != Intrinsic::ObjectSize;
    const Function *F = CB->getCalledFunction();
    if (F && F->isIntrinsic())
      return !isBenignLLVMIntrinsic(*F);
    // A library function with a known effect (SyncAPI.def's EXTERNAL rows:
    // printing, formatting, scanning) reads or writes what it is given
    // and keeps no pointer.
    if (F && F->isDeclaration() && lookupExternal(F->getName()))
      return false;
    // A helper that keeps no copy of this parameter.
    unsigned N = CB->getArgOperandNo(&U);
    return !F || F->isDeclaration() || N >= F->arg_size() ||
           Kept.contains(F->getArg(N));
  }
  return true; // ret, insertvalue, inttoptr, ...: the address may get out
}

Unpublished::Unpublished(const Module &M) {
  // Parameters kept: the greatest fixed point, starting from "none".
  std::vector<const Argument *> Params;
  for (const Function &F : M)
    if (!F.isDeclaration())
      for (const Argument &A : F.args())
        if (A.getType()->isPointerTy())
          Params.push_back(&A);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Argument *A : Params) {
      if (Kept.contains(A))
        continue;
      bool Keeps = false;
      forEachUse(A, [&](const Use &U, const Value *) {
        Keeps = Keeps || captures(U);
      });
      if (Keeps) {
        Kept.insert(A);
        Changed = true;
      }
    }
  }
  // Fresh parameters: again the greatest fixed point, from every
  // parameter of a function called directly alone.
  for (const Argument *A : Params)
    if (all_of(A->getParent()->uses(), [](const Use &U) {
          const auto *CB = dyn_cast<CallBase>(U.getUser());
          return CB && CB->isCallee(&U);
        }))
      Fresh.insert(A);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Argument *A : Params)
      if (Fresh.contains(A) && !freshAtEveryCall(*A)) {
        Fresh.erase(A);
        Changed = true;
      }
  }
}

bool Unpublished::freshAtEveryCall(const Argument &A) {
  for (const Use &U : A.getParent()->uses()) {
    const auto *CB = cast<CallBase>(U.getUser());
    if (A.getArgNo() >= CB->arg_size())
      return false;
    const Value *R = root(CB->getArgOperand(A.getArgNo()));
    if (!R || reached(R, *CB, /*IncludeI=*/false))
      return false;
    // The value in this argument alone: a capture through another one
    // would not be the parameter's.
    const Captures &C = capturesOf(R);
    for (const Use &Other : CB->args())
      if (Other.getOperandNo() != A.getArgNo() && C.Derived.contains(Other))
        return false;
  }
  return true;
}

const Unpublished::Captures &Unpublished::capturesOf(const Value *Root) {
  auto [It, New] = Cache.try_emplace(Root);
  Captures &C = It->second;
  if (!New)
    return C;
  C.Derived.insert(Root);
  forEachUse(Root, [&](const Use &U, const Value *V) {
    C.Derived.insert(V);
    if (captures(U))
      C.At.push_back(cast<Instruction>(U.getUser()));
  });
  // Blocks after a capture; entering the allocation's block runs the
  // allocation again (a parameter's entry block has no predecessors).
  const auto *Alloc = dyn_cast<Instruction>(Root);
  const BasicBlock *AllocBB = Alloc ? Alloc->getParent() : nullptr;
  SmallVector<const BasicBlock *, 16> Blocks;
  for (const Instruction *At : C.At)
    for (const BasicBlock *S : successors(At->getParent()))
      Blocks.push_back(S);
  while (!Blocks.empty()) {
    const BasicBlock *B = Blocks.pop_back_val();
    if (B == AllocBB || !C.Reached.insert(B).second)
      continue;
    for (const BasicBlock *S : successors(B))
      Blocks.push_back(S);
  }
  return C;
}

bool Unpublished::reached(const Value *Root, const Instruction &I,
                          bool IncludeI) {
  const Captures &C = capturesOf(Root);
  const BasicBlock *B = I.getParent();
  const auto *Alloc = dyn_cast<Instruction>(Root);
  if ((!Alloc || B != Alloc->getParent()) && C.Reached.contains(B))
    return true;
  for (const Instruction *At : C.At)
    if (At->getParent() == B &&
        ((IncludeI && At == &I) || (At != &I && At->comesBefore(&I))))
      return true;
  return false;
}

bool Unpublished::holds(const MemAccess &X) {
  const Value *R = root(X.Ptr);
  if (!R)
    return false;
  const Function *F = isa<Argument>(R) ? cast<Argument>(R)->getParent()
                                       : cast<Instruction>(R)->getFunction();
  return F == X.Inst->getFunction() && !reached(R, *X.Inst, true);
}

} // namespace crace
