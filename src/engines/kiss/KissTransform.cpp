//===- KissTransform.cpp - KISS sequentialisation (see KissTransform.h)
//-----===//
//
// The transformer: the program cloned, every visible operation instrumented
// with a possible RAISE, synchronisation replaced by the runtime's.
//
//===----------------------------------------------------------------------===//
#include "engines/kiss/KissTransformImpl.h"

#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "engines/kiss/KissRuntime.h"
#include "engines/kiss/Rounds.h"
#include "model/Errors.h"
#include "model/PointsTo.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
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
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace crace::kiss {

using namespace detail;

bool Transformer::sharedAccess(const MemAccess &A) const {
  if (A.Library || !A.Ptr || PM.isThreadPrivateAccess(A.Ptr))
    return false;
  for (const Loc &L : PT.pointsTo(A.Ptr))
    if (L.Obj == PointsTo::UnknownObj || PT.object(L.Obj).Shared)
      return true;
  return false;
}

bool Transformer::mayRace(const MemAccess &A) const {
  return !O.RacySites || A.Atomic || O.RacySites->count(A.Inst);
}

bool Transformer::callMayRaise(const CallBase &CB) const {
  if (const Function *F = CB.getCalledFunction())
    return MayRaise.count(F);
  const Instruction *OI = orig(&CB);
  if (!OI)
    return false;
  for (const Function *OF : PM.callees(*cast<CallBase>(OI)))
    if (const Value *V = VMap.lookup(OF))
      if (MayRaise.count(cast<Function>(V)))
        return true;
  return false;
}

bool Transformer::visible(const Instruction &I) const {
  if (isa<PHINode>(I) || I.isTerminator())
    return false;
  SyncOp Op = syncOpOf(I);
  if (Op != SyncOp::None)
    return Op != SyncOp::Self && Op != SyncOp::NoOp;
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (callMayRaise(*CB))
      return true;
  // Yield-MR: a plain access that races with nothing commutes with every
  // other thread's step (a conflicting step right after it would race
  // with it), so it needs no schedule point of its own.
  if (const Instruction *OI = orig(&I))
    for (const MemAccess &A : PM.accessesOf(*OI))
      if (sharedAccess(A) && mayRace(A))
        return true;
  return false;
}

BasicBlock *Transformer::raiseBlock(Function &F) {
  BasicBlock *&BB = RaiseBB[&F];
  if (!BB) {
    BB = BasicBlock::Create(M->getContext(), "kiss.raise", &F);
    IRBuilder<> B(BB);
    B.CreateStore(B.getTrue(), Raise);
    if (F.getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(UndefValue::get(F.getReturnType()));
  }
  return BB;
}

/// schedule(); the race checks of the targets the access may touch; the
/// nondeterministic RAISE; then I.
void Transformer::instrument(Instruction &I) {
  Function &F = *I.getFunction();
  LLVMContext &C = M->getContext();
  BasicBlock *BB = I.getParent();
  BasicBlock *Tail = BB->splitBasicBlock(&I, "kiss.op");
  BB->getTerminator()->eraseFromParent();
  IRBuilder<> B(BB);
  B.SetCurrentDebugLocation(I.getDebugLoc());
  B.CreateCall(Schedule);
  ++P.SchedulePoints;
  const Instruction *OI = orig(&I);
  if (OI && !Targets.empty()) {
    for (const MemAccess &A : PM.accessesOf(*OI)) {
      if (!sharedAccess(A) || !mayRace(A))
        continue;
      const PtsSet &Pts = PT.pointsTo(A.Ptr);
      for (unsigned T = 0; T < Targets.size(); ++T) {
        bool Others = false, UnknownOff = false;
        std::vector<int64_t> Offs;
        for (const Loc &L : Pts) {
          if (L.Obj != TargetObjs[T])
            Others = true;
          else if (!L.exact())
            UnknownOff = true;
          else
            Offs.push_back(L.Off);
        }
        // Accesses of unknown size (strings) are not checked.
        if ((Offs.empty() && !UnknownOff) || A.Size == 0)
          continue;
        // Does the access touch the target? Statically yes when every
        // pointee is in the target; otherwise compare the address.
        Value *Ptr = MapValue(A.Ptr, VMap);
        if (!Ptr)
          continue;
        auto *Check = BasicBlock::Create(C, "kiss.check", &F);
        auto *Next = BasicBlock::Create(C, "kiss.next", &F);
        Value *Go = B.CreateCall(Nondet);
        if (Others && !Targets[T].G) {
          // A heap or stack target has no one address: the access is
          // checked unless it is in one of the global variables it may
          // point to; the object check before the overlap makes the rest
          // exact (a pending access and this one in different objects are
          // no race).
          Value *In = B.getTrue();
          std::set<uint32_t> Seen;
          for (const Loc &L : Pts) {
            if (L.Obj == TargetObjs[T] || !Seen.insert(L.Obj).second ||
                Seen.size() > 16 || PT.object(L.Obj).Kind != ObjKind::Global)
              continue;
            auto *OG = dyn_cast_or_null<GlobalVariable>(
                VMap.lookup(PT.object(L.Obj).Site));
            if (OG)
              In = B.CreateAnd(
                  In, B.CreateNot(B.CreateCall(SameObject, {Ptr, OG})));
          }
          Go = B.CreateAnd(Go, In);
        } else if (Others) {
          auto *G = cast<GlobalVariable>(VMap.lookup(Targets[T].G));
          Value *In;
          if (UnknownOff) {
            const DataLayout &DL = M->getDataLayout();
            Type *IntPtr = DL.getIntPtrType(Ptr->getType());
            Value *D = B.CreateSub(B.CreatePtrToInt(Ptr, IntPtr),
                                   B.CreatePtrToInt(G, IntPtr));
            In = B.CreateICmpULT(
                D, ConstantInt::get(IntPtr,
                                    DL.getTypeAllocSize(G->getValueType())));
          } else {
            In = B.getFalse();
            for (int64_t Off : Offs)
              In = B.CreateOr(In,
                              B.CreateICmpEQ(Ptr, B.CreateConstInBoundsGEP1_64(
                                                      B.getInt8Ty(), G, Off)));
          }
          Go = B.CreateAnd(Go, In);
        }
        B.CreateCondBr(Go, Check, Next);
        B.SetInsertPoint(Check);
        Value *CurRound = nullptr;
        if (O.Rounds) {
          // Once a race is seen, nothing more is recorded or checked.
          auto *Check2 = BasicBlock::Create(C, "kiss.check", &F);
          B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), RaceFlag[T]), Next,
                         Check2);
          B.SetInsertPoint(Check2);
          CurRound = B.CreateLoad(B.getInt32Ty(), Round, "kiss.round");
        }
        bool W = A.Kind == AccessKind::Write;
        Value *Prev = B.CreateLoad(B.getInt8Ty(), AccessVars[T], "kiss.prev");
        Value *InA = B.CreateLoad(B.getInt1Ty(), Atomic);
        Value *AEff = A.Atomic ? (Value *)B.getTrue() : InA;
        Value *Present = B.CreateICmpNE(Prev, B.getInt8(0));
        Value *PrevW =
            B.CreateICmpNE(B.CreateAnd(Prev, B.getInt8(2)), B.getInt8(0));
        Value *PrevA =
            B.CreateICmpNE(B.CreateAnd(Prev, B.getInt8(4)), B.getInt8(0));
        Value *Conflict =
            B.CreateAnd(B.CreateAnd(Present, W ? (Value *)B.getTrue() : PrevW),
                        B.CreateNot(B.CreateAnd(AEff, PrevA)), "kiss.conflict");
        // A later access of an atomic section meets the pending plain
        // access of the stopped thread in no state: the section's first
        // access came between them. In C the section is no synchronisation,
        // but SV-COMP labels this shape both ways, and explore reports it
        // as a possible race only (ExploreRaces.cpp): it is not confirmed
        // here either.
        if (SectAcc)
          Conflict = B.CreateAnd(
              Conflict, B.CreateNot(B.CreateAnd(
                            InA, B.CreateLoad(B.getInt1Ty(), SectAcc))));
        // The pending thread stopped in its round: this access comes later
        // in the round-robin order only in that round or a later one.
        if (O.Rounds)
          Conflict = B.CreateAnd(
              Conflict,
              B.CreateICmpULE(B.CreateLoad(B.getInt32Ty(), PendRound[T]),
                              CurRound));
        auto *Overlap = BasicBlock::Create(C, "kiss.overlap", &F);
        auto *FailBB = BasicBlock::Create(C, "kiss.race", &F);
        auto *SetBB = BasicBlock::Create(C, "kiss.pending", &F);
        auto *DoSet = BasicBlock::Create(C, "kiss.record", &F);
        B.CreateCondBr(Conflict, Overlap, SetBB);
        // Same bytes? First the same object (a heap or stack target stands
        // for all objects of its site; their addresses are not ordered),
        // then the bytes: ordering two addresses of one object is exact.
        B.SetInsertPoint(Overlap);
        Type *I64 = B.getInt64Ty();
        Value *PP = B.CreateLoad(B.getPtrTy(), PendPtr[T]);
        auto *Bytes = BasicBlock::Create(C, "kiss.bytes", &F);
        B.CreateCondBr(B.CreateCall(SameObject, {Ptr, PP}, "kiss.same"), Bytes,
                       SetBB);
        B.SetInsertPoint(Bytes);
        Value *PN = B.CreateLoad(I64, PendSize[T]);
        Value *Ov = B.CreateAnd(
            B.CreateICmpULT(Ptr, B.CreateGEP(B.getInt8Ty(), PP, PN)),
            B.CreateICmpULT(PP, B.CreateGEP(B.getInt8Ty(), Ptr,
                                            ConstantInt::get(I64, A.Size))));
        B.CreateCondBr(Ov, FailBB, SetBB);
        SiteInfo SI{OI, A.Kind, A.Atomic, A.Size, T};
        B.SetInsertPoint(FailBB);
        if (O.Rounds) {
          // Remember the race; it is reported at the end, once the guessed
          // round states are validated.
          B.CreateStore(B.getTrue(), RaceFlag[T]);
          B.CreateStore(B.getInt32(RaceSites.size()), RaceSite[T]);
          RaceSites.push_back(SI);
          P.RaceBlocks[FailBB] = SI;
        } else {
          CallInst *FC = B.CreateCall(Fail);
          P.FailSites[FC] = SI;
        }
        B.CreateBr(raiseBlock(F));
        // Inside an atomic section the access only checks: the thread
        // cannot stop there.
        B.SetInsertPoint(SetBB);
        B.CreateCondBr(InA, Next, DoSet);
        B.SetInsertPoint(DoSet);
        B.CreateStore(B.getInt8(1 | (W ? 2 : 0) | (A.Atomic ? 4 : 0)),
                      AccessVars[T]);
        B.CreateStore(Ptr, PendPtr[T]);
        B.CreateStore(ConstantInt::get(I64, A.Size), PendSize[T]);
        if (O.Rounds)
          B.CreateStore(CurRound, PendRound[T]);
        B.CreateBr(raiseBlock(F));
        P.SetBlocks[DoSet] = SI;
        ++P.Checks;
        B.SetInsertPoint(Next);
      }
    }
  }
  // The section's first shared access is behind it.
  if (SectAcc && OI && any_of(PM.accessesOf(*OI), [&](const MemAccess &A) {
        return sharedAccess(A);
      }))
    B.CreateStore(B.CreateOr(B.CreateLoad(B.getInt1Ty(), SectAcc),
                             B.CreateLoad(B.getInt1Ty(), Atomic)),
                  SectAcc);
  // choice { skip [] RAISE }, not inside atomic sections.
  Value *R = B.CreateAnd(B.CreateCall(Nondet),
                         B.CreateNot(B.CreateLoad(B.getInt1Ty(), Atomic)));
  B.CreateCondBr(R, raiseBlock(F), Tail);
}

/// if (raise) return; after a call that may raise.
void Transformer::raiseCheckAfter(CallBase &CB) {
  Instruction *NextI = CB.getNextNode();
  BasicBlock *BB = CB.getParent();
  BasicBlock *Tail = BB->splitBasicBlock(NextI, "kiss.ret");
  BB->getTerminator()->eraseFromParent();
  IRBuilder<> B(BB);
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Raise),
                 raiseBlock(*CB.getFunction()), Tail);
}

void Transformer::replaceSync(CallBase &CB, SyncOp Op) {
  auto Use = [&](StringRef Name) {
    Function *F = M->getFunction(Name);
    CB.setCalledFunction(F);
  };
  switch (Op) {
  case SyncOp::Create:
    Use("__kiss_create");
    break;
  case SyncOp::Join:
    Use("__kiss_join");
    break;
  case SyncOp::Self:
    Use("__kiss_thread_self");
    break;
  case SyncOp::Lock:
    Use("__kiss_lock");
    break;
  case SyncOp::RdLock:
    // Shared by readers in the KISS form; --rounds keeps one table per
    // round, of exclusive holds only (a read lock is a lock there).
    Use(O.Rounds ? "__kiss_lock" : "__kiss_rdlock");
    break;
  case SyncOp::TryRdLock:
    Use(O.Rounds ? "__kiss_trylock" : "__kiss_tryrdlock");
    break;
  case SyncOp::Unlock:
    Use("__kiss_unlock");
    break;
  case SyncOp::TryLock:
    Use("__kiss_trylock");
    break;
  case SyncOp::CondWait:
    Use("__kiss_cond_wait");
    break;
  case SyncOp::AtomicBegin:
    Use("__kiss_atomic_begin");
    break;
  case SyncOp::AtomicEnd:
    Use("__kiss_atomic_end");
    break;
  case SyncOp::BlockI32:
    Use("__kiss_block_i32");
    break;
  case SyncOp::Block:
    Use("__kiss_block");
    break;
  case SyncOp::Exit: {
    Use("__kiss_thread_exit");
    CB.removeFnAttr(Attribute::NoReturn);
    // The thread ends: unwind its frames like RAISE (done is set).
    BasicBlock *BB = CB.getParent();
    BB->splitBasicBlock(CB.getNextNode(), "kiss.dead");
    BB->getTerminator()->eraseFromParent();
    BranchInst::Create(raiseBlock(*CB.getFunction()), BB);
    break;
  }
  case SyncOp::NoOp:
    if (CB.getType()->isVoidTy())
      CB.eraseFromParent();
    else
      CB.replaceAllUsesWith(Constant::getNullValue(CB.getType())),
          CB.eraseFromParent();
    break;
  case SyncOp::None:
    break;
  }
}

Error Transformer::run() {
  const Module &Src = PM.module();
  P.M = CloneModule(Src, VMap);
  M = P.M.get();
  for (auto KV : VMap)
    if (const auto *OI = dyn_cast<Instruction>(KV.first))
      if (auto *CI = dyn_cast_or_null<Instruction>(&*KV.second))
        P.ToOrig[CI] = OI;
  for (Function &F : *M)
    if (!F.isDeclaration())
      UserFns.push_back(&F);
  Function *Main = M->getFunction("main");
  if (!Main || Main->isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "the program has no main function");

  // The runtime: C compiled for the program's target (KissRuntime.h).
  const DataLayout &DL = M->getDataLayout();
  if (O.Rounds) {
    for (const Target &T : Targets)
      if (!T.G)
        return createStringError(inconvertibleErrorCode(),
                                 "--rounds checks global variables only, not " +
                                     T.Name);
    if (Error E = roundsPrepare())
      return E;
    // The copied state: the shared globals and the lock table.
    std::vector<Type *> Fields;
    for (const GlobalVariable *G : RGlobals)
      Fields.push_back(G->getValueType());
    Fields.push_back(ArrayType::get(PointerType::getUnqual(M->getContext()),
                                    std::max(1u, O.MaxLocks)));
    GTy = StructType::create(M->getContext(), Fields, "kiss.shared");
    Stride = DL.getTypeAllocSize(GTy).getFixedValue();
    if (Stride > O.RoundsMaxBytes)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("--rounds: the shared state is too large to copy per round "
                  "({0} bytes > {1})",
                  Stride, O.RoundsMaxBytes)
              .str());
  }
  RuntimeParams RP;
  RP.Rounds = O.Rounds;
  RP.Slots = O.Max;
  RP.Threads = O.Rounds ? O.RoundsThreads + 1 : std::max(2u, O.MaxThreads);
  RP.Locks = std::max(1u, O.MaxLocks);
  RP.Stride = Stride;
  // The reader table only when the program takes read locks: the runtime
  // of the others stays as it was (the bmc's Z3 queries are sensitive to
  // its shape).
  if (!O.Rounds)
    for (Intrinsic In : {Intrinsic::RdLock, Intrinsic::TryRdLock})
      if (const Function *F = M->getFunction(intrinsicName(In));
          F && !F->use_empty())
        RP.ReadLocks = RP.Locks;
  auto RTOr = compileRuntime(O.CompileC, *M, RP);
  if (!RTOr)
    return RTOr.takeError();
  std::unique_ptr<Module> RT = std::move(*RTOr);
  // A thread handle is as wide as a pointer (the runtime's kiss_id).
  const Function *Self = RT->getFunction("__kiss_thread_self");
  if (!Self ||
      Self->getReturnType()->getIntegerBitWidth() != DL.getPointerSizeInBits())
    return make_error<InternalError>(
        "the kiss runtime's thread handles do not match the data layout");
  RT->setTargetTriple(M->getTargetTriple());
  if (Linker::linkModules(*M, std::move(RT)))
    return make_error<InternalError>("cannot link the kiss runtime");
  Raise = M->getNamedGlobal("__kiss_raise");
  Atomic = M->getNamedGlobal("__kiss_atomic");
  // Only a program with atomic sections tracks their first accesses.
  if (const Function *AB =
          M->getFunction(intrinsicName(Intrinsic::AtomicBegin));
      AB && !AB->use_empty())
    SectAcc = M->getNamedGlobal("__kiss_sect_acc");
  Nondet = M->getFunction("__kiss_nondet");
  Schedule = M->getFunction("__kiss_schedule");
  // (The linker drops unused declarations.)
  Fail = cast<Function>(
      M->getOrInsertFunction(
           intrinsicName(Intrinsic::BmcFail),
           FunctionType::get(Type::getVoidTy(M->getContext()), false))
          .getCallee());
  // i1 (ptr, ptr): both addresses in one object (bmc/EncoderCalls.cpp).
  {
    LLVMContext &C = M->getContext();
    SameObject = cast<Function>(
        M->getOrInsertFunction(intrinsicName(Intrinsic::BmcSameObject),
                               FunctionType::get(Type::getInt1Ty(C),
                                                 {PointerType::getUnqual(C),
                                                  PointerType::getUnqual(C)},
                                                 false))
            .getCallee());
  }
  if (!Raise || !Atomic || !Nondet || !Schedule)
    return make_error<InternalError>("kiss runtime incomplete");
  adaptStartRoutines();
  for (unsigned T = 0; T < Targets.size(); ++T) {
    // IR names: the global's name, or the target's name as an identifier.
    std::string IRName = Targets[T].Name;
    for (char &Ch : IRName)
      if (!isAlnum(Ch) && Ch != '_' && Ch != '.')
        Ch = '_';
    auto *GV = new GlobalVariable(
        *M, Type::getInt8Ty(M->getContext()), false,
        GlobalValue::InternalLinkage,
        ConstantInt::get(Type::getInt8Ty(M->getContext()), 0),
        "__kiss_access." + IRName);
    AccessVars.push_back(GV);
    // The pending access's address and size (overlap with later ones).
    PendPtr.push_back(new GlobalVariable(
        *M, PointerType::getUnqual(M->getContext()), false,
        GlobalValue::InternalLinkage,
        ConstantPointerNull::get(PointerType::getUnqual(M->getContext())),
        "__kiss_pending." + IRName));
    PendSize.push_back(new GlobalVariable(
        *M, Type::getInt64Ty(M->getContext()), false,
        GlobalValue::InternalLinkage,
        ConstantInt::get(Type::getInt64Ty(M->getContext()), 0),
        "__kiss_pending_size." + IRName));
    TargetObjs.push_back(Targets[T].Obj);
    if (O.Rounds) {
      LLVMContext &C = M->getContext();
      RaceFlag.push_back(new GlobalVariable(
          *M, Type::getInt1Ty(C), false, GlobalValue::InternalLinkage,
          ConstantInt::getFalse(C), "__kiss_race." + IRName));
      RaceSite.push_back(new GlobalVariable(
          *M, Type::getInt32Ty(C), false, GlobalValue::InternalLinkage,
          ConstantInt::get(Type::getInt32Ty(C), 0),
          "__kiss_race_site." + IRName));
      PendRound.push_back(new GlobalVariable(
          *M, Type::getInt32Ty(C), false, GlobalValue::InternalLinkage,
          ConstantInt::get(Type::getInt32Ty(C), 0),
          "__kiss_pending_round." + IRName));
    }
  }
  P.Targets = Targets;
  if (O.Rounds) {
    Round = M->getNamedGlobal("__kiss_round");
    GlobalVariable *St = M->getNamedGlobal("__kiss_stride");
    St->setInitializer(
        ConstantInt::get(Type::getInt64Ty(M->getContext()), Stride));
    St->setConstant(true);
    // Redirections are decided on the untouched clone.
    if (Error E = roundsRedirects())
      return E;
  }

  // Functions that may raise: they contain visible instructions.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function *F : UserFns) {
      if (MayRaise.count(F))
        continue;
      for (Instruction &I : instructions(*F))
        if (visible(I)) {
          MayRaise.insert(F);
          Changed = true;
          break;
        }
    }
  }
  // Instrument every visible instruction.
  auto Cancelled = [&] { return O.Cancel && O.Cancel->load(); };
  for (Function *F : UserFns) {
    if (Cancelled())
      return createStringError(inconvertibleErrorCode(), "cancelled");
    std::vector<Instruction *> Vis;
    std::vector<CallBase *> RaiseAfter, Sync;
    for (Instruction &I : instructions(*F)) {
      if (!visible(I))
        continue;
      Vis.push_back(&I);
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        SyncOp Op = syncOpOf(I);
        if (Op == SyncOp::CondWait || (Op == SyncOp::None && callMayRaise(*CB)))
          RaiseAfter.push_back(CB);
      }
    }
    for (Instruction &I : instructions(*F))
      if (isa<CallBase>(I) && syncOpOf(I) != SyncOp::None)
        Sync.push_back(cast<CallBase>(&I));
    // The work budget: a step per visible instruction, and after the
    // function one per instruction the instrumentation added (a check per
    // target an access may touch: the module grows tenfold on large
    // programs, and that is where the time goes).
    unsigned SizeBefore = O.Work ? F->getInstructionCount() : 0;
    for (size_t N = 0; N < Vis.size(); ++N) {
      if ((N & 63) == 0 && Cancelled())
        return createStringError(inconvertibleErrorCode(), "cancelled");
      if (O.Work && O.Work->step())
        return createStringError(inconvertibleErrorCode(), WorkBudgetRanOut);
      instrument(*Vis[N]);
    }
    for (CallBase *CB : RaiseAfter)
      raiseCheckAfter(*CB);
    for (CallBase *CB : Sync)
      replaceSync(*CB, syncOpOf(*CB));
    if (O.Work) {
      unsigned SizeAfter = F->getInstructionCount();
      if (O.Work->step(SizeAfter > SizeBefore ? SizeAfter - SizeBefore : 0))
        return createStringError(inconvertibleErrorCode(), WorkBudgetRanOut);
    }
    // Functions now return where they did not (RAISE, pthread_exit).
    F->removeFnAttr(Attribute::NoReturn);
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction();
            !Callee || !Callee->isDeclaration())
          CB->removeFnAttr(Attribute::NoReturn);
  }
  // Sync intrinsics in the runtime-free declarations may remain in dead
  // model functions only when unused; nothing else refers to them.
  if (O.Rounds) {
    // Accesses of the copied state go to the current round's copy: a
    // switch on the round, one copy of the access per round, so that the
    // bmc sees concrete addresses.
    // (In program order: a pointer-ordered map made the block order, and
    // so the emitted module, change from run to run.)
    MapVector<Instruction *, std::vector<unsigned>> Ops;
    for (auto [I, OpNo] : Redirects)
      Ops[I].push_back(OpNo);
    LLVMContext &C = M->getContext();
    for (auto &[I, Nos] : Ops) {
      BasicBlock *BB = I->getParent();
      BasicBlock *C0 = BB->splitBasicBlock(I, "kiss.round0");
      BasicBlock *Join = C0->splitBasicBlock(I->getNextNode(), "kiss.rjoin");
      BB->getTerminator()->eraseFromParent();
      IRBuilder<> B(BB);
      B.SetCurrentDebugLocation(I->getDebugLoc());
      SwitchInst *SW =
          B.CreateSwitch(B.CreateLoad(B.getInt32Ty(), Round), C0, O.Rounds);
      PHINode *Phi = nullptr;
      if (!I->getType()->isVoidTy()) {
        Phi = PHINode::Create(I->getType(), O.Rounds, "kiss.rval");
        Phi->insertBefore(Join->begin());
        Phi->addIncoming(I, C0);
      }
      for (unsigned Rd = 1; Rd < O.Rounds; ++Rd) {
        auto *CB = BasicBlock::Create(C, "kiss.round", BB->getParent());
        SW->addCase(B.getInt32(Rd), CB);
        IRBuilder<> CBld(CB);
        CBld.SetCurrentDebugLocation(I->getDebugLoc());
        Instruction *NI = I->clone();
        for (unsigned No : Nos)
          NI->setOperand(No, CBld.CreateConstGEP1_64(CBld.getInt8Ty(),
                                                     I->getOperand(No),
                                                     Rd * Stride, "kiss.cur"));
        CBld.Insert(NI);
        CBld.CreateBr(Join);
        if (const Instruction *OI = orig(I))
          P.ToOrig[NI] = OI;
        if (Phi)
          Phi->addIncoming(NI, CB);
      }
      if (Phi)
        I->replaceUsesWithIf(Phi, [&](Use &U) { return U.getUser() != Phi; });
    }
  }

  // main: the original main is the first thread.
  Main->setName("__kiss_main");
  if (O.Rounds) {
    roundsMain(Main);
    roundsLayout();
  } else {
    FunctionType *FT = Main->getFunctionType();
    Function *NewMain =
        Function::Create(FT, GlobalValue::ExternalLinkage, "main", M);
    Main->setLinkage(GlobalValue::InternalLinkage);
    {
      LLVMContext &C = M->getContext();
      auto *Entry = BasicBlock::Create(C, "entry", NewMain);
      auto *Sched = BasicBlock::Create(C, "others", NewMain);
      auto *Out = BasicBlock::Create(C, "out", NewMain);
      IRBuilder<> B(Entry);
      std::vector<Value *> Args;
      for (Argument &A : NewMain->args())
        Args.push_back(&A);
      CallInst *R = B.CreateCall(Main, Args);
      // A normal return from main ends the program; main stopped by RAISE
      // or pthread_exit lets the remaining threads run.
      B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Raise), Sched, Out);
      B.SetInsertPoint(Sched);
      B.CreateStore(B.getFalse(), Raise);
      B.CreateStore(B.getFalse(), Atomic);
      B.CreateCall(Schedule);
      B.CreateBr(Out);
      B.SetInsertPoint(Out);
      if (FT->getReturnType()->isVoidTy())
        B.CreateRetVoid();
      else
        B.CreateRet(R);
    }
  }
  for (Function &F : *M)
    if (isRuntime(F) && !F.isDeclaration())
      F.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &G : M->globals())
    if (G.getName().starts_with("__kiss_"))
      G.setLinkage(GlobalValue::InternalLinkage);

  std::string Err;
  raw_string_ostream ES(Err);
  if (verifyModule(*M, &ES))
    return make_error<InternalError>("the sequential module is invalid: " +
                                     Err);
  return Error::success();
}

Expected<KissProgram> transform(const ProgramModel &PM,
                                const std::vector<Target> &Targets,
                                const KissOptions &O) {
  KissProgram P;
  Transformer T(PM, Targets, O, P);
  if (Error E = T.run())
    return std::move(E);
  return std::move(P);
}

} // namespace crace::kiss
