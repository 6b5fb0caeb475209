//===- InstanceMemory.h - memory that belongs to one thread instance ------===//
//
// A thread template created in a loop stands for many threads, and the
// lockset analysis pairs its accesses with themselves. When each instance
// is handed memory of its own, two instances touch different bytes and
// cannot race there. This holds, and is used, in three shapes of the
// creation site (its start argument A, created by the only site of the
// template):
//
//  - Fresh: A is a block just allocated for this create: the allocation
//    dominates the create and lies on every cycle through it, so no two
//    creates receive the same block. Every pointer the thread derives from
//    its argument stays in its own block (C forbids arithmetic out of an
//    object).
//  - Strided: A = B + i*S, with B the same value for all instances and i a
//    loop counter (a SCEV add-recurrence of the one run of the creation
//    loop, no wrap): instance k owns bytes [B + k*S, B + (k+1)*S). An access
//    at a constant offset c from the argument, with 0 <= c and c + size <=
//    S, stays in them; so does an element, chosen by a variable, of an
//    array member at such an offset that lies inside them (the index stays
//    inside the array member: no undefined behaviour), and an effect of
//    unknown length (strlen) through the start of an array member there.
//    B may also be read from a global pointer G in each iteration (&G[i]):
//    every instance reads one value when no write to G may happen in
//    parallel with the template, nor between that read and the create;
//    the creator's accesses to G[i] + c inside the element (reading G
//    itself), before the create in that iteration, touch a cell no running
//    instance has.
//  - Serial: A is a block the creator allocated once in this run of its
//    function (the allocation dominates the create and is on no cycle),
//    where that function runs once per thread (only a start routine) or
//    once in main, and every path from the create back to it passes a join
//    of the thread it made (its handle lives in a local only the create
//    writes; the join reads it after the create). Two instances of one
//    creator's run never run together; instances of two runs get two
//    blocks.
//  - Index: A = (void *)i for such a counter i: the thread indexes an array
//    with (an injective cast of) its argument: Base[(int)arg] at a constant
//    offset within one element, where Base is the same for all instances (a
//    global's address, or a global pointer no write of which may happen in
//    parallel with the thread).
//
// The creator's own accesses to a Fresh block through the allocation's
// result (to a Strided cell through the address passed, inside the cell),
// after the allocation (the cell's address) and before the create that
// hands it out, touch memory no running instance has. So do its accesses
// to a Serial block through the allocation's result that no path from
// the create reaches without passing the join.
//
// Two templates whose start arguments are Fresh or Serial blocks of two
// different allocation calls own disjoint memory too.
//
// "Derived from the argument" is computed once: the parameter of a start
// routine that nothing but thread creation uses, values computed from it by
// address arithmetic and casts, and parameters of functions every call of
// which passes a derived value. Running in thread T, such a value is always
// computed from T's own start argument.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

namespace llvm {
class BasicBlock;
class Value;
class GlobalVariable;
class Function;
} // namespace llvm

namespace crace {

class ProgramModel;
struct MemAccess;

class InstanceMemory {
public:
  /// Stable(G, T): no write to G's first pointer-sized bytes may happen in
  /// parallel with template T (so every instance of T reads one value).
  using StableFn =
      std::function<bool(const llvm::GlobalVariable *G, unsigned Thread)>;
  InstanceMemory(const ProgramModel &PM, StableFn Stable);

  /// A, made by template Thread, and B, made by OtherThread (by another
  /// instance, when the templates are the same), touch memory of the
  /// instance that makes them, and those memories are disjoint.
  [[nodiscard]] bool disjoint(unsigned Thread, const MemAccess &A,
                              unsigned OtherThread, const MemAccess &B) const;

  /// Templates with per-instance memory (for statistics).
  [[nodiscard]] unsigned numTemplates() const { return Kinds.size(); }

private:
  enum class Shape { Fresh, Strided, Index, Serial };
  struct Kind {
    Shape S = Shape::Fresh;
    /// Strided: the stride in bytes. Index: the counter's bit width.
    uint64_t Stride = 0;
    /// Fresh, Serial: the allocation call; Strided: the GEP computing the cell
    /// (null when it is not an instruction of the creator); and the create.
    const llvm::Value *Alloc = nullptr;
    const llvm::Value *Create = nullptr;
    /// Serial: the join that waits for the thread the create made.
    const llvm::Value *Join = nullptr;
    /// Strided through a global pointer G (&G[i]): G, the index i (its
    /// extensions stripped), the element size and the creation loop's
    /// header.
    const llvm::Value *Global = nullptr;
    const llvm::Value *Index = nullptr;
    uint64_t Elem = 0;
    const llvm::BasicBlock *Header = nullptr;
  };
  /// An offset from the start argument, when known.
  struct Derived {
    std::optional<int64_t> Offset;
  };
  /// Where an Index-shaped access goes: the base (a global's address, or
  /// the global whose stable value it is), and the element size.
  struct IndexKey {
    const llvm::Value *Base;
    bool Loaded;
    uint64_t Elem;
    bool operator==(const IndexKey &O) const {
      return Base == O.Base && Loaded == O.Loaded && Elem == O.Elem;
    }
  };
  /// Fresh: X is the creator's access to the block it allocated, before
  /// the create hands that block out.
  [[nodiscard]] bool beforeHandOff(const Kind &K, const MemAccess &X) const;
  /// Serial: X is the creator's access to the block it allocated, where
  /// the thread it handed the block to has not started or has been joined.
  [[nodiscard]] bool outsideChild(const Kind &K, const MemAccess &X) const;
  /// Strided through a global pointer: X is the creator's access to this
  /// iteration's cell, &G[i] + c inside it, before the create.
  [[nodiscard]] bool beforeCellHandOff(const Kind &K, const MemAccess &X) const;
  /// Fresh, Strided or Serial: A stays inside its instance's memory.
  [[nodiscard]] bool own(const Kind &K, const MemAccess &A) const;
  [[nodiscard]] std::optional<IndexKey>
  indexKey(const Kind &K, const MemAccess &A, unsigned Thread) const;

  const ProgramModel &PM;
  StableFn Stable;
  llvm::DenseMap<unsigned, Kind> Kinds;
  llvm::DenseMap<const llvm::Value *, Derived> FromArg;
  /// A pointer the creator computes from a Fresh allocation or a Strided
  /// cell's address: the value it was computed from (null for the origin
  /// itself) and its constant offset from the origin, when known.
  struct Step {
    const llvm::Value *Parent = nullptr;
    std::optional<int64_t> Offset;
  };
  llvm::DenseMap<const llvm::Value *, Step> FromOrigin;
  /// Start routines that run only as threads: each run is its own thread.
  llvm::SmallPtrSet<const llvm::Function *, 8> OwnRuns;
  /// The allocation, in X's function, X's pointer was computed from there,
  /// when that function is in OwnRuns: X touches a block its thread made.
  [[nodiscard]] const llvm::Value *ownAllocation(const MemAccess &X) const;
  void walkFromOrigin(const llvm::Value *Origin);
  /// The origin P was computed from (FromOrigin's root), or null.
  [[nodiscard]] const llvm::Value *originOf(const llvm::Value *P) const;
  /// beforeHandOff's answers by (pointer, access, create).
  mutable std::map<
      std::tuple<const llvm::Value *, const llvm::Value *, const llvm::Value *>,
      bool>
      HandOffCache;
};

} // namespace crace
