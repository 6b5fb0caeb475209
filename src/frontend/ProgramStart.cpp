//===- ProgramStart.cpp - the program outside main, and main's inputs -----===//
#include "frontend/ProgramStart.h"
#include "frontend/LibcLowering.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crace {

namespace {

/// Whether the program (not just the models' `used` list or another unused
/// model function) refers to V.
bool programUses(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return false;
  for (const User *U : V->users()) {
    if (auto *I = dyn_cast<Instruction>(U)) {
      const Function *F = I->getFunction();
      if (!isModelFunction(*F) || programUses(F, Seen))
        return true;
      continue;
    }
    if (auto *GV = dyn_cast<GlobalVariable>(U)) {
      if (GV->getName() == "llvm.used" || GV->getName() == "llvm.compiler.used")
        continue;
      if (programUses(GV, Seen))
        return true;
      continue;
    }
    if (isa<Constant>(U) && programUses(U, Seen))
      return true;
  }
  return false;
}

bool programUses(const Module &M, StringRef Name) {
  const GlobalValue *GV = M.getNamedValue(Name);
  SmallPtrSet<const Value *, 16> Seen;
  return GV && programUses(GV, Seen);
}

/// A function an init/fini entry calls, or null.
Function *entryFunction(Constant *C) {
  return C ? dyn_cast<Function>(C->stripPointerCasts()) : nullptr;
}

/// The functions of llvm.global_ctors/dtors by priority (ascending, stable);
/// the array is removed: from here on these calls are explicit code.
std::vector<Function *> takeStructors(Module &M, StringRef Name) {
  std::vector<std::pair<uint64_t, Function *>> Entries;
  GlobalVariable *GV = M.getGlobalVariable(Name);
  if (!GV)
    return {};
  if (auto *A = dyn_cast_or_null<ConstantArray>(
          GV->hasInitializer() ? GV->getInitializer() : nullptr))
    for (Use &U : A->operands()) {
      auto *S = dyn_cast<ConstantStruct>(U.get());
      if (!S || S->getNumOperands() < 2)
        continue;
      auto *Prio = dyn_cast<ConstantInt>(S->getOperand(0));
      if (Function *F = entryFunction(S->getOperand(1)))
        Entries.push_back({Prio ? Prio->getZExtValue() : 65535, F});
    }
  GV->eraseFromParent();
  std::stable_sort(
      Entries.begin(), Entries.end(),
      [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<Function *> Out;
  for (auto &E : Entries)
    Out.push_back(E.second);
  return Out;
}

/// Functions placed in a section by hand (`__attribute__((section(
/// ".init_array"))) void (*p)(void) = f;`), in definition order.
std::vector<Function *> sectionEntries(Module &M, StringRef Section) {
  std::vector<Function *> Out;
  for (GlobalVariable &GV : M.globals()) {
    StringRef S = GV.getSection();
    if (!(S == Section || S.starts_with((Section + ".").str())) ||
        !GV.hasInitializer())
      continue;
    Constant *Init = GV.getInitializer();
    if (auto *A = dyn_cast<ConstantArray>(Init)) {
      for (Use &U : A->operands())
        if (Function *F = entryFunction(cast<Constant>(U.get())))
          Out.push_back(F);
    } else if (Function *F = entryFunction(Init)) {
      Out.push_back(F);
    }
  }
  return Out;
}

/// A function the models declare and the front end defines here.
Function *hook(Module &M, StringRef Name, FunctionType *FT) {
  Function *F = M.getFunction(Name);
  if (!F)
    F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->setLinkage(GlobalValue::InternalLinkage);
  F->addFnAttr(Attribute::AlwaysInline);
  F->removeFnAttr(Attribute::NoInline);
  return F;
}

/// Calls F with as many of (argc, argv, envp) as it takes.
CallInst *callWithInputs(IRBuilder<> &B, Function *F, ArrayRef<Value *> In) {
  SmallVector<Value *, 3> Args;
  for (unsigned I = 0; I < F->arg_size(); ++I) {
    Type *T = F->getArg(I)->getType();
    Value *V = I < In.size() && In[I] ? In[I] : nullptr;
    if (!V)
      Args.push_back(Constant::getNullValue(T));
    else if (T->isIntegerTy() && V->getType()->isIntegerTy())
      Args.push_back(B.CreateIntCast(V, T, /*isSigned=*/true));
    else if (T == V->getType())
      Args.push_back(V);
    else
      Args.push_back(Constant::getNullValue(T));
  }
  return B.CreateCall(F->getFunctionType(), F, Args);
}

/// Whether main's parameter is used by main's code. Clang stores each
/// parameter to a stack slot; a slot that is only stored to is no use.
bool paramUsed(Argument *A) {
  for (User *U : A->users()) {
    auto *S = dyn_cast<StoreInst>(U);
    auto *Slot = S ? dyn_cast<AllocaInst>(S->getPointerOperand()) : nullptr;
    if (!Slot || S->getValueOperand() != A)
      return true;
    for (User *SU : Slot->users())
      if (SU != S && !isa<IntrinsicInst>(SU))
        return true;
  }
  return false;
}

std::string cString(StringRef S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    const char Octal[] = {'\\', char('0' + (C >> 6)),
                          char('0' + ((C >> 3) & 7)), char('0' + (C & 7)), 0};
    Out += Octal;
  }
  return Out + "\"";
}

std::string printable(const std::vector<std::string> &V) {
  std::string Out;
  for (const std::string &S : V) {
    if (!Out.empty())
      Out += " ";
    bool Plain = !S.empty() && all_of(S, [](char C) {
      return isAlnum(C) || StringRef("-_=./:,+@%").contains(C);
    });
    Out += Plain ? S : "'" + S + "'";
  }
  return Out;
}

} // namespace

std::string programInputModelText(const ProgramInputOptions &O) {
  std::string T;
  auto Array = [&](StringRef Prefix, const std::vector<std::string> &V) {
    for (size_t I = 0; I < V.size(); ++I)
      T += formatv("static char {0}_{1}[] = {2};\n", Prefix, I, cString(V[I]));
    T += formatv("static char *{0}[] = {{", Prefix);
    for (size_t I = 0; I < V.size(); ++I)
      T += formatv("{0}_{1}, ", Prefix, I);
    T += "0};\n";
  };
  if (O.FixedArgs) {
    T += "#define CRACE_FIXED_ARGS 1\n";
    Array("crace_fixed_argv", O.Args);
    T += formatv("static int crace_fixed_argc = {0};\n", O.Args.size());
  }
  if (O.FixedEnv) {
    T += "#define CRACE_FIXED_ENV 1\n";
    Array("crace_fixed_envp", O.Env);
  }
  return T;
}

std::vector<std::string> addProgramStart(Module &M,
                                         const ProgramInputOptions &O) {
  std::vector<std::string> Assumptions;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *VoidTy = Type::getVoidTy(Ctx);

  // What runs before main and at exit.
  std::vector<Function *> Ctors = sectionEntries(M, ".preinit_array");
  append_range(Ctors, takeStructors(M, "llvm.global_ctors"));
  append_range(Ctors, sectionEntries(M, ".init_array"));
  std::vector<Function *> Dtors = takeStructors(M, "llvm.global_dtors");
  std::reverse(Dtors.begin(), Dtors.end());
  std::vector<Function *> Fini = sectionEntries(M, ".fini_array");
  append_range(Dtors, reverse(Fini));

  // __crace_run_exit(code): exit handlers, newest first, then destructors.
  bool ExitHandlers = programUses(M, "atexit") || programUses(M, "on_exit") ||
                      programUses(M, "__cxa_atexit");
  Function *RunExit =
      hook(M, "__crace_run_exit", FunctionType::get(VoidTy, {I32}, false));
  RunExit->deleteBody();
  RunExit->setLinkage(GlobalValue::InternalLinkage);
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "", RunExit));
    if (Function *H = M.getFunction("__crace_run_exit_handlers");
        H && ExitHandlers)
      B.CreateCall(H, {RunExit->getArg(0)});
    for (Function *D : Dtors)
      callWithInputs(B, D, {});
    B.CreateRetVoid();
  }
  bool ExitCode = ExitHandlers || !Dtors.empty();

  // __crace_thread_fini(): thread-specific data destructors, when the
  // program may register one.
  bool TsdDestructors = false;
  if (Function *KC = M.getFunction("pthread_key_create"))
    for (User *U : KC->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledOperand() == KC &&
            !isModelFunction(*CB->getFunction()) && CB->arg_size() >= 2 &&
            !isa<ConstantPointerNull>(CB->getArgOperand(1)))
          TsdDestructors = true;
  Function *ThreadFini =
      hook(M, "__crace_thread_fini", FunctionType::get(VoidTy, {}, false));
  ThreadFini->deleteBody();
  ThreadFini->setLinkage(GlobalValue::InternalLinkage);
  Function *RunTsd = M.getFunction("__crace_tsd_run_destructors");
  {
    IRBuilder<> B(BasicBlock::Create(Ctx, "", ThreadFini));
    if (TsdDestructors && RunTsd)
      B.CreateCall(RunTsd);
    B.CreateRetVoid();
  }
  if (RunTsd && !TsdDestructors && RunTsd->use_empty())
    RunTsd->eraseFromParent();
  if (TsdDestructors)
    M.getOrInsertNamedMetadata("crace.tsd_destructors");

  // Signal masks are not modelled (models/signal.c): an engine that
  // confirms races must not confirm one with a handler then.
  if (any_of(ArrayRef<StringRef>{"sigprocmask", "pthread_sigmask", "sigblock",
                                 "sigsetmask", "sighold"},
             [&](StringRef N) { return programUses(M, N); }))
    M.getOrInsertNamedMetadata("crace.signal_masking");

  Function *Main = M.getFunction("main");
  if (!Main || Main->isDeclaration())
    return Assumptions;

  // main's parameters become values computed at its start.
  bool Uses[3] = {false, false, false};
  for (unsigned I = 0; I < Main->arg_size() && I < 3; ++I)
    Uses[I] = paramUsed(Main->getArg(I));
  bool CtorInputs =
      any_of(Ctors, [](Function *F) { return F->arg_size() > 0; });
  bool NeedArgv = Uses[1] || CtorInputs;
  bool NeedArgc = Uses[0] || NeedArgv;
  bool NeedEnv = Uses[2] || CtorInputs || programUses(M, "environ") ||
                 programUses(M, "getenv") || programUses(M, "secure_getenv");
  // main called by the program itself (or through a pointer) keeps its
  // signature: a new main computes the inputs and calls it.
  bool Wrap = !Main->use_empty();
  Function *NewMain = Main;
  if (Wrap) {
    std::string Name = Main->getName().str();
    Main->setName("__crace_main");
    NewMain =
        Function::Create(FunctionType::get(Main->getReturnType(), {}, false),
                         GlobalValue::ExternalLinkage, Name, M);
    BasicBlock::Create(Ctx, "", NewMain);
  } else if (Main->arg_size() > 0) {
    NewMain =
        Function::Create(FunctionType::get(Main->getReturnType(), {}, false),
                         Main->getLinkage(), "", M);
    NewMain->setAttributes(
        AttributeList::get(Ctx, Main->getAttributes().getFnAttrs(),
                           Main->getAttributes().getRetAttrs(), {}));
    NewMain->splice(NewMain->end(), Main);
    NewMain->setSubprogram(Main->getSubprogram());
    Main->setSubprogram(nullptr);
  }
  // After main's stack slots: inlining the input models splits the block,
  // and only slots left in the entry block become registers (mem2reg).
  BasicBlock &Entry = NewMain->getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (At != Entry.end() && isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> B(&Entry, At);
  if (DISubprogram *SP = NewMain->getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, SP->getLine(), 0, SP));
  Value *In[3] = {nullptr, nullptr, nullptr};
  auto Call = [&](StringRef Name, ArrayRef<Value *> Args) -> Value * {
    Function *F = M.getFunction(Name);
    return F ? B.CreateCall(F, Args) : nullptr;
  };
  if (NeedArgc)
    In[0] = Call("__crace_start_argc", {});
  if (NeedArgv && In[0])
    In[1] = Call("__crace_start_argv", {In[0]});
  if (NeedEnv)
    In[2] = Call("__crace_start_envp", {});
  for (Function *C : Ctors)
    callWithInputs(B, C, In);
  if (Wrap) {
    Value *R = callWithInputs(B, Main, In);
    if (R->getType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(R);
  } else if (NewMain != Main) {
    for (unsigned I = 0; I < Main->arg_size(); ++I) {
      Argument *A = Main->getArg(I);
      Value *V = I < 3 ? In[I] : nullptr;
      if (V && V->getType() != A->getType()) {
        if (V->getType()->isIntegerTy() && A->getType()->isIntegerTy()) {
          IRBuilder<> C(cast<Instruction>(V)->getNextNode());
          V = C.CreateIntCast(V, A->getType(), true);
        } else {
          V = nullptr;
        }
      }
      A->replaceAllUsesWith(V ? V : PoisonValue::get(A->getType()));
    }
    std::string Name = Main->getName().str();
    Main->eraseFromParent();
    NewMain->setName(Name);
  }
  if (ExitCode)
    for (BasicBlock &BB : *NewMain)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator())) {
        IRBuilder<> RB(R);
        Value *Code = R->getReturnValue();
        Code = Code && Code->getType()->isIntegerTy()
                   ? RB.CreateIntCast(Code, I32, true)
                   : ConstantInt::get(I32, 0);
        RB.CreateCall(RunExit, {Code})->setDebugLoc(R->getDebugLoc());
      }

  // The bounds every verdict rests on.
  if (NeedArgc) {
    if (O.FixedArgs)
      Assumptions.push_back(
          "main runs with the command line given by --args: " +
          printable(O.Args));
    else
      Assumptions.push_back(
          "main's command line has at most 4 strings (argc <= 4), each of at "
          "most 7 characters");
  }
  if (NeedEnv) {
    if (O.FixedEnv)
      Assumptions.push_back(
          "the environment is the one given by --env: " +
          (O.Env.empty() ? std::string("(empty)") : printable(O.Env)));
    else
      Assumptions.push_back("the environment has at most 3 strings, each of "
                            "at most 7 characters");
  }
  // models/posix.c: one clock that never goes backwards, read by time,
  // gettimeofday and clock_gettime.
  SmallPtrSet<const Value *, 16> Seen;
  if (const Function *Clock = M.getFunction("__crace_libc_clock_read");
      Clock && programUses(Clock, Seen))
    Assumptions.push_back("the system clock is not set backwards while the "
                          "program runs (time, gettimeofday, clock_gettime "
                          "read one clock that only advances)");
  return Assumptions;
}

std::vector<std::string> addThreadFini(Module &M) {
  std::vector<std::string> Reasons;
  Function *RunTsd = M.getFunction("__crace_tsd_run_destructors");
  Function *Create = M.getFunction(intrinsicName(Intrinsic::ThreadCreate));
  if (!M.getNamedMetadata("crace.tsd_destructors") || !RunTsd || !Create)
    return Reasons;
  LLVMContext &Ctx = M.getContext();
  DenseMap<Function *, Function *> Trampolines;
  for (User *U : make_early_inc_range(Create->users())) {
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB || CB->getCalledOperand() != Create || CB->arg_size() < 3)
      continue;
    auto *F = dyn_cast<Function>(CB->getArgOperand(1)->stripPointerCasts());
    FunctionType *FT = F ? F->getFunctionType() : nullptr;
    PointerType *Ptr = PointerType::getUnqual(Ctx);
    if (!F || F->isDeclaration() || FT->getReturnType() != Ptr ||
        FT->getNumParams() != 1 || FT->getParamType(0) != Ptr) {
      std::string Where = "<unknown>";
      if (const DebugLoc &DL = CB->getDebugLoc())
        Where = formatv("{0}:{1}:{2}", DL->getFilename(), DL->getLine(),
                        DL->getColumn())
                    .str();
      Reasons.push_back("thread-specific data destructors are not run when "
                        "the thread created at " +
                        Where +
                        " exits (start routine through a function pointer)");
      continue;
    }
    Function *&T = Trampolines[F];
    if (!T) {
      T = Function::Create(FT, GlobalValue::InternalLinkage,
                           "__crace_thread_" + F->getName(), M);
      IRBuilder<> B(BasicBlock::Create(Ctx, "", T));
      Value *R = B.CreateCall(F, {T->getArg(0)});
      B.CreateCall(RunTsd);
      B.CreateRet(R);
    }
    CB->setArgOperand(1, T);
  }
  return Reasons;
}

} // namespace crace
