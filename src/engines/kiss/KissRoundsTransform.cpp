//===- KissRoundsTransform.cpp - the K-round form of the transform
//----------===//
//
// With --rounds=K (Lal-Reps, Rounds.h): the copied globals, the redirected
// operands, main's round loop and the layout of the round copies.
//
//===----------------------------------------------------------------------===//
#include "engines/kiss/KissTransformImpl.h"

#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "engines/kiss/Rounds.h"
#include "model/PointsTo.h"

#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace crace::kiss {

using namespace detail;

Transformer::PtrClass Transformer::classify(const Value *V) const {
  bool InCopies = false, Other = false;
  for (const Loc &L : PT.pointsTo(V)) {
    if (L.Obj == PointsTo::UnknownObj)
      return PtrClass::Bad;
    if (RObjs.count(L.Obj)) {
      InCopies = true;
      continue;
    }
    Other = true;
    const AbsObject &Ob = PT.object(L.Obj);
    // Unshared objects, functions and read-only globals need no copies.
    if (!Ob.Shared || Ob.Kind == ObjKind::Function ||
        (Ob.Kind == ObjKind::Global && !RWritten.count(L.Obj)))
      continue;
    return PtrClass::Bad;
  }
  if (!InCopies)
    return PtrClass::None;
  return Other ? PtrClass::Bad : PtrClass::Copied;
}

/// The copied globals: defined, mutable, shared and written.
Error Transformer::roundsPrepare() {
  const Module &Src = PM.module();
  for (const Function &F : Src)
    for (const Instruction &I : instructions(F))
      for (const MemAccess &A : PM.accessesOf(I))
        if (A.Kind == AccessKind::Write && A.Ptr)
          for (const Loc &L : PT.pointsTo(A.Ptr))
            RWritten.insert(L.Obj);
  for (const GlobalVariable &G : Src.globals()) {
    if (G.isDeclaration() || G.isConstant() || G.isThreadLocal() ||
        G.getSection() == ".crace_model" || G.getName().starts_with("llvm.") ||
        G.getName().starts_with("__kiss"))
      continue;
    uint32_t Obj = PT.objectOf(&G);
    if (Obj == PointsTo::UnknownObj || !PT.object(Obj).Shared ||
        !RWritten.count(Obj))
      continue;
    RGlobals.push_back(&G);
    RObjs.insert(Obj);
  }
  return Error::success();
}

/// The operands that address the copied state; an error for accesses of
/// other shared memory (heap, stack, unknown pointers, library calls).
Error Transformer::roundsRedirects() {
  std::vector<std::string> Bad;
  auto Check = [&](Instruction &I, const Instruction *OI, unsigned OpNo) {
    switch (classify(OI->getOperand(OpNo))) {
    case PtrClass::None:
      break;
    case PtrClass::Copied:
      Redirects.push_back({&I, OpNo});
      break;
    case PtrClass::Bad:
      Bad.push_back(PM.location(OI).str());
      break;
    }
  };
  for (Function *F : UserFns)
    for (Instruction &I : instructions(*F)) {
      const Instruction *OI = orig(&I);
      // Code the program never runs (models of functions it does not call).
      if (!OI || !PM.mayRun(*OI->getFunction()))
        continue;
      if (isa<LoadInst>(I))
        Check(I, OI, LoadInst::getPointerOperandIndex());
      else if (isa<StoreInst>(I))
        Check(I, OI, StoreInst::getPointerOperandIndex());
      else if (isa<AtomicRMWInst>(I))
        Check(I, OI, AtomicRMWInst::getPointerOperandIndex());
      else if (isa<AtomicCmpXchgInst>(I))
        Check(I, OI, AtomicCmpXchgInst::getPointerOperandIndex());
      else if (isa<MemIntrinsic>(I)) {
        Check(I, OI, 0);
        if (isa<MemTransferInst>(I))
          Check(I, OI, 1);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        SyncOp Op = syncOpOf(I);
        if (Op == SyncOp::Create)
          Check(I, OI, 0);
        else if (Op == SyncOp::Join)
          Check(I, OI, 1);
        else if (Op == SyncOp::None &&
                 !(CB->getCalledFunction() &&
                   (!CB->getCalledFunction()->isDeclaration() ||
                    CB->getCalledFunction()->isIntrinsic())))
          for (const MemAccess &A : PM.accessesOf(*OI))
            if (A.Ptr && classify(A.Ptr) != PtrClass::None) {
              Bad.push_back(PM.location(OI).str() + " (library call)");
              break;
            }
      }
    }
  if (Bad.empty())
    return Error::success();
  std::sort(Bad.begin(), Bad.end());
  Bad.erase(std::unique(Bad.begin(), Bad.end()), Bad.end());
  if (Bad.size() > 3)
    Bad.resize(3), Bad.push_back("...");
  return createStringError(
      inconvertibleErrorCode(),
      "--rounds supports shared global variables only: the accesses at " +
          join(Bad, ", ") +
          " may touch shared heap or stack memory (or memory the analysis "
          "cannot resolve), which the K-round form does not copy per round");
}

/// main of the K-round program: guess the start of rounds 1..K-1, run the
/// original main, then the created threads in creation order, validate the
/// guesses and the joins, and only then report a race seen on the way.
void Transformer::roundsMain(Function *Main) {
  LLVMContext &C = M->getContext();
  const DataLayout &DL = M->getDataLayout();
  unsigned K = O.Rounds;
  auto *MemTy = ArrayType::get(GTy, K);
  Mem = new GlobalVariable(*M, MemTy, false, GlobalValue::InternalLinkage,
                           Constant::getNullValue(MemTy), "__kiss_mem");
  FunctionType *FT = Main->getFunctionType();
  Function *NewMain =
      Function::Create(FT, GlobalValue::ExternalLinkage, "main", M);
  Main->setLinkage(GlobalValue::InternalLinkage);
  auto *Entry = BasicBlock::Create(C, "entry", NewMain);
  auto *Returned = BasicBlock::Create(C, "returned", NewMain);
  auto *Others = BasicBlock::Create(C, "others", NewMain);
  IRBuilder<> B(Entry);
  Value *Guess = nullptr;
  if (K > 1) {
    // Uninitialised stack memory: an unconstrained guess.
    Guess = B.CreateAlloca(MemTy, nullptr, "kiss.guess");
    B.CreateMemCpy(B.CreateConstGEP1_64(B.getInt8Ty(), Mem, Stride), Align(1),
                   B.CreateConstGEP1_64(B.getInt8Ty(), Guess, Stride), Align(1),
                   (K - 1) * Stride);
  }
  std::vector<Value *> Args;
  for (Argument &A : NewMain->args())
    Args.push_back(&A);
  CallInst *R = B.CreateCall(Main, Args);
  // A normal return from main ends the program in main's current round:
  // the others run in earlier rounds only.
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Raise), Others, Returned);
  B.SetInsertPoint(Returned);
  // (The return itself may come in a later round.)
  B.CreateCall(Schedule);
  B.CreateStore(B.CreateLoad(B.getInt32Ty(), Round),
                M->getNamedGlobal("__kiss_limit"));
  B.CreateBr(Others);
  B.SetInsertPoint(Others);
  B.CreateStore(B.getFalse(), Raise);
  B.CreateStore(B.getFalse(), Atomic);
  Function *Start = M->getFunction("__kiss_start");
  Type *IH = Start->getFunctionType()->getParamType(0);
  for (unsigned Id = 1; Id <= O.RoundsThreads; ++Id)
    B.CreateCall(Start, {ConstantInt::get(IH, Id)});
  B.CreateCall(M->getFunction("__kiss_check_joins"));
  Function *Assume = M->getFunction("__kiss_assume");
  for (unsigned Rd = 0; Rd + 1 < K; ++Rd) {
    Value *Ok = B.getTrue();
    for (uint64_t Off = 0; Off < Stride;) {
      uint64_t N = 8;
      while (Off + N > Stride || Off % N)
        N /= 2;
      Type *T = B.getIntNTy(8 * N);
      Value *End = B.CreateLoad(
          T, B.CreateConstGEP1_64(B.getInt8Ty(), Mem, Rd * Stride + Off));
      Value *Begin =
          B.CreateLoad(T, B.CreateConstGEP1_64(B.getInt8Ty(), Guess,
                                               (Rd + 1) * Stride + Off));
      Ok = B.CreateAnd(Ok, B.CreateICmpEQ(End, Begin));
      Off += N;
    }
    B.CreateCall(Assume, {Ok});
  }
  (void)DL;
  for (unsigned I = 0; I < RaceSites.size(); ++I) {
    const SiteInfo &SI = RaceSites[I];
    auto *FailBB = BasicBlock::Create(C, "kiss.race", NewMain);
    auto *Next = BasicBlock::Create(C, "kiss.next", NewMain);
    Value *Hit = B.CreateAnd(
        B.CreateLoad(B.getInt1Ty(), RaceFlag[SI.Target]),
        B.CreateICmpEQ(B.CreateLoad(B.getInt32Ty(), RaceSite[SI.Target]),
                       B.getInt32(I)));
    B.CreateCondBr(Hit, FailBB, Next);
    B.SetInsertPoint(FailBB);
    P.FailSites[B.CreateCall(Fail)] = SI;
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
  }
  if (FT->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(R);
}

/// The copied globals and the lock table become fields of one struct, and
/// the module's globals K copies of it; copy 0 holds the initial values and
/// every pointer to a copied global points into copy 0.
void Transformer::roundsLayout() {
  std::vector<GlobalVariable *> Gs;
  for (const GlobalVariable *G : RGlobals)
    Gs.push_back(cast<GlobalVariable>(VMap.lookup(G)));
  Gs.push_back(M->getNamedGlobal("__kiss_locks"));
  std::vector<Constant *> Init;
  MaybeAlign A = Align(8);
  for (GlobalVariable *G : Gs) {
    Init.push_back(G->getInitializer());
    if (G->getAlign() && *G->getAlign() > *A)
      A = G->getAlign();
  }
  auto *MemTy = cast<ArrayType>(Mem->getValueType());
  std::vector<Constant *> Copies(MemTy->getNumElements(),
                                 Constant::getNullValue(GTy));
  Copies[0] = ConstantStruct::get(GTy, Init);
  Mem->setInitializer(ConstantArray::get(MemTy, Copies));
  Mem->setAlignment(A);
  Type *I32 = Type::getInt32Ty(M->getContext());
  for (unsigned I = 0; I < Gs.size(); ++I) {
    Constant *Idx[] = {ConstantInt::get(I32, 0), ConstantInt::get(I32, 0),
                       ConstantInt::get(I32, I)};
    Constant *Addr = ConstantExpr::getInBoundsGetElementPtr(MemTy, Mem, Idx);
    Gs[I]->replaceAllUsesWith(Addr);
    Gs[I]->eraseFromParent();
  }
}

} // namespace crace::kiss
