//===- Printf.cpp - printf-family formatting for the explore executor -----===//

#include "engines/explore/Printf.h"

#include "llvm/ADT/bit.h"

#include <cstdio>
#include <limits>

using namespace llvm;

namespace crace::explore {

std::optional<PrintfArg> nextPrintfOperand(ArrayRef<PrintfArg> Args,
                                           size_t &Next, PrintfArg::Kind K,
                                           std::string &Error) {
  if (Next >= Args.size()) {
    Error = "printf format needs more arguments than the call passes";
    return std::nullopt;
  }
  PrintfArg A = Args[Next++];
  // Pointers and integers are interchangeable in varargs (%x of a pointer,
  // %p of an integer); doubles are not.
  if ((K == PrintfArg::Double) != (A.K == PrintfArg::Double)) {
    Error = "printf format does not match its argument's type";
    return std::nullopt;
  }
  return A;
}

std::optional<std::string>
formatPrintf(StringRef Fmt, PrintfArgSource NextArg, unsigned LongBits,
             PrintfStringReader ReadString, std::string &Error,
             std::optional<PrintfCountStore> StoreCount) {
  std::string Out;
  unsigned IntBits = 32;
  auto Take = [&](PrintfArg::Kind K, unsigned Width) {
    return NextArg(K, Width, Error);
  };
  auto Signed = [](const PrintfArg &A) {
    unsigned W = A.Width ? std::min(A.Width, 64u) : 64;
    return W == 64 ? int64_t(A.Bits) : int64_t(A.Bits << (64 - W)) >> (64 - W);
  };
  auto Unsigned = [](const PrintfArg &A) {
    unsigned W = A.Width ? std::min(A.Width, 64u) : 64;
    return W == 64 ? A.Bits : A.Bits & ((uint64_t(1) << W) - 1);
  };
  auto Append = [&](const std::string &Spec, auto Value) {
    int N = std::snprintf(nullptr, 0, Spec.c_str(), Value);
    if (N < 0)
      return false;
    std::string Buf(size_t(N) + 1, '\0');
    std::snprintf(Buf.data(), Buf.size(), Spec.c_str(), Value);
    Buf.resize(size_t(N));
    Out += Buf;
    return true;
  };

  for (size_t I = 0; I < Fmt.size();) {
    char C = Fmt[I];
    if (C != '%') {
      Out += C;
      ++I;
      continue;
    }
    size_t Start = I++;
    std::string Spec = "%";
    // Flags.
    while (I < Fmt.size() && StringRef("-+ #0'").contains(Fmt[I]))
      Spec += Fmt[I++];
    // Width and precision (a `*` takes an int operand).
    for (int Part = 0; Part < 2; ++Part) {
      if (Part == 1) {
        if (I >= Fmt.size() || Fmt[I] != '.')
          break;
        Spec += Fmt[I++];
      }
      if (I < Fmt.size() && Fmt[I] == '*') {
        ++I;
        auto A = Take(PrintfArg::Int, IntBits);
        if (!A)
          return std::nullopt;
        Spec += std::to_string(int32_t(Signed(*A)));
        continue;
      }
      while (I < Fmt.size() && Fmt[I] >= '0' && Fmt[I] <= '9')
        Spec += Fmt[I++];
    }
    if (I < Fmt.size() && Fmt[I] == '$') {
      Error = "positional printf arguments ('%N$') are not executed";
      return std::nullopt;
    }
    // Length modifier: the operand already has its promoted width; hh and
    // h narrow it again, as printf does.
    unsigned Narrow = 0, Width = IntBits, Longs = 0;
    bool LongDouble = false;
    while (I < Fmt.size() && StringRef("hljztqL").contains(Fmt[I])) {
      char L = Fmt[I++];
      if (L == 'h')
        Narrow = Narrow == 16 ? 8 : 16;
      else if (L == 'l')
        Width = ++Longs == 1 ? LongBits
                             : 64; // l, then ll (long is int-sized on ILP32)
      else if (L == 'z' || L == 't')
        Width = LongBits;
      else if (L == 'j' || L == 'q')
        Width = 64;
      LongDouble |= L == 'L';
    }
    if (I >= Fmt.size()) {
      Error = "printf format ends inside a conversion";
      return std::nullopt;
    }
    char Conv = Fmt[I++];
    switch (Conv) {
    case '%':
      Out += '%';
      break;
    case 'n': {
      if (!StoreCount) {
        Error = "printf %n is not executed here";
        return std::nullopt;
      }
      auto A = Take(PrintfArg::Pointer, LongBits);
      if (!A)
        return std::nullopt;
      unsigned Bytes = Narrow ? Narrow / 8 : Width / 8;
      if (!(*StoreCount)(A->Bits, Bytes, Out.size(), Error))
        return std::nullopt;
      break;
    }
    case 'd':
    case 'i': {
      auto A = Take(PrintfArg::Int, Width);
      if (!A)
        return std::nullopt;
      int64_t V = Signed(*A);
      if (Narrow)
        V = int64_t(uint64_t(V) << (64 - Narrow)) >> (64 - Narrow);
      if (!Append(Spec + "lld", (long long)V))
        return std::nullopt;
      break;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      auto A = Take(PrintfArg::Int, Width);
      if (!A)
        return std::nullopt;
      uint64_t V = Unsigned(*A);
      if (Narrow)
        V &= (uint64_t(1) << Narrow) - 1;
      if (!Append(Spec + "ll" + Conv, (unsigned long long)V))
        return std::nullopt;
      break;
    }
    case 'c': {
      auto A = Take(PrintfArg::Int, IntBits);
      if (!A)
        return std::nullopt;
      if (!Append(Spec + "c", int((unsigned char)A->Bits)))
        return std::nullopt;
      break;
    }
    case 'p': {
      auto A = Take(PrintfArg::Pointer, LongBits);
      if (!A)
        return std::nullopt;
      uint64_t V = Unsigned(*A);
      // glibc: "(nil)" for a null pointer, else %#lx.
      std::string Text = V ? "" : "(nil)";
      if (V) {
        char Buf[32];
        std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
        Text = Buf;
      }
      if (!Append(Spec + "s", Text.c_str()))
        return std::nullopt;
      break;
    }
    case 's': {
      auto A = Take(PrintfArg::Pointer, LongBits);
      if (!A)
        return std::nullopt;
      uint64_t Max = std::numeric_limits<uint64_t>::max();
      size_t Dot = Spec.find('.');
      if (Dot != std::string::npos)
        Max = std::strtoull(Spec.c_str() + Dot + 1, nullptr, 10);
      std::string S;
      if (A->Bits == 0) {
        S = "(null)"; // glibc
      } else {
        auto Read = ReadString(A->Bits, Max);
        if (!Read) {
          Error = "printf %s of an invalid string";
          return std::nullopt;
        }
        S = std::move(*Read);
      }
      if (!Append(Spec + "s", S.c_str()))
        return std::nullopt;
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      if (LongDouble) {
        Error = "printf of a long double ('L') is not executed";
        return std::nullopt;
      }
      auto A = Take(PrintfArg::Double, 64);
      if (!A)
        return std::nullopt;
      if (!Append(Spec + Conv, bit_cast<double>(A->Bits)))
        return std::nullopt;
      break;
    }
    default:
      Error = "printf conversion '" + Fmt.substr(Start, I - Start).str() +
              "' is not executed";
      return std::nullopt;
    }
  }
  return Out;
}

} // namespace crace::explore

//===----------------------------------------------------------------------===//
// The executor's sprintf/snprintf.
//===----------------------------------------------------------------------===//

#include "engines/explore/Executor.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

namespace crace::explore {

namespace {
/// Where the format is, and what the call does with the text.
struct PrintfShape {
  unsigned Fmt = 0;     ///< operand index of the format
  bool VaList = false;  ///< the operands come as a va_list after the format
  bool Writes = false;  ///< sprintf: writes into operand 0
  bool Bounded = false; ///< snprintf: operand 1 is the buffer size
};
std::optional<PrintfShape> shapeOf(const Function *F) {
  StringRef N = F ? F->getName() : StringRef();
  if (N == "printf")
    return PrintfShape{0, false, false, false};
  if (N == "fprintf" || N == "dprintf")
    return PrintfShape{1, false, false, false};
  if (N == "sprintf")
    return PrintfShape{1, false, true, false};
  if (N == "snprintf")
    return PrintfShape{2, false, true, true};
  if (N == "vprintf")
    return PrintfShape{0, true, false, false};
  if (N == "vfprintf" || N == "vdprintf")
    return PrintfShape{1, true, false, false};
  if (N == "vsprintf")
    return PrintfShape{1, true, true, false};
  if (N == "vsnprintf")
    return PrintfShape{2, true, true, true};
  return std::nullopt;
}
// x86-64 va_list: gp_offset, fp_offset, overflow_arg_area, reg_save_area.
// With every register slot marked used, va_arg reads the overflow area only.
constexpr uint32_t GpOffsetUsed = 48, FpOffsetUsed = 176;
} // namespace

bool Executor::isPrintf(const Function *F) { return shapeOf(F).has_value(); }

bool Executor::isSprintf(const Function *F) {
  auto Shape = shapeOf(F);
  return Shape && Shape->Writes;
}

Status Executor::setUpVarArgs(unsigned T, Frame &Fr, const CallBase &CB,
                              ArrayRef<RVal> Args) {
  std::vector<uint8_t> Area;
  for (unsigned I = Fr.F->arg_size(); I < CB.arg_size() && I < Args.size();
       ++I) {
    Type *Ty = CB.getArgOperand(I)->getType();
    if (!(Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64) &&
        !Ty->isPointerTy() && !Ty->isDoubleTy() && !Ty->isFloatTy())
      return unsupported(&CB, "a variadic operand of a type the explore "
                              "engine does not pass (struct, long double)");
    uint64_t Size = sizeOf(Ty);
    uint64_t Off = Area.size();
    Area.resize(Off + alignTo(Size, PtrBytes), 0);
    for (uint64_t K = 0; K < Size; ++K)
      Area[Off + K] = uint8_t(Args[I].W >> (8 * K));
  }
  uint32_t Id = newObject(std::max<uint64_t>(Area.size(), 1), &CB,
                          /*Visible=*/false);
  std::copy(Area.begin(), Area.end(), Objects[Id].Bytes.begin());
  Fr.Allocas.push_back(Id);
  Fr.VarArgs = Objects[Id].Base;
  return Status::Ok;
}

Status Executor::vaIntrinsic(unsigned T, const CallBase &CB) {
  Word List = get(CB.getArgOperand(0), T).W;
  uint64_t ListSize = PtrBytes == 4 ? 4 : 24;
  switch (cast<IntrinsicInst>(CB).getIntrinsicID()) {
  case llvm::Intrinsic::vastart: {
    Word Area = Threads[T].Stack.back().VarArgs;
    uint8_t Buf[24] = {0};
    if (PtrBytes == 4) {
      for (unsigned K = 0; K < 4; ++K)
        Buf[K] = uint8_t(Area >> (8 * K));
    } else {
      uint32_t Gp = GpOffsetUsed, Fp = FpOffsetUsed;
      std::memcpy(Buf, &Gp, 4);
      std::memcpy(Buf + 4, &Fp, 4);
      std::memcpy(Buf + 8, &Area, 8);
      std::memcpy(Buf + 16, &Area, 8);
    }
    if (!store(List, ListSize, Buf))
      return memoryError(&CB, Error);
    break;
  }
  case llvm::Intrinsic::vacopy: {
    uint8_t Buf[24];
    if (!load(get(CB.getArgOperand(1), T).W, ListSize, Buf) ||
        !store(List, ListSize, Buf))
      return memoryError(&CB, Error);
    break;
  }
  default: // va_end
    break;
  }
  advance(T);
  return Status::Ok;
}

std::optional<std::string> Executor::printfText(unsigned T, const Function *F,
                                                const CallBase &CB,
                                                PendingOp *P) {
  auto Shape = shapeOf(F);
  if (!Shape || Shape->Fmt >= CB.arg_size() ||
      (Shape->VaList && Shape->Fmt + 1 >= CB.arg_size())) {
    Error = "printf call without its format";
    return std::nullopt;
  }
  auto Read = [&](uint64_t Addr, uint64_t Max) {
    return readCString(Addr, P, Max);
  };
  auto Fmt = Read(get(CB.getArgOperand(Shape->Fmt), T).W,
                  std::numeric_limits<uint64_t>::max());
  if (!Fmt) {
    Error = "printf format is not a valid string";
    return std::nullopt;
  }
  unsigned PtrBits = PtrBytes * 8;
  std::string Why;
  std::optional<std::string> Text;
  // %n: a write of the count so far (recorded now, made when performed).
  auto Count = [&](uint64_t Addr, unsigned Bytes, uint64_t N, std::string &E) {
    if (P) {
      if (!memRef(Addr, Bytes, true, false, *P, "write")) {
        E = Error;
        return false;
      }
      return true;
    }
    uint8_t Buf[8];
    for (unsigned K = 0; K < 8; ++K)
      Buf[K] = uint8_t(N >> (8 * K));
    if (!store(Addr, Bytes, Buf)) {
      E = Error;
      return false;
    }
    return true;
  };
  if (!Shape->VaList) {
    SmallVector<PrintfArg, 8> Args;
    for (unsigned I = Shape->Fmt + 1; I < CB.arg_size(); ++I) {
      const Value *V = CB.getArgOperand(I);
      Type *Ty = V->getType();
      PrintfArg A;
      Word W = get(V, T).W;
      if (Ty->isIntegerTy() && Ty->getIntegerBitWidth() <= 64) {
        A.K = PrintfArg::Int;
        A.Width = Ty->getIntegerBitWidth();
        A.Bits = W;
      } else if (Ty->isPointerTy()) {
        A.K = PrintfArg::Pointer;
        A.Width = PtrBits;
        A.Bits = W;
      } else if (Ty->isDoubleTy()) {
        A.K = PrintfArg::Double;
        A.Bits = W;
      } else if (Ty->isFloatTy()) {
        A.K = PrintfArg::Double;
        A.Bits = bit_cast<uint64_t>(double(bit_cast<float>(uint32_t(W))));
      } else {
        Error = "printf argument of a type the explore engine does not "
                "format";
        return std::nullopt;
      }
      Args.push_back(A);
    }
    size_t Next = 0;
    Text = formatPrintf(
        *Fmt,
        [&](PrintfArg::Kind K, unsigned, std::string &E) {
          return nextPrintfOperand(Args, Next, K, E);
        },
        PtrBits, Read, Why, PrintfCountStore(Count));
  } else {
    // The operands are where the va_list points (setUpVarArgs made it).
    Word Ap = get(CB.getArgOperand(Shape->Fmt + 1), T).W, Cursor = Ap;
    if (PtrBytes == 8) {
      uint8_t Buf[16];
      if (!load(Ap, 16, Buf)) {
        Error = "va_list of printf is not readable: " + Error;
        return std::nullopt;
      }
      uint32_t Gp, Fp;
      std::memcpy(&Gp, Buf, 4);
      std::memcpy(&Fp, Buf + 4, 4);
      std::memcpy(&Cursor, Buf + 8, 8);
      if (Gp < GpOffsetUsed || Fp < FpOffsetUsed) {
        Error = "va_list with operands in registers";
        return std::nullopt;
      }
    }
    Text = formatPrintf(
        *Fmt,
        [&](PrintfArg::Kind K, unsigned Width,
            std::string &E) -> std::optional<PrintfArg> {
          unsigned Bytes = K == PrintfArg::Double ? 8 : std::max(4u, Width / 8);
          uint8_t Buf[8] = {0};
          if (!load(Cursor, Bytes, Buf)) {
            E = "printf reads past its va_list's operands";
            return std::nullopt;
          }
          Cursor += alignTo(Bytes, PtrBytes);
          PrintfArg A;
          A.K = K;
          A.Width = K == PrintfArg::Double ? 64 : Bytes * 8;
          for (unsigned B = 0; B < Bytes; ++B)
            A.Bits |= uint64_t(Buf[B]) << (8 * B);
          return A;
        },
        PtrBits, Read, Why, PrintfCountStore(Count));
  }
  if (!Text)
    Error = Why;
  return Text;
}

uint64_t Executor::printfWriteSize(unsigned T, const Function *F,
                                   const CallBase &CB,
                                   const std::string &Text) {
  auto Shape = shapeOf(F);
  if (!Shape || !Shape->Writes)
    return 0;
  if (!Shape->Bounded)
    return Text.size() + 1;
  Word Cap = get(CB.getArgOperand(1), T).W;
  return Cap == 0 ? 0 : std::min<uint64_t>(Text.size(), Cap - 1) + 1;
}

Status Executor::callPrintf(unsigned T, const Function *F, const CallBase &CB,
                            bool &Visible) {
  PendingOp P = nativeCall(F, CB);
  auto Text = printfText(T, F, CB, &P);
  if (!Text)
    return unsupported(&CB, Error);
  uint64_t N = printfWriteSize(T, F, CB, *Text);
  if (N && !memRef(get(CB.getArgOperand(0), T).W, N, true, false, P, "write"))
    return memoryError(&CB, Error);
  return pendNative(T, CB, std::move(P), Text->size(), Visible);
}

} // namespace crace::explore
