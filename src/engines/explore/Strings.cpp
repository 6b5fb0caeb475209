//===- Strings.cpp - string functions the explore executor runs exactly ---===//
//
// The C library models (models/libc.c) give strlen, strcmp, strncmp,
// memcmp, strchr, strrchr, strstr, atoi and atol an unknown result: the
// static engines only need their reads, and an exact loop over a symbolic
// string would cost them. explore has the bytes, so it computes the result
// itself, reading exactly the bytes the function must read to know it (a
// comparison stops at the first difference), and stops nowhere.
//
//===----------------------------------------------------------------------===//

#include "engines/explore/Guidance.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace crace::explore {

namespace {
enum class StrFn {
  None,
  Strlen,
  Strcmp,
  Strncmp,
  Memcmp,
  Strchr,
  Strrchr,
  Strstr,
  Atoi,
  Atol
};
StrFn strFn(const Function *F) {
  if (!F || F->getSection() != ".crace_model_call")
    return StrFn::None;
  return StringSwitch<StrFn>(F->getName())
      .Case("strlen", StrFn::Strlen)
      .Case("strcmp", StrFn::Strcmp)
      .Case("strncmp", StrFn::Strncmp)
      .Case("memcmp", StrFn::Memcmp)
      .Case("strchr", StrFn::Strchr)
      .Case("strrchr", StrFn::Strrchr)
      .Case("strstr", StrFn::Strstr)
      .Case("atoi", StrFn::Atoi)
      .Case("atol", StrFn::Atol)
      .Default(StrFn::None);
}
} // namespace

bool Executor::isStringBuiltin(const Function *F) {
  return strFn(F) != StrFn::None;
}

std::optional<Word> Executor::stringResult(unsigned T, const Function *F,
                                           const CallBase &CB, PendingOp *P) {
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  // Byte K of the block at Addr (bounds-checked); Used[Which] records how
  // many bytes of operand Which were read.
  uint64_t Used[2] = {0, 0};
  Word Base[2] = {0, 0};
  bool Bad = false;
  auto Byte = [&](unsigned Which, uint64_t K) -> unsigned {
    uint8_t B = 0;
    if (Bad || !load(Base[Which] + K, 1, &B)) {
      Bad = true;
      return 0;
    }
    Used[Which] = std::max(Used[Which], K + 1);
    return B;
  };
  Base[0] = Arg(0);
  if (CB.arg_size() > 1 && CB.getArgOperand(1)->getType()->isPointerTy())
    Base[1] = Arg(1);
  Word R = 0;
  switch (strFn(F)) {
  case StrFn::None:
    return std::nullopt;
  case StrFn::Strlen: {
    uint64_t K = 0;
    while (Byte(0, K) && !Bad)
      ++K;
    R = K;
    break;
  }
  case StrFn::Strcmp:
  case StrFn::Strncmp:
  case StrFn::Memcmp: {
    bool Bounded = strFn(F) != StrFn::Strcmp;
    bool Mem = strFn(F) == StrFn::Memcmp;
    uint64_t N = Bounded ? Arg(2) : ~uint64_t(0);
    int64_t D = 0;
    for (uint64_t K = 0; K < N && !Bad; ++K) {
      unsigned A = Byte(0, K), B = Byte(1, K);
      D = int64_t(A) - int64_t(B);
      if (D || (!Mem && !A))
        break;
    }
    R = Word(D);
    break;
  }
  case StrFn::Strchr:
  case StrFn::Strrchr: {
    unsigned C = unsigned(Arg(1)) & 0xff;
    bool Last = strFn(F) == StrFn::Strrchr;
    std::optional<uint64_t> At;
    for (uint64_t K = 0; !Bad; ++K) {
      unsigned B = Byte(0, K);
      if (B == C) {
        At = K;
        if (!Last)
          break;
      }
      if (!B)
        break;
    }
    R = At ? Base[0] + *At : 0;
    break;
  }
  case StrFn::Strstr: {
    uint64_t NLen = 0;
    while (Byte(1, NLen) && !Bad)
      ++NLen;
    std::optional<uint64_t> At;
    for (uint64_t I = 0; !Bad; ++I) {
      uint64_t J = 0;
      while (J < NLen && Byte(0, I + J) == Byte(1, J) && !Bad)
        ++J;
      if (J == NLen) {
        At = I;
        break;
      }
      if (!Byte(0, I))
        break;
    }
    R = At ? Base[0] + *At : 0;
    break;
  }
  case StrFn::Atoi:
  case StrFn::Atol: {
    // strtol(s, NULL, 10): blanks, a sign, digits; clamped to long.
    unsigned LongBits = PtrBytes * 8;
    uint64_t K = 0;
    unsigned C = Byte(0, K);
    while (!Bad && (C == ' ' || (C >= '\t' && C <= '\r')))
      C = Byte(0, ++K);
    bool Neg = C == '-';
    if (C == '-' || C == '+')
      C = Byte(0, ++K);
    uint64_t Lim = (uint64_t(1) << (LongBits - 1)) - (Neg ? 0 : 1);
    uint64_t V = 0;
    bool Over = false;
    while (!Bad && C >= '0' && C <= '9') {
      if (V > (Lim - (C - '0')) / 10)
        Over = true;
      else
        V = V * 10 + (C - '0');
      C = Byte(0, ++K);
    }
    if (Over)
      V = Lim;
    R = Neg ? Word(0) - V : V;
    break;
  }
  }
  if (Bad)
    return std::nullopt;
  for (unsigned W = 0; W < 2; ++W)
    if (P && Used[W] && !memRef(Base[W], Used[W], false, false, *P, "read"))
      return std::nullopt;
  return R;
}

void Executor::noteStringCall(unsigned T, const Function *F, const CallBase &CB,
                              Word Result) {
  if (Cmps.size() >= MaxInputCmpsPerRun || Taint.empty())
    return;
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  // The constant side's bytes: the string at A (at most Max bytes).
  auto Bytes = [&](Word A, uint64_t Max) -> std::optional<std::string> {
    std::string Saved = Error;
    auto S = readCString(A, nullptr, Max);
    Error = std::move(Saved);
    return S;
  };
  InputCmp Cmp;
  Cmp.Site = &CB;
  StrFn Fn = strFn(F);
  switch (Fn) {
  case StrFn::Strcmp:
  case StrFn::Strncmp:
  case StrFn::Memcmp: {
    if (Result == 0)
      return;
    bool Mem = Fn == StrFn::Memcmp;
    std::optional<uint64_t> N;
    if (Fn != StrFn::Strcmp)
      N = std::min<uint64_t>(Arg(2), MaxInputStringBytes);
    for (unsigned W = 0; W < 2; ++W) {
      bool Fresh = false;
      auto Refs = inputRefs(Arg(W), Mem ? N : std::nullopt, &Fresh);
      if (!Refs || inputRefs(Arg(1 - W), Mem ? N : std::nullopt))
        continue; // not input, or input on both sides
      std::optional<std::string> Want =
          Mem ? peek(Arg(1 - W), *N)
              : Bytes(Arg(1 - W), N ? *N : MaxInputStringBytes);
      if (!Want || Want->empty())
        return;
      Cmp.K = InputCmp::Equal;
      Cmp.Overwrite = Fn != StrFn::Strcmp;
      Cmp.Refs = std::move(*Refs);
      Cmp.Want = std::move(*Want);
      addInputCmp(T, std::move(Cmp), Fresh);
      return;
    }
    return;
  }
  case StrFn::Strstr:
  case StrFn::Strchr: {
    if (Result != 0)
      return;
    bool Fresh = false;
    auto Refs = inputRefs(Arg(0), std::nullopt, &Fresh);
    if (!Refs)
      return;
    std::optional<std::string> Want;
    if (Fn == StrFn::Strchr)
      Want.emplace().push_back(char(Arg(1) & 0xff));
    else
      Want = Bytes(Arg(1), MaxInputStringBytes);
    if (!Want || Want->empty() || Want->front() == 0)
      return;
    Cmp.K = InputCmp::Contain;
    Cmp.Refs = std::move(*Refs);
    Cmp.Want = std::move(*Want);
    addInputCmp(T, std::move(Cmp), Fresh);
    return;
  }
  default:
    return;
  }
}

std::optional<std::string> Executor::readCString(Word Addr, PendingOp *P,
                                                 uint64_t Max) {
  auto Id = objectAt(Addr);
  if (!Id || !Objects[*Id].Alive || Objects[*Id].IsFunction) {
    Error = "not a pointer to live memory";
    return std::nullopt;
  }
  const Object &O = Objects[*Id];
  uint64_t Off = Addr - O.Base, End = Off;
  while (End < O.Size && End - Off < Max && O.Bytes[End] != 0)
    ++End;
  bool Zero = End - Off < Max; // stopped at the zero, which is read too
  if (End >= O.Size && Zero) {
    Error = "string without terminating zero";
    return std::nullopt;
  }
  uint64_t N = End - Off + (Zero ? 1 : 0);
  if (P && N && !memRef(Addr, N, false, false, *P, "read"))
    return std::nullopt;
  return std::string(O.Bytes.begin() + Off, O.Bytes.begin() + End);
}

PendingOp Executor::nativeCall(const Function *F, const CallBase &CB) {
  PendingOp P;
  P.K = PendingOp::Memory;
  P.Inst = &CB;
  P.Native = F;
  return P;
}

Status Executor::performNative(unsigned T, const CallBase &CB) {
  // Computed again now: the operation is atomic, and what it read is what
  // it writes.
  const Function *F = Threads[T].Pending.Native;
  if (isPrintf(F)) {
    auto Text = printfText(T, F, CB, nullptr);
    if (!Text)
      return unsupported(&CB, Error);
    uint64_t N = printfWriteSize(T, F, CB, *Text);
    std::string Bytes = Text->substr(0, N ? N - 1 : 0);
    Bytes.resize(N, '\0');
    if (N && !store(get(CB.getArgOperand(0), T).W, N,
                    reinterpret_cast<const uint8_t *>(Bytes.data())))
      return memoryError(&CB, Error);
    return Status::Ok;
  }
  if (isSscanf(F))
    return performSscanf(T, CB);
  if (isScanf(F))
    return performScanf(T, CB);
  if (isStringBuiltin(F)) {
    auto R = stringResult(T, F, CB, nullptr);
    if (!R)
      return memoryError(&CB, Error);
    RVal V;
    V.W = *R;
    setResult(T, &CB, V);
    return Status::Ok;
  }
  return performFcntlGetLock(T, CB);
}

Status Executor::pendNative(unsigned T, const CallBase &CB, PendingOp P,
                            Word Result, bool &Visible) {
  if (auto *IT = dyn_cast<IntegerType>(CB.getType())) {
    RVal R;
    R.W = IT->getBitWidth() >= 64
              ? Result
              : Result & ((Word(1) << IT->getBitWidth()) - 1);
    setResult(T, &CB, R);
  } else if (CB.getType()->isPointerTy()) {
    RVal R;
    R.W = Result;
    setResult(T, &CB, R);
  }
  Threads[T].Pending = std::move(P);
  if (Threads[T].Pending.Refs.empty())
    return performMemory(T);
  Visible = true;
  return Status::Ok;
}

Status Executor::callStringBuiltin(unsigned T, const Function *F,
                                   const CallBase &CB, bool &Visible) {
  PendingOp P = nativeCall(F, CB);
  auto R = stringResult(T, F, CB, &P);
  if (!R)
    return memoryError(&CB, "'" + F->getName().str() + "': " + Error);
  if (Guidance)
    noteStringCall(T, F, CB, *R);
  return pendNative(T, CB, std::move(P), *R, Visible);
}

} // namespace crace::explore

//===----------------------------------------------------------------------===//
// fcntl(fd, F_GETLK, &lock)
//===----------------------------------------------------------------------===//

namespace crace::explore {

namespace {
/// struct flock's size and field offsets: l_type, l_whence (shorts), then
/// l_start, l_len (off_t; off64_t for F_GETLK64), l_pid (int).
struct FlockLayout {
  uint64_t Size, Start, Len, Pid, OffBytes;
};
FlockLayout flockLayout(unsigned PtrBytes, Word Cmd) {
  if (PtrBytes == 8)
    return {32, 8, 16, 24, 8};
  if (Cmd == 12) // i386 F_GETLK64: struct flock64
    return {24, 4, 12, 20, 8};
  return {16, 4, 8, 12, 4};
}
} // namespace

bool Executor::isFcntlGetLock(const Function *F, const CallBase &CB,
                              unsigned T) {
  if ((F->getName() != "fcntl" && F->getName() != "fcntl64") ||
      CB.arg_size() < 3 || !CB.getArgOperand(2)->getType()->isPointerTy())
    return false;
  // F_GETLK 5; i386's F_GETLK64 12; F_OFD_GETLK 36.
  Word Cmd = get(CB.getArgOperand(1), T).W & 0xffffffff;
  return Cmd == 5 || Cmd == 12 || Cmd == 36;
}

Status Executor::callFcntlGetLock(unsigned T, const Function *F,
                                  const CallBase &CB, bool &Visible) {
  PendingOp P = nativeCall(F, CB);
  // Inputs: 0 = fails (-1), 1 = no conflicting lock (only l_type is
  // written, F_UNLCK), 2/3 = another process holds a read/write lock.
  P.Aux = draw(T, 2) & 3;
  P.Aux2 = 1 + (draw(T, 22) & 0x3fffff);
  Word Lock = get(CB.getArgOperand(2), T).W;
  FlockLayout L = flockLayout(PtrBytes, get(CB.getArgOperand(1), T).W & 0xff);
  if (P.Aux != 0 &&
      !memRef(Lock, P.Aux == 1 ? 2 : L.Size, true, false, P, "write"))
    return memoryError(&CB, Error);
  Word Result = P.Aux == 0 ? Word(-1) : 0;
  return pendNative(T, CB, std::move(P), Result, Visible);
}

Status Executor::performFcntlGetLock(unsigned T, const CallBase &CB) {
  const PendingOp &P = Threads[T].Pending;
  if (P.Aux == 0)
    return Status::Ok;
  Word Lock = get(CB.getArgOperand(2), T).W;
  FlockLayout L = flockLayout(PtrBytes, get(CB.getArgOperand(1), T).W & 0xff);
  std::vector<uint8_t> Buf(P.Aux == 1 ? 2 : L.Size, 0);
  Buf[0] = P.Aux == 1 ? 2 : uint8_t(P.Aux - 2); // F_UNLCK / F_RDLCK, F_WRLCK
  if (P.Aux != 1) {
    // l_whence SEEK_SET, the whole file (start 0, length 0), the owner.
    for (unsigned K = 0; K < 4; ++K)
      Buf[L.Pid + K] = uint8_t(P.Aux2 >> (8 * K));
  }
  if (!store(Lock, Buf.size(), Buf.data()))
    return memoryError(&CB, Error);
  return Status::Ok;
}

} // namespace crace::explore
