//===- CondvarRwLocks.h - reader/writer locks built from a mutex and a cv -===//
//
// Programs written before pthread_rwlock_t build their own (ypbind's
// pthread_rdwr_*_np): a struct with a mutex, a condition variable and two
// counters, readers R and writers W, and four functions on a pointer to it.
//
//   rlock:   lock(m); while (W || ...) wait(cv, m); R++; unlock(m);
//   wlock:   lock(m); while (W || R || ...) wait(cv, m); W++; unlock(m);
//   runlock: lock(m); R--; ... unlock(m);
//   wunlock: lock(m); W = 0; broadcast(cv); unlock(m);
//
// The lockset analysis reads a call of rlock/wlock as taking the struct as a
// lock in read/write mode, and runlock/wunlock as releasing it, when this
// argument holds for the struct object L:
//   (a) a thread holds L for writing => W >= 1, and #readers holding L <= R;
//   (b) the write acquire stores W := nonzero (W++ or a constant) only where
//       it has seen W == 0 and R == 0 under m since its last wait, and the
//       read acquire stores R := R + 1 only where it has seen W == 0 so;
//   (c) so no thread takes L for writing while another holds it, and no
//       thread takes it for reading while a writer holds it.
// (a) holds at the start when L is a global whose R and W start at 0, and is
// kept when only these functions write R and W (no other code of the
// program, a pointer of unknown origin or a library call among them), every
// such write is made holding m, reads its old value under m in the same
// critical section (R++ is a load and a store with no call between), and a
// release runs only in a thread that holds L in its mode (the lockset
// analysis checks that at every release with the must-lockset, as for
// semaphores, and drops the lock when it fails, like a release through a
// pointer with no single identity or from an indirect call).
//
// What the functions do besides (more fields such as ypbind's `wishwrite`,
// which keeps readers out while a writer waits; signals; a status result)
// does not matter to (a)-(c), as long as they store nothing but fields of
// the struct at constant offsets and call nothing but the mutex and the
// condition variable. A function of this shape is an acquire only when its
// counter store post-dominates its entry (every return has taken the lock)
// and runs at most once per call.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Lockset.h"
#include "model/LockTable.h"
#include "model/PointsTo.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace crace {

class ProgramModel;

/// What one function of such a lock does to the struct its argument points
/// to. Offsets are from the argument, in bytes.
struct RwLockOp {
  enum Kind { ReadAcquire, WriteAcquire, Release } K = Release;
  int64_t Mutex = 0;
  /// The counter it writes: R for ReadAcquire, W for WriteAcquire, R or W
  /// (by the lock's layout) for a Release.
  int64_t Counter = 0;
  uint64_t CounterSize = 0;
  /// A Release that sets the counter to 0 rather than decrementing it (it
  /// can only release W).
  bool Zeroes = false;
  /// Acquires: the fields (offset, size) known to be 0 at the counter store.
  std::vector<std::pair<int64_t, uint64_t>> ZeroAt;
  /// Every store the function makes (offset, size).
  std::vector<std::pair<int64_t, uint64_t>> Stores;
};

class CondvarRwLocks {
public:
  explicit CondvarRwLocks(const ProgramModel &PM);

  /// The operation F performs, when F has one of the shapes above.
  [[nodiscard]] const RwLockOp *opOf(const llvm::Function *F) const;
  /// The operation of a direct call of such a function.
  [[nodiscard]] const RwLockOp *opAt(const llvm::CallBase &CB) const;
  /// Whether the functions of this shape whose argument may point to L's
  /// object agree on one layout, at L's offset, with at least one write
  /// acquire, and only they write L's counters, which start at 0 (the
  /// argument above). Which mode each Release releases, when it holds.
  struct Layout {
    int64_t R = -1, W = -1;
    /// The lock's identity: the W counter (which no lock operation uses).
    Loc Id{0, 0};
  };
  [[nodiscard]] std::optional<Layout> validate(Loc L);

private:
  const ProgramModel &PM;
  std::map<const llvm::Function *, RwLockOp> Ops;
  std::map<std::pair<uint32_t, int64_t>, std::optional<Layout>> Validated;
};

/// The lockset analysis' use of such locks: after each call, the lock it
/// takes or releases (Locks' identity of the W counter, named as the
/// struct), with the holder check at releases. A lock that fails a check
/// goes to NotLocks, and the analysis walks the threads again without it.
class RwLockUse {
public:
  RwLockUse(const ProgramModel &PM, LockTable &Locks,
            std::set<uint32_t> &NotLocks)
      : Shapes(PM), PM(PM), Locks(Locks), NotLocks(NotLocks) {}

  /// Before and after one walk over every thread.
  void startWalks() { UnknownReleases.clear(); }
  void finishWalks();
  /// After the call CB to Callees, with LS the lockset it returns.
  void afterCall(const llvm::CallBase &CB,
                 llvm::ArrayRef<const llvm::Function *> Callees, LockSet &LS);
  /// CB directly calls a release.
  [[nodiscard]] bool isRelease(const llvm::CallBase &CB) const;
  /// Drops every such lock a release through P may release.
  void drop(LockSet &LS, const llvm::Value *P);

private:
  std::optional<std::pair<uint32_t, bool>> lockAt(const llvm::CallBase &CB,
                                                  const RwLockOp &Op);
  void unknownRelease(LockSet &LS, const llvm::Value *P);

  CondvarRwLocks Shapes;
  const ProgramModel &PM;
  LockTable &Locks;
  std::set<uint32_t> &NotLocks;
  /// The identities of the locks taken or released in the walks, and the
  /// pointers of releases of one that have no single identity or come
  /// from an indirect call: each lock such a release may release is not a
  /// lock, since crace cannot check that its caller holds it.
  std::set<uint32_t> Ids;
  std::vector<const llvm::Value *> UnknownReleases;
};

} // namespace crace
