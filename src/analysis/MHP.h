//===- MHP.h - may-happen-in-parallel from create/join and multiplicity --===//
//
// Two accesses may happen in parallel unless crace can show an order:
// - both by one thread template that has a single instance;
// - main's access happens before every thread exists (not reachable from
//   any point in main after which threads may exist);
// - main's access is before every creator in main of the other thread
//   (its create site, or a call in main that may lead to it, directly or
//   through a thread that creates it), or after a join dominating it of a
//   single-instance thread created directly in main, or after a join loop
//   or a counter join (model/CounterJoins.cpp) that waited for every
//   instance;
// - one thread (a single instance, or all instances of a join loop) is
//   joined in main before every creator of the other;
// - no run of main executes creators of both threads (their creators lie
//   on paths of main that exclude each other: an if/else).
// Everything else may happen in parallel, which only over-approximates.
// Accesses in two different processes never do: a child of fork has its
// own copy of memory (model/ForkRegions.cpp says which code runs only in a
// child; analysis/Lockset.cpp which process each access runs in).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace llvm {
class CallBase;
class Instruction;
} // namespace llvm

namespace crace {

class ProgramModel;

/// The process an access runs in: the one the program starts as, the
/// child of one fork call (any of them, when the call runs more than
/// once), or not known (any).
struct ProcessId {
  enum Kind : unsigned char { Any, Initial, Child } K = Any;
  /// For Child: the fork call.
  const llvm::CallBase *Fork = nullptr;
  static ProcessId initial() { return {Initial, nullptr}; }
  static ProcessId child(const llvm::CallBase *F) { return {Child, F}; }
  bool operator==(const ProcessId &O) const {
    return K == O.K && Fork == O.Fork;
  }
  /// Known to be different processes, which share no memory.
  [[nodiscard]] bool apart(const ProcessId &O) const {
    return K != Any && O.K != Any && !(*this == O);
  }
};

/// Where an access happens: which thread template, and for main's thread,
/// the instruction of main's own body executing at the time (the access
/// itself, or the call in main that leads to it); and in which process.
struct ThreadPoint {
  unsigned Thread = 0;
  const llvm::Instruction *MainPos = nullptr;
  ProcessId Process;
};

[[nodiscard]] bool mayHappenInParallel(const ProgramModel &PM, ThreadPoint A,
                                       ThreadPoint B);

/// Why accesses of templates A and B may happen in parallel, for a report:
/// where the threads are created and why crace sees no order ("'worker'
/// runs as several threads: it is created in a loop at f.c:30").
[[nodiscard]] std::string whyParallel(const ProgramModel &PM, unsigned A,
                                      unsigned B);

} // namespace crace
