//===- Pdp.h - property-driven pruning for the explore engine -------------===//
//
// PDP (paper: pdp-dynamic-model-checking.txt) skips a backtrack point when
// the whole search subspace below it is race-free. The paper decides this
// with a lockset analysis of the rest of the observed trace plus static
// facts about the branches it did not take. crace decides it from the
// static lockset engine's candidate pairs (every instruction pair that may
// race, over all paths, with must-locksets already applied) and the exact
// positions of the threads in that state: the subspace is race-free when no
// candidate pair can still be executed by two different threads — each
// thread's future being everything reachable from its current frames
// (forward in the CFG, into callees, and in the threads it may create).
// This covers the "other branch" of every branch, and the parts of threads
// that the observed run never reached, by construction.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report/Finding.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
} // namespace llvm

namespace crace {
class ProgramModel;
} // namespace crace

namespace crace::explore {

/// Where a thread is: one entry per frame, innermost first. PC is the next
/// instruction to execute in that frame (the pending one for the innermost,
/// the call in progress for the others).
struct FramePos {
  const llvm::Function *F = nullptr;
  const llvm::BasicBlock *BB = nullptr;
  const llvm::Instruction *PC = nullptr;
};
using ThreadPos = llvm::SmallVector<FramePos, 8>;

class PdpOracle {
public:
  /// Usable only when Static's candidate list is complete.
  PdpOracle(const ProgramModel &PM, const Result &Static);
  /// No candidate pair can be executed by two different threads from a
  /// state where the live threads are at these positions.
  [[nodiscard]] bool raceFree(const std::vector<ThreadPos> &Threads) const;
  [[nodiscard]] size_t candidates() const { return Pairs.size(); }
  /// Threads whose future (own, or in threads they may create) holds a
  /// candidate partner of instruction I: both orders of I and that partner
  /// must be explored, even when the dependency that would show it lies in
  /// a pruned subspace.
  [[nodiscard]] std::vector<unsigned>
  partnerThreads(const llvm::Instruction *I,
                 const std::vector<ThreadPos> &Threads) const;

private:
  void contribute(const llvm::Instruction &I, llvm::BitVector &Own,
                  llvm::BitVector &Spawn) const;
  void futureOf(const ThreadPos &T, llvm::BitVector &Own,
                llvm::BitVector &Spawn) const;

  const ProgramModel &PM;
  llvm::DenseMap<const llvm::Instruction *, unsigned> Index;
  std::vector<std::pair<unsigned, unsigned>> Pairs;
  /// Candidate partners of each indexed instruction.
  std::vector<std::vector<unsigned>> Partners;
  unsigned N = 0;
  /// What a call of F executes itself (Own) and in threads it creates
  /// (Spawn), transitively.
  llvm::DenseMap<const llvm::Function *, llvm::BitVector> FOwn, FSpawn;
  /// The same for everything reachable from the start of a block.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BitVector> BOwn, BSpawn;
  llvm::BitVector All;
};

} // namespace crace::explore
