//===- ProgramModel.cpp - the program as every engine sees it -------------===//
#include "model/ProgramModel.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Operator.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <functional>

using namespace llvm;

namespace crace {

std::string SourceLoc::str() const {
  if (!valid())
    return File.empty() ? "<unknown>" : File;
  return formatv("{0}:{1}:{2}", File, Line, Column).str();
}

ProgramModel::ProgramModel(Module &M) : M(M) {}

std::unique_ptr<ProgramModel> ProgramModel::build(Module &M,
                                                  const std::atomic<bool> *Cancel) {
  std::unique_ptr<ProgramModel> PM(new ProgramModel(M));
  if (Function *F = M.getFunction("main"); F && !F->isDeclaration())
    PM->Main = F;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (scc_iterator<const Function *> I = scc_begin(&F); !I.isAtEnd(); ++I) {
      const std::vector<const BasicBlock *> &SCC = *I;
      if (SCC.size() > 1 || I.hasCycle())
        for (const BasicBlock *BB : SCC)
          PM->CycleBlocks.insert(BB);
    }
  }
  PM->PTA = std::make_unique<PointsTo>(M);
  if (!PM->PTA->solve(Cancel))
    return nullptr;
  PM->findThreads();
  std::vector<const Value *> Roots;
  for (const ThreadTemplate &T : PM->Threads)
    if (T.CreateSite)
      Roots.push_back(T.CreateSite->getArgOperand(2));
  PM->PTA->computeShared(Roots);
  if (PM->Main)
    PM->MainDT = std::make_unique<DominatorTree>(*const_cast<Function *>(PM->Main));
  PM->findJoins();
  if (PM->Main)
    PM->findJoinLoops();
  PM->checkSoundness();
  return PM;
}

bool ProgramModel::inCycle(const BasicBlock *BB) const {
  return CycleBlocks.contains(BB);
}

bool ProgramModel::runsOnceInMain(const Function *F) const {
  if (!F || !Main)
    return false;
  if (auto It = OnceCache.find(F); It != OnceCache.end())
    return It->second;
  OnceCache[F] = false; // recursion is never "once"
  bool Once = false;
  if (F == Main) {
    Once = F->use_empty();
  } else {
    const CallBase *Only = nullptr;
    unsigned Calls = 0;
    bool Other = false;
    for (const User *U : F->users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (CB && CB->getCalledOperand() == F) {
        ++Calls;
        Only = CB;
      } else {
        Other = true;
      }
    }
    Once = !Other && Calls == 1 && !inCycle(Only->getParent()) &&
           runsOnceInMain(Only->getFunction());
  }
  OnceCache[F] = Once;
  return Once;
}

/// The strings of a named metadata node the front end wrote (driver mode).
static std::vector<std::string> moduleStrings(const Module &M, StringRef Name) {
  std::vector<std::string> Out;
  if (const NamedMDNode *N = M.getNamedMetadata(Name))
    for (const MDNode *Op : N->operands())
      if (Op->getNumOperands() == 1)
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          Out.push_back(S->getString().str());
  return Out;
}

/// The handle a signal handler's pseudo-thread is created with
/// (models/signal.c): a thread-local model variable.
bool isSignalHandlerCreate(const CallBase &CB) {
  const Value *H = CB.getArgOperand(0)->stripPointerCasts();
  if (auto *II = dyn_cast<IntrinsicInst>(H))
    if (II->getIntrinsicID() == llvm::Intrinsic::threadlocal_address)
      H = II->getArgOperand(0)->stripPointerCasts();
  auto *GV = dyn_cast<GlobalVariable>(H);
  return GV && GV->getName().starts_with("crace_signal_handle");
}

std::string threadName(const Function *F) {
  StringRef N = F->getName();
  // Trampolines that run thread-specific data destructors at the routine's
  // end (frontend/ProgramStart.cpp) are named after the routine.
  N.consume_front("__crace_thread_");
  return N.str();
}

void ProgramModel::findThreads() {
  if (!Main)
    return;
  ThreadTemplate MainT;
  MainT.Id = 0;
  MainT.Name = "main";
  MainT.Entry = Main;
  MainT.Multi = !runsOnceInMain(Main);
  Threads.push_back(MainT);

  std::vector<const Function *> Work = {Main};
  Reachable.insert(Main);
  StringMap<unsigned> NameCount;
  auto Visit = [&](const Function *F) {
    if (!F->isDeclaration() && Reachable.insert(F).second)
      Work.push_back(F);
  };
  while (!Work.empty()) {
    const Function *F = Work.back();
    Work.pop_back();
    for (const Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (callIntrinsic(*CB) == Intrinsic::ThreadCreate) {
        bool Resolved = false;
        for (Loc L : PTA->pointsTo(CB->getArgOperand(1))) {
          const AbsObject &O = PTA->object(L.Obj);
          if (O.Kind != ObjKind::Function || L.Off != 0)
            continue;
          auto *Fn = cast<Function>(O.Site);
          if (Fn->isDeclaration())
            continue;
          Resolved = true;
          ThreadTemplate T;
          T.Id = Threads.size();
          T.Entry = Fn;
          T.CreateSite = CB;
          T.CreatedInMain = F == Main;
          T.Multi = inCycle(CB->getParent()) || !runsOnceInMain(F);
          T.Name = threadName(Fn);
          T.SignalHandler = isSignalHandlerCreate(*CB);
          if (T.SignalHandler)
            T.Name = "signal handler " + T.Name;
          // Driver harness threads (frontend/EntryPoints.cpp).
          else if (StringRef(T.Name).starts_with("__crace_entry_"))
            T.Name = "entry point " + T.Name.substr(14);
          else if (StringRef(T.Name).starts_with("__crace_instance_")) {
            // __crace_instance_<i>_<f>: instance i of entry point f.
            auto [I, Fn] = StringRef(T.Name).substr(17).split('_');
            T.Name = ("entry point " + Fn + " (instance " + I + ")").str();
          } else if (StringRef(T.Name).starts_with("__crace_dispatch_"))
            T.Name = "harness dispatcher " + T.Name.substr(17);
          Threads.push_back(T);
          Visit(Fn);
        }
        bool Partial = false;
        for (Loc L : PTA->pointsTo(CB->getArgOperand(1)))
          if (PTA->object(L.Obj).Kind != ObjKind::Function ||
              cast<Function>(PTA->object(L.Obj).Site)->isDeclaration())
            Partial = true;
        // A handler argument that points to nothing is SIG_IGN/SIG_DFL
        // (models/signal.c does not install those).
        if (!Resolved && isSignalHandlerCreate(*CB) &&
            PTA->pointsTo(CB->getArgOperand(1)).empty())
          continue;
        if (!Resolved || Partial)
          Unsound.push_back(formatv("thread start routine at {0} could not be "
                                    "resolved",
                                    location(CB).str()));
        continue;
      }
      for (const Function *Callee : PTA->callees(*CB))
        Visit(Callee);
    }
  }
  // Name templates like the DESIGN examples: worker, worker#2, ...
  for (ThreadTemplate &T : Threads) {
    unsigned N = ++NameCount[T.Name];
    if (N > 1)
      T.Name += "#" + std::to_string(N);
  }
}

void ProgramModel::findJoins() {
  if (!Main)
    return;
  // Threads may exist after any create in main, and after any call in main
  // to a function that may (transitively) create one.
  DenseMap<const Function *, bool> Creates;
  std::function<bool(const Function *)> MayCreate =
      [&](const Function *F) -> bool {
    if (auto It = Creates.find(F); It != Creates.end())
      return It->second;
    Creates[F] = false;
    bool R = false;
    for (const Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (callIntrinsic(*CB) == Intrinsic::ThreadCreate) {
        R = true;
        break;
      }
      bool Unresolved = false;
      for (const Function *C : PTA->callees(*CB, &Unresolved))
        if (!C->isDeclaration() && MayCreate(C))
          R = true;
      if (Unresolved || CB->isInlineAsm())
        R = true;
      if (R)
        break;
    }
    Creates[F] = R;
    return R;
  };
  for (const Instruction &I : instructions(*Main)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    bool Spawn = callIntrinsic(*CB) == Intrinsic::ThreadCreate;
    if (!Spawn) {
      bool Unresolved = false;
      for (const Function *C : PTA->callees(*CB, &Unresolved))
        if (!C->isDeclaration() && MayCreate(C))
          Spawn = true;
      Spawn |= Unresolved;
    }
    if (Spawn)
      SpawnPoints.push_back(CB);
  }

  // A join waits for template T when T is created once, directly in main,
  // its handle lives in a variable only that create writes, and the join
  // reads the handle from that variable after the create.
  for (ThreadTemplate &T : Threads) {
    if (!T.CreateSite || T.Multi || !T.CreatedInMain)
      continue;
    const Value *Handle = T.CreateSite->getArgOperand(0)->stripPointerCasts();
    if (!isa<AllocaInst>(Handle) && !isa<GlobalVariable>(Handle))
      continue;
    bool Simple = true;
    for (const User *U : Handle->users()) {
      if (U == T.CreateSite || isa<LoadInst>(U))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
          continue;
      Simple = false;
    }
    if (!Simple)
      continue;
    for (const Instruction &I : instructions(*Main)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || callIntrinsic(*CB) != Intrinsic::ThreadJoin)
        continue;
      auto *LI = dyn_cast<LoadInst>(CB->getArgOperand(0));
      // The handle must be read after the create wrote it.
      if (LI && LI->getPointerOperand()->stripPointerCasts() == Handle &&
          MainDT->dominates(T.CreateSite, LI))
        T.Joins.push_back(CB);
    }
  }
}

bool ProgramModel::mayReachInMain(const Instruction *From,
                                  const Instruction *To) const {
  if (From == To)
    return true;
  // An exact search over main's blocks: llvm::isPotentiallyReachable gives
  // up (answering "reachable") after 32 blocks, which a driver harness's
  // main exceeds.
  const BasicBlock *FB = From->getParent(), *TB = To->getParent();
  if (FB == TB && From->comesBefore(To))
    return true;
  SmallVector<const BasicBlock *, 32> Work(succ_begin(FB), succ_end(FB));
  SmallPtrSet<const BasicBlock *, 32> Seen;
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    if (B == TB)
      return true;
    Work.append(succ_begin(B), succ_end(B));
  }
  return false;
}

bool ProgramModel::dominatesInMain(const Instruction *A,
                                   const Instruction *B) const {
  return A != B && MainDT && MainDT->dominates(A, B);
}

bool ProgramModel::dominatesInMain(const BasicBlock *A,
                                   const Instruction *B) const {
  return MainDT && MainDT->dominates(A, B->getParent());
}

/// The pointer is only used to address thread handles: GEPs and casts of
/// it feed thread creation, loads, free() and lifetime markers only.
static bool onlyHoldsHandles(const Value *Base) {
  SmallVector<const Value *, 8> Work = {Base};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U)) {
        Work.push_back(U);
        continue;
      }
      if (auto *LI = dyn_cast<LoadInst>(U))
        if (LI->getPointerOperand() == V)
          continue;
      if (auto *CB = dyn_cast<CallBase>(U)) {
        auto K = callIntrinsic(*CB);
        if (K == Intrinsic::ThreadCreate && CB->getArgOperand(0) == V &&
            CB->getArgOperand(1) != V && CB->getArgOperand(2) != V)
          continue;
        if (K == Intrinsic::Free)
          continue;
        if (auto *II = dyn_cast<IntrinsicInst>(CB))
          if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
            continue;
      }
      return false;
    }
  }
  return true;
}

void ProgramModel::findJoinLoops() {
  // for (i = 0; i < n; i++) create(&t[i], f, ...);
  // for (i = 0; i < n; i++) join(t[i], ...);
  // After the join loop every instance of f has terminated, when: the
  // handles live in an array used for nothing else, both loops walk it
  // from the same start with the same stride, the join loop runs at least
  // as many iterations, joins on every iteration and cannot leave early.
  Function &F = *const_cast<Function *>(Main);
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  AssumptionCache AC(F);
  LoopInfo LI(*MainDT);
  ScalarEvolution SE(F, TLI, AC, *MainDT, LI);

  struct JoinLoop {
    const Loop *L;
    const SCEVAddRecExpr *Handle;
    const SCEV *Count;
    const BasicBlock *Exit;
  };
  std::vector<JoinLoop> JoinLoops;
  for (const Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || callIntrinsic(*CB) != Intrinsic::ThreadJoin)
      continue;
    auto *Load = dyn_cast<LoadInst>(CB->getArgOperand(0));
    const Loop *L = LI.getLoopFor(CB->getParent());
    if (!Load || !L || L->getLoopDepth() != 1)
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Load->getPointerOperand()));
    const BasicBlock *Exit = L->getUniqueExitBlock();
    const BasicBlock *Exiting = L->getExitingBlock();
    const BasicBlock *Latch = L->getLoopLatch();
    if (!AR || AR->getLoop() != L || !AR->isAffine() || !Exit || !Exiting ||
        !Latch || !MainDT->dominates(CB->getParent(), Latch))
      continue;
    const SCEV *Count = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Count))
      continue;
    JoinLoops.push_back({L, AR, Count, Exit});
  }

  for (ThreadTemplate &T : Threads) {
    if (!T.CreateSite || !T.CreatedInMain || !T.Multi)
      continue;
    const Loop *L = LI.getLoopFor(T.CreateSite->getParent());
    if (!L || L->getLoopDepth() != 1 || !runsOnceInMain(Main))
      continue;
    auto *AR =
        dyn_cast<SCEVAddRecExpr>(SE.getSCEV(T.CreateSite->getArgOperand(0)));
    if (!AR || AR->getLoop() != L || !AR->isAffine())
      continue;
    const SCEV *Count = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Count))
      continue;
    const Value *Base = nullptr;
    if (auto *U = dyn_cast<SCEVUnknown>(SE.getPointerBase(AR)))
      Base = U->getValue();
    if (!Base || !onlyHoldsHandles(Base))
      continue;
    for (const JoinLoop &J : JoinLoops) {
      if (J.L == L || J.Handle->getStart() != AR->getStart() ||
          J.Handle->getStepRecurrence(SE) != AR->getStepRecurrence(SE))
        continue;
      // The join loop must start after the create loop is done.
      const BasicBlock *CreateExit = L->getUniqueExitBlock();
      if (!CreateExit || !MainDT->dominates(CreateExit, J.L->getHeader()))
        continue;
      bool Enough = J.Count == Count;
      if (!Enough) {
        auto *A = dyn_cast<SCEVConstant>(J.Count);
        auto *B = dyn_cast<SCEVConstant>(Count);
        Enough = A && B && A->getAPInt().uge(B->getAPInt());
      }
      if (Enough) {
        T.AllJoinedAt = J.Exit;
        break;
      }
    }
  }
}

std::optional<Loc> ProgramModel::lockLocation(const Value *P) const {
  const PtsSet &S = PTA->pointsTo(P);
  if (S.size() != 1)
    return std::nullopt;
  Loc L = *S.begin();
  if (L.Off == UnknownOffset || !isSingleton(L.Obj))
    return std::nullopt;
  return L;
}

bool ProgramModel::isSingleton(uint32_t Obj) const {
  const AbsObject &O = PTA->object(Obj);
  switch (O.Kind) {
  case ObjKind::Global:
    return true;
  case ObjKind::Stack:
  case ObjKind::Heap: {
    auto *I = cast<Instruction>(O.Site);
    return runsOnceInMain(I->getFunction()) && !inCycle(I->getParent());
  }
  default:
    return false;
  }
}

bool ProgramModel::isThreadPrivateAccess(const Value *Ptr) const {
  // Strip constant-offset arithmetic and the TLS address intrinsic.
  const Value *V = Ptr;
  for (;;) {
    V = V->stripPointerCasts();
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      V = GEP->getPointerOperand();
      continue;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(V))
      if (II->getIntrinsicID() == llvm::Intrinsic::threadlocal_address) {
        V = II->getArgOperand(0);
        continue;
      }
    break;
  }
  // The variable's own copy is private unless its address escaped: then
  // another thread may write this thread's copy through a pointer.
  auto *G = dyn_cast<GlobalVariable>(V);
  return G && G->isThreadLocal() && !PTA->object(PTA->objectOf(G)).Shared;
}

SmallVector<MemAccess, 2> ProgramModel::accessesOf(const Instruction &I) const {
  SmallVector<MemAccess, 2> Out;
  const DataLayout &DL = M.getDataLayout();
  auto SizeOf = [&](Type *T) -> uint64_t {
    return T->isSized() ? DL.getTypeStoreSize(T).getFixedValue() : 0;
  };
  auto ConstLen = [](const Value *V) -> uint64_t {
    if (auto *C = dyn_cast<ConstantInt>(V))
      return C->getZExtValue();
    return 0;
  };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Out.push_back({&I, LI->getPointerOperand(), AccessKind::Read, LI->isAtomic(),
                   SizeOf(LI->getType())});
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Out.push_back({&I, SI->getPointerOperand(), AccessKind::Write,
                   SI->isAtomic(), SizeOf(SI->getValueOperand()->getType())});
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Out.push_back({&I, RMW->getPointerOperand(), AccessKind::Write, true,
                   SizeOf(RMW->getValOperand()->getType())});
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Out.push_back({&I, CX->getPointerOperand(), AccessKind::Write, true,
                   SizeOf(CX->getNewValOperand()->getType())});
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    uint64_t N = ConstLen(MI->getLength());
    if (N == 0 && isa<ConstantInt>(MI->getLength()))
      return Out; // zero-length: no access
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      Out.push_back({&I, MT->getSource(), AccessKind::Read, false, N});
    Out.push_back({&I, MI->getDest(), AccessKind::Write, false, N});
  } else if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (auto K = callIntrinsic(*CB)) {
      if (*K == Intrinsic::Read)
        Out.push_back({&I, CB->getArgOperand(0), AccessKind::Read, false,
                       ConstLen(CB->getArgOperand(1))});
      else if (*K == Intrinsic::Write)
        Out.push_back({&I, CB->getArgOperand(0), AccessKind::Write, false,
                       ConstLen(CB->getArgOperand(1))});
      else if (*K == Intrinsic::ThreadCreate)
        Out.push_back({&I, CB->getArgOperand(0), AccessKind::Write, false,
                       DL.getPointerSize()});
      return Out;
    }
    if (const Function *F = CB->getCalledFunction())
      if (auto E = lookupExternal(F->getName())) {
        for (unsigned A = 0; A < CB->arg_size(); ++A) {
          if (!CB->getArgOperand(A)->getType()->isPointerTy())
            continue;
          bool W = (*E == ExternalEffect::WritesArg0 && A == 0) ||
                   (*E == ExternalEffect::WritesFrom1 && A >= 1) ||
                   (*E == ExternalEffect::WritesFrom2 && A >= 2);
          if (*E == ExternalEffect::Pure)
            continue;
          Out.push_back({&I, CB->getArgOperand(A),
                         W ? AccessKind::Write : AccessKind::Read, false, 0,
                         /*Library=*/true});
        }
      }
  }
  return Out;
}

void ProgramModel::checkSoundness() {
  if (!Main) {
    Unsound.push_back("the program has no 'main' function (drivers need "
                      "entry points, which this engine does not take yet)");
    return;
  }
  // Driver mode: what the harness could not model soundly (frontend).
  for (const std::string &R : moduleStrings(M, "crace.reasons"))
    Unsound.push_back(R);
  StringSet<> SeenExternal;
  // Module order, not the set's (pointer-hashed) order: which call site
  // names an unknown external, and the reasons' order, must not change
  // from one run to the next.
  for (const Function &Fn : M) {
    if (!Reachable.count(&Fn))
      continue;
    const Function *F = &Fn;
    for (const Instruction &I : instructions(*F)) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        bool ThroughUnknown = false;
        for (Loc L : PTA->pointsTo(SI->getPointerOperand()))
          ThroughUnknown |= L.Obj == PointsTo::UnknownObj;
        if (ThroughUnknown && !PTA->pointsTo(SI->getValueOperand()).empty())
          Unsound.push_back(formatv("pointer stored through a pointer of "
                                    "unknown origin at {0}",
                                    location(&I).str()));
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->isInlineAsm()) {
        auto *IA = cast<InlineAsm>(CB->getCalledOperand());
        if (!StringRef(IA->getAsmString()).trim().empty())
          Unsound.push_back(formatv("inline assembly at {0} is not analysed",
                                    location(&I).str()));
        continue;
      }
      if (callIntrinsic(*CB))
        continue;
      bool Unresolved = false;
      auto Callees = PTA->callees(*CB, &Unresolved);
      if (Unresolved)
        Unsound.push_back(formatv("indirect call at {0} could not be resolved",
                                  location(&I).str()));
      for (const Function *C : Callees) {
        if (!C->isDeclaration())
          continue;
        if (C->isIntrinsic()) {
          auto ID = C->getIntrinsicID();
          if (isBenignLLVMIntrinsic(*C) || ID == llvm::Intrinsic::memcpy ||
              ID == llvm::Intrinsic::memmove || ID == llvm::Intrinsic::memset ||
              ID == llvm::Intrinsic::memcpy_inline ||
              ID == llvm::Intrinsic::memset_inline)
            continue;
          if (ID == llvm::Intrinsic::vastart || ID == llvm::Intrinsic::vacopy) {
            Unsound.push_back(formatv("variadic function '{0}' reads its "
                                      "arguments, which is not tracked",
                                      F->getName()));
            continue;
          }
          if (SeenExternal.insert(C->getName()).second)
            Unsound.push_back(formatv("unsupported LLVM intrinsic '{0}' at {1}",
                                      C->getName(), location(&I).str()));
          continue;
        }
        if (lookupExternal(C->getName()))
          continue;
        // setjmp is modelled by its first return (models/posix.c); the
        // jump back is not, so its call keeps race freedom unproved.
        static const StringSet<> LongJmp = {"longjmp", "_longjmp", "siglongjmp",
                                            "__longjmp_chk"};
        if (SeenExternal.insert(C->getName()).second)
          Unsound.push_back(
              LongJmp.contains(C->getName())
                  ? formatv("call to '{0}' at {1}: the models give setjmp its "
                            "first return only; the return again that '{0}' "
                            "makes is not analysed",
                            C->getName(), location(&I).str())
                        .str()
                  : formatv("call to unknown external function '{0}' "
                            "at {1} (no model: its effects are not "
                            "analysed)",
                            C->getName(), location(&I).str())
                        .str());
      }
    }
  }
}

std::vector<std::string> ProgramModel::assumptions() const {
  std::vector<std::string> A = {
      "sequential consistency (no weak-memory reordering)",
      "a lock is released only by the thread that acquired it",
      "the C environment models in models/ describe the library functions",
      "library functions outside the models touch no program memory but "
      "their buffer arguments (printf-family arguments are read)",
      "no undefined behaviour (out-of-bounds or type-punned pointer accesses "
      "stay inside their object)",
  };
  // Driver mode: the harness's constraints and modelling choices; main's
  // input bounds (frontend/ProgramStart.cpp).
  for (const std::string &S : moduleStrings(M, "crace.assumptions"))
    A.push_back(S);
  if (any_of(Threads, [](const ThreadTemplate &T) { return T.SignalHandler; }))
    A.push_back("a signal handler does not interrupt itself (one run of each "
                "installed handler at a time), and a blocked signal may still "
                "be delivered");
  return A;
}

SourceLoc ProgramModel::location(const Instruction *I) const {
  SourceLoc L;
  if (!I)
    return L;
  DebugLoc DL = I->getDebugLoc();
  if (!DL) {
    // Fall back to the closest earlier instruction with a location.
    for (const Instruction *P = I->getPrevNode(); P && !DL; P = P->getPrevNode())
      DL = P->getDebugLoc();
  }
  if (!DL) {
    L.File = I->getFunction()->getName().str() + "()";
    return L;
  }
  const DILocation *Loc = DL.get();
  SmallString<256> Path(Loc->getFilename());
  if (!sys::path::is_absolute(Path) && !Loc->getDirectory().empty()) {
    Path = Loc->getDirectory();
    sys::path::append(Path, Loc->getFilename());
  }
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  L.File = Path.str().str();
  L.Line = Loc->getLine();
  L.Column = Loc->getColumn();
  return L;
}

static const DIType *stripQualifiers(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    auto Tag = D->getTag();
    if (Tag == dwarf::DW_TAG_typedef || Tag == dwarf::DW_TAG_const_type ||
        Tag == dwarf::DW_TAG_volatile_type || Tag == dwarf::DW_TAG_atomic_type ||
        Tag == dwarf::DW_TAG_restrict_type)
      T = D->getBaseType();
    else
      break;
  }
  return T;
}

/// Appends ".field" / "[i]" for the byte offset Off inside type T.
static void fieldPath(const DIType *T, int64_t Off, std::string &Out) {
  for (int Depth = 0; Depth < 16; ++Depth) {
    T = stripQualifiers(T);
    auto *C = dyn_cast_or_null<DICompositeType>(T);
    if (!C)
      break;
    if (C->getTag() == dwarf::DW_TAG_array_type) {
      const DIType *Elem = stripQualifiers(C->getBaseType());
      uint64_t ESize = Elem ? Elem->getSizeInBits() / 8 : 0;
      if (!ESize)
        break;
      Out += "[" + std::to_string(Off / ESize) + "]";
      Off %= ESize;
      T = Elem;
      continue;
    }
    if (C->getTag() != dwarf::DW_TAG_structure_type &&
        C->getTag() != dwarf::DW_TAG_class_type)
      break;
    const DIDerivedType *Found = nullptr;
    for (const DINode *N : C->getElements()) {
      auto *Mem = dyn_cast<DIDerivedType>(N);
      if (!Mem || Mem->getTag() != dwarf::DW_TAG_member)
        continue;
      int64_t Start = Mem->getOffsetInBits() / 8;
      int64_t Size = std::max<int64_t>(1, Mem->getSizeInBits() / 8);
      if (Off >= Start && Off < Start + Size) {
        Found = Mem;
        break;
      }
    }
    if (!Found)
      break;
    Out += "." + Found->getName().str();
    Off -= Found->getOffsetInBits() / 8;
    T = Found->getBaseType();
    if (Off == 0 && !isa_and_nonnull<DICompositeType>(stripQualifiers(T)))
      return;
  }
  if (Off != 0)
    Out += "+" + std::to_string(Off);
}

std::string ProgramModel::describe(Loc L, uint64_t Size) const {
  const AbsObject &O = PTA->object(L.Obj);
  std::string Name;
  const DIType *Ty = nullptr;
  switch (O.Kind) {
  case ObjKind::Unknown:
    return "memory of unknown origin";
  case ObjKind::Function:
    return "function '" + O.Site->getName().str() + "'";
  case ObjKind::Global:
  case ObjKind::ThreadLocal: {
    auto *G = cast<GlobalVariable>(O.Site);
    SmallVector<DIGlobalVariableExpression *, 1> GVs;
    G->getDebugInfo(GVs);
    if (!GVs.empty()) {
      Name = GVs.front()->getVariable()->getName().str();
      Ty = GVs.front()->getVariable()->getType();
    } else {
      Name = G->getName().str();
      if (G->getName().starts_with(".str"))
        Name = "string literal";
    }
    break;
  }
  case ObjKind::Stack: {
    auto *A = const_cast<Value *>(O.Site);
    for (DbgVariableRecord *R : findDVRDeclares(A)) {
      Name = R->getVariable()->getName().str();
      Ty = R->getVariable()->getType();
    }
    if (Name.empty())
      for (DbgDeclareInst *D : findDbgDeclares(A)) {
        Name = D->getVariable()->getName().str();
        Ty = D->getVariable()->getType();
      }
    if (Name.empty())
      Name = O.Site->hasName() ? O.Site->getName().str() : "stack object";
    break;
  }
  case ObjKind::Heap: {
    SourceLoc SL = location(cast<Instruction>(O.Site));
    StringRef File(SL.File);
    if (File.consume_front("/crace-harness/")) {
      // A kernel object the driver harness passes to entry points
      // (frontend/EntryPoints.cpp names its allocation after its type).
      Name = "kernel object <" + File.str() + ">";
      if (!NamedTypesBuilt) {
        NamedTypesBuilt = true;
        DebugInfoFinder Finder;
        Finder.processModule(M);
        for (const DIType *T : Finder.types())
          if (auto *C = dyn_cast<DICompositeType>(T))
            if (!C->getName().empty() && !C->isForwardDecl())
              NamedTypes.emplace(C->getName().str(), C);
      }
      File.consume_front("struct ");
      File.consume_front("union ");
      if (auto It = NamedTypes.find(File.str()); It != NamedTypes.end())
        Ty = It->second;
      if (Ty && L.Off != UnknownOffset) {
        std::string Path;
        fieldPath(Ty, L.Off, Path);
        return Name + Path;
      }
      break;
    }
    Name = "heap object allocated at " + SL.str();
    break;
  }
  }
  if (L.Off == UnknownOffset) {
    if (Ty && isa<DICompositeType>(stripQualifiers(Ty)))
      return Name + "[*]";
    return O.Kind == ObjKind::Heap ? Name + " (some offset)" : Name;
  }
  std::string Path;
  if (Ty)
    fieldPath(Ty, L.Off, Path);
  else if (L.Off)
    Path = "+" + std::to_string(L.Off);
  if (O.Kind == ObjKind::Heap && !Path.empty())
    return Name + " at offset " + std::to_string(L.Off);
  return Name + Path;
}

} // namespace crace
