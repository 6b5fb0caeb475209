//===- Printf.h - printf-family formatting for the explore executor -------===//
//
// explore runs sprintf/snprintf exactly (the text they write decides later
// string comparisons, lengths and indices). `formatPrintf` interprets a
// format string against the call's variadic operands, as glibc does, for
// the conversions real programs use: d i u o x X c s p f F e E g G a A %,
// with flags, width and precision (also `*`) and the length modifiers
// hh h l ll j z t q. Anything else (%n, %m, `L` long double, positional
// arguments, too few operands) is an error message: the executor then
// stops as it does for any call it cannot execute.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace crace::explore {

/// One variadic operand: its bits and its kind after default promotions.
struct PrintfArg {
  uint64_t Bits = 0;
  enum Kind { Int, Double, Pointer } K = Int;
  unsigned Width = 32; ///< bits of an Int or Pointer operand
};

/// The next variadic operand, which the conversion wants of kind K and of
/// Width bits (int: 32, long: LongBits, long long: 64; a pointer: the
/// pointer width; double: 64); nullopt with an error message when there is
/// none or it has another kind.
using PrintfArgSource = llvm::function_ref<std::optional<PrintfArg>(
    PrintfArg::Kind K, unsigned Width, std::string &Error)>;

/// A source over the call's operands (Args), checking their kinds.
std::optional<PrintfArg> nextPrintfOperand(llvm::ArrayRef<PrintfArg> Args,
                                           size_t &Next, PrintfArg::Kind K,
                                           std::string &Error);

/// Reads the C string at Addr, at most Max bytes (stopping at its zero);
/// nullopt when Addr is not readable memory (the reader says why).
using PrintfStringReader =
    llvm::function_ref<std::optional<std::string>(uint64_t Addr, uint64_t Max)>;

/// %n: stores Count, Bytes wide, at Addr; false (with the reason in
/// Error) when it cannot.
using PrintfCountStore = llvm::function_ref<bool(
    uint64_t Addr, unsigned Bytes, uint64_t Count, std::string &Error)>;

/// The text printf(Fmt, ...) writes, or an error message in Error.
/// LongBits is the width of `long` (and size_t, ptrdiff_t) on the target.
/// StoreCount, when given, executes %n (else %n is an error).
std::optional<std::string>
formatPrintf(llvm::StringRef Fmt, PrintfArgSource NextArg, unsigned LongBits,
             PrintfStringReader ReadString, std::string &Error,
             std::optional<PrintfCountStore> StoreCount = std::nullopt);

} // namespace crace::explore
