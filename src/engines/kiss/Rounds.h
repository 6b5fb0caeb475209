//===- Rounds.h - runtime of the K-round (Lal-Reps) sequentialisation
//------===//
//
// Issue 5, item 6: `--rounds=K`. Instead of KISS's balanced executions the
// sequential program simulates the K-round round-robin executions of Lal &
// Reps (eager form): the threads run one after another (main, then the
// created threads in creation order, which is the round-robin order), each
// with a round counter that grows at nondeterministic context switches;
// the shared state has K copies (copy r is the memory of round r), copies
// 1..K-1 start from guessed values that are checked at the end (the end of
// round r must be the guessed start of round r+1). The transform itself is
// KissTransform.cpp's (KissOptions::Rounds); this file holds the runtime.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
}

namespace crace::kiss::rounds {

/// The scheduler, thread table and lock operations of the K-round program,
/// as LLVM IR text (H: bits of a thread handle, K: rounds, NT: thread ids,
/// L: lock table slots). `@__kiss_locks` is moved into the copied state by
/// the transform (Stride: the size of one copy).
std::string runtimeIR(unsigned H, unsigned K, unsigned NT, unsigned L,
                      uint64_t Stride);

/// The lock table's operations, as IR text: `@__kiss_held{Suffix}`,
/// `@__kiss_lock{Suffix}` and `@__kiss_unlock{Suffix}`, taking `ptr %l`
/// plus Params (with Args, the same parameters passed on); SlotGep(J, Res)
/// writes the instruction that puts slot J's address into Res. KISS has
/// one table (no suffix), the K-round form one per round (`_at`, `ptr %t`).
void writeLockTableIR(
    llvm::raw_ostream &OS, unsigned L, llvm::StringRef Suffix,
    llvm::StringRef Params, llvm::StringRef Args,
    llvm::function_ref<void(unsigned, llvm::StringRef)> SlotGep);

/// The runtime functions both forms share (they call __kiss_held,
/// __kiss_lock, __kiss_unlock, __kiss_schedule, __kiss_nondet,
/// __kiss_assume and use @__kiss_raise, @__kiss_atomic): try-lock,
/// condition wait, atomic sections and the blocking stubs, as IR text.
std::string sharedRuntimeIR();

} // namespace crace::kiss::rounds
