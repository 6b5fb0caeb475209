//===- Executor.cpp - deterministic LLVM IR executor
//------------------------===//
//
// Threads and their pending operations: reset, enabledness, running a
// thread to its next visible operation and performing it (Executor.h).
// Memory is in ExecutorMemory.cpp, instruction semantics in
// ExecutorEval.cpp, calls in ExecutorCalls.cpp, spin detection in
// ExecutorSpin.cpp.
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Executor.h"
#include "engines/explore/ExecutorUtil.h"
#include "model/PointsTo.h"
#include "model/ProgramModel.h"

#include "llvm/Support/FormatVariadic.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include <cctype>
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace crace::explore::detail;

namespace crace::explore {

Executor::Executor(const ProgramModel &PM, ExecLimits Limits)
    : PM(PM), M(PM.module()), DL(M.getDataLayout()), Limits(Limits),
      PtrBytes(DL.getPointerSize()) {}

Executor::~Executor() = default;

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

Status Executor::unsupported(const Instruction *I, const std::string &What) {
  Error = What;
  ErrorAt = I;
  return Status::Unsupported;
}

Status Executor::memoryError(const Instruction *I, const std::string &What) {
  Error = What;
  ErrorAt = I;
  return Status::MemoryError;
}

void Executor::setResult(unsigned T, const Instruction *I, RVal V) {
  Threads[T].Stack.back().Vals[I] = std::move(V);
}

void Executor::advance(unsigned T) { ++Threads[T].Stack.back().PC; }

unsigned Executor::spawn(const Function *F, Word Arg, unsigned Creator) {
  unsigned T = Threads.size();
  Threads.emplace_back();
  Thread &Th = Threads.back();
  Th.Name = T == 0 ? std::string("main")
                   : (crace::threadName(F) + "#" + Twine(T)).str();
  Th.Creator = int(Creator);
  Frame Fr;
  Fr.F = F;
  Fr.BB = &F->getEntryBlock();
  Fr.PC = Fr.BB->begin();
  if (F->arg_size() >= 1) {
    RVal A;
    A.W = Arg;
    Fr.Vals[F->getArg(0)] = A;
  }
  Th.Stack.push_back(std::move(Fr));
  return T;
}

bool Executor::storeHandle(unsigned T, const CallBase &Create, Word H) {
  uint8_t Buf[8];
  for (unsigned K = 0; K < 8; ++K)
    Buf[K] = uint8_t(H >> (8 * K));
  return store(get(Create.getArgOperand(0), T).W, PtrBytes, Buf);
}

bool Executor::park(unsigned T, const CallBase &Create) {
  return storeHandle(T, Create, parkedBase() + Parked++);
}

Status Executor::reset(NondetSource NewNondet) {
  Nondet = std::move(NewNondet);
  DrawCount.clear();
  Taint.clear();
  CallDraw.clear();
  LoadAddr.clear();
  Cmps.clear();
  StdinRead = false;
  Threads.clear();
  Locks.clear();
  Barriers.clear();
  Semaphores.clear();
  AtomicOwner = -1;
  AtomicDepth = 0;
  NextTicket = 0;
  Exited = false;
  SignalChoice = false;
  Parked = 0;
  DivergedAt = nullptr;
  StoppedAt = nullptr;
  StoppedWhy.clear();
  NewHavocs.clear();
  NewChosen.clear();
  Steps = 0;
  Error.clear();
  ErrorAt = nullptr;
  TLS.clear();
  if (!Initialised) {
    Objects.clear();
    ByBase.clear();
    Objects.emplace_back(); // id 0: nothing
    NextAddr = FirstAddress;
    for (const Function &F : M) {
      uint32_t Id = newObject(1, &F, false);
      Objects[Id].IsFunction = true;
      FunctionAddr[&F] = Objects[Id].Base;
      FunctionAt[Objects[Id].Base] = &F;
    }
    for (const GlobalVariable &GV : M.globals()) {
      if (GV.isThreadLocal())
        continue;
      uint32_t Id = newObject(sizeOf(GV.getValueType()), &GV,
                              /*Visible=*/!GV.isConstant());
      Globals[&GV] = Id;
    }
    // Initialisers may refer to any global's address: all are placed first.
    for (const GlobalVariable &GV : M.globals())
      if (!GV.isThreadLocal() && GV.hasInitializer())
        writeConstant(GV.getInitializer(), Objects[Globals[&GV]].Bytes.data());
    InitialObjects = Objects;
    InitialNextAddr = NextAddr;
    Initialised = true;
  } else {
    Objects = InitialObjects;
    NextAddr = InitialNextAddr;
    ByBase.clear();
    for (uint32_t I = 1; I < Objects.size(); ++I)
      ByBase[Objects[I].Base] = I;
  }
  const Function *Main = PM.mainFunction();
  if (!Main)
    return unsupported(nullptr, "the program has no main function");
  spawn(Main, 0, 0);
  Threads[0].Creator = -1;
  // main takes no parameters: the front end computes argc, argv and the
  // environment as inputs at its start (frontend/ProgramStart.h).
  return stopIfUnsupported(0, runToVisible(0));
}

Status Executor::stopIfUnsupported(unsigned T, Status S) {
  if (S != Status::Unsupported || T >= Threads.size())
    return S;
  // The thread stops for good where the engine cannot follow it; the run
  // is real up to here, so the other threads go on (the engine notes the
  // search is not exhaustive).
  PendingOp P;
  P.K = PendingOp::Blocked;
  P.Inst = ErrorAt ? ErrorAt
                   : (Threads[T].Stack.empty() ? nullptr
                                               : &*Threads[T].Stack.back().PC);
  Threads[T].Pending = P;
  StoppedAt = P.Inst;
  StoppedWhy = Error;
  return Status::Ok;
}

bool Executor::enabled(unsigned T) const {
  const Thread &Th = Threads[T];
  if (Exited || Th.Finished)
    return false;
  if (AtomicOwner != -1 && AtomicOwner != int(T))
    return false;
  const PendingOp &P = Th.Pending;
  if (Th.SpinBlocked) {
    // Runs again only when another thread is about to change what it reads
    // (then its partial loop iterations matter for races), and only once
    // per such situation.
    uint64_t Key = enablerKey(T);
    if (Key == 0 || Key == Th.SpinDoneKey)
      return false;
    // ... and then only if its operation itself can run.
  }
  switch (P.K) {
  case PendingOp::Done:
  case PendingOp::Blocked:
    return false;
  case PendingOp::Lock: {
    if (P.Try)
      return true;
    auto It = Locks.find(P.Sync);
    if (It == Locks.end())
      return true;
    if (P.ReadLock)
      return It->second.Owner == -1;
    return It->second.Owner == -1 && It->second.Readers == 0;
  }
  case PendingOp::CondWake: {
    // POSIX allows spurious wake-ups: a waiter may return without a
    // signal, so only the mutex gates it (signals need no modelling).
    auto It = Locks.find(P.Sync2);
    return It == Locks.end() ||
           (It->second.Owner == -1 && It->second.Readers == 0);
  }
  case PendingOp::AtomicBegin:
    return AtomicOwner == -1 || AtomicOwner == int(T);
  case PendingOp::BarrierLeave: {
    auto It = Barriers.find(P.Sync);
    return It != Barriers.end() && It->second.Generation != Th.BarrierGen;
  }
  case PendingOp::SemWait: {
    auto It = Semaphores.find(P.Sync);
    return It != Semaphores.end() && It->second > 0;
  }
  case PendingOp::Create:
    // Past MaxParked parked threads the creator waits: the runs explored
    // are those where it has not got that far yet (never a wrong race).
    return Threads.size() < Limits.MaxThreads || parkNext();
  case PendingOp::Join: {
    Word H = P.Sync;
    if (H == 0 || H > Threads.size())
      return false;
    return Threads[H - 1].Finished;
  }
  default:
    return true;
  }
}

bool Executor::memRef(Word Addr, uint64_t Size, bool Write, bool Atomic,
                      PendingOp &P, const char *What) {
  uint32_t Id;
  if (!checkAccess(Addr, Size, Id, What))
    return false;
  if (!Objects[Id].Visible)
    return true;
  MemRef R;
  R.Addr = Addr;
  R.Size = Size;
  R.Write = Write;
  R.Atomic = Atomic;
  R.Obj = Id;
  R.Off = Addr - Objects[Id].Base;
  P.Refs.push_back(R);
  return true;
}

void Executor::returnFrom(unsigned T, RVal V) {
  Thread &Th = Threads[T];
  Frame &Fr = Th.Stack.back();
  for (uint32_t A : Fr.Allocas)
    Objects[A].Alive = false;
  const CallBase *Caller = Fr.Caller;
  Th.Stack.pop_back();
  if (Th.Stack.empty()) {
    PendingOp P;
    P.K = T == 0 ? PendingOp::ProgramExit : PendingOp::ThreadEnd;
    Th.Result = V.W;
    Th.Pending = P;
    return;
  }
  if (Caller && !Caller->getType()->isVoidTy())
    setResult(T, Caller, std::move(V));
  advance(T);
}

Status Executor::performMemory(unsigned T) {
  Thread &Th = Threads[T];
  const PendingOp &P = Th.Pending;
  const Instruction &I = *P.Inst;
  auto Fail = [&] { return memoryError(&I, Error); };
  if (!P.Refs.empty() && P.Refs[0].Free) {
    Objects[P.Refs[0].Obj].Alive = false;
    advance(T);
    return Status::Ok;
  }
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Word A = get(LI->getPointerOperand(), T).W;
    uint64_t N = sizeOf(LI->getType());
    RVal R;
    if (LI->getType()->isAggregateType() || LI->getType()->isVectorTy()) {
      R.Bytes.assign(N, 0);
      if (!load(A, N, R.Bytes.data()))
        return Fail();
    } else {
      if (N > 8)
        return unsupported(&I, "load wider than 64 bits");
      uint8_t Buf[8] = {0};
      if (!load(A, N, Buf))
        return Fail();
      for (uint64_t K = 0; K < N; ++K)
        R.W |= Word(Buf[K]) << (8 * K);
    }
    if (Guidance && N == 1)
      noteLoad(T, *LI, A);
    setResult(T, &I, std::move(R));
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Word A = get(SI->getPointerOperand(), T).W;
    RVal V = get(SI->getValueOperand(), T);
    uint64_t N = sizeOf(SI->getValueOperand()->getType());
    if (!V.Bytes.empty()) {
      V.Bytes.resize(N, 0);
      if (!store(A, N, V.Bytes.data()))
        return Fail();
    } else {
      if (N > 8)
        return unsupported(&I, "store wider than 64 bits");
      uint8_t Buf[8];
      for (uint64_t K = 0; K < 8; ++K)
        Buf[K] = uint8_t(V.W >> (8 * K));
      if (!store(A, N, Buf))
        return Fail();
    }
    if (Guidance && N == 1)
      noteStore(T, *SI, A, uint8_t(V.Bytes.empty() ? V.W : V.Bytes[0]));
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Word A = get(RMW->getPointerOperand(), T).W;
    Type *Ty = RMW->getValOperand()->getType();
    uint64_t N = sizeOf(Ty);
    if (N > 8 || Ty->isFloatingPointTy())
      return unsupported(&I, "atomic update of this type");
    unsigned Bits = Ty->isPointerTy() ? PtrBytes * 8 : Ty->getIntegerBitWidth();
    uint8_t Buf[8] = {0};
    if (!load(A, N, Buf))
      return Fail();
    Word Old = 0;
    for (uint64_t K = 0; K < N; ++K)
      Old |= Word(Buf[K]) << (8 * K);
    Word V = mask(get(RMW->getValOperand(), T).W, Bits), New = 0;
    int64_t SO = sext(Old, Bits), SV = sext(V, Bits);
    switch (RMW->getOperation()) {
    case AtomicRMWInst::Xchg:
      New = V;
      break;
    case AtomicRMWInst::Add:
      New = Old + V;
      break;
    case AtomicRMWInst::Sub:
      New = Old - V;
      break;
    case AtomicRMWInst::And:
      New = Old & V;
      break;
    case AtomicRMWInst::Nand:
      New = ~(Old & V);
      break;
    case AtomicRMWInst::Or:
      New = Old | V;
      break;
    case AtomicRMWInst::Xor:
      New = Old ^ V;
      break;
    case AtomicRMWInst::Max:
      New = SO > SV ? Old : V;
      break;
    case AtomicRMWInst::Min:
      New = SO < SV ? Old : V;
      break;
    case AtomicRMWInst::UMax:
      New = Old > V ? Old : V;
      break;
    case AtomicRMWInst::UMin:
      New = Old < V ? Old : V;
      break;
    default:
      return unsupported(&I, "atomic update operation");
    }
    New = mask(New, Bits);
    for (uint64_t K = 0; K < N; ++K)
      Buf[K] = uint8_t(New >> (8 * K));
    if (!store(A, N, Buf))
      return Fail();
    RVal R;
    R.W = Old;
    setResult(T, &I, R);
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Word A = get(CX->getPointerOperand(), T).W;
    Type *Ty = CX->getCompareOperand()->getType();
    uint64_t N = sizeOf(Ty);
    if (N > 8)
      return unsupported(&I, "compare-exchange wider than 64 bits");
    unsigned Bits = Ty->isPointerTy() ? PtrBytes * 8 : Ty->getIntegerBitWidth();
    uint8_t Buf[8] = {0};
    if (!load(A, N, Buf))
      return Fail();
    Word Old = 0;
    for (uint64_t K = 0; K < N; ++K)
      Old |= Word(Buf[K]) << (8 * K);
    bool Eq = Old == mask(get(CX->getCompareOperand(), T).W, Bits);
    if (Eq) {
      Word New = get(CX->getNewValOperand(), T).W;
      for (uint64_t K = 0; K < N; ++K)
        Buf[K] = uint8_t(New >> (8 * K));
      if (!store(A, N, Buf))
        return Fail();
    }
    auto *ST = cast<StructType>(CX->getType());
    RVal R;
    R.Bytes.assign(sizeOf(ST), 0);
    for (uint64_t K = 0; K < N; ++K)
      R.Bytes[K] = uint8_t(Old >> (8 * K));
    R.Bytes[DL.getStructLayout(ST)->getElementOffset(1)] = Eq;
    setResult(T, &I, R);
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    Word Dst = get(MI->getDest(), T).W;
    Word N = get(MI->getLength(), T).W;
    if (auto *MT = dyn_cast<MemTransferInst>(MI)) {
      std::vector<uint8_t> Buf(N);
      if (!load(get(MT->getSource(), T).W, N, Buf.data()) ||
          !store(Dst, N, Buf.data()))
        return Fail();
      if (Guidance)
        noteCopy(Dst, get(MT->getSource(), T).W, N);
    } else {
      std::vector<uint8_t> Buf(N, uint8_t(get(MI->getArgOperand(1), T).W));
      if (!store(Dst, N, Buf.data()))
        return Fail();
    }
  } else if (auto *CB = dyn_cast<CallBase>(&I); CB && P.Native) {
    if (Status S = performNative(T, *CB); S != Status::Ok)
      return S;
  }
  // Calls of library functions and __crace_read/write only access memory
  // (their result, if any, is already set).
  advance(T);
  return Status::Ok;
}

Status Executor::runToVisible(unsigned T) {
  for (uint64_t Local = 0;; ++Local) {
    Thread &Th = Threads[T];
    if (Th.Stack.empty())
      return Status::Ok; // pending ThreadEnd / ProgramExit set by returnFrom
    if (Local >= Limits.MaxLocalSteps) {
      // A loop that touches nothing shared and never synchronises: to the
      // other threads this thread has stopped for good. (The engine notes
      // it: a long but finite loop would have done more.)
      PendingOp P;
      P.K = PendingOp::Blocked;
      P.Inst = &*Th.Stack.back().PC;
      Th.Pending = P;
      DivergedAt = P.Inst;
      return Status::Ok;
    }
    bool Visible = false;
    Status S = execute(T, Visible);
    if (S != Status::Ok)
      return S;
    if (Visible)
      return Status::Ok;
  }
}

Status Executor::step(unsigned T) {
  uint64_t EpochBefore = Epoch;
  PendingOp::Kind K = Threads[T].Pending.K;
  Status S = stopIfUnsupported(T, stepImpl(T));
  // Lock operations and atomic sections show in the stepping thread's
  // local state (localHash); memory writes bump the epoch in store().
  if (K != PendingOp::Memory && K != PendingOp::Lock &&
      K != PendingOp::Unlock && K != PendingOp::AtomicBegin &&
      K != PendingOp::AtomicEnd && K != PendingOp::Join &&
      K != PendingOp::CondWait && K != PendingOp::CondWake &&
      K != PendingOp::CondSignal)
    ++Epoch;
  if (K == PendingOp::Memory && !LastStepped.Refs.empty() &&
      LastStepped.Refs[0].Free)
    ++Epoch;
  if (S == Status::Ok && !Exited)
    noteSpin(T, LastStepped, EpochBefore);
  return S;
}

Status Executor::stepImpl(unsigned T) {
  Thread &Th = Threads[T];
  PendingOp P = Th.Pending;
  LastStepped = P;
  switch (P.K) {
  case PendingOp::Memory: {
    Status S = performMemory(T);
    if (S != Status::Ok)
      return S;
    break;
  }
  case PendingOp::Lock: {
    LockState &L = Locks[P.Sync];
    bool Free = P.ReadLock ? L.Owner == -1 : (L.Owner == -1 && L.Readers == 0);
    if (P.Try && !Free) {
      RVal R;
      R.W = 16; // EBUSY
      setResult(T, P.Inst, R);
    } else {
      if (P.ReadLock)
        ++L.Readers;
      else
        L.Owner = int(T);
      if (P.Try)
        setResult(T, P.Inst, RVal{});
    }
    advance(T);
    break;
  }
  case PendingOp::Unlock: {
    LockState &L = Locks[P.Sync];
    if (L.Owner == int(T))
      L.Owner = -1;
    else if (L.Readers > 0)
      --L.Readers;
    else
      return memoryError(P.Inst, "unlock of a lock the thread does not hold");
    unblockSpinners(0, 0, P.Sync, T);
    advance(T);
    break;
  }
  case PendingOp::AtomicBegin:
    AtomicOwner = int(T);
    ++AtomicDepth;
    advance(T);
    break;
  case PendingOp::AtomicEnd:
    if (AtomicOwner == int(T) && AtomicDepth > 0 && --AtomicDepth == 0)
      AtomicOwner = -1;
    advance(T);
    break;
  case PendingOp::CondWait: {
    LockState &L = Locks[P.Sync2];
    if (L.Owner != int(T))
      return memoryError(P.Inst, "condition wait without holding the mutex");
    L.Owner = -1;
    Th.WaitCond = P.Sync;
    Th.Signalled = false;
    Th.WaitTicket = NextTicket++;
    Th.Pending.K = PendingOp::CondWake;
    return Status::Ok; // the call completes when woken
  }
  case PendingOp::CondWake:
    Locks[P.Sync2].Owner = int(T);
    Th.WaitCond = 0;
    advance(T);
    break;
  case PendingOp::CondSignal: {
    SmallVector<unsigned, 4> Waiters;
    for (unsigned U = 0; U < Threads.size(); ++U)
      if (Threads[U].Pending.K == PendingOp::CondWake &&
          Threads[U].WaitCond == P.Sync && !Threads[U].Signalled)
        Waiters.push_back(U);
    if (P.Broadcast) {
      for (unsigned U : Waiters)
        Threads[U].Signalled = true;
    } else if (!Waiters.empty()) {
      if (Waiters.size() > 1)
        SignalChoice = true;
      unsigned Oldest = Waiters[0];
      for (unsigned U : Waiters)
        if (Threads[U].WaitTicket < Threads[Oldest].WaitTicket)
          Oldest = U;
      Threads[Oldest].Signalled = true;
    }
    advance(T);
    break;
  }
  case PendingOp::BarrierWait: {
    BarrierState &B = Barriers[P.Sync];
    if (++B.Arrived >= B.N) {
      B.Arrived = 0;
      ++B.Generation;
      RVal R;
      R.W = mask(Word(-1), 32); // PTHREAD_BARRIER_SERIAL_THREAD
      if (!P.Inst->getType()->isVoidTy())
        setResult(T, P.Inst, R);
      advance(T);
      break;
    }
    Th.BarrierGen = B.Generation;
    Th.Pending.K = PendingOp::BarrierLeave;
    return Status::Ok;
  }
  case PendingOp::BarrierLeave:
    if (!P.Inst->getType()->isVoidTy())
      setResult(T, P.Inst, RVal{});
    advance(T);
    break;
  case PendingOp::SemWait:
    --Semaphores[P.Sync];
    advance(T);
    break;
  case PendingOp::SemPost:
    ++Semaphores[P.Sync];
    advance(T);
    break;
  case PendingOp::Create: {
    const Function *F = FunctionAt.lookup(P.Sync);
    if (!F || F->isDeclaration())
      return unsupported(P.Inst, "thread start routine is not a function "
                                 "of the program");
    // Other threads' creations may have reached the bound since this one
    // became pending: parked then (see park()).
    if (parkNext()) {
      if (!park(T, *cast<CallBase>(P.Inst)))
        return memoryError(P.Inst, Error);
      advance(T);
      break;
    }
    if (Threads.size() >= Limits.MaxThreads) {
      Error = formatv("thread bound of {0} reached", Limits.MaxThreads);
      ErrorAt = P.Inst;
      return Status::BoundHit;
    }
    unsigned Child = spawn(F, P.Sync2, T);
    Threads[Child].SignalHandler =
        isSignalHandlerCreate(*cast<CallBase>(P.Inst));
    if (!storeHandle(T, *cast<CallBase>(P.Inst), Word(Child) + 1))
      return memoryError(P.Inst, Error);
    advance(T);
    Status S = runToVisible(Child);
    if (S != Status::Ok)
      return S;
    break;
  }
  case PendingOp::Join: {
    if (P.Sync2) {
      Word R = Threads[P.Sync - 1].Result;
      uint8_t Buf[8];
      for (unsigned K = 0; K < 8; ++K)
        Buf[K] = uint8_t(R >> (8 * K));
      if (!store(P.Sync2, PtrBytes, Buf))
        return memoryError(P.Inst, Error);
    }
    advance(T);
    break;
  }
  case PendingOp::ThreadEnd:
    Th.Finished = true;
    for (Frame &Fr : Th.Stack)
      for (uint32_t A : Fr.Allocas)
        Objects[A].Alive = false;
    Th.Stack.clear();
    Th.Pending = PendingOp();
    Th.Pending.K = PendingOp::Done;
    return Status::Ok;
  case PendingOp::ProgramExit:
    Exited = true;
    Th.Finished = true;
    return Status::Ok;
  case PendingOp::ForkChild: {
    // The child process has this thread only, and a copy of memory (the
    // other threads' stacks included): they end without running another
    // step or any exit code. Signal handlers stay installed, so their
    // threads go on.
    for (unsigned U = 0; U < Threads.size(); ++U) {
      Thread &Other = Threads[U];
      if (U == T || Other.Finished || Other.SignalHandler)
        continue;
      Other.Finished = true;
      Other.Stack.clear();
      Other.Pending = PendingOp();
      Other.Pending.K = PendingOp::Done;
    }
    RVal R;
    R.W = 0;
    setResult(T, P.Inst, R);
    advance(T);
    break;
  }
  case PendingOp::Blocked:
  case PendingOp::Done:
    return Status::Ok;
  }
  Threads[T].Pending = PendingOp(); // (spawn may have moved Th)
  return runToVisible(T);
}

std::vector<std::string> Executor::locksHeld(unsigned T) const {
  std::vector<std::string> Names;
  for (const auto &[Addr, L] : Locks)
    if (L.Owner == int(T))
      Names.push_back(describeAddress(Addr));
  if (AtomicOwner == int(T))
    Names.push_back("atomic section");
  return Names;
}

void Executor::ownedLocks(unsigned T, llvm::SmallVectorImpl<Word> &Out) const {
  Out.clear();
  for (const auto &[Addr, L] : Locks)
    if (L.Owner == int(T))
      Out.push_back(Addr);
}

ThreadPos Executor::position(unsigned T) const {
  ThreadPos P;
  const Thread &Th = Threads[T];
  if (Exited || Th.Finished)
    return P;
  switch (Th.Pending.K) {
  case PendingOp::Done:
  case PendingOp::Blocked:
  case PendingOp::ThreadEnd:
  case PendingOp::ProgramExit:
    return P;
  default:
    break;
  }
  for (auto It = Th.Stack.rbegin(); It != Th.Stack.rend(); ++It) {
    FramePos F;
    F.F = It->F;
    F.BB = It->BB;
    F.PC = It->PC == It->BB->end() ? nullptr : &*It->PC;
    P.push_back(F);
  }
  return P;
}

} // namespace crace::explore
