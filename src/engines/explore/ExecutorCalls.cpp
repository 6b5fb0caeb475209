//===- ExecutorCalls.cpp - calls in the executor
//----------------------------===//
//
// Calls of defined functions, LLVM intrinsics, crace's model intrinsics
// (SyncAPI.def) and the external functions the executor runs natively.
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

Status Executor::callFunction(unsigned T, const Function *F, const CallBase &CB,
                              ArrayRef<RVal> Args) {
  Thread &Th = Threads[T];
  if (Th.Stack.size() >= Limits.MaxStackDepth) {
    Error = formatv("call depth bound of {0} reached", Limits.MaxStackDepth);
    ErrorAt = &CB;
    return Status::BoundHit;
  }
  Frame Fr;
  Fr.F = F;
  Fr.BB = &F->getEntryBlock();
  Fr.PC = Fr.BB->begin();
  Fr.Caller = &CB;
  if (F->isVarArg())
    if (Status S = setUpVarArgs(T, Fr, CB, Args); S != Status::Ok)
      return S;
  for (unsigned I = 0; I < F->arg_size() && I < Args.size(); ++I) {
    const Argument *A = F->getArg(I);
    if (A->hasByValAttr()) {
      // A struct passed by value: the callee gets its own copy.
      uint64_t Size = DL.getTypeAllocSize(A->getParamByValType());
      std::vector<uint8_t> Buf(Size);
      if (Size && !load(Args[I].W, Size, Buf.data()))
        return memoryError(&CB, Error);
      uint32_t Id = newObject(Size, A, /*Visible=*/true);
      std::memcpy(Objects[Id].Bytes.data(), Buf.data(), Size);
      Fr.Allocas.push_back(Id);
      RVal Copy;
      Copy.W = Objects[Id].Base;
      Fr.Vals[A] = Copy;
      continue;
    }
    Fr.Vals[A] = Args[I];
  }
  Threads[T].Stack.push_back(std::move(Fr));
  return Status::Ok;
}

Status Executor::callLLVMIntrinsic(unsigned T, const Function *F,
                                   const CallBase &CB, bool &Visible) {
  llvm::Intrinsic::ID ID = F->getIntrinsicID();
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  Type *Ty = CB.getType();
  unsigned Bits = Ty->isIntegerTy() ? Ty->getIntegerBitWidth() : 64;
  if (isNoEffectLLVMIntrinsic(ID)) {
    if (!Ty->isVoidTy())
      setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  }
  switch (ID) {
  case llvm::Intrinsic::vastart:
  case llvm::Intrinsic::vacopy:
  case llvm::Intrinsic::vaend:
    return vaIntrinsic(T, CB);
  case llvm::Intrinsic::assume: // a hint; a concrete run needs no check
  case llvm::Intrinsic::invariant_start:
    if (!Ty->isVoidTy())
      setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::stacksave:
    setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::threadlocal_address:
  case llvm::Intrinsic::expect:
  case llvm::Intrinsic::expect_with_probability:
  case llvm::Intrinsic::ssa_copy:
    setResult(T, &CB, get(CB.getArgOperand(0), T));
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::is_constant:
    setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::objectsize: {
    RVal R;
    R.W = (Arg(1) & 1) ? 0 : mask(~Word(0), Bits);
    setResult(T, &CB, R);
    advance(T);
    return Status::Ok;
  }
  case llvm::Intrinsic::trap:
  case llvm::Intrinsic::ubsantrap: {
    PendingOp P;
    P.K = PendingOp::ProgramExit;
    P.Error = true;
    P.Inst = &CB;
    Threads[T].Pending = P;
    Visible = true;
    return Status::Ok;
  }
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memcpy_inline:
  case llvm::Intrinsic::memmove:
  case llvm::Intrinsic::memset:
  case llvm::Intrinsic::memset_inline: {
    Word Dst = Arg(0), N = Arg(2);
    PendingOp P;
    P.K = PendingOp::Memory;
    P.Inst = &CB;
    if (N == 0) {
      advance(T);
      return Status::Ok;
    }
    bool IsSet =
        ID == llvm::Intrinsic::memset || ID == llvm::Intrinsic::memset_inline;
    if ((!IsSet && !memRef(Arg(1), N, false, false, P, "read")) ||
        !memRef(Dst, N, true, false, P, "write"))
      return memoryError(&CB, Error);
    Threads[T].Pending = P;
    if (!P.Refs.empty()) {
      Visible = true;
      return Status::Ok;
    }
    return performMemory(T);
  }
  case llvm::Intrinsic::sadd_with_overflow:
  case llvm::Intrinsic::uadd_with_overflow:
  case llvm::Intrinsic::ssub_with_overflow:
  case llvm::Intrinsic::usub_with_overflow:
  case llvm::Intrinsic::smul_with_overflow:
  case llvm::Intrinsic::umul_with_overflow: {
    auto *ST = cast<StructType>(Ty);
    unsigned B = ST->getElementType(0)->getIntegerBitWidth();
    if (B > 64)
      return unsupported(&CB, "wider-than-64-bit overflow intrinsic");
    APInt A(B, mask(Arg(0), B)), C(B, mask(Arg(1), B));
    bool Ov = false;
    APInt R(B, 0);
    switch (ID) {
    case llvm::Intrinsic::sadd_with_overflow:
      R = A.sadd_ov(C, Ov);
      break;
    case llvm::Intrinsic::uadd_with_overflow:
      R = A.uadd_ov(C, Ov);
      break;
    case llvm::Intrinsic::ssub_with_overflow:
      R = A.ssub_ov(C, Ov);
      break;
    case llvm::Intrinsic::usub_with_overflow:
      R = A.usub_ov(C, Ov);
      break;
    case llvm::Intrinsic::smul_with_overflow:
      R = A.smul_ov(C, Ov);
      break;
    default:
      R = A.umul_ov(C, Ov);
      break;
    }
    RVal Out;
    Out.Bytes.assign(sizeOf(ST), 0);
    const StructLayout *SL = DL.getStructLayout(ST);
    Word V = R.getZExtValue();
    for (uint64_t K = 0; K < sizeOf(ST->getElementType(0)); ++K)
      Out.Bytes[K] = uint8_t(V >> (8 * K));
    Out.Bytes[SL->getElementOffset(1)] = Ov;
    setResult(T, &CB, Out);
    advance(T);
    return Status::Ok;
  }
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::umin:
  case llvm::Intrinsic::abs:
  case llvm::Intrinsic::ctpop:
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz:
  case llvm::Intrinsic::bswap:
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr: {
    if (!Ty->isIntegerTy() || Bits > 64)
      return unsupported(&CB, "vector or wide bit-manipulation intrinsic");
    APInt A(Bits, mask(Arg(0), Bits));
    APInt R(Bits, 0);
    switch (ID) {
    case llvm::Intrinsic::smax: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.sge(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::smin: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.sle(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::umax: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.uge(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::umin: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.ule(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::abs:
      R = A.abs();
      break;
    case llvm::Intrinsic::ctpop:
      R = APInt(Bits, A.popcount());
      break;
    case llvm::Intrinsic::ctlz:
      R = APInt(Bits, A.countl_zero());
      break;
    case llvm::Intrinsic::cttz:
      R = APInt(Bits, A.countr_zero());
      break;
    case llvm::Intrinsic::bswap:
      R = A.byteSwap();
      break;
    default: {
      APInt C(Bits, mask(Arg(1), Bits));
      unsigned S = unsigned(Arg(2) % Bits);
      const APInt &Hi = A, &Lo = C;
      if (ID == llvm::Intrinsic::fshl)
        R = S == 0 ? Hi : (Hi.shl(S) | Lo.lshr(Bits - S));
      else
        R = S == 0 ? Lo : (Hi.shl(Bits - S) | Lo.lshr(S));
      break;
    }
    }
    RVal Out;
    Out.W = R.getZExtValue();
    setResult(T, &CB, Out);
    advance(T);
    return Status::Ok;
  }
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::floor:
  case llvm::Intrinsic::ceil:
  case llvm::Intrinsic::trunc:
  case llvm::Intrinsic::round:
  case llvm::Intrinsic::fmuladd:
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::copysign: {
    if (!supportedFP(Ty))
      return unsupported(&CB, "floating-point type other than float/double");
    double A = asDouble(Arg(0), Ty), R = 0;
    switch (ID) {
    case llvm::Intrinsic::fabs:
      R = std::fabs(A);
      break;
    case llvm::Intrinsic::sqrt:
      R = std::sqrt(A);
      break;
    case llvm::Intrinsic::floor:
      R = std::floor(A);
      break;
    case llvm::Intrinsic::ceil:
      R = std::ceil(A);
      break;
    case llvm::Intrinsic::trunc:
      R = std::trunc(A);
      break;
    case llvm::Intrinsic::round:
      R = std::round(A);
      break;
    case llvm::Intrinsic::copysign:
      R = std::copysign(A, asDouble(Arg(1), Ty));
      break;
    default:
      R = A * asDouble(Arg(1), Ty) + asDouble(Arg(2), Ty);
      break;
    }
    RVal Out;
    Out.W = fromDouble(R, Ty);
    setResult(T, &CB, Out);
    advance(T);
    return Status::Ok;
  }
  default:
    return unsupported(&CB, "LLVM intrinsic '" + F->getName().str() +
                                "' is not supported by the explore engine");
  }
}

std::optional<Word> Executor::externalValue(const Function *F,
                                            const CallBase &CB, unsigned T) {
  Type *Ty = CB.getType();
  if (Ty->isVoidTy())
    return Word(0);
  StringRef N = F->getName();
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  if (Ty->isFloatingPointTy()) {
    if (!supportedFP(Ty) || CB.arg_size() < 1 ||
        !supportedFP(CB.getArgOperand(0)->getType()))
      return std::nullopt;
    Type *AT = CB.getArgOperand(0)->getType();
    double X = asDouble(Arg(0), AT), R;
    if (N == "sqrt" || N == "sqrtf")
      R = std::sqrt(X);
    else if (N == "fabs" || N == "fabsf")
      R = std::fabs(X);
    else if (N == "floor" || N == "floorf")
      R = std::floor(X);
    else if (N == "ceil" || N == "ceilf")
      R = std::ceil(X);
    else if (N == "exp")
      R = std::exp(X);
    else if (N == "log")
      R = std::log(X);
    else if (N == "sin")
      R = std::sin(X);
    else if (N == "cos")
      R = std::cos(X);
    else if (N == "pow" && CB.arg_size() == 2)
      R = std::pow(X, asDouble(Arg(1), CB.getArgOperand(1)->getType()));
    else
      return std::nullopt;
    return fromDouble(R, Ty);
  }
  unsigned Bits = Ty->isIntegerTy() ? Ty->getIntegerBitWidth() : 64;
  int C = CB.arg_size() ? int(sext(Arg(0), 32)) : 0;
  if (N == "toupper")
    return mask(Word(std::toupper(C)), Bits);
  if (N == "tolower")
    return mask(Word(std::tolower(C)), Bits);
  if (N == "isdigit")
    return Word(C >= 0 && C < 256 && std::isdigit(C) ? 1 : 0);
  if (N == "isspace")
    return Word(C >= 0 && C < 256 && std::isspace(C) ? 1 : 0);
  if (N == "isalpha")
    return Word(C >= 0 && C < 256 && std::isalpha(C) ? 1 : 0);
  if (N == "putchar" || N == "fputc" || N == "putc")
    return mask(Word(C & 0xff), Bits);
  // Output functions: their result (a count or 0) is rarely used; report
  // success as 0 only where 0 means success.
  if (N == "fflush" || N == "fclose" || N == "srandom" || N == "nanosleep")
    return Word(0);
  // Output: the count of characters written is approximated by 0 (a
  // program that computes with it is rare; a negative error never comes).
  if (N.contains("printf") || N == "puts" || N == "fputs" || N == "perror" ||
      N == "fwrite")
    return Word(0);
  // Values from the environment: nondeterministic inputs.
  if (N == "random" || N == "clock" || N == "sysconf")
    return mask(draw(T, Bits > 32 ? 64 : 32), Bits);
  // fcntl/ioctl without a pointer argument (those are not executed): -1 or
  // a non-negative value from the kernel.
  if (N == "fcntl" || N == "fcntl64" || N == "ioctl") {
    Word V = draw(T, 32);
    return mask(int32_t(V) < -1 ? Word(-1) : V, Bits);
  }
  return std::nullopt;
}

Status Executor::callExternal(unsigned T, const Function *F, const CallBase &CB,
                              bool &Visible) {
  if (F->isIntrinsic())
    return callLLVMIntrinsic(T, F, CB, Visible);
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  Thread &Th = Threads[T];
  auto Result = [&](Word W) {
    if (!CB.getType()->isVoidTy()) {
      RVal R;
      R.W = W;
      setResult(T, &CB, R);
    }
  };
  auto Pend = [&](PendingOp::Kind K) {
    PendingOp P;
    P.K = K;
    P.Inst = &CB;
    return P;
  };
  std::optional<Intrinsic> In = lookupIntrinsic(F->getName());
  if (In) {
    switch (*In) {
    case Intrinsic::ThreadCreate: {
      // At the thread bound: parked at once, no scheduling point (a loop
      // creating thousands of threads gets past them in one step).
      if (parkNext()) {
        if (!park(T, CB))
          return memoryError(&CB, Error);
        advance(T);
        return Status::Ok;
      }
      PendingOp P = Pend(PendingOp::Create);
      P.Sync = Arg(1);
      P.Sync2 = Arg(2);
      if (!memRef(Arg(0), PtrBytes, true, false, P, "write"))
        return memoryError(&CB, Error);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ThreadJoin: {
      PendingOp P = Pend(PendingOp::Join);
      P.Sync = mask(Arg(0), PtrBytes * 8);
      P.Sync2 = Arg(1);
      if ((P.Sync == 0 || P.Sync > Threads.size() || P.Sync - 1 == T) &&
          !parkedHandle(P.Sync))
        return unsupported(&CB, "join of a thread handle that names no "
                                "joinable thread");
      if (P.Sync2 && !memRef(P.Sync2, PtrBytes, true, false, P, "write"))
        return memoryError(&CB, Error);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ThreadExit: {
      PendingOp P = Pend(PendingOp::ThreadEnd);
      Th.Result = Arg(0);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ThreadSelf:
      Result(T + 1);
      advance(T);
      return Status::Ok;
    case Intrinsic::Lock:
    case Intrinsic::RdLock:
    case Intrinsic::TryLock:
    case Intrinsic::TryRdLock: {
      PendingOp P = Pend(PendingOp::Lock);
      P.Sync = Arg(0);
      P.ReadLock = *In == Intrinsic::RdLock || *In == Intrinsic::TryRdLock;
      P.Try = *In == Intrinsic::TryLock || *In == Intrinsic::TryRdLock;
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::Unlock: {
      PendingOp P = Pend(PendingOp::Unlock);
      P.Sync = Arg(0);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::AtomicBegin:
      Th.Pending = Pend(PendingOp::AtomicBegin);
      Visible = true;
      return Status::Ok;
    case Intrinsic::AtomicEnd:
      Th.Pending = Pend(PendingOp::AtomicEnd);
      Visible = true;
      return Status::Ok;
    case Intrinsic::CondWait: {
      PendingOp P = Pend(PendingOp::CondWait);
      P.Sync = Arg(0);
      P.Sync2 = Arg(1);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::CondSignal:
    case Intrinsic::CondBroadcast: {
      PendingOp P = Pend(PendingOp::CondSignal);
      P.Sync = Arg(0);
      P.Broadcast = *In == Intrinsic::CondBroadcast;
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::BarrierInit: {
      BarrierState &B = Barriers[Arg(0)];
      B.N = unsigned(Arg(1));
      B.Arrived = 0;
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::BarrierWait: {
      PendingOp P = Pend(PendingOp::BarrierWait);
      P.Sync = Arg(0);
      if (!Barriers.count(P.Sync))
        return unsupported(&CB, "wait on a barrier that was not initialised");
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::SemInit:
      Semaphores[Arg(0)] = int64_t(uint32_t(Arg(1)));
      advance(T);
      return Status::Ok;
    case Intrinsic::SemWait:
    case Intrinsic::SemPost: {
      PendingOp P = Pend(*In == Intrinsic::SemWait ? PendingOp::SemWait
                                                   : PendingOp::SemPost);
      P.Sync = Arg(0);
      if (!Semaphores.count(P.Sync))
        return unsupported(&CB, "semaphore that was not initialised");
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::NondetInt:
    case Intrinsic::NondetCount:
      Result(mask(*In == Intrinsic::NondetCount ? draw(T, 32, true)
                                                : draw(T, 32, false, &CB),
                  CB.getType()->getIntegerBitWidth()));
      advance(T);
      return Status::Ok;
    case Intrinsic::NondetLongLong:
      Result(mask(draw(T, 64, false, &CB), CB.getType()->getIntegerBitWidth()));
      advance(T);
      return Status::Ok;
    case Intrinsic::NondetBits: {
      // An input with a declared domain of 2^bits values (bool: 1, char: 8).
      Word Bits = Arg(0);
      if (Bits < 1 || Bits > 32)
        return unsupported(&CB, "__crace_nondet_bits needs 1..32 bits");
      Result(mask(draw(T, unsigned(Bits)), CB.getType()->getIntegerBitWidth()));
      if (Guidance)
        CallDraw[{T, &CB}] = CurDraw;
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::NondetPtr:
      return unsupported(&CB, "nondeterministic pointer value");
    case Intrinsic::Fork:
      // Which side of the fork the run follows: an input of one bit, so
      // both are enumerated. The parent goes on at once with the child's
      // pid; the child's side is a visible operation (the other threads
      // stop being part of the process).
      if (draw(T, 1)) {
        Result(2 + draw(T, 15));
        advance(T);
        return Status::Ok;
      }
      Th.Pending = Pend(PendingOp::ForkChild);
      Visible = true;
      return Status::Ok;
    case Intrinsic::UnknownInt:
    case Intrinsic::UnknownLongLong:
      return havoc(T, CB, "a library model does not compute a result");
    case Intrinsic::Assume:
      if (Arg(0) & 0xff) {
        advance(T);
        return Status::Ok;
      }
      // SV-COMP: a failed assumption blocks its thread for good.
      Th.Pending = Pend(PendingOp::Blocked);
      Visible = true;
      return Status::Ok;
    case Intrinsic::Assert:
      if (Arg(0) & 0xff) {
        advance(T);
        return Status::Ok;
      }
      [[fallthrough]];
    case Intrinsic::Error: {
      PendingOp P = Pend(PendingOp::ProgramExit);
      P.Error = true;
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::Exit:
      Th.Pending = Pend(PendingOp::ProgramExit);
      Visible = true;
      return Status::Ok;
    case Intrinsic::Alloc: {
      Word N = Arg(0);
      if (N > (Word(1) << 28)) {
        // More than crace gives a run: the allocation fails, as malloc may.
        Result(0);
        advance(T);
        return Status::Ok;
      }
      if (PtrBytes == 4 && NextAddr + N > (Word(1) << 32) - 0x1000)
        return unsupported(&CB, "32-bit address space exhausted");
      uint32_t Id = newObject(N, &CB, true);
      Objects[Id].Heap = true;
      Result(Objects[Id].Base);
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::Free: {
      Word P0 = Arg(0);
      if (P0 == 0) {
        advance(T);
        return Status::Ok;
      }
      auto Id = objectAt(P0);
      if (!Id || !Objects[*Id].Heap || Objects[*Id].Base != P0 ||
          !Objects[*Id].Alive)
        return memoryError(&CB, "free() of a pointer that is not the start "
                                "of a live heap block");
      PendingOp P = Pend(PendingOp::Memory);
      MemRef R;
      R.Addr = P0;
      R.Size = std::max<uint64_t>(Objects[*Id].Size, 1);
      R.Write = true;
      R.Free = true;
      R.Obj = *Id;
      P.Refs.push_back(R);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ObjectSize: {
      Word P0 = Arg(0);
      auto Id = objectAt(P0);
      if (!Id || !Objects[*Id].Alive)
        return memoryError(&CB, "object size of an invalid pointer");
      const Object &O = Objects[*Id];
      Result(P0 - O.Base <= O.Size ? O.Size - (P0 - O.Base) : 0);
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::Read:
    case Intrinsic::Write: {
      Word P0 = Arg(0), N = Arg(1);
      bool W = *In == Intrinsic::Write;
      if (N == 0) {
        // A string: up to and including its terminating zero.
        auto Id = objectAt(P0);
        if (!Id || !Objects[*Id].Alive || Objects[*Id].IsFunction)
          return memoryError(&CB, "string access through an invalid pointer");
        if (W && Objects[*Id].Visible)
          return unsupported(&CB, "a library model writes a string of "
                                  "unknown length");
        const Object &O = Objects[*Id];
        uint64_t Off = P0 - O.Base;
        while (Off < O.Size && O.Bytes[Off] != 0)
          ++Off;
        if (Off >= O.Size)
          return memoryError(&CB, "string without terminating zero");
        N = Off + 1 - (P0 - O.Base);
      }
      PendingOp P = Pend(PendingOp::Memory);
      if (!memRef(P0, N, W, false, P, W ? "write" : "read"))
        return memoryError(&CB, Error);
      Th.Pending = P;
      if (P.Refs.empty()) {
        advance(T);
        return Status::Ok;
      }
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::BmcFail:
    case Intrinsic::BmcSameObject:
      // The bmc's own, in kiss's sequential programs only.
      return unsupported(&CB, "the bounded model checker's intrinsic");
    }
  }
  if (isPrintf(F)) {
    Status S = callPrintf(T, F, CB, Visible);
    // A stream printf the engine cannot format (%m, ...) still reads its
    // string operands: the table row below does that.
    if (S != Status::Unsupported || isSprintf(F))
      return S;
  }
  if (isFcntlGetLock(F, CB, T))
    return callFcntlGetLock(T, F, CB, Visible);
  if (isSscanf(F))
    return callSscanf(T, F, CB, Visible);
  if (isScanf(F))
    if (auto S = callScanf(T, F, CB, Visible))
      return *S;
  if (auto Eff = lookupExternal(F->getName())) {
    PendingOp P = Pend(PendingOp::Memory);
    bool Writes = *Eff == ExternalEffect::WritesArg0 ||
                  *Eff == ExternalEffect::WritesFrom1 ||
                  *Eff == ExternalEffect::WritesFrom2;
    // fcntl writes through its third operand only for F_GETLK, run above:
    // the other commands read a struct flock or take an int.
    if (F->getName() == "fcntl" || F->getName() == "fcntl64")
      Writes = false;
    unsigned FirstWrite = *Eff == ExternalEffect::WritesArg0    ? 0
                          : *Eff == ExternalEffect::WritesFrom1 ? 1
                                                                : 2;
    for (unsigned I = 0; I < CB.arg_size(); ++I) {
      if (!CB.getArgOperand(I)->getType()->isPointerTy())
        continue;
      Word P0 = Arg(I);
      if (P0 == 0)
        continue;
      if (Writes && I >= FirstWrite &&
          (*Eff != ExternalEffect::WritesArg0 || I == 0))
        return havoc(T, CB,
                     "library function '" + F->getName().str() +
                         "' writes memory the explore engine does not model");
      if (*Eff == ExternalEffect::Pure)
        continue;
      auto Id = objectAt(P0);
      if (!Id || !Objects[*Id].Alive)
        continue; // FILE* and the like: library-internal memory
      const Object &O = Objects[*Id];
      if (O.IsFunction)
        continue;
      uint64_t Off = P0 - O.Base, End = Off;
      while (End < O.Size && O.Bytes[End] != 0)
        ++End;
      uint64_t N = std::min<uint64_t>(End + 1, O.Size) - Off;
      if (N && !memRef(P0, N, false, false, P, "read"))
        return memoryError(&CB, Error);
    }
    if (CB.getType()->isPointerTy())
      return havoc(T, CB,
                   "library function '" + F->getName().str() +
                       "' returns a pointer the explore engine does not model");
    auto V = externalValue(F, CB, T);
    if (!V)
      return havoc(T, CB,
                   "the explore engine does not compute the result of '" +
                       F->getName().str() + "'");
    Result(*V);
    Th.Pending = P;
    if (P.Refs.empty()) {
      advance(T);
      return Status::Ok;
    }
    Visible = true;
    return Status::Ok;
  }
  return havoc(T, CB, "'" + F->getName().str() + "' has no body and no model");
}

Status Executor::havoc(unsigned T, const CallBase &CB, std::string What) {
  Type *Ty = CB.getType();
  RVal R;
  if (Ty->isPointerTy()) {
    if (draw(T, 1)) {
      if (PtrBytes == 4 &&
          NextAddr + HavocBlockBytes > (Word(1) << 32) - 0x1000)
        return unsupported(&CB, "32-bit address space exhausted");
      uint32_t Id = newObject(HavocBlockBytes, &CB, true);
      Objects[Id].Heap = true;
      R.W = Objects[Id].Base;
    }
  } else if (Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64) {
    unsigned W = Ty->getIntegerBitWidth();
    R.W = mask(draw(T, W <= 32 ? 32 : 64), W);
  } else if (Ty->isFloatTy() || Ty->isDoubleTy()) {
    R.W = mask(draw(T, Ty->isFloatTy() ? 32 : 64), Ty->isFloatTy() ? 32 : 64);
  } else if (!Ty->isVoidTy()) {
    return unsupported(&CB, What + " (its result type is not supported)");
  }
  if (!Ty->isVoidTy())
    setResult(T, &CB, R);
  Threads[T].Havocked = true;
  NewHavocs.push_back({&CB, std::move(What)});
  advance(T);
  return Status::Ok;
}

} // namespace crace::explore
