//===- Unpublished.h - accesses to a block no other thread can know yet ---===//
//
// `p = malloc(n); p->a = 1; p->b = 2; put(queue, p);`: until the call that
// hands p out, only the allocating thread knows where the block is. An
// access through p (by address arithmetic and casts from the allocation's
// result, in the allocating function) that no capture of p can precede
// touches a block no other thread has the address of: it cannot race with
// anything. Other threads reach the block only after a capture (a store
// of p, a call it is passed to, a return of it), which comes after the
// access in the allocating thread's order; under sequential consistency
// their accesses then come after it too. The abstract heap object of the
// allocation site stands for every block the site returns, and other
// threads may well use earlier blocks meanwhile: this is a fact about the
// block one execution of the allocation returned, which the SSA value names.
//
// "No capture can precede X": no capture is X itself or comes before X in
// its block, and X's block cannot be reached from a capture along a path
// that does not run the allocation again (which makes p a new block). What
// counts as a capture is deliberately coarse: every use of p (or of a value
// computed from it by GEPs, casts, phis and selects) except loads and stores
// through it, comparisons (of its number too), crace's access and
// synchronisation intrinsics (a lock in the block is no way to find it),
// LLVM's memory intrinsics and markers, library functions of known effect
// (sprintf into the block keeps no pointer to it), and arguments of calls to
// functions that keep no copy of that parameter (nothing they compute from it
// is stored, returned or passed on where it may be kept: a greatest fixed point
// over the call graph). Freed memory is not used (no undefined behaviour), so
// no stale pointer reaches a recycled block.
//
// Helpers count too: a parameter is fresh when its function is only ever
// called directly and every call passes a value computed from a fresh
// allocation (or from a fresh parameter of the caller) that no capture
// precedes the call, in that argument alone. Accesses through it before
// the helper's own captures are then unpublished as well (`init(p)` before
// `put(q, p)`).
//
// The classic use is initialisation before publication: the worker that
// takes an item out of a lock-protected queue does not race with the
// producer's writes that filled it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Argument;
class BasicBlock;
class CallBase;
class Instruction;
class Module;
class Use;
class Value;
} // namespace llvm

namespace crace {

struct MemAccess;

class Unpublished {
public:
  explicit Unpublished(const llvm::Module &M);

  /// X's address is computed from a fresh allocation in X's function (or
  /// a fresh parameter of it), and no capture of that value may precede X.
  [[nodiscard]] bool holds(const MemAccess &X);

private:
  struct Captures {
    /// The instructions that may hand the block out.
    llvm::SmallVector<const llvm::Instruction *, 4> At;
    /// Blocks a path from a capture reaches without running the allocation
    /// again.
    llvm::DenseSet<const llvm::BasicBlock *> Reached;
    /// The values computed from the root.
    llvm::DenseSet<const llvm::Value *> Derived;
  };
  /// The allocation (a __crace_alloc call) or fresh parameter P is
  /// computed from by GEPs and casts alone, if any.
  [[nodiscard]] const llvm::Value *root(const llvm::Value *P) const;
  [[nodiscard]] bool captures(const llvm::Use &U) const;
  const Captures &capturesOf(const llvm::Value *Root);
  /// A capture of Root may come before I (or be I, when IncludeI).
  bool reached(const llvm::Value *Root, const llvm::Instruction &I,
               bool IncludeI);
  /// Every call of A's function passes a fresh value in A alone.
  bool freshAtEveryCall(const llvm::Argument &A);

  /// Parameters whose function may keep a copy.
  llvm::DenseSet<const llvm::Argument *> Kept;
  llvm::DenseSet<const llvm::Argument *> Fresh;
  llvm::DenseMap<const llvm::Value *, Captures> Cache;
};

} // namespace crace
