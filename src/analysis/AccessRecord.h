//===- AccessRecord.h - one access as the lockset analysis saw it ---------===//
#pragma once

#include "analysis/Lockset.h"
#include "model/ProgramModel.h"

#include <set>
#include <tuple>
#include <vector>

namespace crace {

/// One access reached by one thread template with one lockset (for main's
/// thread, at one position of main's own body: MHP.h's ThreadPoint), in
/// the code of a fork's child or not.
struct AccessRecord {
  unsigned Thread;
  const llvm::Instruction *MainPos;
  MemAccess Access;
  LockSet Locks;
  /// The fork call whose child process runs the access (the innermost
  /// region the thread's path went through, model/ForkRegions.cpp); null:
  /// the thread's own process.
  const llvm::CallBase *Child = nullptr;
  bool operator<(const AccessRecord &O) const {
    return std::tie(Thread, MainPos, Access.Inst, Access.Ptr, Locks, Child) <
           std::tie(O.Thread, O.MainPos, O.Access.Inst, O.Access.Ptr, O.Locks,
                    O.Child);
  }
};

/// Records sorted by thread, then by the position of their instructions in
/// the module: an order that does not change from run to run.
[[nodiscard]] std::vector<AccessRecord>
inProgramOrder(const std::set<AccessRecord> &Records, const llvm::Module &M);

} // namespace crace
