//===- SymbolicLocks.h - locks named by the data they guard --------------===//
//
// pthread_mutex_lock(&p->lock); p->count++; -- the lock field of the struct
// an SSA pointer p points to guards p's other fields: two such accesses
// that overlap go through complete structs of one type, so through the
// same struct (distinct structs of one type never overlap), whose lock
// field both hold.
//
// pthread_mutex_lock(&m[i]); a[i]++; -- an element of a global array of
// locks chosen by an SSA value i has no single identity, yet it protects the
// element of a global data array the same value selects: when two such
// accesses overlap, their indices are equal (in bounds, ArrayElement.h), so
// are the locks they hold. Such a lock is symbolic: an id from
// SymbolicLockBase (Lockset.h) naming (array of locks, offset in the
// element, index value). The must-lockset drops it when its index is
// redefined (a loop's next iteration), on an unlock that may be it, and
// after a call that may enter the index's function again (recursion).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Lockset.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Function;
class StructType;
class Instruction;
class Value;
} // namespace llvm

namespace crace {

class ProgramModel;
struct MemAccess;

class SymbolicLocks {
public:
  explicit SymbolicLocks(const ProgramModel &PM) : PM(PM) {}

  /// The symbolic lock P denotes, if it is an element of a global array of
  /// locks chosen by a variable index.
  std::optional<uint32_t> lockOf(const llvm::Value *P);
  /// An unlock through P: drops the symbolic locks it may release.
  void release(LockSet &LS, const llvm::Value *P) const;
  /// I (re)defines a value: drops the symbolic locks it indexes.
  void redefine(LockSet &LS, const llvm::Instruction &I) const;
  /// After a call of Callees: drops the symbolic locks indexed by a value
  /// of a function they may enter again.
  void afterCall(LockSet &LS, llvm::ArrayRef<const llvm::Function *> Callees);
  /// The lockset a call of F starts F with: a new frame of F has new
  /// values, so the symbolic locks indexed by F's own values go.
  [[nodiscard]] LockSet enter(LockSet LS, const llvm::Function *F) const;
  /// Whether A (holding LA) and B (holding LB) each hold the lock their own
  /// index selects, for elements of one global data array: then they
  /// cannot overlap without holding one lock.
  [[nodiscard]] bool protects(const MemAccess &A, const LockSet &LA,
                              const MemAccess &B, const LockSet &LB) const;
  [[nodiscard]] const std::string &name(uint32_t Id) const {
    return Locks[Id - SymbolicLockBase].Name;
  }

private:
  /// Indexed: element Index of global array Base (Struct null). Field:
  /// the lock field at Offset of the struct Struct that the SSA pointer
  /// Index points to (Base null).
  struct Lock {
    const llvm::Value *Base;
    uint64_t Elem;
    int64_t Offset;
    const llvm::Value *Index;
    std::string Name;
    const llvm::StructType *Struct = nullptr;
    [[nodiscard]] bool same(const Lock &O) const {
      return Base == O.Base && Elem == O.Elem && Offset == O.Offset &&
             Index == O.Index && Struct == O.Struct;
    }
  };
  [[nodiscard]] std::optional<Lock> symbolic(const llvm::Value *P) const;
  /// An unlock through P may release H.
  [[nodiscard]] bool mayRelease(const llvm::Value *P, const Lock &H) const;
  /// Both accesses hold a field lock of the struct each one's own field
  /// access goes through.
  [[nodiscard]] bool protectsFields(const MemAccess &A, const LockSet &LA,
                                    const MemAccess &B,
                                    const LockSet &LB) const;
  bool mayEnter(const llvm::Function *From, const llvm::Function *F);
  /// Releases the symbolic locks in LS for which Goes holds.
  void dropIf(LockSet &LS, llvm::function_ref<bool(const Lock &)> Goes) const;
  /// Whether LA holds a symbolic lock that GuardsA accepts and LB one that
  /// GuardsB accepts, naming the same lock slot (array and offset, or
  /// struct type and field), not both held only for read.
  bool heldByBoth(const LockSet &LA,
                  llvm::function_ref<bool(const Lock &)> GuardsA,
                  const LockSet &LB,
                  llvm::function_ref<bool(const Lock &)> GuardsB) const;

  const ProgramModel &PM;
  std::vector<Lock> Locks;
  std::map<std::pair<const llvm::Function *, const llvm::Function *>, bool>
      Enters;
};

} // namespace crace
