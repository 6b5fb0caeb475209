//===- HeapCloning.h - one heap object per call of an allocation wrapper --===//
//
// The points-to analysis has one abstract heap object per allocation site,
// so every object a program allocates through its own wrapper (xmalloc,
// s_malloc, a zeroing or logging malloc) is one object, and every access
// to any of them conflicts with every other. Inlining the wrappers at
// their direct call sites gives each call its own allocation site: heap
// cloning by calling context, one level per wrapper (a wrapper of a
// wrapper is inlined in a later round). Semantics-preserving; calls
// through function pointers stay calls.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace crace {

/// Inlines every allocation wrapper (a function that returns fresh memory,
/// or null, on every path that returns, keeps no copy of the pointer, and
/// creates no threads) at its
/// direct call sites; the copied allocations carry `!crace.via` naming the
/// call. Returns the number of calls inlined.
unsigned inlineAllocationWrappers(llvm::Module &M);

/// Inlines, at their direct call sites, the small helpers that only move
/// pointers (straight-line code, no calls: list.h's __list_add, list_del,
/// list_del_init). The points-to analysis is context-insensitive, so one
/// shared __list_add links every list's head into every other list;
/// inlined, each call site links its own. Returns the number of calls inlined.
unsigned inlinePointerPlumbing(llvm::Module &M);

/// Inlines, at their direct call sites, the small loop-free helpers of
/// pools that take a pointer, load or store one, allocate or free a block
/// and call nothing but arithmetic helpers and allocation, free and access
/// intrinsics (memcached's do_cache_alloc, do_cache_free): shared, every
/// cache's free list would feed every caller. Returns the number of calls
/// inlined.
unsigned inlinePoolHelpers(llvm::Module &M);

/// Inlines, at their direct call sites, the small wrappers that take or
/// release the lock their caller names (mutexLock(n) locking &Mutex[n]):
/// the lockset analysis sees one lock, Mutex[*], in the shared wrapper,
/// which protects nothing; inlined, a call with a constant index locks
/// Mutex[n] itself. Returns the number of calls inlined.
unsigned inlineLockWrappers(llvm::Module &M);

/// Inlines, at their direct call sites, the wrappers of memcpy, memmove
/// and memset (mDNS's mDNSPlatformMemCopy). The points-to analysis is
/// context-insensitive, so a shared wrapper copies what any caller's
/// source holds into every caller's destination: one such wrapper merged
/// every record, packet and callback of mt-daapd into one blob. Inlined,
/// each call copies its own. Returns the number of calls inlined.
unsigned inlineCopyWrappers(llvm::Module &M);

} // namespace crace
