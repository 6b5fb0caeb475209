//===- ExecutorSpin.cpp - spin-loop detection
//-------------------------------===//
//
// A thread that comes back to a local state with nothing it read changed
// is spinning: it waits until another thread is about to change it.
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Executor.h"
#include "engines/explore/ExecutorUtil.h"
#include "model/PointsTo.h"
#include "model/ProgramModel.h"

#include "llvm/Support/FormatVariadic.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include <cctype>
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace crace::explore::detail;

namespace crace::explore {

uint64_t Executor::localHash(unsigned T) const {
  const Thread &Th = Threads[T];
  uint64_t H = hash_combine(Th.Stack.size(), Th.Pending.K);
  for (const Frame &F : Th.Stack) {
    H = hash_combine(H, F.F, F.BB, F.Prev,
                     F.PC == F.BB->end() ? nullptr : &*F.PC);
    // Order-independent sum over the registers.
    uint64_t Sum = 0;
    for (const auto &[V, R] : F.Vals)
      Sum += hash_combine(V, R.W,
                          hash_combine_range(R.Bytes.begin(), R.Bytes.end()));
    H = hash_combine(H, Sum);
  }
  for (const auto &[Addr, L] : Locks)
    if (L.Owner == int(T))
      H = hash_combine(H, Addr);
  if (AtomicOwner == int(T))
    H = hash_combine(H, AtomicDepth);
  return H;
}

void Executor::noteSpin(unsigned T, const PendingOp &Done,
                        uint64_t EpochBefore) {
  Thread &Th = Threads[T];
  if (Th.Finished)
    return;
  if (Epoch != EpochBefore || Th.SpinEpoch != EpochBefore) {
    // Something changed: start looking for a cycle afresh.
    Th.SpinSeen.clear();
    Th.CycleRefs.clear();
    Th.CycleLocks.clear();
    Th.SpinEpoch = Epoch;
  } else {
    for (const MemRef &R : Done.Refs)
      Th.CycleRefs.push_back({R.Addr, R.Size});
    if (Done.K == PendingOp::Lock || Done.K == PendingOp::Unlock)
      Th.CycleLocks.push_back(Done.Sync);
    if (Done.K == PendingOp::CondWait || Done.K == PendingOp::CondWake)
      Th.CycleLocks.push_back(Done.Sync2);
  }
  if (Th.Pending.K == PendingOp::Done || Th.Pending.K == PendingOp::Blocked)
    return;
  if (Th.SpinSeen.insert(localHash(T)).second)
    return;
  // Back in a state of the cycle. Park only where the thread holds none of
  // the locks its cycle takes and releases (a condition wait's mutex), or
  // the others would be kept from them.
  for (Word L : Th.CycleLocks) {
    auto It = Locks.find(L);
    if (It != Locks.end() && It->second.Owner == int(T))
      return;
  }
  Th.SpinBlocked = true;
  Th.SpinDoneKey = enablerKey(T);
}

uint64_t Executor::enablerKey(unsigned T) const {
  const Thread &Th = Threads[T];
  uint64_t Key = 0;
  for (unsigned U = 0; U < Threads.size(); ++U) {
    const Thread &O = Threads[U];
    if (U == T || O.Finished || O.SpinBlocked)
      continue;
    const PendingOp &Q = O.Pending;
    bool Enables = false;
    if (Q.K == PendingOp::Unlock || Q.K == PendingOp::CondWait)
      for (Word L : Th.CycleLocks)
        Enables |= L == Q.Sync || L == Q.Sync2;
    for (const MemRef &R : Q.Refs)
      if (R.Write)
        for (auto [A, N] : Th.CycleRefs)
          Enables |= R.Addr < A + N && A < R.Addr + R.Size;
    if (Enables)
      Key =
          hash_combine(Key, U, Q.Inst, Q.Refs.empty() ? 0 : Q.Refs[0].Addr) | 1;
  }
  return Key;
}

void Executor::unblockSpinners(Word Addr, uint64_t Size, Word Lock,
                               unsigned By) {
  for (unsigned U = 0; U < Threads.size(); ++U) {
    Thread &Th = Threads[U];
    if (!Th.SpinBlocked || U == By)
      continue;
    bool Hit = false;
    if (Lock)
      Hit = std::find(Th.CycleLocks.begin(), Th.CycleLocks.end(), Lock) !=
            Th.CycleLocks.end();
    for (auto [A, N] : Th.CycleRefs)
      Hit |= Size && Addr < A + N && A < Addr + Size;
    if (Hit) {
      Th.SpinBlocked = false;
      Th.SpinDoneKey = 0;
      Th.SpinSeen.clear();
      Th.CycleRefs.clear();
      Th.CycleLocks.clear();
    }
  }
}

} // namespace crace::explore
