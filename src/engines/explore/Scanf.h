//===- Scanf.h - sscanf for the explore executor
//---------------------------===//
//
// explore runs sscanf exactly: what it stores and returns decides the
// program's next branches (a port number parsed from a configuration
// line, a "host/bits" split), and the destinations it writes are the
// accesses a race check must see, no more. `scanString` interprets a
// format against an input string as glibc's vfscanf does, for the
// conversions real programs use: d i u o x X p s c [ n % with widths,
// assignment suppression (*) and the length modifiers hh h l ll j z t q.
// Floating-point conversions, `L`, `m` (allocation) and positional
// arguments are an error message: the executor then stops that thread as
// for any call it cannot execute.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crace::explore {

/// One store sscanf makes: Bytes at the address of an operand.
struct ScanStore {
  uint64_t Addr = 0;
  std::string Bytes;
};

struct ScanResult {
  int Return = 0; ///< conversions assigned, or -1 (EOF)
  std::vector<ScanStore> Stores;
  size_t Consumed = 0; ///< input bytes read (when the whole format ran)
};

/// The next pointer operand; nullopt with an error message when there is
/// none.
using ScanPointerSource =
    llvm::function_ref<std::optional<uint64_t>(std::string &Error)>;

/// sscanf(Input, Fmt, ...) on a little-endian target whose `long` (and
/// size_t, ptrdiff_t) is LongBits wide and whose pointers are PtrBits wide.
std::optional<ScanResult> scanString(llvm::StringRef Input, llvm::StringRef Fmt,
                                     ScanPointerSource NextPtr,
                                     unsigned LongBits, unsigned PtrBits,
                                     std::string &Error);

/// An input that scanf(Fmt, ...) reads in full, every conversion
/// assigned: each integer conversion's number from Next(bits), the width
/// of its destination (printed in the conversion's base, after a space),
/// " a" for %s, blanks for %c (a blank and letters after white space in
/// the format), a member of the set for %[. Assigned counts the
/// assignments. nullopt (Error set) for a conversion it does not write
/// input for (floating point, %m, positional arguments).
std::optional<std::string>
scanInputFor(llvm::StringRef Fmt, llvm::function_ref<uint64_t(unsigned)> Next,
             unsigned LongBits, unsigned PtrBits, unsigned &Assigned,
             std::string &Error);

} // namespace crace::explore
