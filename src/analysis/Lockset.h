//===- Lockset.h - must-lockset analysis and candidate race pairs ---------===//
//
// The static half of WHOOP's and PDP's lockset reasoning, as facts shared by
// the engines: the lockset engine reports them, whoop refines them (no
// engine runs another). For every thread template an interprocedural,
// context-sensitive (per entry lockset, and per call site of main),
// flow-sensitive must-lockset analysis records each memory access with the
// locks surely held. Two accesses to overlapping bytes of a shared abstract
// location, at least one a write, not both atomic, that may happen in
// parallel (analysis/MHP.h) and hold no common lock (a read-held rwlock
// protects only against a write-holder) are a candidate pair: a possible
// race.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report/Finding.h"

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

namespace crace {

/// Lock ids from here on are symbolic (SymbolicLocks.h): "element V of a
/// global array of locks" or "the lock field of the struct V points to"
/// for an SSA value V. Two threads' V differ, so protects() never matches
/// them; the pairing does when both accesses select their data by the
/// value their lock is selected by.
inline constexpr uint32_t SymbolicLockBase = 1u << 31;

/// A must-lockset: sorted (lock id, held-for-read) pairs, or Top (the
/// neutral element of the meet: "not reached yet").
struct LockSet {
  std::vector<std::pair<uint32_t, bool>> Held;
  bool Top = false;

  static LockSet top() {
    LockSet L;
    L.Top = true;
    return L;
  }
  [[nodiscard]] bool holds(uint32_t Id) const;
  void acquire(uint32_t Id, bool Read);
  void release(uint32_t Id);
  /// Intersection; a lock held for read on either side is held for read.
  [[nodiscard]] static LockSet meet(const LockSet &A, const LockSet &B);
  /// True when some concrete lock is held by both and not by both only for
  /// read.
  [[nodiscard]] static bool protects(const LockSet &A, const LockSet &B);
  bool operator==(const LockSet &O) const {
    return Top == O.Top && Held == O.Held;
  }
  bool operator<(const LockSet &O) const {
    return Top != O.Top ? Top < O.Top : Held < O.Held;
  }
};

/// Runs the analysis. The result is the lockset engine's: one
/// possible-race finding per pair of source lines (every one: the
/// --max-findings cut is the reporting engine's), the candidate pairs
/// (Result::Candidates, CandidatePairs, CandidatesComplete), the verdict with
/// its reasons or assumptions, and statistics. Stops early, with verdict
/// unknown, when *Cancelled becomes true, and stops pairing after MaxPairs
/// findings -- conflicting pairs of source locations, as reported (0: no
/// limit; EngineOptions::MaxPairs) -- with verdict possible-race.
[[nodiscard]] Result analyseLocksets(const ProgramModel &PM,
                                     const std::atomic<bool> *Cancelled,
                                     size_t MaxPairs);

} // namespace crace
