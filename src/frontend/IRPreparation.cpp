//===- IRPreparation.cpp - the linked module made ready for the engines ---===//
//
// Moved out of Frontend.cpp (issue 15: no file over 800 lines); see
// IRPreparation.h.
//
//===----------------------------------------------------------------------===//
#include "frontend/IRPreparation.h"
#include "model/PassContext.h"
#include "model/SyncAPI.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/JumpThreading.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

using namespace llvm;

namespace crace {

/// Makes every function named __VERIFIER_atomic_* an atomic section.
void instrumentAtomicFunctions(Module &M) {
  auto *VoidFnTy = FunctionType::get(Type::getVoidTy(M.getContext()), false);
  FunctionCallee Begin =
      M.getOrInsertFunction(intrinsicName(Intrinsic::AtomicBegin), VoidFnTy);
  FunctionCallee End =
      M.getOrInsertFunction(intrinsicName(Intrinsic::AtomicEnd), VoidFnTy);
  for (Function &F : M) {
    if (F.isDeclaration() || !F.getName().starts_with("__VERIFIER_atomic_") ||
        F.getName() == "__VERIFIER_atomic_begin" ||
        F.getName() == "__VERIFIER_atomic_end")
      continue;
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    DebugLoc Loc;
    if (DISubprogram *SP = F.getSubprogram())
      Loc = DILocation::get(M.getContext(), SP->getLine(), 0, SP);
    CallInst *C = B.CreateCall(Begin);
    C->setDebugLoc(Loc);
    for (BasicBlock &BB : F)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator())) {
        CallInst *E = CallInst::Create(End, "", R->getIterator());
        E->setDebugLoc(R->getDebugLoc() ? R->getDebugLoc() : Loc);
      }
  }
}

/// K&R code calls functions it never declared (`extern int malloc();`):
/// clang types such a call as returning int, and the definition it links
/// to (a model: `void *malloc(size_t)`) returns a pointer of the same size,
/// which the program casts back (`(T *)malloc(n)`), as it works at run
/// time. Such calls, and calls typed int of a function returning nothing
/// whose result goes unused, get the callee's own type, so that the model
/// is inlined; the int the program sees is the pointer's number, and the
/// cast back folds to the pointer itself (foldConstantBranches), not an
/// integer turned into a pointer of unknown origin.
static void retypeImplicitCalls(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M) {
    FunctionType *FT = F.getFunctionType();
    Type *Ret = FT->getReturnType();
    SmallVector<CallInst *, 4> Calls;
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U);
          CI && CI->getCalledOperand() == &F && CI->getFunctionType() != FT &&
          CI->getFunctionType()->params() == FT->params() &&
          CI->getFunctionType()->isVarArg() == FT->isVarArg() &&
          CI->getType()->isIntegerTy() &&
          (Ret->isVoidTy()
               ? CI->use_empty()
               : Ret->isPointerTy() && DL.getTypeSizeInBits(CI->getType()) ==
                                           DL.getTypeSizeInBits(Ret)))
        Calls.push_back(CI);
    for (CallInst *CI : Calls) {
      IRBuilder<> B(CI);
      SmallVector<Value *, 4> Args(CI->args());
      CallInst *New = B.CreateCall(FT, &F, Args);
      New->setDebugLoc(CI->getDebugLoc());
      if (!Ret->isVoidTy())
        CI->replaceAllUsesWith(B.CreatePtrToInt(New, CI->getType()));
      New->takeName(CI);
      CI->eraseFromParent();
    }
  }
}

/// Marks model functions for inlining and lets every function be optimised.
void prepareForCleanup(Module &M) {
  retypeImplicitCalls(M);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.removeFnAttr(Attribute::OptimizeNone);
    if (F.getSection() == ".crace_model_call") {
      // Stays a call, under this section (explore recognises it).
      F.setLinkage(GlobalValue::InternalLinkage);
      continue;
    }
    if (F.getSection() == ".crace_model") {
      F.setSection("");
      F.removeFnAttr(Attribute::NoInline);
      F.addFnAttr(Attribute::AlwaysInline);
      F.setLinkage(GlobalValue::InternalLinkage);
    }
  }
  // Model functions are kept alive by __attribute__((used)); drop that.
  if (GlobalVariable *Used = M.getGlobalVariable("llvm.used")) {
    Used->eraseFromParent();
  }
  if (GlobalVariable *Used = M.getGlobalVariable("llvm.compiler.used")) {
    Used->eraseFromParent();
  }
}

/// Branches that a model inlined with constant arguments decides (ioctl's
/// request bits, the kind of its argument): instructions whose operands
/// are constants become constants, branches on them unconditional, and
/// blocks no path reaches go. The program's own code has few such
/// branches: clang folds its constant conditions itself. Also a pointer
/// cast to an integer of its size and back is the pointer.
static void foldConstantBranches(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      // A pointer kept in an integer of its size and cast back is that
      // pointer (K&R code: `int tmp = malloc(n); t = (T *)tmp;`).
      if (auto *I2P = dyn_cast<IntToPtrInst>(&I))
        if (auto *P2I = dyn_cast<PtrToIntInst>(I2P->getOperand(0));
            P2I && P2I->getOperand(0)->getType() == I2P->getType() &&
            DL.getTypeSizeInBits(P2I->getType()) ==
                DL.getTypeSizeInBits(I2P->getType())) {
          I2P->replaceAllUsesWith(P2I->getOperand(0));
          I2P->eraseFromParent();
          Changed = true;
          continue;
        }
      if (!I.isTerminator() && !I.mayHaveSideEffects())
        if (Constant *C = ConstantFoldInstruction(&I, DL)) {
          I.replaceAllUsesWith(C);
          I.eraseFromParent();
          Changed = true;
        }
    }
    bool Folded = false;
    for (BasicBlock &BB : F)
      Folded |= ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
    if (Folded)
      removeUnreachableBlocks(F);
    Changed |= Folded;
  }
}

/// Erases the internal model functions nothing uses, and the internal
/// globals nothing uses, until none is left: the models' static buffers
/// and strings that this program's calls do not reach, and their tables
/// of function pointers (Sun RPC's operation tables), which would keep the
/// functions they hold.
static void eraseUnusedModelCode(Module &M) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    SmallVector<Function *, 32> Dead;
    for (Function &F : M) {
      F.removeDeadConstantUsers();
      if (F.hasInternalLinkage() && F.use_empty() &&
          F.hasFnAttribute(Attribute::AlwaysInline))
        Dead.push_back(&F);
    }
    for (Function *F : Dead)
      F->eraseFromParent();
    SmallVector<GlobalVariable *, 8> DeadGlobals;
    for (GlobalVariable &G : M.globals()) {
      G.removeDeadConstantUsers();
      if (G.hasLocalLinkage() && G.use_empty())
        DeadGlobals.push_back(&G);
    }
    for (GlobalVariable *G : DeadGlobals)
      G->eraseFromParent();
    Changed = !Dead.empty() || !DeadGlobals.empty();
  }
}

/// A global of the program that nothing writes is its initializer: an
/// internal global whose every use is a plain load (directly or through a
/// constant GEP), so no store, copy, call or escaped pointer can change it
/// (`static int g_use_cache = 0; ... if (g_use_cache) ...`). Its loads
/// become that constant, and foldConstantBranches drops the code it
/// guards, which no run reaches.
/// The text of the module's inline assembly, which may name a global and
/// write it.
static std::string inlineAsmText(const Module &M) {
  std::string Asm = M.getModuleInlineAsm();
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I); CB && CB->isInlineAsm())
        Asm += cast<InlineAsm>(CB->getCalledOperand())->getAsmString() + "\n";
  return Asm;
}

/// A global of the program's own whose value only crace's loads and
/// stores can see: internal, with an initializer, not in a section nor
/// named by inline assembly.
static bool ownGlobal(const GlobalVariable &G, StringRef Asm) {
  return G.hasLocalLinkage() && G.hasInitializer() && !G.isConstant() &&
         !G.isThreadLocal() && !G.hasSection() && !Asm.contains(G.getName());
}

static void foldNeverWrittenGlobals(Module &M, StringRef Asm) {
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable &G : M.globals()) {
    if (!ownGlobal(G, Asm))
      continue;
    SmallVector<LoadInst *, 8> Loads;
    auto PlainLoad = [&](User *U) {
      auto *L = dyn_cast<LoadInst>(U);
      if (!L || !L->isSimple())
        return false;
      Loads.push_back(L);
      return true;
    };
    bool OnlyLoads = all_of(G.users(), [&](User *U) {
      if (auto *CE = dyn_cast<ConstantExpr>(U);
          CE && CE->getOpcode() == Instruction::GetElementPtr)
        return all_of(CE->users(), PlainLoad);
      return PlainLoad(U);
    });
    if (!OnlyLoads)
      continue;
    for (LoadInst *L : Loads) {
      APInt Off(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
      if (L->getPointerOperand()->stripAndAccumulateConstantOffsets(
              DL, Off, /*AllowNonInbounds=*/true) != &G)
        continue;
      if (Constant *C = ConstantFoldLoadFromConst(G.getInitializer(),
                                                  L->getType(), Off, DL)) {
        L->replaceAllUsesWith(C);
        L->eraseFromParent();
      }
    }
  }
}

/// The constant every call of A's function passes for A, directly or as
/// an argument of its caller that is such a constant in turn; null when
/// the function may be called otherwise (its address is taken: a thread's
/// start routine, a callback) or is main, or the calls disagree.
static Constant *constantArgument(const Argument &A, unsigned Depth = 0) {
  const Function &F = *A.getParent();
  if (Depth > 4 || F.getName() == "main" || F.use_empty())
    return nullptr;
  Constant *K = nullptr;
  for (const Use &U : F.uses()) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) ||
        CB->getFunctionType() != F.getFunctionType())
      return nullptr;
    Value *V = CB->getArgOperand(A.getArgNo());
    auto *C = dyn_cast<Constant>(V);
    if (const auto *PA = dyn_cast<Argument>(V))
      C = constantArgument(*PA, Depth + 1);
    if (!C || (K && K != C))
      return nullptr;
    K = C;
  }
  return K;
}

/// A global of the program's own that every store writes with its initial
/// value (a mode flag `_server = server` in an init function that main
/// calls with 0) always holds that value: what its loads compute is that
/// constant, and foldConstantBranches drops the code it guards. The loads
/// stay, for the stores they may race with.
static void foldSameValueGlobals(Module &M, StringRef Asm) {
  for (GlobalVariable &G : M.globals()) {
    if (!ownGlobal(G, Asm) || !G.getValueType()->isIntegerTy())
      continue;
    Constant *Init = G.getInitializer();
    SmallVector<LoadInst *, 8> Loads;
    bool Stored = false;
    bool Same = all_of(G.users(), [&](User *U) {
      if (auto *L = dyn_cast<LoadInst>(U)) {
        Loads.push_back(L);
        return L->isSimple() && L->getType() == Init->getType();
      }
      auto *S = dyn_cast<StoreInst>(U);
      if (!S || !S->isSimple() || S->getPointerOperand() != &G)
        return false;
      Stored = true;
      Value *V = S->getValueOperand();
      auto *C = dyn_cast<Constant>(V);
      if (const auto *A = dyn_cast<Argument>(V))
        C = constantArgument(*A);
      return C == Init;
    });
    if (!Same || !Stored)
      continue;
    for (LoadInst *L : Loads)
      L->replaceAllUsesWith(Init);
  }
}

void runCleanupPasses(Module &M) {
  // Models the program does not reach first: the inliner would otherwise
  // inline models into every unused model (a third of the whole run on a
  // small program, pfscan), which is erased right after anyway.
  eraseUnusedModelCode(M);
  PassContext PC;
  ModulePassManager MPM;
  MPM.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::PreserveCFG));
  FPM.addPass(PromotePass());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, PC.MAM);
  std::string Asm = inlineAsmText(M);
  foldNeverWrittenGlobals(M, Asm);
  foldSameValueGlobals(M, Asm);
  for (Function &F : M)
    if (!F.isDeclaration())
      foldConstantBranches(F);
  // Unused internal model functions are dead weight for every engine.
  eraseUnusedModelCode(M);
}

void foldConstantOffsets(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *GEP = dyn_cast<GetElementPtrInst>(&I);
      if (!GEP)
        continue;
      for (Use &U : GEP->indices()) {
        auto *CE = dyn_cast<ConstantExpr>(U.get());
        if (!CE)
          continue;
        if (auto *K = dyn_cast<ConstantInt>(ConstantFoldConstant(CE, DL)))
          U.set(K);
      }
    }
}

/// Clang lowers atomic loads and stores of pointers to integer ones
/// (`store atomic i64 (ptrtoint p)`, `inttoptr (load atomic i64)`). They
/// become pointer-typed again, as LLVM allows, so that the engines see a
/// pointer stored and loaded (the bmc would otherwise lose the address's
/// provenance where it leaves the registers as an integer).
void typeAtomicPointerAccesses(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Instruction *, 16> Dead;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (auto *S = dyn_cast<StoreInst>(&I)) {
        auto *P2I = dyn_cast<PtrToIntInst>(S->getValueOperand());
        if (!S->isAtomic() || !P2I ||
            DL.getTypeSizeInBits(P2I->getType()) !=
                DL.getTypeSizeInBits(P2I->getOperand(0)->getType()))
          continue;
        S->setOperand(0, P2I->getOperand(0));
        if (P2I->use_empty())
          Dead.push_back(P2I);
      } else if (auto *L = dyn_cast<LoadInst>(&I)) {
        if (!L->isAtomic() || !L->getType()->isIntegerTy() || L->use_empty())
          continue;
        Type *PtrTy = nullptr;
        bool AllCasts = true;
        for (User *U : L->users()) {
          auto *C = dyn_cast<IntToPtrInst>(U);
          if (!C || (PtrTy && C->getType() != PtrTy) ||
              DL.getTypeSizeInBits(C->getType()) !=
                  DL.getTypeSizeInBits(L->getType())) {
            AllCasts = false;
            break;
          }
          PtrTy = C->getType();
        }
        if (!AllCasts)
          continue;
        L->mutateType(PtrTy);
        for (User *U : make_early_inc_range(L->users())) {
          auto *C = cast<IntToPtrInst>(U);
          C->replaceAllUsesWith(L);
          Dead.push_back(C);
        }
      }
    }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

/// Inlines into main the functions main calls from exactly one place that
/// may create or join threads (module_init()/module_exit() style), so that
/// the thread ordering facts computed on main's control flow see through
/// them. Debug locations keep pointing at the original source lines.
void inlineSpawnersIntoMain(Module &M) {
  Function *Main = M.getFunction("main");
  if (!Main || Main->isDeclaration())
    return;
  DenseMap<const Function *, bool> Spawns;
  std::function<bool(const Function *)> MaySpawn = [&](const Function *F) {
    if (auto It = Spawns.find(F); It != Spawns.end())
      return It->second;
    Spawns[F] = false;
    bool R = false;
    for (const BasicBlock &BB : *F)
      for (const Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *C = CB->getCalledFunction()) {
            StringRef N = C->getName();
            std::optional<Intrinsic> In = lookupIntrinsic(N);
            if (In == Intrinsic::ThreadCreate || In == Intrinsic::ThreadJoin ||
                (!C->isDeclaration() && MaySpawn(C)))
              R = true;
          }
    Spawns[F] = R;
    return R;
  };
  bool Inlined = false;
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallVector<CallBase *, 8> Sites;
    for (BasicBlock &BB : *Main)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *F = CB->getCalledFunction())
            if (F != Main && !F->isDeclaration() && !F->isVarArg() &&
                F->hasOneUse() && MaySpawn(F))
              Sites.push_back(CB);
    if (Sites.empty())
      break;
    for (CallBase *CB : Sites) {
      Function *F = CB->getCalledFunction();
      InlineFunctionInfo IFI;
      if (!InlineFunction(*CB, IFI).isSuccess())
        continue;
      Inlined = true;
      if (F->use_empty())
        F->eraseFromParent();
    }
    Spawns.clear();
  }
  if (!Inlined)
    return;
  // Thread a branch on the inlined function's result ("if (init() != 0)
  // goto out;") to the path that produced it, so a join after it is
  // dominated by the create it waits for.
  PassContext PC;
  FunctionPassManager FPM;
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(JumpThreadingPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.run(*Main, PC.FAM);
}

} // namespace crace
