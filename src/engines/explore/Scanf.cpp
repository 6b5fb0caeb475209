//===- Scanf.cpp - sscanf for the explore executor
//-------------------------===//
//
// Follows glibc's vfscanf (stdio-common/vfscanf-internal.c) directive by
// directive: white space in the format skips white space in the input
// before the next directive; every conversion but %c, %[ and %n skips
// leading white space; running out of input before the first conversion
// is an input failure (EOF), a character that does not match is a
// matching failure (the count so far). Integers are collected as glibc
// collects them (sign, "0x" consumed but not kept, digits of the base)
// and converted as strtol/strtoul convert them, at long's width (or long
// long's for ll, j, q, L), then truncated to the destination.
//
//===----------------------------------------------------------------------===//

#include "engines/explore/Scanf.h"
#include "engines/explore/Executor.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cctype>

using namespace llvm;

namespace crace::explore {

namespace {

bool space(int C) { return C == ' ' || (C >= '\t' && C <= '\r'); }

bool digitOf(int C, unsigned Base) {
  if (Base == 8)
    return C >= '0' && C <= '7';
  if (Base == 10)
    return C >= '0' && C <= '9';
  return std::isxdigit(C);
}

unsigned valueOf(int C) {
  if (C >= '0' && C <= '9')
    return unsigned(C - '0');
  return unsigned(std::tolower(C) - 'a' + 10);
}

/// strtol/strtoul (Bits wide) on a buffer of an optional sign and digits
/// of Base only (what the collection loop keeps).
uint64_t convert(StringRef Buf, unsigned Base, bool Signed, unsigned Bits) {
  bool Neg = false;
  if (!Buf.empty() && (Buf[0] == '+' || Buf[0] == '-')) {
    Neg = Buf[0] == '-';
    Buf = Buf.drop_front();
  }
  uint64_t Max = Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
  // The magnitude's limit: strtoul's ULONG_MAX; strtol's LONG_MAX, or
  // -LONG_MIN for a negative number.
  uint64_t Limit = Signed ? (Max >> 1) + (Neg ? 1 : 0) : Max;
  uint64_t V = 0;
  bool Over = false;
  for (char C : Buf) {
    uint64_t D = valueOf(C);
    if (V > (Limit - D) / Base)
      Over = true;
    else
      V = V * Base + D;
  }
  if (Signed) {
    if (Over)
      V = Limit;
    return Neg ? uint64_t(0) - V : V;
  }
  if (Over)
    return Max;
  return Neg ? (uint64_t(0) - V) & Max : V;
}

std::string littleEndian(uint64_t V, unsigned Bytes) {
  std::string S(Bytes, '\0');
  for (unsigned K = 0; K < Bytes && K < 8; ++K)
    S[K] = char(V >> (8 * K));
  return S;
}

/// A conversion after its '%': %[*][width][length]conv.
struct ConvSpec {
  bool Suppress = false;
  long Width = -1; ///< -1: none
  /// The destination's width in bytes, and whether the number is parsed
  /// at long long's width.
  unsigned Store = 4;
  bool LongLong = false;
  char Conv = 0;
};

/// The conversion whose spec starts at Fmt[F] (after the '%'); F then
/// follows it. nullopt (Error set) for positional arguments, the
/// allocating modifier 'm' and a format that ends inside the spec.
std::optional<ConvSpec> parseSpec(StringRef Fmt, size_t &F, unsigned LongBits,
                                  std::string &Error) {
  ConvSpec S;
  if (F < Fmt.size() && Fmt[F] == '*') {
    S.Suppress = true;
    ++F;
  }
  long Width = 0;
  bool AnyDigit = false;
  while (F < Fmt.size() && std::isdigit((unsigned char)Fmt[F])) {
    Width = std::min(Width * 10 + (Fmt[F] - '0'), 1L << 30);
    AnyDigit = true;
    ++F;
  }
  if (F < Fmt.size() && Fmt[F] == '$') {
    Error = "sscanf with positional arguments";
    return std::nullopt;
  }
  if (AnyDigit && Width != 0)
    S.Width = Width;
  bool Length = true;
  while (Length && F < Fmt.size()) {
    switch (Fmt[F]) {
    case 'h':
      S.Store = S.Store == 2 ? 1 : 2;
      ++F;
      break;
    case 'l':
      if (S.Store == LongBits / 8 && F > 0 && Fmt[F - 1] == 'l') {
        S.Store = 8;
        S.LongLong = true;
      } else {
        S.Store = LongBits / 8;
      }
      ++F;
      break;
    case 'q':
    case 'L':
    case 'j':
      S.Store = 8;
      S.LongLong = true;
      ++F;
      break;
    case 'z':
    case 't':
      S.Store = LongBits / 8;
      ++F;
      break;
    case 'm':
      Error = "sscanf with the allocating modifier 'm'";
      return std::nullopt;
    default:
      Length = false;
    }
  }
  if (F >= Fmt.size()) {
    Error = "sscanf format ends inside a conversion";
    return std::nullopt;
  }
  S.Conv = Fmt[F++];
  return S;
}

} // namespace

std::optional<ScanResult> scanString(StringRef Input, StringRef Fmt,
                                     ScanPointerSource NextPtr,
                                     unsigned LongBits, unsigned PtrBits,
                                     std::string &Error) {
  ScanResult R;
  size_t In = 0; // input position
  auto Peek = [&]() -> int {
    return In < Input.size() ? (unsigned char)Input[In] : -1;
  };
  int Done = 0;
  bool SkipSpace = false;
  auto InputFailure = [&]() {
    R.Return = Done ? Done : -1;
    return R;
  };
  auto MatchFailure = [&]() {
    R.Return = Done;
    return R;
  };
  auto SkipWhite = [&]() {
    while (In < Input.size() && space((unsigned char)Input[In]))
      ++In;
  };
  size_t F = 0;
  while (F < Fmt.size()) {
    char FC = Fmt[F++];
    if (FC != '%') {
      if (space((unsigned char)FC)) {
        SkipSpace = true;
        continue;
      }
      if (SkipSpace) {
        SkipWhite();
        SkipSpace = false;
      }
      if (Peek() < 0)
        return InputFailure();
      if (Peek() != (unsigned char)FC)
        return MatchFailure();
      ++In;
      continue;
    }
    auto Spec = parseSpec(Fmt, F, LongBits, Error);
    if (!Spec)
      return std::nullopt;
    bool Suppress = Spec->Suppress;
    long Width = Spec->Width;
    unsigned Store = Spec->Store;
    bool LongLong = Spec->LongLong;
    char Conv = Spec->Conv;
    if (SkipSpace || (Conv != '[' && Conv != 'c' && Conv != 'n')) {
      SkipWhite();
      SkipSpace = false;
      if (Peek() < 0 && Conv != 'n')
        return InputFailure();
    }
    // Stores Bytes at the next operand and counts the assignment (nothing
    // when suppressed); false when there is no operand.
    auto Assign = [&](std::string Bytes) {
      if (Suppress)
        return true;
      auto P = NextPtr(Error);
      if (!P)
        return false;
      R.Stores.push_back({*P, std::move(Bytes)});
      ++Done;
      return true;
    };
    switch (Conv) {
    case '%':
      if (Peek() != '%')
        return MatchFailure();
      ++In;
      break;
    case 'n':
      if (!Suppress) { // not an assignment: not counted
        auto P = NextPtr(Error);
        if (!P)
          return std::nullopt;
        R.Stores.push_back({*P, littleEndian(In, Store)});
      }
      break;
    case 'c': {
      if (Width < 0)
        Width = 1;
      if (Peek() < 0)
        return InputFailure();
      size_t N = std::min<size_t>(size_t(Width), Input.size() - In);
      if (!Assign(Input.substr(In, N).str()))
        return std::nullopt;
      In += N;
      break;
    }
    case 's': {
      size_t Start = In;
      while (In < Input.size() && !space((unsigned char)Input[In]) &&
             (Width < 0 || long(In - Start) < Width))
        ++In;
      if (!Assign(Input.substr(Start, In - Start).str() + std::string(1, '\0')))
        return std::nullopt;
      break;
    }
    case '[': {
      bool Set[256] = {false};
      bool Negate = false;
      if (F < Fmt.size() && Fmt[F] == '^') {
        Negate = true;
        ++F;
      }
      if (F < Fmt.size() && Fmt[F] == ']') {
        Set[(unsigned char)']'] = true;
        ++F;
      }
      bool Closed = false;
      while (F < Fmt.size()) {
        unsigned char C = (unsigned char)Fmt[F++];
        if (C == ']') {
          Closed = true;
          break;
        }
        // A range when '-' has characters on both sides, in order.
        if (C == '-' && F < Fmt.size() && Fmt[F] != ']' && F >= 2 &&
            (unsigned char)Fmt[F - 2] <= (unsigned char)Fmt[F]) {
          for (unsigned X = (unsigned char)Fmt[F - 2];
               X <= (unsigned char)Fmt[F]; ++X)
            Set[X] = true;
          continue;
        }
        Set[C] = true;
      }
      if (!Closed)
        return MatchFailure(); // glibc: a conversion error
      if (Peek() < 0)
        return InputFailure();
      size_t Start = In;
      while (In < Input.size() && Set[(unsigned char)Input[In]] != Negate &&
             (Width < 0 || long(In - Start) < Width))
        ++In;
      if (In == Start)
        return MatchFailure();
      if (!Assign(Input.substr(Start, In - Start).str() + std::string(1, '\0')))
        return std::nullopt;
      break;
    }
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
    case 'p': {
      unsigned Base = Conv == 'i'                                   ? 0
                      : Conv == 'o'                                 ? 8
                      : (Conv == 'x' || Conv == 'X' || Conv == 'p') ? 16
                                                                    : 10;
      bool Signed = Conv == 'd' || Conv == 'i';
      if (Conv == 'p') {
        Store = PtrBits / 8;
        LongLong = PtrBits > LongBits;
      }
      std::string Buf;
      auto Take = [&]() {
        ++In;
        if (Width > 0)
          --Width;
      };
      if (Width != 0 && (Peek() == '+' || Peek() == '-')) {
        Buf += char(Peek());
        Take();
      }
      if (Width != 0 && Peek() == '0') {
        Buf += '0';
        Take();
        if (Width != 0 && (Peek() == 'x' || Peek() == 'X')) {
          if (Base == 0)
            Base = 16;
          if (Base == 16)
            Take();
        } else if (Base == 0) {
          Base = 8;
        }
      }
      if (Base == 0)
        Base = 10;
      while (Width != 0 && Peek() >= 0 && digitOf(Peek(), Base)) {
        Buf += char(Peek());
        Take();
      }
      if (Buf.empty() || (Buf.size() == 1 && (Buf[0] == '+' || Buf[0] == '-')))
        return MatchFailure();
      uint64_t V =
          convert(Buf, Base, Signed, LongLong ? 64 : std::min(64u, LongBits));
      if (!Assign(littleEndian(V, Store)))
        return std::nullopt;
      break;
    }
    default:
      Error = formatv("sscanf conversion '%{0}' the explore engine does not "
                      "execute",
                      Conv)
                  .str();
      return std::nullopt;
    }
  }
  R.Return = Done;
  R.Consumed = In;
  return R;
}

std::optional<std::string> scanInputFor(StringRef Fmt,
                                        function_ref<uint64_t(unsigned)> Next,
                                        unsigned LongBits, unsigned PtrBits,
                                        unsigned &Assigned,
                                        std::string &Error) {
  std::string Out;
  Assigned = 0;
  size_t F = 0;
  bool AfterSpace = false; // the last directive was white space
  while (F < Fmt.size()) {
    char FC = Fmt[F++];
    if (FC != '%') {
      AfterSpace = space((unsigned char)FC);
      if (!AfterSpace)
        Out += FC; // white space matches none as well as some
      continue;
    }
    bool SkippedSpace = AfterSpace;
    AfterSpace = false;
    auto Spec = parseSpec(Fmt, F, LongBits, Error);
    if (!Spec)
      return std::nullopt;
    long Width = Spec->Width;
    char Conv = Spec->Conv;
    switch (Conv) {
    case '%':
      Out += " %";
      continue;
    case 'n':
      continue;
    case 'c':
      // Blanks end whatever token came before; after a white-space
      // directive, which skips a blank that ends it, letters.
      Out +=
          std::string(SkippedSpace ? " " : "") +
          std::string(Width > 0 ? size_t(Width) : 1, SkippedSpace ? 'a' : ' ');
      break;
    case 's':
      Out += " a";
      break;
    case '[': {
      bool Negate = F < Fmt.size() && Fmt[F] == '^';
      if (Negate)
        ++F;
      size_t Start = F;
      if (F < Fmt.size() && Fmt[F] == ']')
        ++F;
      while (F < Fmt.size() && Fmt[F] != ']')
        ++F;
      if (F >= Fmt.size()) {
        Error = "scanf format with an unclosed '%['";
        return std::nullopt;
      }
      StringRef Set = Fmt.slice(Start, F++);
      // A member: the set's first character, or for a negated set a
      // letter or digit it does not name (ranges count as their ends,
      // which only excludes more).
      char C = 0;
      if (!Negate) {
        C = Set.empty() ? 0 : Set[0];
      } else {
        for (char K : StringRef("abcdefghijklmnopqrstuvwxyz0123456789"))
          if (!Set.contains(K)) {
            C = K;
            break;
          }
      }
      if (!C || C == '-') {
        Error = "scanf '%[' set the engine finds no member for";
        return std::nullopt;
      }
      Out += C;
      break;
    }
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
    case 'p': {
      unsigned Bits = Conv == 'p' ? PtrBits : Spec->Store * 8;
      uint64_t V = Next(Bits);
      if (Bits < 64)
        V &= (uint64_t(1) << Bits) - 1;
      std::string Tok;
      if (Conv == 'd' || Conv == 'i')
        Tok = std::to_string(Bits < 64 ? SignExtend64(V, Bits) : int64_t(V));
      else
        Tok = toString(APInt(64, V),
                       Conv == 'u'   ? 10
                       : Conv == 'o' ? 8
                                     : 16,
                       /*Signed=*/false);
      if (Width > 0 && Tok.size() > size_t(Width))
        Tok.resize(size_t(Width));
      if (Tok == "-")
        Tok = "0";
      Out += " " + Tok;
      break;
    }
    default:
      Error = formatv("scanf conversion '%{0}' the explore engine does not "
                      "write input for",
                      Conv)
                  .str();
      return std::nullopt;
    }
    if (!Spec->Suppress)
      ++Assigned;
  }
  return Out;
}

} // namespace crace::explore

//===----------------------------------------------------------------------===//
// The executor's side: sscanf(str, fmt, ...) as a native call
//===----------------------------------------------------------------------===//

namespace crace::explore {

bool Executor::isSscanf(const Function *F) {
  StringRef N = F->getName();
  return N == "sscanf" || N == "__isoc99_sscanf";
}

std::optional<ScanResult> Executor::sscanfResult(unsigned T, const CallBase &CB,
                                                 PendingOp *P) {
  if (CB.arg_size() < 2) {
    Error = "sscanf call without its format";
    return std::nullopt;
  }
  auto Input = readCString(get(CB.getArgOperand(0), T).W, P);
  if (!Input) {
    Error = "sscanf input is not a valid string";
    return std::nullopt;
  }
  auto Fmt = readCString(get(CB.getArgOperand(1), T).W, P);
  if (!Fmt) {
    Error = "sscanf format is not a valid string";
    return std::nullopt;
  }
  return scanInto(T, CB, *Input, *Fmt, 2, P);
}

std::optional<ScanResult> Executor::scanInto(unsigned T, const CallBase &CB,
                                             StringRef Input, StringRef Fmt,
                                             unsigned FirstPtr, PendingOp *P) {
  unsigned Next = FirstPtr;
  std::string Why;
  auto R = scanString(
      Input, Fmt,
      [&](std::string &E) -> std::optional<uint64_t> {
        if (Next >= CB.arg_size() ||
            !CB.getArgOperand(Next)->getType()->isPointerTy()) {
          E = "scanf has fewer pointer operands than its format converts";
          return std::nullopt;
        }
        return get(CB.getArgOperand(Next++), T).W;
      },
      PtrBytes * 8, PtrBytes * 8, Why);
  if (!R) {
    Error = Why;
    return std::nullopt;
  }
  if (P)
    for (const ScanStore &S : R->Stores)
      if (!S.Bytes.empty() &&
          !memRef(S.Addr, S.Bytes.size(), true, false, *P, "write"))
        return std::nullopt;
  return R;
}

Status Executor::callSscanf(unsigned T, const Function *F, const CallBase &CB,
                            bool &Visible) {
  PendingOp P = nativeCall(F, CB);
  auto R = sscanfResult(T, CB, &P);
  if (!R)
    return unsupported(&CB, Error);
  return pendNative(T, CB, std::move(P), Word(int64_t(R->Return)), Visible);
}

Status Executor::performSscanf(unsigned T, const CallBase &CB) {
  auto R = sscanfResult(T, CB, nullptr);
  if (!R)
    return unsupported(&CB, Error);
  return storeScanned(CB, R->Stores);
}

Status Executor::storeScanned(const CallBase &CB, ArrayRef<ScanStore> Stores) {
  for (const ScanStore &S : Stores)
    if (!S.Bytes.empty() &&
        !store(S.Addr, S.Bytes.size(),
               reinterpret_cast<const uint8_t *>(S.Bytes.data())))
      return memoryError(&CB, Error);
  return Status::Ok;
}

bool Executor::isScanf(const Function *F) {
  StringRef N = F->getName();
  return N == "scanf" || N == "__isoc99_scanf";
}

std::optional<Status> Executor::callScanf(unsigned T, const Function *F,
                                          const CallBase &CB, bool &Visible) {
  // Standard input is the environment's: a text that makes every
  // conversion succeed, its numbers drawn as inputs, is one scanf may be
  // given -- one of many (a failure, other strings), so a run with it
  // is no part of a proof (takeChosenInputs). The call reads the text made for
  // it and no more (checked by running it); a number another call's text ends
  // in is cut by this one only when this one starts with white space, so
  // otherwise the call runs past as before.
  if (CB.arg_size() < 1)
    return std::nullopt;
  PendingOp P = nativeCall(F, CB);
  auto Fmt = readCString(get(CB.getArgOperand(0), T).W, &P);
  if (!Fmt)
    return std::nullopt;
  unsigned Assigned = 0;
  std::string Why;
  auto In = scanInputFor(
      *Fmt, [&](unsigned Bits) { return draw(T, Bits); }, PtrBytes * 8,
      PtrBytes * 8, Assigned, Why);
  if (!In || (StdinRead && !In->empty() && !space((unsigned char)(*In)[0])))
    return std::nullopt;
  auto R = scanInto(T, CB, *In, *Fmt, 1, &P);
  if (!R || R->Return != int(Assigned) || R->Consumed != In->size())
    return std::nullopt;
  StdinRead = true;
  NewChosen.push_back(&CB);
  Threads[T].Scanned = std::move(R->Stores);
  return pendNative(T, CB, std::move(P), Word(int64_t(R->Return)), Visible);
}

Status Executor::performScanf(unsigned T, const CallBase &CB) {
  return storeScanned(CB, Threads[T].Scanned);
}

} // namespace crace::explore
