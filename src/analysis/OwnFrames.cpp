//===- OwnFrames.cpp - pointers that reach only the running thread's stack
//-===//
#include "analysis/OwnFrames.h"
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

OwnFrames::OwnFrames(const ProgramModel &PM) {
  const PointsTo &PTA = PM.pointsTo();
  auto HasStack = [&](const Value *V) {
    for (Loc L : PTA.pointsTo(V))
      if (PTA.object(L.Obj).Kind == ObjKind::Stack)
        return true;
    return false;
  };
  std::vector<const Value *> Work;
  auto Mark = [&](const Value *V) {
    if (HasStack(V) && Foreign.insert(V).second)
      Work.push_back(V);
  };
  auto MarkParams = [&](const Function &F) {
    for (const Argument &A : F.args())
      Mark(&A);
  };

  // Who calls whom, resolved by points-to; and the seeds.
  DenseMap<const Function *, std::vector<const CallBase *>> Callers;
  DenseMap<const CallBase *, SmallVector<const Function *, 4>> Targets;
  for (const Function &F : PM.module()) {
    if (F.isDeclaration())
      continue;
    // Code outside the program may call it with any pointer it holds.
    if (PTA.reachableByUnknown(PTA.objectOf(&F)))
      MarkParams(F);
    for (const Instruction &I : instructions(F)) {
      if (isa<LoadInst>(I) || isa<AtomicRMWInst>(I) ||
          isa<AtomicCmpXchgInst>(I) || isa<VAArgInst>(I)) {
        Mark(&I);
        continue;
      }
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->isInlineAsm()) {
        Mark(CB);
        continue;
      }
      if (isa<IntrinsicInst>(CB))
        continue; // follows its arguments (below)
      if (auto K = callIntrinsic(*CB)) {
        // A start routine receives its argument from another thread.
        if (*K == Intrinsic::ThreadCreate)
          for (Loc L : PTA.pointsTo(CB->getArgOperand(1)))
            if (const auto *Fn =
                    dyn_cast_or_null<Function>(PTA.object(L.Obj).Site))
              MarkParams(*Fn);
        Mark(CB);
        continue;
      }
      bool Unresolved = false;
      auto Callees = PTA.callees(*CB, &Unresolved);
      if (Unresolved)
        Mark(CB);
      for (const Function *Fn : Callees) {
        if (Fn->isDeclaration()) {
          Mark(CB);
          continue;
        }
        Callers[Fn].push_back(CB);
        Targets[CB].push_back(Fn);
      }
    }
  }
  // A thread's start routine, a signal handler, a destructor: whatever
  // crace runs as a thread starts with parameters it did not compute.
  for (const ThreadTemplate &T : PM.threads())
    if (T.Entry && T.CreateSite)
      MarkParams(*T.Entry);

  while (!Work.empty()) {
    const Value *V = Work.back();
    Work.pop_back();
    for (const Use &U : V->uses()) {
      const auto *Usr = dyn_cast<Instruction>(U.getUser());
      if (!Usr)
        continue;
      if (const auto *CB = dyn_cast<CallBase>(Usr)) {
        if (isa<IntrinsicInst>(CB)) {
          if (!CB->getType()->isVoidTy())
            Mark(CB);
          continue;
        }
        if (!CB->isArgOperand(&U))
          continue;
        unsigned A = CB->getArgOperandNo(&U);
        if (auto It = Targets.find(CB); It != Targets.end())
          for (const Function *Fn : It->second)
            if (A < Fn->arg_size())
              Mark(Fn->getArg(A));
        continue;
      }
      if (isa<ReturnInst>(Usr)) {
        if (auto It = Callers.find(Usr->getFunction()); It != Callers.end())
          for (const CallBase *CB : It->second)
            Mark(CB);
        continue;
      }
      // An index does not change which object a GEP points into (no
      // undefined behaviour), unless its base points nowhere (points-to
      // then takes the index's targets).
      if (const auto *GEP = dyn_cast<GetElementPtrInst>(Usr)) {
        if (U.get() == GEP->getPointerOperand() ||
            PTA.pointsTo(GEP->getPointerOperand()).empty())
          Mark(GEP);
        continue;
      }
      if (isa<CastInst>(Usr) || isa<PHINode>(Usr) || isa<SelectInst>(Usr) ||
          isa<FreezeInst>(Usr) || isa<BinaryOperator>(Usr) ||
          isa<UnaryOperator>(Usr) || isa<ExtractValueInst>(Usr) ||
          isa<InsertValueInst>(Usr) || isa<ExtractElementInst>(Usr) ||
          isa<InsertElementInst>(Usr) || isa<ShuffleVectorInst>(Usr))
        Mark(Usr);
    }
  }
}

} // namespace crace
