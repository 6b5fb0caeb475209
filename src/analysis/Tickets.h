//===- Tickets.h - values taken from a counter every take advances --------===//
//
//   pthread_mutex_lock(&m); j = next; next = j + 1; pthread_mutex_unlock(&m);
//   data[j] = ...;
//
// A take reads a global counter and stores back the value read plus a
// positive constant (no signed wrap), in one block with no call between,
// holding one lock at both. When every write to the counter while threads
// run is such a take's store, the takes are serialised by the lock and each
// sees a larger value than the one before: no two takes give one value. So
// two threads that index one array with values they took never touch one
// element (ArrayElement.h). Writes while no thread runs (initialisation,
// a reset between rounds of threads) only restart the sequence for
// threads that cannot overlap with earlier ones.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

namespace llvm {
class GlobalVariable;
class Instruction;
class LoadInst;
class StoreInst;
class Module;
class Value;
} // namespace llvm

namespace crace {

class Tickets {
public:
  /// Finds the takes of Module's counters. Serialised(Insts): one lock is
  /// held at all of them (every take's load and store) in every context --
  /// the same lock for all takes, or two takes could interleave.
  /// WritesOnlyBy(G, Stores): every write to G that may happen while a
  /// thread runs is one of Stores.
  Tickets(
      const llvm::Module &M,
      const std::function<
          bool(const llvm::DenseSet<const llvm::Instruction *> &)> &Serialised,
      const std::function<bool(
          const llvm::GlobalVariable *,
          const llvm::DenseSet<const llvm::Instruction *> &)> &WritesOnlyBy);

  /// The counter V (extensions stripped) was taken from, if V is a take.
  [[nodiscard]] const llvm::GlobalVariable *
  counterOf(const llvm::Value *V) const;

  [[nodiscard]] unsigned numCounters() const { return Counters.size(); }

private:
  llvm::DenseMap<const llvm::LoadInst *, const llvm::GlobalVariable *> Takes;
  llvm::DenseSet<const llvm::GlobalVariable *> Counters;
};

} // namespace crace
