//===- KissRuntime.cpp - the sequential program's runtime ----------------===//
//
// Compiles the runtime (KissRuntime.h) from its embedded C, and names the
// synchronisation calls the transform replaces with it.
//
//===----------------------------------------------------------------------===//
#include "engines/kiss/KissRuntime.h"
#include "engines/kiss/KissTransformImpl.h"

#include "model/Errors.h"
#include "model/PassContext.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>

using namespace llvm;

namespace crace::kiss {

namespace {

/// runtime/*.c, embedded by cmake/EmbedModels.cmake.
struct EmbeddedSource {
  const char *Name;
  const char *Text;
};
const EmbeddedSource RuntimeSources[] = {
#include "engines/kiss/KissRuntimeSources.inc"
};

const EmbeddedSource *source(StringRef Name) {
  for (const EmbeddedSource &S : RuntimeSources)
    if (Name == S.Name)
      return &S;
  return nullptr;
}

/// The globals runtime/*.c marks KISS_FLAG are `_Bool`, a byte in memory;
/// the transform and the IR-text runtime before it use them as i1. Each
/// becomes an i1 global (or array of i1: the same bytes), its byte loads
/// i1 loads and its byte stores i1 stores.
void flagsToI1(Module &M) {
  LLVMContext &C = M.getContext();
  Type *I1 = Type::getInt1Ty(C);
  std::vector<GlobalVariable *> Flags;
  for (GlobalVariable &G : M.globals())
    if (G.getSection() == "kiss.flag")
      Flags.push_back(&G);
  for (GlobalVariable *G : Flags) {
    Type *T = I1;
    if (auto *AT = dyn_cast<ArrayType>(G->getValueType()))
      T = ArrayType::get(I1, AT->getNumElements());
    auto *NG = new GlobalVariable(M, T, false, G->getLinkage(),
                                  Constant::getNullValue(T), "", G,
                                  G->getThreadLocalMode());
    NG->takeName(G);
    NG->setDSOLocal(G->isDSOLocal());
    G->replaceAllUsesWith(NG);
    G->eraseFromParent();
    for (User *U : make_early_inc_range(NG->users())) {
      SmallVector<Instruction *, 8> Accesses;
      if (isa<LoadInst, StoreInst>(U))
        Accesses.push_back(cast<Instruction>(U));
      else
        for (User *UU : U->users())
          if (isa<LoadInst, StoreInst>(UU))
            Accesses.push_back(cast<Instruction>(UU));
      for (Instruction *I : Accesses) {
        IRBuilder<> B(I);
        if (auto *L = dyn_cast<LoadInst>(I)) {
          if (!L->getType()->isIntegerTy(8))
            continue;
          // clang: load i8, then trunc to i1 (or a zext where a byte is
          // used).
          LoadInst *NL = B.CreateLoad(I1, L->getPointerOperand());
          for (User *LU : make_early_inc_range(L->users()))
            if (auto *Tr = dyn_cast<TruncInst>(LU);
                Tr && Tr->getType()->isIntegerTy(1)) {
              Tr->replaceAllUsesWith(NL);
              Tr->eraseFromParent();
            }
          if (!L->use_empty())
            L->replaceAllUsesWith(B.CreateZExt(NL, L->getType()));
          L->eraseFromParent();
        } else if (auto *S = dyn_cast<StoreInst>(I)) {
          Value *V = S->getValueOperand();
          if (!V->getType()->isIntegerTy(8) || S->getPointerOperand() == V)
            continue;
          Value *Bit;
          if (auto *CI = dyn_cast<ConstantInt>(V))
            Bit = ConstantInt::get(I1, CI->getZExtValue() & 1);
          else if (auto *Z = dyn_cast<ZExtInst>(V);
                   Z && Z->getSrcTy()->isIntegerTy(1))
            Bit = Z->getOperand(0);
          else
            Bit = B.CreateTrunc(V, I1);
          B.CreateStore(Bit, S->getPointerOperand());
          S->eraseFromParent();
          if (auto *Z = dyn_cast<ZExtInst>(V); Z && Z->use_empty())
            Z->eraseFromParent();
        }
      }
    }
  }
}

/// Promotes the locals, unrolls every loop (the C marks them unroll(full)),
/// threads the jumps over the flags that end a search (put, ran) and
/// cleans up. No instcombine: it reassociates the lock table's `or` chain
/// (loads last slot first), and the bmc's Z3 queries are sensitive to the
/// order of their terms: on precision/indexed_locks_mismatch.c one query
/// took 40 s instead of 0.9 s (the IR-text runtime's time).
Error simplify(Module &M) {
  PassContext PC;
  ModulePassManager MPM;
  if (Error E = PC.PB.parsePassPipeline(
          MPM, "function(sroa,loop(loop-rotate),loop-unroll-full,"
               "jump-threading,simplifycfg,instsimplify)"))
    return E;
  MPM.run(M, PC.MAM);
  // C computes `b1 | b2` on _Bool in int: (zext b1 | zext b2) != 0. The
  // bmc gets the i1 `or`, operands in the C's order (the IR-text runtime's
  // shape: Z3 is sensitive to the order its terms are made in).
  for (Function &F : M)
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto *C = dyn_cast<ICmpInst>(&I);
      auto *Zero = C ? dyn_cast<ConstantInt>(C->getOperand(1)) : nullptr;
      auto *Or = C ? dyn_cast<BinaryOperator>(C->getOperand(0)) : nullptr;
      if (!C || C->getPredicate() != ICmpInst::ICMP_NE || !Zero ||
          !Zero->isZero() || !Or || Or->getOpcode() != Instruction::Or)
        continue;
      auto *ZA = dyn_cast<ZExtInst>(Or->getOperand(0));
      auto *ZB = dyn_cast<ZExtInst>(Or->getOperand(1));
      if (!ZA || !ZB || !ZA->getSrcTy()->isIntegerTy(1) ||
          !ZB->getSrcTy()->isIntegerTy(1))
        continue;
      auto *New =
          BinaryOperator::CreateOr(ZA->getOperand(0), ZB->getOperand(0), "", C);
      C->replaceAllUsesWith(New);
      C->eraseFromParent();
      for (Instruction *Dead : {cast<Instruction>(Or), cast<Instruction>(ZA),
                                cast<Instruction>(ZB)})
        if (Dead->use_empty())
          Dead->eraseFromParent();
    }
  return Error::success();
}

/// The runtime's C for P: its form's file, then the shared part, each
/// under a #line naming its file.
std::optional<std::string> sourceOf(const RuntimeParams &P) {
  std::string Code;
  for (StringRef Name :
       {P.Rounds ? "rounds_runtime.c" : "kiss_runtime.c", "kiss_shared.c"}) {
    const EmbeddedSource *S = source(Name);
    if (!S)
      return std::nullopt;
    Code += ("#line 1 \"src/engines/kiss/runtime/" + Name + "\"\n").str();
    Code += S->Text;
    Code += "\n";
  }
  return Code;
}

/// Function, parameter and return attributes (noundef, nounwind, the
/// target's features) and instruction metadata say nothing the bmc uses;
/// the runtime goes without them, as the IR text did.
void stripAttributes(Module &M) {
  for (Function &F : M) {
    F.setAttributes(AttributeList());
    for (Instruction &I : instructions(F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        CB->setAttributes(AttributeList());
      I.dropUnknownNonDebugMetadata();
    }
  }
}

/// Compiles the runtime of P for Like's target (no cache).
Expected<std::unique_ptr<Module>>
build(const CompileCFn &CompileC, const Module &Like, const RuntimeParams &P) {
  std::optional<std::string> Code = sourceOf(P);
  if (!Code)
    return make_error<InternalError>("the kiss runtime is not "
                                     "embedded");
  // -fwrapv: no inbounds (the K-round form addresses round r's lock table
  // past __kiss_locks, in the copied state) and no nsw, as in the IR text.
  std::vector<std::string> Args = {"-fwrapv",
                                   formatv("-DKISS_NT={0}", P.Threads).str(),
                                   formatv("-DKISS_L={0}", P.Locks).str(),
                                   formatv("-DKISS_RD={0}", P.ReadLocks).str()};
  if (P.Rounds) {
    Args.push_back(formatv("-DKISS_K={0}", P.Rounds).str());
    Args.push_back(formatv("-DKISS_STRIDE={0}ULL", P.Stride).str());
  } else {
    Args.push_back(formatv("-DKISS_MAX={0}", P.Slots).str());
  }
  auto RT = CompileC("<crace-kiss-runtime>.c", *Code, Args, Like);
  if (!RT)
    return RT.takeError();
  Module &M = **RT;
  if (&M.getContext() != &Like.getContext() ||
      M.getDataLayout() != Like.getDataLayout())
    return make_error<InternalError>("the kiss runtime was not "
                                     "compiled for the program's target");
  // Clang's module flags and crace's per-unit lists mean nothing here.
  while (!M.named_metadata_empty())
    M.eraseNamedMetadata(&*M.named_metadata_begin());
  flagsToI1(M);
  for (GlobalVariable &G : M.globals()) {
    G.setSection("");
    G.setAlignment(MaybeAlign()); // the data layout's, as in the IR text
  }
  if (Error E = simplify(M))
    return std::move(E);
  stripAttributes(M);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Back;
    FindFunctionBackedges(F, Back);
    if (!Back.empty())
      return make_error<InternalError>(
          ("the kiss runtime's " + F.getName() + " keeps a loop").str());
  }
  std::string Err;
  raw_string_ostream ES(Err);
  if (verifyModule(M, &ES))
    return make_error<InternalError>("the kiss runtime is invalid: " + Err);
  return RT;
}

} // namespace

Expected<std::unique_ptr<Module>> compileRuntime(const CompileCFn &CompileC,
                                                 const Module &Like,
                                                 const RuntimeParams &P) {
  if (!CompileC)
    return make_error<InternalError>(
        "kiss has no C compiler for its runtime (the driver "
        "sets EngineOptions::CompileC)");
  // Compiling costs clang's start-up; the kiss engine asks again per run
  // (and for each bound it tries), so the bitcode is kept per process.
  static std::mutex Mu;
  static StringMap<std::string> Cache;
  std::string Key =
      formatv("{0}|{1}|{2} {3} {4} {5} {6} {7}", Like.getTargetTriple(),
              Like.getDataLayout().getStringRepresentation(), P.Rounds, P.Slots,
              P.Threads, P.Locks, P.Stride, P.ReadLocks)
          .str();
  std::lock_guard<std::mutex> Lock(Mu);
  auto It = Cache.find(Key);
  if (It == Cache.end()) {
    auto M = build(CompileC, Like, P);
    if (!M)
      return M.takeError();
    std::string Bits;
    raw_string_ostream OS(Bits);
    WriteBitcodeToFile(**M, OS, /*ShouldPreserveUseListOrder=*/true);
    It = Cache.insert({Key, std::move(Bits)}).first;
  }
  // Every run reads the bitcode: the same module each time.
  return parseBitcodeFile(MemoryBufferRef(It->second, "<crace-kiss-runtime>"),
                          Like.getContext());
}

namespace detail {

/// The runtime's __kiss_run calls a thread's start routine as
/// `void *(void *)`. C11's thrd_create (models/c11threads.c) hands its
/// `int (void *)` routine to __crace_thread_create cast to that type, and
/// the bmc's indirect call only reaches functions of the call's type (a
/// call through another type is a memory error there). So __kiss_run
/// calls each start routine of another type directly, with its own type:
/// `fn == @g ? (void *)(intptr_t)g(arg) : fn(arg)` (an integer result
/// sign-extended as thrd_exit's `(void *)(long)res`, none → null). The
/// routines are the functions the points-to sets of the creations' start
/// arguments hold; the call through the pointer stays for the others.
void Transformer::adaptStartRoutines() {
  Function *Run = M->getFunction("__kiss_run");
  if (!Run || Run->isDeclaration())
    return;
  CallBase *Call = nullptr;
  for (Instruction &I : instructions(*Run))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isIndirectCall())
      Call = CB;
  if (!Call || Call->arg_size() != 1)
    return;
  LLVMContext &C = M->getContext();
  const DataLayout &DL = M->getDataLayout();
  Type *IntPtr = DL.getIntPtrType(C);
  auto Fits = [](Type *T) { return T->isPointerTy() || T->isIntegerTy(); };
  std::vector<Function *> Adapt;
  for (const Function &OF : PM.module())
    for (const Instruction &OI : instructions(OF)) {
      const auto *CB = dyn_cast<CallBase>(&OI);
      if (!CB || callIntrinsic(*CB) != Intrinsic::ThreadCreate)
        continue;
      for (const Loc &L : PT.pointsTo(CB->getArgOperand(1))) {
        if (L.Obj == PointsTo::UnknownObj ||
            PT.object(L.Obj).Kind != ObjKind::Function)
          continue;
        auto *G =
            dyn_cast_or_null<Function>(VMap.lookup(PT.object(L.Obj).Site));
        if (!G || G->isDeclaration() ||
            G->getFunctionType() == Call->getFunctionType() || G->isVarArg() ||
            G->arg_size() > 1 ||
            (G->arg_size() == 1 && !Fits(G->getArg(0)->getType())) ||
            !(G->getReturnType()->isVoidTy() || Fits(G->getReturnType())) ||
            is_contained(Adapt, G))
          continue;
        Adapt.push_back(G);
      }
    }
  if (Adapt.empty())
    return;
  Value *Fn = Call->getCalledOperand(), *Arg = Call->getArgOperand(0);
  BasicBlock *BB = Call->getParent();
  BasicBlock *Join = BB->splitBasicBlock(Call->getNextNode(), "kiss.ran");
  BasicBlock *Other = BB->splitBasicBlock(Call, "kiss.call");
  BB->getTerminator()->eraseFromParent();
  IRBuilder<> B(Join, Join->begin());
  PHINode *R = B.CreatePHI(Call->getType(), Adapt.size() + 1, "kiss.r");
  Call->replaceAllUsesWith(R);
  R->addIncoming(Call, Other);
  BasicBlock *Test = BB;
  for (Function *G : Adapt) {
    auto *Direct = BasicBlock::Create(C, "kiss.start", Run, Other);
    auto *Next = BasicBlock::Create(C, "kiss.start.next", Run, Other);
    B.SetInsertPoint(Test);
    B.CreateCondBr(B.CreateICmpEQ(Fn, G), Direct, Next);
    B.SetInsertPoint(Direct);
    std::vector<Value *> Args;
    if (G->arg_size() == 1) {
      Type *PT0 = G->getArg(0)->getType();
      Args.push_back(
          PT0->isPointerTy()
              ? Arg
              : B.CreateZExtOrTrunc(B.CreatePtrToInt(Arg, IntPtr), PT0));
    }
    CallInst *GR = B.CreateCall(G, Args);
    Value *V = Constant::getNullValue(Call->getType());
    if (G->getReturnType()->isPointerTy())
      V = GR;
    else if (G->getReturnType()->isIntegerTy(1)) // _Bool
      V = B.CreateIntToPtr(B.CreateZExt(GR, IntPtr), Call->getType());
    else if (G->getReturnType()->isIntegerTy())
      V = B.CreateIntToPtr(B.CreateSExtOrTrunc(GR, IntPtr), Call->getType());
    B.CreateBr(Join);
    R->addIncoming(V, Direct);
    Test = Next;
  }
  B.SetInsertPoint(Test);
  B.CreateBr(Other);
}

SyncOp syncOp(StringRef N) {
  std::optional<Intrinsic> I = lookupIntrinsic(N);
  if (!I)
    return SyncOp::None;
  switch (*I) {
  case Intrinsic::ThreadCreate:
    return SyncOp::Create;
  case Intrinsic::ThreadJoin:
    return SyncOp::Join;
  case Intrinsic::ThreadExit:
    return SyncOp::Exit;
  case Intrinsic::ThreadSelf:
    return SyncOp::Self;
  case Intrinsic::Lock:
    return SyncOp::Lock;
  case Intrinsic::RdLock:
    return SyncOp::RdLock;
  case Intrinsic::Unlock:
    return SyncOp::Unlock;
  case Intrinsic::TryLock:
    return SyncOp::TryLock;
  case Intrinsic::TryRdLock:
    return SyncOp::TryRdLock;
  case Intrinsic::CondWait:
    return SyncOp::CondWait;
  case Intrinsic::CondSignal:
  case Intrinsic::CondBroadcast:
  case Intrinsic::BarrierInit:
  case Intrinsic::SemInit:
  case Intrinsic::SemPost:
    return SyncOp::NoOp;
  case Intrinsic::AtomicBegin:
    return SyncOp::AtomicBegin;
  case Intrinsic::AtomicEnd:
    return SyncOp::AtomicEnd;
  case Intrinsic::BarrierWait:
    return SyncOp::BlockI32;
  case Intrinsic::SemWait:
    return SyncOp::Block;
  default:
    return SyncOp::None;
  }
}

SyncOp syncOpOf(const Instruction &I) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      return syncOp(F->getName());
  return SyncOp::None;
}

} // namespace detail

} // namespace crace::kiss
