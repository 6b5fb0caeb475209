//===- SemaphoreLocks.h - semaphores the lockset analysis takes as locks --===//
//
// A semaphore S is a lock (sem_wait acquires, sem_post releases) when it
// starts at 1 (every sem_init of S gives 1 and runs in main before any
// thread exists), every plain sem_post finds S held for writing in the
// poster's must-lockset, no operation reaches it through a pointer without
// a single identity, and no code crace cannot see can reach it. Then
// count + holders = 1 always, so at most one thread is between its sem_wait
// and its sem_post.
//
// Readers may share it by the classic protocol (Courtois et al. 1971;
// ctrace's _hashsem), a counter R of readers under a mutex M:
//
//   entry: lock(M); if (R == 0) sem_wait(S); R++; unlock(M);
//   exit:  lock(M); R--; if (R == 0) sem_post(S); unlock(M);
//
// Between its entry and its exit a thread holds S for reading. The
// protocol's sem_wait and sem_post are not the readers' own: the first
// reader takes S for the group and the last one gives it back. With R a
// global that starts at 0 and that only these increments and decrements
// write, each made holding M in one critical section with the test, and
// every exit made by a thread that holds S for reading (the must-lockset
// says so), count + writers + (R > 0 ? 1 : 0) = 1 always: no writer holds
// S while a reader does, and a reader's region excludes writers. The
// instructions of the two shapes are matched exactly (as clang emits them
// for the code above, tests written `!R` included); a sem_wait or sem_post
// in any other shape is a plain one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Lockset.h"
#include "model/LockTable.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace llvm {
class CallBase;
class GlobalVariable;
class StoreInst;
class Value;
} // namespace llvm

namespace crace {

class SemaphoreLocks {
public:
  SemaphoreLocks(const ProgramModel &PM, LockTable &Locks,
                 std::set<uint32_t> &NotLocks);

  /// Before and after one walk over every thread: a semaphore that failed
  /// a check goes to NotLocks (the caller walks again without it).
  void startWalks();
  void finishWalks();
  /// A sem_init, sem_wait or sem_post call CB, with LS the lockset before
  /// it. BeforeEveryThread: whether CB runs in main before any thread.
  void call(Intrinsic K, const llvm::CallBase &CB, LockSet &LS,
            llvm::function_ref<bool()> BeforeEveryThread);
  /// After store SI: a readers' entry takes S for reading, an exit gives
  /// it back.
  void afterStore(const llvm::StoreInst &SI, LockSet &LS);

private:
  /// One entry or exit of the readers' protocol.
  struct Step {
    const llvm::Value *Sem;
    const llvm::GlobalVariable *Count;
    const llvm::Value *Mutex;
    bool Entry;
  };
  void match(const llvm::CallBase &CB, Intrinsic K);
  /// The protocol's steps on semaphore Id agree on one counter and mutex,
  /// the counter starts at 0, and only those steps write it.
  bool protocolHolds(uint32_t Id);

  const ProgramModel &PM;
  LockTable &Locks;
  std::set<uint32_t> &NotLocks;
  /// The protocol's sem_wait and sem_post calls, and its counter stores.
  llvm::DenseMap<const llvm::CallBase *, const llvm::StoreInst *> Ops;
  llvm::DenseMap<const llvm::StoreInst *, Step> Steps;
  std::map<uint32_t, bool> Checked;
  /// Semaphores met in the walks, those initialised to 1 before every
  /// thread, and the pointers of operations without a single identity.
  std::set<uint32_t> Semaphores, Initialised;
  std::vector<const llvm::Value *> UnknownOps;
};

} // namespace crace
