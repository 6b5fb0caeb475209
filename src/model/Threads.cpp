//===- Threads.cpp - thread templates, joins and order in main -----------===//
//
// Part of ProgramModel: the thread templates (creation sites and their start
// functions), the joins that end them, join loops that match creation
// loops, and the order of instructions in main that MHP relies on.
//
//===----------------------------------------------------------------------===//
#include "model/ArrayElement.h"
#include "model/CountedCreates.h"
#include "model/ProgramModel.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <functional>

using namespace llvm;

namespace crace {

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
  // The threads of driver and library mode's harness
  // (frontend/HarnessWriter.cpp).
  if (N.consume_front("__crace_entry_"))
    return ("entry point " + N).str();
  if (N.consume_front("__crace_instance_")) {
    // __crace_instance_<i>_<f>: instance i of entry point f.
    auto [I, Fn] = N.split('_');
    return ("entry point " + Fn + " (instance " + I + ")").str();
  }
  if (N.consume_front("__crace_dispatch_"))
    return ("harness dispatcher " + N).str();
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
    if (!onlyCreateWrites(Handle, *T.CreateSite))
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
  auto [Cached, New] = BlockReach.try_emplace({FB, TB}, false);
  if (!New)
    return Cached->second;
  SmallVector<const BasicBlock *, 32> Work(succ_begin(FB), succ_end(FB));
  SmallPtrSet<const BasicBlock *, 32> Seen;
  bool Reached = false;
  while (!Work.empty() && !Reached) {
    const BasicBlock *B = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    Reached = B == TB;
    Work.append(succ_begin(B), succ_end(B));
  }
  Cached->second = Reached;
  return Reached;
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
/// it feed thread creation, loads, free() and lifetime markers only. The
/// creates found, with the handle address each writes, go to Creates.
static bool onlyHoldsHandles(
    const Value *Base,
    SmallVectorImpl<std::pair<const CallBase *, const Value *>> *Creates =
        nullptr) {
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
            CB->getArgOperand(1) != V && CB->getArgOperand(2) != V) {
          if (Creates)
            Creates->push_back({CB, V});
          continue;
        }
        if (K == Intrinsic::Free || isMarker(CB))
          continue;
      }
      return false;
    }
  }
  return true;
}

void ProgramModel::joinLoopsOverCounters(ScalarEvolution &SE,
                                         ArrayRef<JoinLoop> Joins) {
  // pthread_create(&tid[n], ...); n++;  (in any loops of main)
  // for (i = 0; i < n; i++) pthread_join(tid[i], ...);
  // The k-th create into tid wrote tid[k], so when n counts them all the
  // join loop waits for every thread created into tid (CountedCreates.h).
  if (!Main->use_empty())
    return;
  const DataLayout &DL = M.getDataLayout();
  for (const JoinLoop &J : Joins) {
    const Value *Base = nullptr;
    if (auto *U = dyn_cast<SCEVUnknown>(SE.getPointerBase(J.Handle)))
      Base = U->getValue();
    SmallVector<std::pair<const CallBase *, const Value *>, 4> Creates;
    if (!Base || !isa<AllocaInst>(Base) || !onlyHoldsHandles(Base, &Creates))
      continue;
    // The creates into tid: in main, each at tid[index] of one element
    // size, which is the join loop's step from &tid[0].
    SmallVector<const CallBase *, 4> Sites;
    DenseMap<const CallBase *, const Value *> Index;
    std::optional<uint64_t> Elem;
    bool Ok = true;
    for (auto [CB, Handle] : Creates) {
      auto E = arrayElement(DL, Handle);
      if (CB->getFunction() != Main || !E || E->Base != Base ||
          E->Offset != 0 || (Elem && *Elem != E->Elem)) {
        Ok = false;
        break;
      }
      Elem = E->Elem;
      Sites.push_back(CB);
      Index[CB] = E->Index;
    }
    if (!Ok || Sites.empty() ||
        J.Handle->getStart() != SE.getSCEV(const_cast<Value *>(Base)))
      continue;
    auto *Step = dyn_cast<SCEVConstant>(J.Handle->getStepRecurrence(SE));
    if (!Step || Step->getAPInt() != *Elem)
      continue;
    // The bound n: the loop-invariant side of the exit test, and the join
    // loop runs at least n iterations.
    const BasicBlock *Exiting = J.L->getExitingBlock();
    const auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
    const auto *Cmp = Br && Br->isConditional()
                          ? dyn_cast<ICmpInst>(Br->getCondition())
                          : nullptr;
    const BasicBlock *Pre = J.L->getLoopPreheader();
    if (!Cmp || !Pre)
      continue;
    const Value *Bound = nullptr;
    for (const Value *Op : Cmp->operands())
      if (J.L->isLoopInvariant(Op))
        Bound = Op;
    if (!Bound || !Bound->getType()->isIntegerTy())
      continue;
    // The join runs once per iteration of the body: the back edge's count
    // when the header tests and leaves, one more when the latch does.
    const SCEV *B = SE.getSCEV(const_cast<Value *>(Bound));
    const SCEV *Trip = nullptr;
    if (Exiting == J.L->getLoopLatch())
      Trip = SE.getAddExpr(J.Count, SE.getOne(J.Count->getType()));
    else if (Exiting == J.L->getHeader() && J.Join != Exiting)
      Trip = J.Count;
    else
      continue;
    Type *Wide = SE.getWiderType(B->getType(), Trip->getType());
    if (Trip != B && !SE.isKnownPredicate(ICmpInst::ICMP_SGE,
                                          SE.getNoopOrZeroExtend(Trip, Wide),
                                          SE.getNoopOrSignExtend(B, Wide)))
      continue;
    // No create after the join loop starts, and n counts every create
    // when it starts.
    const Instruction *Head = &J.L->getHeader()->front();
    if (any_of(Sites,
               [&](const CallBase *S) { return mayReachInMain(Head, S); }) ||
        !countsCreates(
            *Main, Sites, [&](const CallBase *S) { return Index.lookup(S); },
            Bound, Pre))
      continue;
    for (ThreadTemplate &T : Threads)
      if (T.CreateSite && is_contained(Sites, T.CreateSite) && !T.AllJoinedAt)
        T.AllJoinedAt = J.Exit;
  }
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
    JoinLoops.push_back({L, AR, Count, Exit, CB->getParent()});
  }

  joinLoopsOverCounters(SE, JoinLoops);

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

void ProgramModel::findCreators() {
  // main called by the program itself would run its body again, from
  // anywhere: no instruction of it comes before a creation then.
  if (!Main || !Main->use_empty())
    return;
  const unsigned N = Threads.size();
  // Reach[F]: the templates whose create site F may execute through calls
  // (not through the threads it creates); Any: every template (an
  // unresolved call or inline assembly may do anything).
  struct Reaches {
    BitVector Set;
    bool Any = false;
  };
  DenseMap<const Function *, Reaches> Reach;
  for (const Function *F : Reachable)
    Reach[F].Set.resize(N);
  for (const ThreadTemplate &T : Threads)
    if (T.CreateSite)
      Reach[T.CreateSite->getFunction()].Set.set(T.Id);
  // Callees of each call, resolved once.
  struct Call {
    const Function *Caller;
    SmallVector<const Function *, 2> Callees;
    bool Unknown;
  };
  std::vector<Call> Calls;
  for (const Function *F : Reachable)
    for (const Instruction &I : instructions(*F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || callIntrinsic(*CB) == Intrinsic::ThreadCreate)
        continue;
      Call C{F, {}, CB->isInlineAsm()};
      bool Unresolved = false;
      for (const Function *G : PTA->callees(*CB, &Unresolved))
        if (!G->isDeclaration())
          C.Callees.push_back(G);
      C.Unknown |= Unresolved;
      if (C.Unknown || !C.Callees.empty())
        Calls.push_back(std::move(C));
    }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Call &C : Calls) {
      Reaches &R = Reach[C.Caller];
      if (R.Any)
        continue;
      if (C.Unknown) {
        R.Any = Changed = true;
        continue;
      }
      for (const Function *G : C.Callees) {
        auto It = Reach.find(G);
        if (It == Reach.end())
          continue;
        if (It->second.Any) {
          R.Any = Changed = true;
          break;
        }
        BitVector Old = R.Set;
        R.Set |= It->second.Set;
        Changed |= R.Set != Old;
      }
    }
  }
  auto MayReach = [&](const Function *F, unsigned T) {
    auto It = Reach.find(F);
    return It != Reach.end() && (It->second.Any || It->second.Set.test(T));
  };
  // Direct creators: instructions of main's body.
  std::vector<SetVector<const Instruction *>> Creators(N);
  for (const Instruction &I : instructions(*Main)) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    if (callIntrinsic(*CB) == Intrinsic::ThreadCreate) {
      for (const ThreadTemplate &T : Threads)
        if (T.CreateSite == CB)
          Creators[T.Id].insert(CB);
      continue;
    }
    bool Unresolved = CB->isInlineAsm();
    SmallVector<const Function *, 2> Callees;
    for (const Function *G : PTA->callees(*CB, &Unresolved))
      if (!G->isDeclaration())
        Callees.push_back(G);
    for (unsigned T = 1; T < N; ++T)
      if (Unresolved || llvm::any_of(Callees, [&](const Function *G) {
            return MayReach(G, T);
          }))
        Creators[T].insert(CB);
  }
  // A template created by another template's code: whatever creates that
  // one creates it too (to a fixpoint: threads creating threads).
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned T = 1; T < N; ++T)
      for (unsigned U = 1; U < N; ++U)
        if (U != T && MayReach(Threads[U].Entry, T))
          for (const Instruction *C : Creators[U])
            Changed |= Creators[T].insert(C);
  }
  for (ThreadTemplate &T : Threads) {
    if (!T.CreateSite)
      continue;
    T.CreatorsKnown = true;
    T.CreatorsInMain.assign(Creators[T.Id].begin(), Creators[T.Id].end());
  }
}

} // namespace crace
