//===- KissRuntime.h - the sequential program's runtime, from C ----------===//
//
// The scheduler, thread table and lock table the KISS transform links into
// the sequential program are C (runtime/kiss_runtime.c, the K-round form's
// runtime/rounds_runtime.c, both followed by runtime/kiss_shared.c),
// embedded in the binary like the environment models and compiled the
// same way, by the compiler the driver hands down (EngineOptions::
// CompileC: the frontend's; the engines do not depend on Clang), for the
// program's target. The parameters are -D macros; the loops are then
// unrolled, so the bmc sees straight code with constant table addresses,
// as it did when the runtime was IR text.
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_ENGINES_KISS_KISSRUNTIME_H
#define CRACE_ENGINES_KISS_KISSRUNTIME_H

#include "engines/Engine.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>

namespace llvm {
class Module;
} // namespace llvm

namespace crace::kiss {

/// The runtime's parameters (the macros of runtime/*.c).
struct RuntimeParams {
  /// 0: the KISS form (kiss_runtime.c); K > 0: the K-round form
  /// (rounds_runtime.c, KISS_K).
  unsigned Rounds = 0;
  /// KISS form: slots of ts (KISS_MAX).
  unsigned Slots = 0;
  /// Thread ids, main's included (KISS_NT).
  unsigned Threads = 2;
  /// Slots of the lock table (KISS_L, at least 1).
  unsigned Locks = 1;
  /// KISS form: slots of the reader table (KISS_RD; 0 when the program
  /// takes no read lock: no table).
  unsigned ReadLocks = 0;
  /// K-round form: bytes of one copy of the shared state (KISS_STRIDE).
  uint64_t Stride = 0;
};

/// The runtime for Like's triple and data layout, in its context, compiled
/// by CompileC (an internal error when it is empty): every function and
/// global external (the transform makes them internal once linked), the
/// flags (`_Bool` in C) i1 globals, no loop left, no attributes or
/// metadata. Compiled once per process, target and parameters; later calls
/// read the cached bitcode.
llvm::Expected<std::unique_ptr<llvm::Module>>
compileRuntime(const CompileCFn &CompileC, const llvm::Module &Like,
               const RuntimeParams &P);

} // namespace crace::kiss

#endif
