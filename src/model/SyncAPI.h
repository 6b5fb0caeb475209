//===- SyncAPI.h - recognise model intrinsics and known externals --------===//
//
// The one place that maps function names to meanings (SyncAPI.def). Engines
// ask here instead of comparing names themselves.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"
#include <optional>

namespace llvm {
class Function;
class CallBase;
class Value;
} // namespace llvm

namespace crace {

enum class Intrinsic {
#define INTRINSIC(E, N) E,
#include "model/SyncAPI.def"
};

/// Pure: touches no program memory. ReadsArgs: reads what its pointer
/// arguments point to. WritesArg0: writes argument 0, reads the others.
/// WritesFrom1 / WritesFrom2: scanf-style, writes pointer arguments from
/// index 1 / 2 on, reads the ones before.
enum class ExternalEffect {
  Pure,
  ReadsArgs,
  WritesArg0,
  WritesFrom1,
  WritesFrom2
};

/// The intrinsic a function name denotes, if any.
[[nodiscard]] std::optional<Intrinsic> lookupIntrinsic(llvm::StringRef Name);
/// The known memory effect of an external (body-less) library function.
[[nodiscard]] std::optional<ExternalEffect>
lookupExternal(llvm::StringRef Name);
/// A library function that formats arguments it reaches through a
/// va_list operand (SyncAPI.def's VA_LIST_READER rows).
[[nodiscard]] bool readsThroughVaList(llvm::StringRef Name);
/// The intrinsic a call site calls directly, if any.
[[nodiscard]] std::optional<Intrinsic> callIntrinsic(const llvm::CallBase &CB);
/// V is null or, through casts, phis and selects, the result of a
/// __crace_alloc call: fresh memory allocated in V's function.
[[nodiscard]] bool freshOrNull(const llvm::Value *V);
/// A lifetime or debug marker: it does not touch program memory.
[[nodiscard]] bool isMarker(const llvm::Value *V);
/// Create is the only writer of the handle variable Handle: every other use
/// of it is a load or a marker.
[[nodiscard]] bool onlyCreateWrites(const llvm::Value *Handle,
                                    const llvm::CallBase &Create);
/// longjmp and its variants: a jump back to a setjmp, which the models
/// do not follow (they give setjmp its first return only).
[[nodiscard]] bool isLongJmp(llvm::StringRef Name);
/// Takes or releases a lock (mutex, rwlock; try variants included).
[[nodiscard]] bool isLockOperation(Intrinsic I);
/// Uses the object its pointer argument points to (an access, a lock,
/// condition variable, barrier or semaphore operation) and hands the
/// pointer to no one: thread creation and exit do.
[[nodiscard]] bool usesObjectOnly(Intrinsic I);
/// The nondet intrinsics (__crace_nondet_*): an arbitrary value.
[[nodiscard]] bool isNondet(Intrinsic I);
/// An unknown library result (__crace_unknown_*, fork included).
[[nodiscard]] bool isUnknownResult(Intrinsic I);
/// Name of an intrinsic, for messages.
[[nodiscard]] llvm::StringRef intrinsicName(Intrinsic I);
/// True for LLVM intrinsics that neither access program memory nor
/// synchronise (debug info, lifetime markers, assumptions, ...).
[[nodiscard]] bool isBenignLLVMIntrinsic(const llvm::Function &F);
/// LLVM intrinsics that have no effect on a program's values or memory
/// (debug info, lifetime markers, annotations, prefetch, ...): an executor
/// steps over them. A subset of the benign ones.
[[nodiscard]] bool isNoEffectLLVMIntrinsic(llvm::Intrinsic::ID ID);

} // namespace crace
